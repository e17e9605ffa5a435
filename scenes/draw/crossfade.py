"""One thing replaced by another in the same place: the old fades out, then the new fades in.

Not both at once: in a simultaneous cross-fade two texts in one place (a card's old and new
names, one code window and the next) are drawn over each other and read as a smear. In a
`Succession` each has half the play's time, and only one of them shows at a time.
"""

from __future__ import annotations

from typing import Any, Callable

from manim import FadeIn, FadeOut, Succession, smooth


def crossfade(old: Any, new: Any) -> Any:
    """``old`` fades out in the first half of the play, ``new`` fades in in the second."""
    return Succession(FadeOut(old), FadeIn(new))


def first_half(t: float) -> float:
    """A rate done by half time: what leaves is gone before what comes moves or shows."""
    return smooth(min(1.0, 2.0 * t))


def second_half(t: float) -> float:
    """A rate still until half time, then smooth: what comes, begun at once so that it is
    invisible from the first frame (a `Succession` shows it whole until its turn)."""
    return smooth(max(0.0, 2.0 * t - 1.0))


def at_half(t: float) -> float:
    """Nothing until half time, then all: a cut, for two things of the same size in one place
    of which exactly one must show on every frame."""
    return 0.0 if t < 0.5 else 1.0


def in_second_half(rate: Callable[[float], float]) -> Callable[[float], float]:
    """``rate`` as it was, run in the second half of the play and still until then: what a
    step brings in while something leaves by `first_half`."""
    return lambda t: rate(max(0.0, 2.0 * t - 1.0))


def phase(i: int, n: int) -> Callable[[float], float]:
    """A rate that runs smoothly in the ``i``-th of ``n`` equal parts of the play (0-based) and
    is still before and done after: steps that must not overlap, in one play."""
    return lambda t: smooth(min(1.0, max(0.0, n * t - i)))
