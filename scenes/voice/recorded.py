"""The author's own voice: a recording of each beat, its words timed by forced alignment.

The author records what each part of the clip says into ``NAME.voice/`` beside ``NAME.yaml``:
``title.wav`` (the title, said over the first beat), ``beat-01.wav``, ``beat-02.flac``, ... and
``takeaway.wav`` (when the storyboard has one); any of :data:`FORMATS` is read. A beat then lasts
as long as its recording: the recording is aligned (:func:`.align.align`) to a reference voice
saying the same words, which gives each written token its time in the recording, and each caption
phrase is the slice of the recording from the middle of the pause before its first word to the
middle of the pause after its last (the first from just before its first word, the last to just
after its last), so the phrases of a part tile its recording.

How the rest of gradreel gets it: the registry's ``voice_for("recorded", ..., storyboard=FILE)``
is a :class:`RecordedVoice` (the neural voice its reference); once the storyboard is checked,
:func:`scenes.storyboard.recordings.bind` tells it what each part says and checks every
recording (all problems at once, each at its storyboard line, StoryboardError); then, as any
voice, its ``timing(phrase)`` is the plan's :data:`.speech.Speaker` (the phrase's
:class:`.speech.Timing` from the phrase's start) and its ``speech(phrase)`` the sound track's
samples.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from .align import align
from .base import Voice, file_digest
from .speech import Speech, Timing, Word

FORMATS = ("wav", "flac", "ogg", "mp3", "m4a")
"""The endings of the recordings read, in the order looked for (PyAV decodes them)."""

TITLE, TAKEAWAY = "title", "takeaway"
"""The names of the title's recording (said over the first beat) and the takeaway's (after the last)."""

LEAD, TAIL = 0.15, 0.35
"""Seconds of a recording kept before its first word and after its last: the rest of the
silence at either end (reaching for the key) is left out, so a beat lasts as long as it is spoken."""

LONGEST = 90.0
"""Seconds a recording may last: a beat's narration is a sentence or a few, and aligning a longer
one would take long and much memory (the alignment's cost matrix grows with the square)."""


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
            if not f.streams.audio:
                raise Unreadable("it holds no sound")
            stream = f.streams.audio[0]
            rate = int(stream.rate or 0)
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


@dataclass(frozen=True)
class Part:
    """A run of captions said in one recording: the title, a beat's narration or the takeaway.
    ``name`` is the recording's (``beat-02``), ``what`` how a message calls it (``beat 2``),
    ``where`` the storyboard key a problem with it is shown at, ``text`` what it says, filled."""

    name: str
    what: str
    where: tuple[str | int, ...]
    text: str


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


def tokens_at(tokens: list[str], phrase: list[str]) -> int | None:
    """Where ``phrase`` (tokens) first lies in ``tokens``, or None."""
    n = len(phrase)
    return next((k for k in range(len(tokens) - n + 1) if tokens[k:k + n] == phrase), None)


VERSION = 1
"""Raised when the same recordings would be timed differently (the alignment changed): every
clip said by the recorded voice is then made again."""


class RecordedVoice:
    """The ``recorded`` voice of one storyboard: :meth:`key`, :meth:`timing` and :meth:`speech`,
    as the registry's other voices, once told what the clip says (:meth:`use`). Each part's
    recording is aligned once, when first asked for."""

    name = "recorded"

    def __init__(self, storyboard: Path, reference: Voice) -> None:
        """``storyboard``: the file whose ``NAME.voice`` folder holds the recordings;
        ``reference``: the voice they are aligned to."""
        self.storyboard = storyboard
        self.reference = reference
        self.parts: tuple[Part, ...] = ()
        self.files: dict[str, Path] = {}
        self._takes: dict[str, Take] = {}

    def key(self) -> str:
        """A digest of every recording in the folder, the reference voice and :data:`VERSION`:
        known before the storyboard is loaded, and changed by any new take."""
        where = folder(self.storyboard)
        takes = sorted(p for p in where.glob("*") if p.suffix[1:] in FORMATS and p.is_file()) if where.is_dir() else []
        data = [VERSION, self.name, self.reference.key(), [(p.name, file_digest(p)) for p in takes]]
        return hashlib.sha256(json.dumps(data).encode()).hexdigest()

    def use(self, parts: Iterable[Part], files: dict[str, Path]) -> RecordedVoice:
        """Say ``parts`` (what the clip says, in order), each from its recording in ``files``
        (by part name, each one read): what :func:`scenes.storyboard.recordings.bind` finds."""
        self.parts = tuple(parts)
        self.files = dict(files)
        self._takes.clear()
        return self

    def take(self, name: str) -> Take:
        """Recording ``name`` (``beat-01``, ``takeaway``) aligned to what its part says."""
        if name not in self._takes:
            text = next(p.text for p in self.parts if p.name == name)
            samples, rate = read(self.files[name])
            self._takes[name] = Take(samples, rate, align(samples, rate, self.reference.speech(" ".join(text.split()))))
        return self._takes[name]

    def speech(self, text: str) -> Speech:
        """The phrase ``text`` as the author says it: the slice of the first part's recording
        (in the clip's order) whose words hold it, its words timed from the slice's start."""
        mine = text.split()
        if not self.parts:
            raise RuntimeError("the recorded voice is asked before use(): it does not know what the clip says")
        for part in self.parts:
            k = tokens_at(part.text.split(), mine)
            if k is not None:
                return self.take(part.name).part(k, k + len(mine))
        raise ValueError(f"{text!r} is said in no recording of {self.storyboard}")

    def timing(self, text: str) -> Timing:
        """The phrase's timing (a :data:`~.speech.Speaker`)."""
        return self.speech(text).timing
