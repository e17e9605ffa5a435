"""A beat's caption events laid out in time: read at the theme's rate, never ahead of the picture.

Why apart from the plan: the plan lays the cues of a beat out first; this module then puts the
beat's narration (cut into events by :mod:`.reading`) on top of them. Each event stays up as
long as it takes to read (the beat is held until the last is read), and an event that names a
number starts no earlier than the first cue that puts that number on screen: a caption saying
"each path sends 3" while the 3 is still to come reads as a mistake. The clip's title, over the
first beat, and its takeaway, after the last, are caption events too (``style``), so the .srt
holds them and they follow the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from .builder import _t
from .cues import Cue
from .narration import Shown
from .reading import ReadingRules, lines, phrases, seconds, split, words

STYLES = ("caption", "title", "takeaway")
"""How an event is drawn: a narration caption, the clip's title (over the first beat), the takeaway."""


@dataclass(frozen=True)
class CaptionSpan:
    """A caption on screen from ``start`` to ``end``; ``strings`` are its filled numbers,
    ``lines`` the lines it is set in (the .srt's and the picture's), ``style`` one of STYLES."""

    index: int
    start: float
    end: float
    text: str
    beat: int
    strings: tuple[Shown, ...] = ()
    style: str = "caption"
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class CaptionEvent:
    """One caption event before it is placed in time."""

    text: str
    strings: tuple[Shown, ...]
    style: str = "caption"


def events_of(text: str, shown: Iterable[Shown], rules: ReadingRules, style: str = "caption") -> list[CaptionEvent]:
    """``text`` (a filled narration) cut into events, each with the filled strings it holds.
    A filled string is found where it lies in the text, in order (typed numbers are refused, so
    a number's text is never also one of the fixed words before it)."""
    shown = list(shown)
    parts = split(text, rules)
    flat = " ".join(text.split())
    starts, at = [], 0
    for p in parts:
        at = flat.index(p, at)
        starts.append(at)
        at += len(p)
    found: list[list[Shown]] = [[] for _ in parts]
    for s, where in zip(shown, _places(flat, shown)):
        if where >= 0:
            found[max(i for i, st in enumerate(starts) if st <= where)].append(s)
    return [CaptionEvent(p, tuple(f), style) for p, f in zip(parts, found)]


def first_shown(cues: Iterable[Cue]) -> dict[str, float]:
    """The time each string first comes on screen (the start of the first cue showing it)."""
    seen: dict[str, float] = {}
    for c in cues:
        for s in c.strings:
            if s.text not in seen or c.start < seen[s.text]:
                seen[s.text] = c.start
    return seen


def lay_out(events: list[CaptionEvent], start: float, busy_until: float, seen: dict[str, float], rules: ReadingRules,
            fade: float, beat: int, first_index: int) -> tuple[list[CaptionSpan], float]:
    """Place ``events`` from ``start``, one after the other, each up for its reading time and not
    before the strings it names are on screen (``seen``); an event is held to the next one's
    start, or to the beat's end (``busy_until``, when its cues are done, or later), but never
    longer than ``rules.max_seconds``. Returns the spans and when the beat may end."""
    spans: list[CaptionSpan] = []
    t = start
    for ev in _early_first(events, t, seen, rules.min_words):
        earliest = max((seen[s.text] for s in ev.strings if s.text in seen), default=t)
        at = max(t, earliest)
        if spans and at > spans[-1].end:
            spans[-1] = _held(spans[-1], at, rules)
        need = seconds(ev.text, rules, fade)
        spans.append(CaptionSpan(first_index + len(spans), _t(at), _t(at + need), ev.text, beat, ev.strings,
                                 ev.style, tuple(lines(ev.text, rules))))
        t = at + need
    end = max(busy_until, t)
    if spans:
        spans[-1] = _held(spans[-1], end, rules)
    return spans, end


def _early_first(events: list[CaptionEvent], start: float, seen: dict[str, float],
                 min_words: int) -> Iterable[CaptionEvent]:
    """The events, each that must wait for a number cut at its last phrase break before that
    number: the words before it can be read while the picture gets there ("The forward pass
    records the graph;" before "the loss is 4/9."). Not where either part would have fewer
    than ``min_words`` words (a number counts as none): a number alone ("0.5977;") or
    ``c = 9.`` reads as a fragment, so that event waits whole."""
    for ev in events:
        late = [s for s in ev.strings if seen.get(s.text, start) > start]
        cut = _cut_before(ev.text, late[0].text) if late else None
        if cut is not None and min(words(ev.text[:cut]), words(ev.text[cut:])) < min_words:
            cut = None
        if cut is None:
            yield ev
            continue
        at = _places(ev.text, ev.strings)
        yield CaptionEvent(ev.text[:cut].rstrip(), tuple(s for s, p in zip(ev.strings, at) if p < cut), ev.style)
        yield CaptionEvent(ev.text[cut:].lstrip(), tuple(s for s, p in zip(ev.strings, at) if p >= cut), ev.style)
        start = max(start, seen[late[0].text])


def _places(text: str, strings: Iterable[Shown]) -> list[int]:
    """Where each filled string lies in ``text``, found in order (-1: not found)."""
    out, pos = [], 0
    for s in strings:
        where = text.find(s.text, pos)
        out.append(where)
        if where >= 0:
            pos = where + len(s.text)
    return out


def _cut_before(text: str, number: str) -> int | None:
    """Where the last phrase break before ``number`` in ``text`` is, or None."""
    where = text.find(number)
    best, at = None, 0
    for p in phrases(text)[:-1]:
        at = text.index(p, at) + len(p)
        if at <= where:
            best = at
    return best


def _held(span: CaptionSpan, until: float, rules: ReadingRules) -> CaptionSpan:
    return replace(span, end=_t(min(until, span.start + rules.max_seconds)))
