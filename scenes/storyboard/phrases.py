"""Phrases drive the picture: a beat's cues re-timed to the caption events that talk about them.

Why: the Builder lays a beat's cues one after the other at the animation speed; placing the
captions over them afterwards left the picture still while a phrase was read, and phrases
describing a thing drawn seconds before or after. Here each caption event (a phrase) is bound
to the cues it talks about, then the beat is laid out again from the phrases:

- binding (:mod:`.binding`): each phrase to the step of cues (:mod:`.steps`) that shows what it
  names, and what it lights when that is already drawn.
- timing: a bound cue starts as its phrase starts (with a voice: as the bound word is said,
  ``Timing.start_of``), or earlier by its kind's ``reveals`` when it shows its number late in
  its animation (a bucket's new value, once the level has risen), so the number is readable
  as it is named; the cues between bound ones keep their order and relative timing; a
  phrase waits while the animation before its bound cue is not done; each phrase lasts its
  speech (or reading time) and the beat holds until the last is done.
- no action without words: a beat's first caption comes up with the beat's first action (the
  steps before the one it names, a fill that shows its number late) ``lead`` seconds before
  its words (a voice says them from ``said``), and a caption is held past ``max_seconds`` for
  as long as its beat's picture still moves, so no node, visit or fill plays with the bar empty.
- the maths stays while it is talked about: the walk's glow stays on a visited node at least
  ``highlight_hold`` seconds, a visit's rule and products (gone at the next visit) at least
  ``rule_hold`` seconds and to the end of the phrase that was being read as it came.

With no voice, a phrase shows all at once, so its bound cue starts with it and its numbers are
on screen as it comes; with one, each bound cue starts on its word.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from .binding import Bound, lights_of, lit_at
from .builder import _t
from .caption_events import CaptionSpan
from .cues import Cue, cue_kind
from .lights import emphasis_lit, light_cues
from .logindex import LogIndex
from .phrase_timing import Phrase
from .reading import ReadingRules, lines
from .steps import Steps
from .timings import PlanTimings

GLOW_KINDS = frozenset({"visit", "backward_start"})
"""Cues that move the walk's glow (and take the last visit's note away)."""

class _Clock:
    """Places a beat's steps one by one: when each starts and ends now, and until when the walk's
    glow (and a visit's note) must stay where it is (``hold``)."""

    def __init__(self, steps: Steps, start: float, tm: PlanTimings):
        self.steps, self.start, self.tm = steps, start, tm
        n = len(steps.times)
        self.new: list[float] = [start] * n
        self.ends: list[float] = [start] * n
        self.lengths = [steps.length(k) for k in range(n)]
        self.leads = [steps.lead(k) for k in range(n)]
        kinds = [{c.kind for c in steps.in_step(k)} for k in range(n)]
        self.glows = [any(x in GLOW_KINDS or cue_kind(x).ends_walk for x in ks) for ks in kinds]
        self.moves = [bool(ks & GLOW_KINDS) for ks in kinds]
        self.rules = ["local_rule" in ks for ks in kinds]
        self.hold, self.placed, self.phrase_end = start, -1, start

    def place(self, k: int, at: float) -> None:
        """Step ``k`` at ``at``, or once the glow may move."""
        if self.glows[k]:
            at = max(at, self.hold)
        self.new[k], self.ends[k], self.placed = at, at + self.lengths[k], k
        if self.moves[k]:
            keep = self.tm.rule_hold if self.rules[k] else self.tm.highlight_hold
            self.hold = max(at + keep, self.phrase_end if self.rules[k] else at)

    def upto(self, k: int) -> None:
        """Steps before ``k`` not placed yet: each after the one before, as the Builder had them."""
        times = self.steps.times
        for j in range(self.placed + 1, k):
            prev = self.placed
            self.place(j, self.start + self.leads[j] if prev < 0 else self.new[prev] + times[j] - times[prev])

    def busy(self, until: float) -> float:
        """The end of the last action of the steps placed so far, up to ``until``: the picture
        moves until then."""
        return min(until, max([self.start] + [e for n, e in zip(self.new[:self.placed + 1], self.ends)
                                               if n < until]))

    def ready(self, k: int) -> float:
        """When every step before ``k`` is done, and ``k``'s lead-in may start: the earliest ``k`` may."""
        return max([self.start] + self.ends[:k]) + self.leads[k]


def lay_beat(phrases: list[Phrase], bound: Bound, start: float, seen: dict[str, float], tm: PlanTimings, beat: int,
             first_index: int) -> tuple[list[Cue], list[CaptionSpan], float]:
    """The beat laid out from ``start``: its cues moved step by step, its phrases placed (see the
    module's docstring). ``seen``: when strings first came on screen in earlier beats (a phrase
    never starts before a number it names). Returns the cues, the caption spans, the beat's end."""
    steps = bound.steps
    clock = _Clock(steps, start, tm)
    spans: list[CaptionSpan] = []
    t = start
    for ph, anchor in zip(phrases, bound.anchors):
        ev = ph.event
        p = max([t] + [seen[s.text] for s in ev.strings if s.text in seen])
        if anchor:
            k0, w0 = anchor[0]
            clock.upto(k0)
            p = max(p, clock.ready(k0) - w0, (clock.hold if clock.glows[k0] else start) - w0)
        clock.phrase_end = p + ph.length
        for k, w in anchor:
            clock.upto(k)
            clock.place(k, max(p + w, clock.ready(k)))
        if spans and p > spans[-1].end:
            spans[-1] = _held(spans[-1], p, tm.reading, phrases[len(spans) - 1].length, clock.busy(p))
        spans.append(CaptionSpan(first_index + len(spans), _t(p), _t(p + ph.length), ev.text, beat, ev.strings,
                                 ev.style, tuple(lines(ev.text, tm.reading))))
        t = p + ph.length
    clock.upto(len(steps.times))
    end = max([t, clock.hold] + clock.ends)
    if spans:
        spans[-1] = _held(spans[-1], end, tm.reading, phrases[-1].length, clock.busy(end))
    moved = [c if k < 0 else replace(c, start=_t(clock.new[k] + c.start - steps.times[k]))
             for c, k in zip(steps.cues, steps.step)]
    acting = [c.start for c, k in zip(moved, steps.step) if k >= 0]
    if spans and acting and min(acting) < spans[0].start:  # the words come up with the beat's first action
        spans[0] = replace(spans[0], start=_t(min(acting)), lead=_t(spans[0].start - min(acting)))
    at = [bound.light_at[k] if k < len(bound.light_at) else 0.0 for k in range(len(spans))]
    starts = [sp.said + a if a > 0 else sp.start for sp, a in zip(spans, at)]  # a light comes with its words
    for light in light_cues(starts, emphasis_lit(bound.lights, steps.cues, GLOW_KINDS), end, tm, beat):  # after the cues starting with it
        moved.insert(next((i for i, c in enumerate(moved) if c.start > light.start), len(moved)), light)
    return moved, spans, end


def _held(span: CaptionSpan, until: float, rules: ReadingRules, length: float, busy: float) -> CaptionSpan:
    """``span`` held to ``until``, but never longer than it takes to say, or ``max_seconds``,
    unless the beat's picture is still moving (its steps play until ``busy``): the words stay
    up over the action they introduced rather than leave it uncaptioned."""
    read = min(until, span.start + max(rules.max_seconds, length))
    end = max(read, min(until, busy))
    return replace(span, end=_t(end), held=_t(end - read))


def lay_out_phrases(phrases: Sequence[Phrase], start: float, tm: PlanTimings, beat: int, first_index: int,
                    index: LogIndex | None = None, voiced: bool = False) -> tuple[list[Cue], list[CaptionSpan], float]:
    """Phrases over no cues of their own (the takeaway over the last picture): one after another;
    their cue marks light what they name (``index``: the log they name it in)."""
    none = Steps.of([])
    made = len(index.events) - 1 if index is not None else 0
    lights = [lights_of(ph.event, none, -1, index, made) if index is not None else [] for ph in phrases]
    bound = Bound(none, [[] for _ in phrases], lights, lit_at(phrases, voiced))
    return lay_beat(list(phrases), bound, start, {}, tm, beat, first_index)
