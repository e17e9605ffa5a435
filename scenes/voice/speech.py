"""What a voice hands on: a phrase's timing to the plan, its samples to the sound track.

Why two records: the plan is pure and must be computable anywhere a beat is drawn (another
process, another machine), so it takes only :class:`Timing`, plain numbers; the samples are read
back only where the clip's sound track is made. A phrase is one caption event's text as the plan
has it (filled numbers, backticked code); a :class:`Word` is one of its whitespace-separated
tokens, so the plan can find when any part of its own text is said without knowing how the
voice pronounced it ("8/3" said as "eight thirds" is still one written token).

>>> t = Timing(1.2, (Word("loss", 0.0, 0.4), Word("4/9.", 0.5, 1.1)))
>>> t.start_of(5)
0.5
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Word:
    """A written token of a phrase and when it is said, in seconds from the phrase's start."""

    text: str
    start: float
    end: float


@dataclass(frozen=True)
class Timing:
    """How long a phrase takes, and a :class:`Word` for each of its tokens, in order."""

    duration: float
    words: tuple[Word, ...]

    def start_of(self, char: int) -> float:
        """When the token holding character ``char`` of the phrase (tokens joined by single
        spaces) starts to be said; past the end, the last token's start."""
        at = 0
        for w in self.words:
            at += len(w.text) + 1
            if char < at:
                return w.start
        return self.words[-1].start if self.words else 0.0


Speaker = Callable[[str], Timing]
"""What the plan is given: a phrase's text in, its timing out (the voice's, or reading time's)."""


@dataclass(frozen=True)
class Speech:
    """A phrase said: its timing and its samples (float32, mono, -1..1, at ``rate`` Hz)."""

    timing: Timing
    samples: np.ndarray
    rate: int
