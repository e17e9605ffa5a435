"""A beat's caption events: its narration cut into phrases, each with the numbers it names.

Why apart from the plan: the plan cuts each narration (by :mod:`.reading`) into events a viewer
can read, records which filled numbers and cue marks each holds, and hands them to
:mod:`.phrases`, which times them (by a voice or reading time) and the beat's cues with them.
The clip's title, over the first beat, and its takeaway, after the last, are caption events too
(``style``), so the .srt holds them and they follow the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .cues import Cue
from .placeholders import Shown
from .reading import ReadingRules, split

STYLES = ("caption", "title", "takeaway")
"""How an event is drawn: a narration caption, the clip's title (over the first beat), the takeaway."""


@dataclass(frozen=True)
class CaptionSpan:
    """A caption on screen from ``start`` to ``end``; ``strings`` are its filled numbers,
    ``lines`` the lines it is set in (the .srt's and the picture's), ``style`` one of STYLES.
    ``lead``: seconds it is up before its words are said (a beat's first caption comes up with
    the beat's first action, :mod:`.phrases`); the voice says it from :attr:`said`."""

    index: int
    start: float
    end: float
    text: str
    beat: int
    strings: tuple[Shown, ...] = ()
    style: str = "caption"
    lines: tuple[str, ...] = ()
    lead: float = 0.0
    held: float = 0.0
    """Seconds it stays up past its words and the reading limit because its beat's picture still
    moves (:mod:`.phrases`): ``end - held`` is when it would have gone."""

    @property
    def said(self) -> float:
        """When its words start being said (read, with no voice): ``lead`` after it comes up."""
        return round(self.start + self.lead, 3)


@dataclass(frozen=True)
class CaptionEvent:
    """One caption event before it is placed in time."""

    text: str
    strings: tuple[Shown, ...]
    style: str = "caption"
    marks: tuple[tuple[int, str], ...] = ()
    """The author's cue marks in it: (where in ``text`` the words they bind begin, the name)."""


def events_of(text: str, shown: Iterable[Shown], rules: ReadingRules, style: str = "caption",
              marks: Iterable[tuple[int, str]] = ()) -> list[CaptionEvent]:
    """``text`` (a filled narration) cut into events, each with the filled strings it holds.
    A filled string is found where it lies in the text, in order (typed numbers are refused, so
    a number's text is never also one of the fixed words before it). ``marks``: cue marks as
    (offset in ``text`` with its whitespace runs made single spaces, name)."""
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
    marked: list[list[tuple[int, str]]] = [[] for _ in parts]
    for where, name in marks:
        k = max((i for i, st in enumerate(starts) if st <= where), default=0)
        marked[k].append((min(max(0, where - starts[k]), len(parts[k])), name))
    return [CaptionEvent(p, tuple(f), style, tuple(m)) for p, f, m in zip(parts, found, marked)]


def first_shown(cues: Iterable[Cue]) -> dict[str, float]:
    """The time each string first comes on screen (the start of the first cue showing it)."""
    seen: dict[str, float] = {}
    for c in cues:
        for s in c.strings:
            if s.text not in seen or c.start < seen[s.text]:
                seen[s.text] = c.start
    return seen


def _places(text: str, strings: Iterable[Shown]) -> list[int]:
    """Where each filled string lies in ``text``, found in order (-1: not found)."""
    out, pos = [], 0
    for s in strings:
        where = text.find(s.text, pos)
        out.append(where)
        if where >= 0:
            pos = where + len(s.text)
    return out


def naming(captions: Iterable[CaptionSpan], cue: Cue, roles: Iterable[str] = ("add", "after")) -> CaptionSpan | None:
    """The first caption still up at or after ``cue``'s start that names one of its strings of
    ``roles`` (the same logged value: its ``seq``); None where none does. A bucket's sum
    (``1/3 + 1/3 = 2/3``) written as its fill ends stays up through it: the words "shows 2/3, the
    sum of what its two arrows carried" may come in the next beat, after the walk's marks are
    gone (REVIEW5 item 6).

    >>> from scenes.storyboard.placeholders import Shown
    >>> fill = Cue(82.7, 0.4, "bucket_fill", 12, ("n0", "t0"), (Shown("2/3", 35, "after", "after"),))
    >>> says = lambda start, end, seq: CaptionSpan(0, start, end, "x", 13, (Shown("2/3", seq, "v", "caption"),))
    >>> naming([says(78.2, 83.4, 9), says(84.0, 89.2, 35), says(90.0, 93.0, 35)], fill).end
    89.2
    >>> naming([says(60.0, 70.0, 35), says(84.0, 89.2, 9)], fill) is None
    True
    """
    seqs = {s.seq for s in cue.strings if s.role in set(roles) and s.seq is not None}
    return next((c for c in sorted(captions, key=lambda c: c.start)
                 if c.end > cue.start and any(s.seq in seqs for s in c.strings)), None)


def explaining(captions: Iterable[CaptionSpan], cue: Cue) -> CaptionSpan | None:
    """The caption up as ``cue`` starts (None: none is): what a visit writes beside its node,
    that caption explains, and it stays shown while the caption runs (REVIEW7 item 4)."""
    return next((c for c in captions if c.start <= cue.start + 1e-6 < c.end), None)
