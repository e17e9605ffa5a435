"""The author's own voice: one recording per beat, its words timed by forced alignment.

The author records each beat's narration into ``NAME.voice/beat-01.wav``, ``beat-02.flac``, ...
beside ``NAME.yaml`` (and ``takeaway.wav`` when the storyboard has a takeaway); any of
:data:`FORMATS` is read. A beat then lasts as long as its recording: the recording is aligned
(:func:`.align.align`) to a reference voice saying the same narration, which gives each written
token of the narration its time in the recording, and each caption phrase of the beat is the
slice of the recording from the middle of the pause before its first word to the middle of the
pause after its last (the first from just before the first word, the last to just after the
last word), so the phrases of a beat tile its recording.

How the rest of gradreel gets it: :meth:`Recorded.speaker` is a beat's :data:`.speech.Speaker`
(a phrase's text in, its :class:`.speech.Timing` out, relative to the phrase's start, for the
plan), and :meth:`Recorded.speech` the phrase's :class:`.speech.Speech` (its samples, for the
sound track). :func:`check` refuses a storyboard whose recordings are missing or unreadable, all
at once, each at its beat's line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

import numpy as np

from .align import align
from .speech import Speaker, Speech, Timing, Word

if TYPE_CHECKING:
    from scenes.storyboard.validate import Checked

FORMATS = ("wav", "flac", "ogg", "mp3", "m4a")
"""The endings of the recordings read, in the order looked for (PyAV decodes them)."""

TAKEAWAY = "takeaway"
"""The name of the takeaway's recording, said after the last beat."""

LEAD, TAIL = 0.15, 0.35
"""Seconds of a recording kept before its first word and after its last: the rest of the
silence at either end (reaching for the key) is left out, so a beat lasts as long as it is spoken."""

LONGEST = 120.0
"""Seconds a recording may last: a beat's narration is a sentence or a few, and aligning a longer
one would take minutes and gigabytes (the alignment's cost matrix grows with the square)."""

Say = Callable[[str], Speech]
"""A voice of the registry saying a text, with its words' times: the reference aligned to."""


class Unreadable(Exception):
    """A recording that cannot be used; ``str()`` says why, for the author."""


def folder(storyboard: str | Path) -> Path:
    """Where ``NAME.yaml``'s recordings are: ``NAME.voice`` beside it."""
    return Path(storyboard).with_suffix(".voice")


def beat_name(beat: int) -> str:
    """The recording's name (without ending) of beat ``beat`` (1-based): ``beat-01``."""
    return f"beat-{beat:02d}"


def find(storyboard: str | Path, name: str) -> Path | None:
    """The recording ``name`` of ``storyboard`` in the first of :data:`FORMATS` there is, or None."""
    for ext in FORMATS:
        path = folder(storyboard) / f"{name}.{ext}"
        if path.is_file():
            return path
    return None


def read(path: Path) -> tuple[np.ndarray, int]:
    """The samples of ``path`` (mono float32, -1..1) and their rate; :class:`Unreadable` when the
    file is no sound PyAV decodes, holds none, or lasts over :data:`LONGEST`."""
    import av

    try:
        with av.open(str(path)) as f:
            stream = next((s for s in f.streams if s.type == "audio"), None)
            if stream is None:
                raise Unreadable("it holds no sound")
            rate = int(stream.codec_context.sample_rate or 0)
            if rate <= 0:
                raise Unreadable("its sample rate is unknown")
            resampler = av.AudioResampler(format="flt", layout="mono", rate=rate)
            parts = [out.to_ndarray().reshape(-1) for frame in f.decode(stream) for out in resampler.resample(frame)]
            parts += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]
    except (av.FFmpegError, OSError, UnicodeDecodeError) as exc:
        raise Unreadable(f"it is no sound file that can be read ({exc.__class__.__name__})") from None
    samples = np.concatenate(parts).astype(np.float32) if parts else np.zeros(0, np.float32)
    if not np.any(np.abs(samples) > 1e-3):
        raise Unreadable("it is silent")
    if len(samples) > LONGEST * rate:
        raise Unreadable(f"it lasts {len(samples) / rate:.0f} s, longer than {LONGEST:.0f} s (split the beat)")
    return samples, rate


def expected(checked: Checked) -> Iterator[tuple[str, tuple[str | int, ...], str]]:
    """Each recording ``checked`` needs: its name, the storyboard path it is for, what it is."""
    for i in range(len(checked.storyboard.beats)):
        yield beat_name(i + 1), ("beats", i), f"beat {i + 1}"
    if checked.storyboard.takeaway is not None:
        yield TAKEAWAY, ("takeaway",), "the takeaway"


def check(checked: Checked) -> dict[str, Path]:
    """Each recording of ``checked`` by name, read once to be sure it can be; else a
    StoryboardError with one problem for each one missing or unreadable, at its beat."""
    from scenes.storyboard.errors import Problem, StoryboardError

    found: dict[str, Path] = {}
    problems = []
    where = folder(checked.file)
    formats = ", ".join(f".{e}" for e in FORMATS[1:])
    for name, path, what in expected(checked):
        line, col = checked.doc.at(path)
        file = find(checked.file, name)
        if file is None:
            problems.append(Problem(
                checked.file, line, col,
                f"{what} has no recording: expected {where / name}.{FORMATS[0]} (or {formats}) saying its narration; "
                f"record it there, or choose another voice"))
            continue
        try:
            read(file)
        except Unreadable as exc:
            problems.append(Problem(
                checked.file, line, col,
                f"{what}'s recording {file} cannot be used: {exc}; record it again as "
                f"{', '.join(e.upper() for e in FORMATS[:-1])} or {FORMATS[-1].upper()}"))
            continue
        found[name] = file
    if problems:
        raise StoryboardError(problems)
    return found


@dataclass(frozen=True)
class Take:
    """A recording and the time of each written token of what it says."""

    samples: np.ndarray
    rate: int
    timing: Timing

    def cuts(self) -> np.ndarray:
        """Seconds where the recording is cut between tokens k-1 and k (k = 0..n): the middle of
        the pause between them, and at the ends :data:`LEAD` before the first word and
        :data:`TAIL` after the last. Cutting phrases there makes them tile the take."""
        w = self.timing.words
        duration = len(self.samples) / self.rate
        inner = [(a.end + b.start) / 2 for a, b in zip(w, w[1:])]
        first = max(0.0, w[0].start - LEAD) if w else 0.0
        last = min(duration, w[-1].end + TAIL) if w else duration
        return np.maximum.accumulate(np.clip([first, *inner, last], first, last))

    def part(self, first: int, after: int) -> Speech:
        """Tokens ``first`` .. ``after - 1`` as a phrase of their own: the slice of the recording
        between their cuts, their times from the slice's start."""
        cuts = self.cuts()
        start, end = float(cuts[first]), float(cuts[after])
        words = tuple(Word(w.text, max(0.0, w.start - start), max(0.0, min(w.end, end) - start))
                      for w in self.timing.words[first:after])
        a, b = int(round(start * self.rate)), int(round(end * self.rate))
        return Speech(Timing(end - start, words), self.samples[a:b], self.rate)


def tokens_at(tokens: list[str], phrase: list[str], after: int = 0) -> int:
    """Where ``phrase`` (tokens) first lies in ``tokens`` at or after ``after``, else anywhere;
    ValueError when it is not there."""
    n = len(phrase)
    for begin in (after, 0):
        for k in range(begin, len(tokens) - n + 1):
            if tokens[k:k + n] == phrase:
                return k
    raise ValueError(f"{' '.join(phrase)!r} is not a part of {' '.join(tokens)!r}")


class Recorded:
    """The author's recordings of one storyboard, each aligned (once) when first asked for."""

    def __init__(self, files: dict[str, Path], reference: Say):
        """``files``: each recording by name (as :func:`check` returns them); ``reference``: the
        voice the recordings are aligned to."""
        self.files = files
        self.reference = reference
        self._takes: dict[tuple[str, str], Take] = {}
        self._cursor: dict[tuple[str, str], int] = {}

    def take(self, name: str, text: str) -> Take:
        """Recording ``name`` (``beat-01``, ``takeaway``) aligned to ``text``, what it says."""
        key = (name, " ".join(text.split()))
        if key not in self._takes:
            samples, rate = read(self.files[name])
            self._takes[key] = Take(samples, rate, align(samples, rate, self.reference(key[1])))
        return self._takes[key]

    def speech(self, name: str, text: str, phrase: str) -> Speech:
        """Phrase ``phrase`` of ``text`` (consecutive whole tokens of it), as recording ``name``
        says it. Asked in order, a phrase said twice in ``text`` is found each time in its place."""
        tokens, mine = text.split(), phrase.split()
        key = (name, " ".join(tokens))
        at = tokens_at(tokens, mine, self._cursor.get(key, 0))
        self._cursor[key] = at + len(mine)
        return self.take(name, text).part(at, at + len(mine))

    def speaker(self, name: str, text: str) -> Speaker:
        """The :data:`.speech.Speaker` of recording ``name`` saying ``text``: each of its phrases'
        timing, from the phrase's start."""
        return lambda phrase: self.speech(name, text, phrase).timing
