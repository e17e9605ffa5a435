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
  ``Timing.start_of``); the cues between bound ones keep their order and relative timing; a
  phrase waits while the animation before its bound cue is not done; each phrase lasts its
  speech (or reading time) and the beat holds until the last is done.
- the maths stays while it is talked about: the walk's glow stays on a visited node at least
  ``highlight_hold`` seconds, a visit's rule and products (gone at the next visit) at least
  ``rule_hold`` seconds and to the end of the phrase that was being read as it came.

With no voice, a phrase shows all at once, so its bound cue starts with it and its numbers are
on screen as it comes; with one, each bound cue starts on its word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from scenes.voice.speech import Speaker, Timing, Word

from .builder import _t
from .caption_events import CaptionEvent, CaptionSpan
from .cues import Cue, cue_kind
from .logindex import LogIndex
from .reading import ReadingRules, lines, seconds
from .timings import PlanTimings

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


@dataclass(frozen=True)
class Phrase:
    """A caption event, how long it takes, and where in it each binding is (characters)."""

    event: CaptionEvent
    timing: Timing
    length: float


def phrases_of(events: list[CaptionEvent], speak: Speaker | None, tm: PlanTimings) -> list[Phrase]:
    """Each event timed by ``speak`` (plus the theme's ``phrase_gap``), or by reading time."""
    out = []
    for ev in events:
        if speak is None:
            timing = reading_timing(ev.text, tm.reading, tm.caption_fade)
            out.append(Phrase(ev, timing, timing.duration))
        else:
            timing = speak(ev.text)
            out.append(Phrase(ev, timing, timing.duration + tm.phrase_gap))
    return out


@dataclass
class _Steps:
    """A beat's cues grouped by start: step k holds the cues starting at ``times[k]``; a decor
    cue at the beat's start is in none (step -1): it stays where it is."""

    cues: list[Cue]
    times: list[float]
    step: list[int]  # per cue, its step

    @classmethod
    def of(cls, cues: list[Cue]) -> "_Steps":
        start = min((c.start for c in cues), default=0.0)
        fixed = [c.kind in DECOR and c.start == start for c in cues]
        times = sorted({c.start for c, f in zip(cues, fixed) if not f})
        where = {t: k for k, t in enumerate(times)}
        return cls(cues, times, [-1 if f else where[c.start] for c, f in zip(cues, fixed)])

    def first(self, after: int, test: Callable[[Cue], bool]) -> int | None:
        """The first step after ``after`` with a cue passing ``test`` (not a decor cue)."""
        hits = [self.step[i] for i, c in enumerate(self.cues)
                if self.step[i] > after and c.kind not in DECOR and test(c)]
        return min(hits, default=None)

    def in_step(self, k: int) -> list[Cue]:
        return [c for i, c in enumerate(self.cues) if self.step[i] == k]


def _lit(c: Cue) -> tuple[str, ...]:
    return c.ids[1:] if c.kind in TO_KINDS else c.ids


def _op_of(word: str) -> str | None:
    """The grad_fn an op word names (``Mul``, ``ReLU``, ``MulBackward0``), matched loosely."""
    if not word[:1].isupper():
        return None
    return re.sub(r"Backward\d*$", "", word).lower()


def _bindings(ph: Phrase, steps: _Steps, floor: int, index: LogIndex, made: int
              ) -> list[tuple[int, int]]:
    """``(step, char)`` pairs phrase ``ph`` is bound to, past step ``floor``, in step order."""
    ev = ph.event
    if ev.marks:
        return _monotone([(s, at) for at, name in ev.marks
                          if (s := _named(name, steps, floor, index, made)) is not None])
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
        s = _named(name, steps, floor, index, made, loose=True)
        if s is not None:
            return [(s, m.start())]
    return []


def _named(name: str, steps: _Steps, floor: int, index: LogIndex, made: int, loose: bool = False) -> int | None:
    """The first step past ``floor`` that shows or lights tensor ``name`` or op ``name``."""
    if loose and len(name) == 1 and name in "aAI":
        return None  # an English word before it is a name
    ids = set(index.ids_of(name, until=made))
    if ids:
        return steps.first(floor, lambda c: bool(ids & set(_lit(c))) or c.text("name") == name)
    op = _op_of(name)
    if op is None:
        return None
    return steps.first(floor, lambda c: any(x.role == "grad_fn" and _op_of(x.text) == op for x in c.strings))


def _monotone(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pairs whose characters come in the order of their steps (a later word, a later cue)."""
    out: list[tuple[int, int]] = []
    for s, at in sorted(pairs):
        if not out or (s > out[-1][0] and at >= out[-1][1]):
            out.append((s, at))
    return out


def bind(phrases: list[Phrase], cues: list[Cue], index: LogIndex, made: int, voiced: bool
         ) -> list[list[tuple[int, float]]]:
    """Per phrase, its anchors ``(step, seconds into the phrase)``, steps rising over the beat.
    Without a voice, one anchor at the phrase's start: the last of its bindings, so that every
    number it names is on screen as it shows."""
    steps = _Steps.of(cues)
    floor = -1
    bound: list[list[tuple[int, int]]] = []
    for ph in phrases:
        got = _bindings(ph, steps, floor, index, made)
        bound.append(got)
        if got:
            floor = got[-1][0]
    out: list[list[tuple[int, float]]] = []
    last = -1
    for k, (ph, got) in enumerate(zip(phrases, bound)):
        if not got:  # the next step in order, if it comes before the next phrase's binding
            nxt = min((g[0][0] for g in bound[k + 1:] if g), default=len(steps.times))
            out.append([(last + 1, 0.0)] if last + 1 < nxt else [])
            last = max(last, last + 1) if last + 1 < nxt else last
            continue
        if voiced:
            got = _monotone(got)
            out.append([(s, ph.timing.start_of(at)) for s, at in got])
        else:  # its first number as long before it as the Builder had it before the last
            lead = steps.times[got[-1][0]] - steps.times[got[0][0]]
            out.append([(got[0][0], -lead)] * (lead > 0) + [(got[-1][0], 0.0)])
        last = got[-1][0]
    return out


def lay_beat(phrases: list[Phrase], cues: list[Cue], anchors: list[list[tuple[int, float]]], start: float,
             seen: dict[str, float], tm: PlanTimings, beat: int, first_index: int
             ) -> tuple[list[Cue], list[CaptionSpan], float]:
    """The beat laid out from ``start``: its cues moved step by step, its phrases placed (see the
    module's docstring). ``seen``: when strings first came on screen in earlier beats (a phrase
    never starts before a number it names). Returns the cues, the caption spans, the beat's end."""
    steps = _Steps.of(cues)
    n = len(steps.times)
    new: list[float | None] = [None] * n
    ends: list[float] = [0.0] * n  # per step, the new end of its longest cue
    lengths = [0.0] * n
    for c, k in zip(cues, steps.step):
        if k >= 0:
            lengths[k] = max(lengths[k], c.duration)
    glows = [any(c.kind in GLOW_KINDS or cue_kind(c.kind).ends_walk for c in steps.in_step(k)) for k in range(n)]
    moves = [any(c.kind in GLOW_KINDS for c in steps.in_step(k)) for k in range(n)]
    rules = [any(c.kind == "local_rule" for c in steps.in_step(k)) for k in range(n)]
    state = {"hold": start, "placed": -1, "phrase_end": start}

    def place(k: int, at: float) -> None:
        if glows[k]:
            at = max(at, state["hold"])
        new[k], ends[k] = at, at + lengths[k]
        state["placed"] = k
        if moves[k]:
            keep = max(tm.rule_hold, 0.0) if rules[k] else tm.highlight_hold
            state["hold"] = max(at + keep, state["phrase_end"] if rules[k] else at)

    def upto(k: int) -> None:
        """Steps before ``k`` not placed yet: each after the one before, as the Builder had them."""
        for j in range(state["placed"] + 1, k):
            prev = state["placed"]
            place(j, start if prev < 0 else new[prev] + steps.times[j] - steps.times[prev])  # type: ignore[operator]

    def ready(k: int) -> float:
        return max([start] + [ends[j] for j in range(k)])

    spans: list[CaptionSpan] = []
    t = start
    for ph, anchor in zip(phrases, anchors):
        ev = ph.event
        p = max([t] + [seen[s.text] for s in ev.strings if s.text in seen])
        if anchor:
            k0, w0 = anchor[0]
            upto(k0)
            hold = state["hold"] if glows[k0] else start
            p = max(p, ready(k0) - w0, hold - w0)
        state["phrase_end"] = p + ph.length
        for k, w in anchor:
            upto(k)
            place(k, max(p + w, ready(k)))
        if spans and p > spans[-1].end:
            spans[-1] = _held(spans[-1], p, tm.reading, phrases[len(spans) - 1].length)
        spans.append(CaptionSpan(first_index + len(spans), _t(p), _t(p + ph.length), ev.text, beat, ev.strings,
                                 ev.style, tuple(lines(ev.text, tm.reading))))
        t = p + ph.length
    upto(n)
    end = max([t, state["hold"] if any(rules) else t] + [ends[k] for k in range(n)])
    if spans:
        spans[-1] = _held(spans[-1], end, tm.reading, phrases[-1].length)
    moved = [c if k < 0 else replace(c, start=_t(new[k] + c.start - steps.times[k]))  # type: ignore[operator]
             for c, k in zip(cues, steps.step)]
    return moved, spans, end


def _held(span: CaptionSpan, until: float, rules: ReadingRules, length: float) -> CaptionSpan:
    """``span`` held to ``until``, but never longer than it takes to say, or ``max_seconds``."""
    return replace(span, end=_t(min(until, span.start + max(rules.max_seconds, length))))


def lay_out_phrases(phrases: Sequence[Phrase], start: float, tm: PlanTimings, beat: int, first_index: int
                    ) -> tuple[list[CaptionSpan], float]:
    """Phrases over no cues of their own (the takeaway over the last picture): one after another."""
    _, spans, end = lay_beat(list(phrases), [], [[] for _ in phrases], start, {}, tm, beat, first_index)
    return spans, end
