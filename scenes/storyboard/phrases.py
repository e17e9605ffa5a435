"""Phrases drive the picture: a beat's cues re-timed to the caption events that talk about them.

Why: the Builder lays a beat's cues one after the other at the animation speed; placing the
captions over them afterwards left the picture still while a phrase was read, and phrases
describing a thing drawn seconds before or after. Here each caption event (a phrase) is bound
to the cues it talks about, then the beat is laid out again from the phrases:

- binding: a phrase naming a filled number is bound to the first cue of the beat that shows it;
  one naming no number, to the first cue after the previous binding that shows or lights a
  tensor it names (``w2``, ``yh.grad``) or an op (``Mul``, ``Pow``); an author's cue mark
  (:mod:`.cuemarks`) overrides both. A phrase bound to nothing takes the next step of cues in
  order, so the picture still changes as it starts. Bindings only move forward in the beat.
- timing: a bound cue starts as its phrase starts (with a voice: as the bound word is said,
  ``Timing.start_of``), or earlier by its kind's ``reveals`` when it shows its number late in
  its animation (a bucket's new value, once the level has risen), so the number is readable
  as it is named; the cues between bound ones keep their order and relative timing; a
  phrase waits while the animation before its bound cue is not done; each phrase lasts its
  speech (or reading time) and the beat holds until the last is done.
- lights: a phrase about a thing already drawn (its cue mark names a tensor no cue still to come
  shows) lights its card, and ``[[from L]]`` the walk's path from L (:mod:`.lights`), so the
  picture points at what is said even when the beat has nothing left to draw.
- the maths stays while it is talked about: the walk's glow stays on a visited node at least
  ``highlight_hold`` seconds, a visit's rule and products (gone at the next visit) at least
  ``rule_hold`` seconds and to the end of the phrase that was being read as it came.

With no voice, a phrase shows all at once, so its bound cue starts with it and its numbers are
on screen as it comes; with one, each bound cue starts on its word.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Callable, Sequence

from scenes.voice.speech import Speaker, Timing, Word

from .builder import _t
from .caption_events import CaptionEvent, CaptionSpan
from .cuemarks import LAYER, PATH, op_word
from .lights import Levels, emphasis_lit, layer, light_cues, light_times, path
from .cues import Cue, cue_kind
from .logindex import LogIndex
from .reading import ReadingRules, lines, seconds
from .timings import PlanTimings

LEAD_KINDS = frozenset({"code_line"})
"""Cue kinds that introduce the cues after them: a step of only these goes with the next."""
TAIL_KINDS = frozenset({"edge_grow"})
"""Cue kinds that finish the cues before them (a node's arrows in): a step of only these goes
with the one before, so a node and its arrows are never said apart."""
DECOR = frozenset({"emphasis", "dim", "focus", "check", "loop_pass"})
"""Cue kinds that set a beat's scene as it starts rather than show something a phrase names:
they stay at the beat's start."""
TO_KINDS = frozenset({"grad_travel", "edge_grow", "local_rule"})
"""Cue kinds whose first id is where they come from: they show or light their other ids."""
GLOW_KINDS = frozenset({"visit", "backward_start"})
"""Cues that move the walk's glow (and take the last visit's note away)."""
_WORD = re.compile(r"(?<![\w.])[A-Za-z_][\w\[\]]*(?:\.\w+)*(?:\(\))?")
"""A word that may name a tensor: ``w2``, ``w1.grad`` (not ``L.backward()``, a call of it)."""
_OF_TENSOR = ("", "grad", "grad_fn", "grad_in")


def reading_timing(text: str, rules: ReadingRules, fade: float) -> Timing:
    """The default speaker, no voice: ``text`` up for its reading time (:func:`.reading.seconds`),
    its tokens spread over that time by their characters, after the fade in."""
    total = seconds(text, rules, fade)
    tokens = text.split()
    flat = max(1, len(" ".join(tokens)))
    words, at = [], 0
    for tok in tokens:
        start = fade + (total - fade) * at / flat
        at += len(tok) + 1
        words.append(Word(tok, _t(start), _t(fade + (total - fade) * min(at - 1, flat) / flat)))
    return Timing(total, tuple(words))


def reading_speaker(rules: ReadingRules, fade: float) -> Speaker:
    """The :data:`Speaker` the plan uses when it is given none: :func:`reading_timing`."""
    return partial(reading_timing, rules=rules, fade=fade)


@dataclass(frozen=True)
class Phrase:
    """A caption event, its timing, and how long it holds the beat (its timing and any gap)."""

    event: CaptionEvent
    timing: Timing
    length: float


def phrases_of(events: list[CaptionEvent], speak: Speaker | None, tm: PlanTimings) -> list[Phrase]:
    """Each event timed by ``speak`` (plus the theme's ``phrase_gap``), or by reading time."""
    say = speak if speak is not None else reading_speaker(tm.reading, tm.caption_fade)
    gap = tm.phrase_gap if speak is not None else 0.0
    return [Phrase(ev, timing, timing.duration + gap) for ev in events for timing in [say(ev.text)]]


@dataclass
class _Steps:
    """A beat's cues grouped by start: step k holds the cues starting at ``times[k]``, and the
    code pane's move to a line just before them (it leads in: it goes with what it introduces);
    a decor cue at the beat's start is in none (step -1): it stays where it is."""

    cues: list[Cue]
    times: list[float]
    step: list[int]  # per cue, its step

    @classmethod
    def of(cls, cues: list[Cue], own_first: bool = False) -> "_Steps":
        """``own_first``: the first lead-in is a step of its own (what the title shows, when
        the cues after it are named later)."""
        start = min((c.start for c in cues), default=0.0)
        fixed = [c.kind in DECOR and c.start == start for c in cues]
        at: dict[float, list[Cue]] = {}  # the cues starting at each time (a long walk has thousands)
        for c, f in zip(cues, fixed):
            if not f:
                at.setdefault(c.start, []).append(c)
        times = sorted(at)
        leads = {t for t in times[int(own_first):-1] if all(c.kind in LEAD_KINDS for c in at[t])}
        tails = {t for t in times[1:] if t not in leads and all(c.kind in TAIL_KINDS for c in at[t])}
        kept = [t for t in times if t not in leads | tails]
        where = {t: k for k, t in enumerate(kept)}
        for t in sorted(tails):  # a tail goes with the step before it
            where[t] = where[kept[bisect_right(kept, t) - 1]]
        for t in leads:  # a lead-in goes with the step after it
            where[t] = where[kept[bisect_right(kept, t)]]
        return cls(cues, kept, [-1 if f else where[c.start] for c, f in zip(cues, fixed)])

    def __post_init__(self) -> None:
        self._members: dict[int, list[Cue]] = {}
        for c, k in zip(self.cues, self.step):
            self._members.setdefault(k, []).append(c)

    def lead(self, k: int) -> float:
        """How long before ``times[k]`` step k's first cue starts (its code line's move)."""
        return max([0.0] + [self.times[k] - c.start for c in self.in_step(k)])

    def reveal(self, k: int) -> float:
        """How long after ``times[k]`` the numbers step k shows are whole on screen (its cues'
        ``reveals``): a phrase naming them starts the step that much before it names them."""
        return max([0.0] + [c.start - self.times[k] + cue_kind(c.kind).reveals * c.duration
                            for c in self.in_step(k) if cue_kind(c.kind).reveals > 0])

    def length(self, k: int) -> float:
        """From ``times[k]`` to the end of step k's last cue."""
        return max([0.0] + [c.start + c.duration - self.times[k] for c in self.in_step(k)])

    def first(self, after: int, test: Callable[[Cue], bool]) -> int | None:
        """The first step after ``after`` with a cue passing ``test`` (not a decor cue)."""
        hits = [self.step[i] for i, c in enumerate(self.cues)
                if self.step[i] > after and c.kind not in DECOR and test(c)]
        return min(hits, default=None)

    def in_step(self, k: int) -> list[Cue]:
        return self._members.get(k, [])


def _lit(c: Cue) -> tuple[str, ...]:
    return c.ids[1:] if c.kind in TO_KINDS else c.ids


def _bindings(ph: Phrase, steps: _Steps, floor: int, index: LogIndex, made: int
              ) -> list[tuple[int, int]]:
    """``(step, char)`` pairs phrase ``ph`` is bound to, past step ``floor``, in step order."""
    ev = ph.event
    marked = [(at, name) for at, name in ev.marks if not name.startswith((PATH, LAYER))]  # a path or layer binds no cue
    if marked:
        named = [(_named(name, steps, floor, index, made), at) for at, name in marked]
        return _monotone([(k, at) for k, at in named if k is not None])
    found: list[tuple[int, int]] = []
    pos = 0
    for s in ev.strings:  # numbers: the first cue of the beat showing them, when it is still to come
        where = ev.text.find(s.text, pos)
        pos = where + len(s.text) if where >= 0 else pos
        hit = [steps.step[i] for i, c in enumerate(steps.cues)
               if steps.step[i] >= 0 and any(x.text == s.text for x in c.strings)]
        if hit and min(hit) > floor:
            found.append((min(hit), max(where, 0)))
    if found:
        return sorted(found)
    for m in _WORD.finditer(ev.text):  # else the first tensor or op it names that is still to come
        name, _, attr = m.group(0).partition(".")
        if attr not in _OF_TENSOR:
            continue
        k = _named(name, steps, floor, index, made, loose=True)
        if k is not None:
            return [(k, m.start())]
    return []


def _named(name: str, steps: _Steps, floor: int, index: LogIndex, made: int, loose: bool = False) -> int | None:
    """The first step past ``floor`` that shows or lights tensor ``name`` or op ``name``."""
    if loose and len(name) == 1 and name in "aAI":
        return None  # an English word before it is a name
    ids = set(index.ids_of(name, until=made))
    if ids:
        return steps.first(floor, lambda c: bool(ids & set(_lit(c))) or c.text("name") == name)
    op = op_word(name)
    if op is None:
        return None
    return steps.first(floor, lambda c: any(x.role == "grad_fn" and op_word(x.text) == op for x in c.strings))


def _monotone(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pairs whose characters come in the order of their steps (a later word, a later cue)."""
    out: list[tuple[int, int]] = []
    for s, at in sorted(pairs):
        if not out or (s > out[-1][0] and at >= out[-1][1]):
            out.append((s, at))
    return out


@dataclass(frozen=True)
class Bound:
    """A beat's cues in steps, per phrase its anchors ``(step, seconds into the phrase)``, and
    per phrase what it lights (:func:`lights_of`; none for most)."""

    steps: _Steps
    anchors: list[list[tuple[int, float]]]
    lights: list[Levels] = field(default_factory=list)
    light_at: list[float] = field(default_factory=list)
    """Per phrase, seconds into it its lights come: with a voice, as the first marked word is said."""


def lights_of(ev: CaptionEvent, steps: _Steps, floor: int, index: LogIndex, made: int) -> Levels:
    """What phrase ``ev`` lights: the tensors its cue marks name that no cue of the beat still
    to come shows (all of them in a takeaway, which has no cues) and the units of the layers its
    ``[[layer NAME]]`` marks name, as one level; and for a ``[[from L]]`` mark, the backward
    walk's path from L's node, a level per step down it."""
    one: list[str] = []
    levels: Levels = []
    for _, name in ev.marks:
        if name.startswith(PATH):
            levels += path(index, name[len(PATH):], made)
        elif name.startswith(LAYER):
            one += [i for i in layer(index, name[len(LAYER):]) if i not in one]
        elif _named(name, steps, floor, index, made) is None:
            one += [i for i in index.ids_of(name, until=made) if i not in one]
    return ([tuple(one)] if one else []) + levels


def bind(phrases: list[Phrase], cues: list[Cue], index: LogIndex, made: int, voiced: bool) -> Bound:
    """Per phrase, its anchors, steps rising over the beat. Without a voice, one anchor at the
    phrase's start: the last of its bindings, so that every number it names is on screen as it
    shows (the first as long before as the Builder had it). The title, when nothing binds it,
    takes the first step (the clip opens on its picture), or only the code line leading into it
    when a later phrase names what that step shows."""
    steps = _Steps.of(cues)
    bound = _bound(phrases, steps, index, made)
    title = [k for k, ph in enumerate(phrases) if ph.event.style == "title" and not bound[k]]
    if title and steps.times and any(g and g[0][0] == 0 for g in bound[title[0] + 1:]):
        own = _Steps.of(cues, own_first=True)
        if len(own.times) > len(steps.times):
            steps, bound = own, _bound(phrases, own, index, made)
    for k in title:
        if steps.times and not any(g and g[0][0] == 0 for g in bound[k + 1:]):
            bound[k] = [(0, 0)]
    floors = [-1] + [max([-1] + [g[-1][0] for g in bound[:k + 1] if g]) for k in range(len(phrases) - 1)]
    lights = [lights_of(ph.event, steps, f, index, made) for ph, f in zip(phrases, floors)]
    out: list[list[tuple[int, float]]] = []
    last = -1
    for k, (ph, got) in enumerate(zip(phrases, bound)):
        if not got and lights[k]:  # it lights what it talks about: the steps before the next
            out.append([])  # binding come in order from the last, none waits for a later phrase
            last = max(last, min((g[0][0] for g in bound[k + 1:] if g), default=len(steps.times)) - 1)
            continue
        if not got:  # the next step in order (its lead-in with the phrase), if before the next binding
            nxt = min((g[0][0] for g in bound[k + 1:] if g), default=len(steps.times))
            out.append([(last + 1, steps.lead(last + 1))] if last + 1 < nxt else [])
            last = last + 1 if last + 1 < nxt else last
            continue
        if k in title:
            out.append([(0, steps.lead(0))])
        elif voiced:
            got = _monotone(got)
            out.append([(s, ph.timing.start_of(at) - steps.reveal(s)) for s, at in got])
        else:  # its first number as long before it as the Builder had it before the last
            lead = steps.times[got[-1][0]] - steps.times[got[0][0]]
            whole = steps.reveal(got[-1][0])
            out.append([(got[0][0], -lead - whole)] * (lead > 0) + [(got[-1][0], -whole)])
        last = got[-1][0]
    return Bound(steps, out, lights, _lit_at(phrases, voiced))


def _lit_at(phrases: Sequence[Phrase], voiced: bool) -> list[float]:
    """Seconds into each phrase its lights come (:func:`.lights.light_times`)."""
    return light_times([ph.timing for ph in phrases], [ph.event.marks for ph in phrases], voiced)


def _bound(phrases: list[Phrase], steps: _Steps, index: LogIndex, made: int) -> list[list[tuple[int, int]]]:
    """Each phrase's bindings ``(step, char)``, each phrase's past the one's before."""
    floor = -1
    out: list[list[tuple[int, int]]] = []
    for ph in phrases:
        got = _bindings(ph, steps, floor, index, made)
        out.append(got)
        if got:
            floor = got[-1][0]
    return out


class _Clock:
    """Places a beat's steps one by one: when each starts and ends now, and until when the walk's
    glow (and a visit's note) must stay where it is (``hold``)."""

    def __init__(self, steps: _Steps, start: float, tm: PlanTimings):
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
            spans[-1] = _held(spans[-1], p, tm.reading, phrases[len(spans) - 1].length)
        spans.append(CaptionSpan(first_index + len(spans), _t(p), _t(p + ph.length), ev.text, beat, ev.strings,
                                 ev.style, tuple(lines(ev.text, tm.reading))))
        t = p + ph.length
    clock.upto(len(steps.times))
    end = max([t, clock.hold] + clock.ends)
    if spans:
        spans[-1] = _held(spans[-1], end, tm.reading, phrases[-1].length)
    moved = [c if k < 0 else replace(c, start=_t(clock.new[k] + c.start - steps.times[k]))
             for c, k in zip(steps.cues, steps.step)]
    starts = [sp.start + (bound.light_at[k] if k < len(bound.light_at) else 0.0) for k, sp in enumerate(spans)]
    for light in light_cues(starts, emphasis_lit(bound.lights, steps.cues, GLOW_KINDS), end, tm, beat):  # after the cues starting with it
        moved.insert(next((i for i, c in enumerate(moved) if c.start > light.start), len(moved)), light)
    return moved, spans, end


def _held(span: CaptionSpan, until: float, rules: ReadingRules, length: float) -> CaptionSpan:
    """``span`` held to ``until``, but never longer than it takes to say, or ``max_seconds``."""
    return replace(span, end=_t(min(until, span.start + max(rules.max_seconds, length))))


def lay_out_phrases(phrases: Sequence[Phrase], start: float, tm: PlanTimings, beat: int, first_index: int,
                    index: LogIndex | None = None, voiced: bool = False) -> tuple[list[Cue], list[CaptionSpan], float]:
    """Phrases over no cues of their own (the takeaway over the last picture): one after another;
    their cue marks light what they name (``index``: the log they name it in)."""
    none = _Steps.of([])
    made = len(index.events) - 1 if index is not None else 0
    lights = [lights_of(ph.event, none, -1, index, made) if index is not None else [] for ph in phrases]
    bound = Bound(none, [[] for _ in phrases], lights, _lit_at(phrases, voiced))
    return lay_beat(list(phrases), bound, start, {}, tm, beat, first_index)
