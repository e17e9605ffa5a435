"""How well a plan's picture follows its captions, measured from the plan alone (no rendering).

Why here: issue 38's targets are numbers about a plan (when cues start against when caption
events start), so a test and a person comparing two plans compute them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from scenes.storyboard import Plan

NEAR = 0.5
"""A caption event whose start has a cue starting within this many seconds sees the picture change."""
LEAD = 2.0
"""A number may come on screen at most this long before the phrase that names it."""
EPS = 1e-6


@dataclass(frozen=True)
class Follow:
    """Counts over a plan's narration captions (style ``caption``)."""

    changed: int
    events: int
    timely: int
    numbers: int
    late: tuple[str, ...] = ()
    early: tuple[str, ...] = ()

    def __add__(self, o: "Follow") -> "Follow":
        return Follow(self.changed + o.changed, self.events + o.events, self.timely + o.timely,
                      self.numbers + o.numbers, self.late + o.late, self.early + o.early)


def follow(p: Plan) -> Follow:
    """``changed``: narration events with a cue starting within :data:`NEAR` s of their start;
    ``timely``: of the numbers a beat's narration names that a cue of the same beat shows (the
    first phrase naming each), those whose first such cue starts no later than that phrase and
    no earlier than :data:`LEAD` s before it."""
    starts = sorted(c.start for c in p.cues)
    spans = [c for c in p.captions if c.style == "caption"]
    changed = sum(1 for s in spans if any(abs(t - s.start) <= NEAR + EPS for t in starts))
    timely, numbers, late, early = 0, 0, [], []
    named: set[tuple[int, str]] = set()
    for s in spans:
        for sh in s.strings:
            if sh.field == "rule":  # a rule's words ({N.rule}), not a number: shown with the visit it belongs to
                continue
            if (s.beat, sh.text) in named:
                continue
            named.add((s.beat, sh.text))
            shown = [c.start for c in p.cues if c.beat == s.beat and any(x.text == sh.text for x in c.strings)]
            if not shown:
                continue
            numbers += 1
            first = min(shown)
            if first > s.start + EPS:
                late.append(f"{sh.text} at {first} after '{s.text}' at {s.start}")
            elif first < s.start - LEAD - EPS:
                early.append(f"{sh.text} at {first} before '{s.text}' at {s.start}")
            else:
                timely += 1
    return Follow(changed, len(spans), timely, numbers, tuple(late), tuple(early))


STILL = 3.5
"""Seconds: a stretch this long with a caption up and no cue moving is a still picture talked over."""


def still_stretches(p: Plan, least: float = STILL) -> list[tuple[float, float]]:
    """The stretches of at least ``least`` seconds in which a caption is up (title and takeaway
    included) and no cue of the plan is animating: the picture stands still while words play.
    A cue moves the picture from its start to its end (decor cues too: a pulse is a change).

    >>> from scenes.storyboard.caption_events import CaptionSpan
    >>> from scenes.storyboard.cues import Cue
    >>> p = Plan("t", 10.0, (Cue(0.0, 1.0, "title", 0), Cue(6.0, 0.5, "title", 0)),
    ...          (CaptionSpan(1, 0.0, 9.0, "a", 0),), ())
    >>> still_stretches(p)
    [(1.0, 6.0)]
    """
    moving = sorted((c.start, c.start + c.duration) for c in p.cues)
    out: list[tuple[float, float]] = []
    for span in _merged([(s.start, s.end) for s in p.captions]):
        t = span[0]
        for a, b in moving + [(span[1], span[1])]:
            if b <= t:
                continue
            if min(a, span[1]) - t >= least - EPS:
                out.append((round(t, 3), round(min(a, span[1]), 3)))
            t = max(t, b)
            if t >= span[1]:
                break
    return out


def _merged(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Overlapping or touching spans (captions back to back) as one."""
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1] + 0.5:  # the bar stays up through a short gap (BAR_KEPT)
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out
