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
