"""A clip's sound track: its phrases said at their captions' starts, placed into one track.

Why one track for the whole clip, made after the beats are drawn: the beats are cached and
drawn apart, but a phrase may be said across a beat's end, and audio encoded per segment
clicks or gaps where segments join. So the track is put together here once, as float32 samples
at :data:`RATE`, and encoded once when the clip is joined (:mod:`scenes.video.encoder`).

Loudness follows EBU R128 for speech on the web: :data:`LOUDNESS` LUFS integrated (ITU-R
BS.1770, measured with pyloudnorm), and no true peak above :data:`CEILING` dBTP, the true peak
measured on the track oversampled 4x (BS.1770 annex 2); a peak above the ceiling is brought
down by a limiter that looks ahead, so that no phrase is cut or clipped.

Why each phrase is levelled alone (:func:`levelled`), not the clip's track: a narration edit
changes one phrase and moves the later ones, and measuring and limiting the whole track again
took seconds of each edit. Each phrase is brought to the loudness and under the ceiling once,
measured with :data:`PAD` of silence on either side as the clip's meter sees it between phrases,
and kept beside its speech (keyed by the voice's key and the text, as the speech is); the
clip's track only places the levelled phrases. Phrases at the loudness, with silence between
them, make a track at the loudness: the meter's gates leave the silence out.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from math import gcd
from typing import Any, Callable, Iterable, Protocol

import numpy as np

from scenes.voice.cache import Said, SpeechCache, on_grid
from scenes.voice.speech import Speech

RATE = 48_000
"""Samples per second of the track (what AAC and Opus carry at their best)."""
LOUDNESS = -16.0
"""Integrated loudness the track is brought to, in LUFS (speech for the web and podcasts)."""
CEILING = -2.0
"""Highest true peak the track is given, in dBTP: a dB under the -1 dBTP a clip may have, room
for the lossy encoders' own overshoot (measured on backward_walk said by the neural voice:
AAC 128 kb/s, fast coder, +0.17 dB, Opus 96 kb/s +0.45 dB)."""
OVERSAMPLE = 4
"""How finely the true peak is measured: between samples, on the track upsampled this much."""
TOLERANCE = 0.3
"""How near the loudness the track is brought, in LU (a clip may be 1 LU off): each round of
limiting and raising costs a second of a clip's render."""
LIMIT_WINDOW = 0.005
"""Seconds over which the limiter's gain comes down before a peak and goes back up after it:
short enough to leave the words' loudness alone, long enough not to distort (no click)."""


@dataclass(frozen=True)
class Phrase:
    """A phrase to say: its text, and when (seconds from the clip's start) it is said."""

    start: float
    text: str


_RESAMPLED: dict[tuple[int, int, str], np.ndarray] = {}
"""Phrases already brought to RATE in this process, by rate, length and digest of their samples:
a ``render watch`` mixes the clip's track again after each edit, and most phrases are the same."""
_RESAMPLED_KEPT = 512


def resampled(samples: np.ndarray, rate: int) -> np.ndarray:
    """``samples`` at ``rate`` Hz brought to :data:`RATE` (polyphase filter, deterministic); the
    same samples are resampled once per process."""
    if rate == RATE:
        return samples.astype(np.float32)
    from scipy.signal import resample_poly

    raw = np.ascontiguousarray(samples, dtype=np.float32)
    key = (rate, len(raw), hashlib.sha256(raw.tobytes()).hexdigest())
    hit = _RESAMPLED.get(key)
    if hit is None:
        k = gcd(rate, RATE)
        hit = resample_poly(raw.astype(np.float64), RATE // k, rate // k).astype(np.float32)
        if len(_RESAMPLED) >= _RESAMPLED_KEPT:
            _RESAMPLED.pop(next(iter(_RESAMPLED)))
        _RESAMPLED[key] = hit
    return hit.copy()


def mix(phrases: Iterable[Phrase], say: Callable[[str], Speech], samples: int) -> np.ndarray:
    """Every phrase's speech placed at its start, summed into ``samples`` samples at RATE
    (a phrase said past the end is cut there: the clip holds its last picture long enough)."""
    track = np.zeros(samples, dtype=np.float64)
    for ph in phrases:
        speech = say(ph.text)
        wave = resampled(speech.samples, speech.rate)
        at = round(ph.start * RATE)
        n = max(0, min(len(wave), samples - at))
        track[at:at + n] += wave[:n]
    return track.astype(np.float32)


def warm() -> None:
    """Import what levelling needs (SciPy's filters, the loudness meter): a ``render watch``
    whose first render was up to date has not, and importing SciPy's signal package takes
    seconds, in the thread that makes the track while the first edit's beats are drawn."""
    import scipy.ndimage  # noqa: F401
    import scipy.signal  # noqa: F401

    _meter()


def true_peak(track: np.ndarray) -> float:
    """The track's true peak in dBTP: its highest magnitude between samples too, measured on it
    oversampled :data:`OVERSAMPLE` times (-inf for silence)."""
    peak = float(_peaks(track).max(initial=0.0))
    return 20 * np.log10(peak) if peak > 0 else float("-inf")


def _peaks(track: np.ndarray) -> np.ndarray:
    """Per sample, the highest magnitude of the track oversampled around it (float32)."""
    from scipy.signal import resample_poly

    over = resample_poly(track.astype(np.float32), OVERSAMPLE, 1).astype(np.float32)
    np.abs(over, out=over)
    n = len(over) // OVERSAMPLE  # the phases strided, not reshaped: a reduction over axis 1 of 4 is slow
    return np.maximum.reduce([over[k:n * OVERSAMPLE:OVERSAMPLE] for k in range(OVERSAMPLE)])[:len(track)]


@lru_cache(maxsize=1)
def _meter() -> Any:
    import pyloudnorm

    return pyloudnorm.Meter(RATE)


def loudness(track: np.ndarray) -> float:
    """Integrated loudness in LUFS (BS.1770 with its gates; -inf for a track too quiet to gate)."""
    if len(track) < RATE // 2:  # the meter needs one 400 ms block
        return float("-inf")
    return float(_meter().integrated_loudness(track.astype(np.float64)))


def limited(track: np.ndarray, ceiling_db: float, peaks: np.ndarray | None = None) -> np.ndarray:
    """The track with its true peaks brought under ``ceiling_db``: a gain that is at most what
    each peak allows for LIMIT_WINDOW around it, eased in and out over that window. ``peaks``:
    the track's per-sample true peaks (:func:`_peaks`), when the caller has them."""
    from scipy.ndimage import minimum_filter1d, uniform_filter1d

    ceiling = 10 ** (ceiling_db / 20)
    need = np.minimum(1.0, ceiling / np.maximum(_peaks(track) if peaks is None else peaks, 1e-12))
    width = max(3, int(LIMIT_WINDOW * RATE) | 1)
    gain = uniform_filter1d(minimum_filter1d(need, 2 * width + 1), width)
    return (track * gain).astype(np.float32)


def normalised(track: np.ndarray, target: float = LOUDNESS, ceiling_db: float = CEILING,
               rounds: int = 5) -> np.ndarray:
    """The track at ``target`` LUFS (within TOLERANCE) with no true peak above ``ceiling_db``:
    brought to the loudness; if a peak is then over the ceiling, raised and limited, the raise
    found by the secant method (limiting takes back part of each raise: the first guess is that
    it keeps half). Silence stays silence."""
    now = loudness(track)
    if not np.isfinite(now):
        return track.astype(np.float32)
    gain = target - now  # dB
    out = _scaled(track, gain)
    peaks = _peaks(track)  # a gain scales the true peaks with the samples: measured once
    if 20 * np.log10(max(float(peaks.max(initial=0.0)), 1e-12)) + gain <= ceiling_db:
        return out
    tried: list[tuple[float, float]] = []
    for _ in range(rounds):
        out = limited(_scaled(track, gain), ceiling_db - 0.05, _scaled(peaks, gain))
        miss = loudness(out) - target
        if abs(miss) < TOLERANCE:
            break
        tried.append((gain, miss))
        if len(tried) > 1 and tried[-1][1] != tried[-2][1]:
            (g0, m0), (g1, m1) = tried[-2:]
            gain = g1 - m1 * (g1 - g0) / (m1 - m0)
        else:
            gain -= 2 * miss
    return out


def _scaled(track: np.ndarray, db: float) -> np.ndarray:
    return (track * np.float32(10 ** (db / 20))).astype(np.float32)


class Speaking(Protocol):
    """What the track asks of a voice: its key (for the cache) and a phrase's speech. A voice
    with a ``cache`` (:class:`~scenes.voice.cache.SpeechCache`) keeps its levelled phrases there."""

    def key(self) -> str: ...

    def speech(self, text: str) -> Speech: ...


LEVEL_VERSION = 1
"""Raised when how a phrase is levelled changes: every levelled phrase is then made again."""
PAD = 0.4
"""Seconds of silence on either side of a phrase while it is measured (one meter block): the
blocks that hold its first and last words hold silence too, in the clip as here."""
_LEVELLED: dict[tuple[str, str], np.ndarray] = {}
"""Phrases levelled in this process, by :func:`level_key` and text (a ``render watch`` places
the same phrases after each edit)."""


def level_key(voice_key: str) -> str:
    """The key levelled phrases are cached under: the voice's, and how they are levelled."""
    data = [voice_key, "levelled", LEVEL_VERSION, RATE, LOUDNESS, CEILING, TOLERANCE, PAD, OVERSAMPLE]
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()


def level(speech: Speech) -> np.ndarray:
    """A phrase's samples at RATE, at :data:`LOUDNESS` and under :data:`CEILING` (measured with
    :data:`PAD` of silence around it), on the 16-bit grid a cached one is read back on."""
    wave = resampled(speech.samples, speech.rate)
    pad = round(PAD * RATE)
    padded = np.concatenate([np.zeros(pad, np.float32), wave, np.zeros(pad, np.float32)])
    return on_grid(normalised(padded)[pad:pad + len(wave)])


def levelled(voice: Speaking, text: str) -> np.ndarray:
    """``text`` said by ``voice`` and levelled (:func:`level`): from this process's memory, else
    the voice's cache, else levelled now (and kept in both). Kept under what is said, where the
    voice tells it (``spoken``): the same caption said otherwise (a rule's spoken form, a
    storyboard's ``say:`` changed) is said and levelled again, never read back as it was."""
    key = level_key(voice.key())
    says = getattr(voice, "spoken", None)
    text_key = says(text).text if says is not None else text
    hit = _LEVELLED.get((key, text_key))
    if hit is not None:
        return hit
    cache: SpeechCache | None = getattr(voice, "cache", None)
    said = cache.get(key, text_key) if cache is not None else None
    if said is not None and said.rate == RATE:
        wave = said.samples
    else:
        wave = level(voice.speech(text))
        if cache is not None:
            cache.put(key, text_key, Said(wave, RATE, None))
    if len(_LEVELLED) >= _RESAMPLED_KEPT:
        _LEVELLED.pop(next(iter(_LEVELLED)))
    _LEVELLED[(key, text_key)] = wave
    return wave


def placed(phrases: Iterable[Phrase], voice: Speaking, samples: int) -> np.ndarray:
    """Every phrase levelled and placed at its start, in ``samples`` samples at RATE (cut at the
    end, as :func:`mix` does). Where phrases overlap, their sum is limited under the ceiling
    there (each alone is under it already)."""
    track = np.zeros(samples, dtype=np.float32)
    spans: list[tuple[int, int]] = []
    for ph in phrases:
        wave = levelled(voice, ph.text)
        at = round(ph.start * RATE)
        n = max(0, min(len(wave), samples - at))
        track[at:at + n] += wave[:n]
        spans.append((at, at + n))
    for a, b in _overlaps(spans):
        room = round(2 * LIMIT_WINDOW * RATE)
        a, b = max(0, a - room), min(samples, b + room)
        if true_peak(track[a:b]) > CEILING:
            track[a:b] = limited(track[a:b], CEILING - 0.05)
    return track


def _overlaps(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The stretches where two or more of ``spans`` (start, end) meet.

    >>> _overlaps([(0, 10), (5, 20), (30, 40), (18, 35)])
    [(5, 10), (18, 20), (30, 35)]
    """
    cuts = sorted([(a, 1) for a, b in spans if b > a] + [(b, -1) for a, b in spans if b > a])
    out: list[tuple[int, int]] = []
    depth, since = 0, 0
    for at, step in cuts:
        if depth >= 2 and at > since:
            out.append((since, at))
        depth += step
        since = at
    merged: list[tuple[int, int]] = []
    for a, b in out:
        if merged and merged[-1][1] >= a:
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return merged


def sound_track(phrases: Iterable[Phrase], voice: Speaking, seconds: float) -> np.ndarray:
    """The clip's track: the phrases levelled and placed, exactly ``seconds`` long (to the sample)."""
    return placed(phrases, voice, round(seconds * RATE))
