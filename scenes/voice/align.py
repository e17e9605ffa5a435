"""Forced alignment without a recogniser: when each word of a recording is said.

Why this way: the author's recording of a beat says the beat's narration, whose words are known;
only their times are not. A voice of the registry says the same words with known times (the
reference), so matching the two sounds frame by frame finds them: both are cut into 10 ms frames
of mel-frequency cepstra (normalised per recording, so a different voice, microphone or loudness
matters less), dynamic time warping finds the cheapest monotone pairing of the frames, and each
reference word's start and end are carried along that path. Nothing is downloaded and no speech
recogniser runs; a recording of a minute against its reference is a full cost matrix of some
6000 x 5000 frames (120 MB, about 5 s of two cores).

>>> rate = 16000
>>> t = np.arange(rate) / rate
>>> ref = np.concatenate([np.sin(2 * np.pi * 300 * t[:4000]), np.zeros(4000), np.sin(2 * np.pi * 900 * t[:4000])])
>>> rec = np.concatenate([np.zeros(3200), np.sin(2 * np.pi * 300 * t[:6000]), np.zeros(4000), np.sin(2 * np.pi * 900 * t[:6000])])
>>> said = Speech(Timing(0.75, (Word("low", 0.0, 0.25), Word("high", 0.5, 0.75))), ref.astype(np.float32), rate)
>>> [(w.text, round(w.start, 1)) for w in align(rec.astype(np.float32), rate, said).words]
[('low', 0.2), ('high', 0.8)]
"""

from __future__ import annotations

import numpy as np

from .speech import Speech, Timing, Word

HOP = 0.010
"""Seconds between frames: word times come out to this precision."""

WINDOW = 0.025
"""Seconds of sound each frame's spectrum is taken over (the usual speech analysis window)."""

MELS = 40
"""Mel bands between LOW_HZ and HIGH_HZ; CEPSTRA of their log energies are compared."""

LOW_HZ, HIGH_HZ = 60.0, 7600.0
"""The band compared: speech's, and within what a 16 kHz recording holds."""

CEPSTRA = 20
"""Cepstral coefficients kept per frame, the first (loudness) included: after normalisation it
tells a pause from a word whatever the recording's level."""

PAD = 0.5
"""Seconds of silence put around the reference: a recording starts and ends with silence (the
author reaches for the key), which the reference must have too, to be paired with."""

DITHER = 1e-4
"""Noise added to both (-80 dB): digital silence and a room's silence then look alike."""


STRETCH = 0.4
"""What a step that holds one sequence still costs on top of its frames' distance, as a share of
the mean distance. Why: without it the path may squeeze a short word to nothing on one side
and make it up in a pause (a word of the recording found where a pause is, 0.7 s off); with it
the path keeps pace unless the sound says otherwise."""


def align(samples: np.ndarray, rate: int, reference: Speech) -> Timing:
    """The timing of ``samples`` (mono, at ``rate`` Hz), a recording of the words ``reference``
    says: one :class:`Word` per reference word, same text, its start and end in the recording.
    The duration is the recording's."""
    pad = np.zeros(int(round(PAD * reference.rate)), dtype=np.float32)
    rec = features(samples, rate)
    ref = features(np.concatenate([pad, reference.samples, pad]), reference.rate)
    ref_hop = _hop(reference.rate) / reference.rate
    rec_hop = _hop(rate) / rate
    first, last = _spans(warp(rec, ref), len(ref))
    words = []
    for w in reference.timing.words:
        a = min(int(round((w.start + PAD) / ref_hop)), len(ref) - 1)
        b = min(max(int(round((w.end + PAD) / ref_hop)) - 1, a), len(ref) - 1)
        start = float(first[a] * rec_hop)
        end = max(float((last[b] + 1) * rec_hop), start)
        words.append(Word(w.text, start, end))
    return Timing(len(samples) / rate, tuple(words))


def _hop(rate: int) -> int:
    return max(1, int(round(HOP * rate)))


def features(samples: np.ndarray, rate: int) -> np.ndarray:
    """Frames x CEPSTRA mel cepstra of ``samples``, each coefficient normalised to mean 0 and
    variance 1 over the recording (cepstral mean and variance normalisation)."""
    hop, win = _hop(rate), int(round(WINDOW * rate))
    size = 1 << max(win - 1, 1).bit_length()
    x = np.asarray(samples, dtype=np.float64)
    x = x + DITHER * np.random.default_rng(0).standard_normal(len(x))
    x = np.append(x[:1], x[1:] - 0.97 * x[:-1]) if len(x) else x  # pre-emphasis: consonants count too
    x = np.pad(x, (win // 2, win // 2 + hop))
    count = max(1, (len(x) - win) // hop + 1)
    frames = np.lib.stride_tricks.sliding_window_view(x, win)[::hop][:count] * np.hamming(win)
    power = np.abs(np.fft.rfft(frames, size)) ** 2
    logmel = np.log(power @ _mel_bank(rate, size).T + 1e-10)
    cep = logmel @ _dct(MELS, CEPSTRA).T
    return ((cep - cep.mean(axis=0)) / (cep.std(axis=0) + 1e-8)).astype(np.float32)


def _dct(size: int, kept: int) -> np.ndarray:
    """The first ``kept`` rows of the orthonormal DCT-II of ``size`` points (log-mel -> cepstra)."""
    k, n = np.arange(kept)[:, None], np.arange(size)[None, :]
    rows = np.sqrt(2.0 / size) * np.cos(np.pi * k * (2 * n + 1) / (2 * size))
    rows[0] /= np.sqrt(2.0)
    return rows


def _mel_bank(rate: int, size: int) -> np.ndarray:
    """MELS triangular filters over the ``size``-point spectrum's bins."""
    def mel(hz: np.ndarray) -> np.ndarray:
        return 2595.0 * np.log10(1.0 + hz / 700.0)

    edges_mel = np.linspace(mel(np.array(LOW_HZ)), mel(np.array(min(HIGH_HZ, rate / 2))), MELS + 2)
    edges = 700.0 * (10 ** (edges_mel / 2595.0) - 1.0)
    bins = np.fft.rfftfreq(size, 1.0 / rate)
    lo, mid, hi = edges[:-2, None], edges[1:-1, None], edges[2:, None]
    return np.maximum(0.0, np.minimum((bins - lo) / (mid - lo), (hi - bins) / (hi - mid)))


def warp(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The dynamic time warping path between frame sequences ``a`` and ``b``: pairs (i, j) from
    (0, 0) to the last frames, each step one frame on in ``a``, ``b`` or both, of least summed
    distance (a diagonal step counts its distance twice, so stretching costs no less than
    keeping pace, and a step holding one still :data:`STRETCH` more). Filled an anti-diagonal
    at a time, so each diagonal is a few numpy operations."""
    n, m = len(a), len(b)
    cost = np.empty((n, m), dtype=np.float32)
    bb = (b * b).sum(1)[None, :]
    for r in range(0, n, 256):  # a block of rows at a time: no n x m temporaries beside ``cost``
        block = a[r:r + 256]
        cost[r:r + 256] = np.sqrt(np.maximum((block * block).sum(1)[:, None] + bb - 2.0 * (block @ b.T), 0.0))
    hold = np.float32(STRETCH * cost.mean())
    came = np.zeros((n, m), dtype=np.int8)  # 0: from (i-1, j-1), 1: from (i-1, j), 2: from (i, j-1)
    inf = np.float32(np.inf)
    before = np.full(n + 1, inf, dtype=np.float32)  # total at (i, k-2-i), index i+1
    last = np.full(n + 1, inf, dtype=np.float32)  # total at (i, k-1-i), index i+1
    for k in range(n + m - 1):
        i = np.arange(max(0, k - m + 1), min(n, k + 1))
        c = cost[i, k - i]
        options = np.stack([before[i] + 2 * c, last[i] + c + hold, last[i + 1] + c + hold])
        if k == 0:
            options[0, 0] = 2 * c[0]
        pick = np.argmin(options, axis=0)
        now = np.full(n + 1, inf, dtype=np.float32)
        now[i + 1] = options[pick, np.arange(len(i))]
        came[i, k - i] = pick
        before, last = last, now
    return _back(came)


def _back(came: np.ndarray) -> np.ndarray:
    """The path to the last cell, followed back through ``came``, in order."""
    path = []
    x, y = came.shape[0] - 1, came.shape[1] - 1
    while True:
        path.append((x, y))
        if x == 0 and y == 0:
            break
        step = came[x, y]
        x, y = (x - 1, y - 1) if step == 0 else (x - 1, y) if step == 1 else (x, y - 1)
    return np.array(path[::-1])


def _spans(path: np.ndarray, frames: int) -> tuple[np.ndarray, np.ndarray]:
    """For each frame j of the second sequence, the first and last frame of the first paired
    with it (the path visits every j)."""
    first = np.full(frames, np.iinfo(np.int64).max)
    last = np.full(frames, -1)
    np.minimum.at(first, path[:, 1], path[:, 0])
    np.maximum.at(last, path[:, 1], path[:, 0])
    return first, last
