"""A clip's sound track: its phrases said at their captions' starts, mixed into one track.

Why one track for the whole clip, made after the beats are drawn: the beats are cached and
drawn apart, but a phrase may be said across a beat's end, and audio encoded per segment
clicks or gaps where segments join. So the track is mixed here once, as float32 samples at
:data:`RATE`, and encoded once when the clip is joined (:mod:`scenes.video.encoder`).

Loudness follows EBU R128 for speech on the web: :data:`LOUDNESS` LUFS integrated (ITU-R
BS.1770, measured with pyloudnorm), and no true peak above :data:`CEILING` dBTP, the true peak
measured on the track oversampled 4x (BS.1770 annex 2); a peak above the ceiling is brought
down by a limiter that looks ahead, so that no phrase is cut or clipped.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from math import gcd
from typing import Any, Callable, Iterable

import numpy as np

from scenes.voice.speech import Speech

RATE = 48_000
"""Samples per second of the track (what AAC and Opus carry at their best)."""
LOUDNESS = -16.0
"""Integrated loudness the track is brought to, in LUFS (speech for the web and podcasts)."""
CEILING = -2.0
"""Highest true peak the track is given, in dBTP: a dB under the -1 dBTP a clip may have, room
for the lossy encoders' own overshoot (measured on backward_walk said by the neural voice:
AAC 192 kb/s +0.15 dB, Opus 96 kb/s +0.7 dB)."""
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


def sound_track(phrases: Iterable[Phrase], say: Callable[[str], Speech], seconds: float) -> np.ndarray:
    """The clip's track: the phrases mixed, normalised, exactly ``seconds`` long (to the sample)."""
    return normalised(mix(phrases, say, round(seconds * RATE)))
