"""How well a plan's picture follows its captions, measured from the plan alone (no rendering).

Why here: issue 38's targets are numbers about a plan (when cues start against when caption
events start), so a test and a person comparing two plans compute them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from scenes.storyboard import Plan

if TYPE_CHECKING:
    from scenes.storyboard.logindex import LogIndex
    from scenes.voice.speech import Timing

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
            if first > s.said + EPS:
                late.append(f"{sh.text} at {first} after '{s.text}' at {s.said}")
            elif first < s.said - LEAD - EPS:
                early.append(f"{sh.text} at {first} before '{s.text}' at {s.said}")
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


STAGING = frozenset({"title", "code_line", "emphasis", "dim", "focus", "unfocus", "camera", "light", "loop_pass",
                     "recap"})
"""Cue kinds that set the scene or point at what is drawn (the code pane's line, a ring, a light,
the camera) rather than show something new: they may run while no caption is up. Every other
kind (a node built, a visit, a gradient travelling, a bucket filling, a counter, a check ticked)
is an action a viewer is told about."""


def uncaptioned(p: Plan) -> list[tuple[float, float]]:
    """The stretches in which an action (a cue not in :data:`STAGING`) plays while no caption is
    up, merged where they touch. A caption is up from its start to its end, and through a gap to
    the next shorter than the bar keeps its words for (``_merged``).

    >>> from scenes.storyboard.caption_events import CaptionSpan
    >>> from scenes.storyboard.cues import Cue
    >>> p = Plan("t", 10.0, (Cue(1.0, 2.0, "visit", 0), Cue(3.0, 0.8, "bucket_fill", 0), Cue(6.0, 1.0, "light", 1)),
    ...          (CaptionSpan(1, 0.0, 2.0, "a", 0), CaptionSpan(2, 3.5, 9.0, "b", 1)), ())
    >>> uncaptioned(p)
    [(2.0, 3.5)]
    """
    up = _merged([(s.start, s.end) for s in p.captions])
    out: list[tuple[float, float]] = []
    for c in sorted(p.cues, key=lambda c: c.start):
        if c.kind in STAGING:
            continue
        t, end = c.start, c.start + c.duration
        for a, b in up + [(end, end)]:
            if b <= t:
                continue
            if min(a, end) > t + EPS:
                out.append((t, min(a, end)))
            t = max(t, b)
            if t >= end:
                break
    merged: list[tuple[float, float]] = []
    for a, b in sorted(out):
        if merged and a <= merged[-1][1] + EPS:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return [(round(a, 3), round(b, 3)) for a, b in merged]


def held_long(p: Plan, most: float) -> list[tuple[float, float, str]]:
    """The captions up more than ``most`` seconds after their words start (``said``: a beat's
    first caption may come up earlier, with the beat's first action), as ``(start, end, text)``.
    A caption is held past its reading limit while its beat's picture still moves
    (``CaptionSpan.held``): one held long stands over a stretch of action the narration does not
    follow, so the words no longer say what the picture shows.

    >>> from scenes.storyboard.caption_events import CaptionSpan
    >>> p = Plan("t", 20.0, (), (CaptionSpan(1, 0.0, 8.0, "a", 0, lead=1.5), CaptionSpan(2, 8.0, 18.0, "b", 1)), ())
    >>> held_long(p, 7.0)
    [(8.0, 18.0, 'b')]
    """
    return [(s.start, s.end, s.text) for s in p.captions if s.end - s.said > most + EPS]


def rules_apart(p: Plan, lead: float = LEAD, said: Callable[[str], Timing] | None = None) -> list[str]:
    """The phrases naming a rule (``{N.rule}``) whose visit shows that rule more than ``lead``
    seconds before the phrase's words start, or after they start (with a voice, ``said``: after
    the rule's own words are said): a rule on screen under another phrase, while the words speak
    of something else, is read without its explanation, and the phrase that explains it then
    stands over the next node's rule.

    >>> from scenes.storyboard.caption_events import CaptionSpan
    >>> from scenes.storyboard.cues import Cue
    >>> from scenes.storyboard.placeholders import Shown
    >>> rule = Shown("pow: d² → × 2d", 3, "rule", "rule")
    >>> visit = Cue(1.0, 0.5, "visit", 0, strings=(rule,))
    >>> p = Plan("t", 20.0, (visit,), (CaptionSpan(1, 4.0, 8.0, "pow: d² → × 2d", 0, strings=(rule,)),), ())
    >>> rules_apart(p)
    ["'pow: d² → × 2d' shown at 1.0, said at 4.0"]
    """
    out = []
    for s in p.captions:
        for sh in s.strings:
            if sh.field != "rule":
                continue
            shown = [c.start for c in p.cues if c.beat == s.beat and c.kind == "visit"
                     and any(x.text == sh.text for x in c.strings)]
            words = said(s.text).start_of(max(s.text.find(sh.text), 0)) if said is not None else 0.0
            if shown and not s.said - lead - EPS <= min(shown) <= s.said + words + NEAR + EPS:
                out.append(f"'{sh.text}' shown at {min(shown)}, said at {s.said}")
    return out


def visits_off_names(p: Plan, said: Callable[[str], Timing], index: LogIndex, near: float = 0.3
                     ) -> tuple[int, list[str]]:
    """The visits that show a rule (a ``local_rule`` starts with them) and start more than
    ``near`` s from the first word of the caption up as they start (or the next of their beat)
    naming their node or its op
    (:func:`scenes.storyboard.binding.naming_word`: ``ReLU``, ``Mul``, ``w2``), each phrase timed
    by ``said``; and how many such visits were measured. A voiced clip whose walk reaches a
    node seconds after the words name it shows the viewer a bucket while "ReLU" is heard
    (REVIEW5 1)."""
    from scenes.storyboard.binding import naming_word

    out, checked = [], 0
    for c in p.cues:
        if c.kind != "visit" or not any(r.kind == "local_rule" and r.start == c.start and r.ids[0] == c.ids[0]
                                        for r in p.cues):
            continue
        s = next((s for s in p.captions if s.beat == c.beat and c.start < s.end), None)  # up, or next
        at = naming_word(s.text, s.strings, c, index) if s is not None else None
        if s is None or at is None:
            continue
        word = s.said + said(s.text).start_of(at)
        checked += 1
        if abs(c.start - word) > near + EPS:
            out.append(f"{c.text('grad_fn')} visit at {c.start:.2f}, named at {word:.2f} in '{s.text}'")
    return checked, out


def rides_off_words(p: Plan, said: Callable[[str], Timing], near: float = 0.3) -> tuple[int, list[str]]:
    """The cues that carry a number from one card to another (``carries``: a gradient token)
    whose number a caption of their beat says, and which neither start within ``near`` s of
    such a word nor land there: each must start at the word or at most its own length before
    it (it lands as the number is heard), each phrase timed by ``said``; and how many were
    measured (REVIEW7 7: backward_walk's ``8/3`` rode s -> z under "ReLU: z was positive", 3 s
    before "passes 8/3 through")."""
    from scenes.storyboard.cues import cue_kind

    out, checked = [], 0
    for c in p.cues:
        if not cue_kind(c.kind).carries:
            continue
        numbers = {x.text for x in c.strings}
        words = [s.said + said(s.text).start_of(at) for s in p.captions if s.beat == c.beat
                 for x in s.strings if x.field != "rule" and x.text in numbers
                 for at in _places(s.text, x.text)]
        if not words:
            continue
        checked += 1
        if not any(w - c.duration - near - EPS <= c.start <= w + near + EPS for w in words):
            out.append(f"{c.kind} {'/'.join(numbers)} {'->'.join(c.ids)} at {c.start:.2f}, said at "
                       + ", ".join(f"{w:.2f}" for w in sorted(set(words))))
    return checked, out


def _places(text: str, token: str) -> list[int]:
    """Where ``token`` stands in ``text`` as a word of its own (not inside ``14/3``)."""
    import re

    return [m.start() for m in re.finditer(rf"(?<![\w/.]){re.escape(token)}(?![\w/])", text)]
