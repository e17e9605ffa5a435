"""Sentences of one phrase a pause apart, for every voice that synthesises (neural and draft).

Why: piper ends one sentence and starts the next 0.25-0.48 s apart, espeak 0.33-0.38 s (at its
165 words a minute): a learner hears one run-on sentence (REVIEW7 6). A voice cuts its phrase's
samples into sentences (its own way), asks :func:`pauses` how much silence to put before each, and
:func:`joined` puts it there; it shifts each sentence's word times by the silence put before it.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

QUIET_DB = -50.0
"""A 10 ms window under this RMS (dBFS) is silence: where a sentence's sound ends and begins."""


def _quiet(samples: np.ndarray, rate: int, from_end: bool) -> int:
    """How many samples at the start (or end) of ``samples`` are silence: whole 10 ms windows
    under :data:`QUIET_DB`."""
    hop = max(1, rate // 100)
    x = samples[::-1] if from_end else samples
    n = len(x) // hop
    if n == 0:
        return len(x)
    rms = np.sqrt((x[:n * hop].reshape(n, hop).astype(np.float64) ** 2).mean(axis=1))
    loud = np.flatnonzero(rms >= 10 ** (QUIET_DB / 20))
    return int(loud[0]) * hop if len(loud) else len(x)


def pauses(chunks: Sequence[np.ndarray], rate: int, pause: float) -> list[int]:
    """Samples of silence to put before each chunk (a sentence's samples) so that at least
    ``pause`` seconds pass between the last sound of one sentence and the first of the next
    (the silence already there counts); none before the first."""
    out = [0] * len(chunks)
    for k in range(1, len(chunks)):
        was = _quiet(chunks[k - 1], rate, True) + _quiet(chunks[k], rate, False)
        out[k] = max(0, int(round(pause * rate)) - was)
    return out


def joined(chunks: Sequence[np.ndarray], before: Sequence[int]) -> np.ndarray:
    """The chunks one after another, each after its ``before`` samples of silence (float32)."""
    parts = [p for c, n in zip(chunks, before) for p in (np.zeros(n, np.float32), np.asarray(c, np.float32))]
    return np.concatenate(parts) if parts else np.zeros(0, np.float32)


def sentence_pause() -> float:
    """The theme's least silence between two sentences a voice says in one phrase."""
    from scenes.theme import load_theme

    return load_theme().pronounce.sentence_pause
