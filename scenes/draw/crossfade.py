"""One thing replaced by another in the same place, and the rates that time such changes.

Not both at once: in a simultaneous cross-fade two texts in one place (a card's old and new
names, one code window and the next) are drawn over each other and read as a smear. Nor out
and then in: a thing that stays itself (a card, the caption bar, a counter) would be gone for a
moment and read as a blink. So :func:`cut` shows exactly one of the two on every frame.
"""

from __future__ import annotations

from typing import Any, Callable

from manim import FadeIn, FadeOut, smooth


def cut(old: Any, new: Any) -> list[Any]:
    """``old`` replaced by ``new`` at half the play, with no frame showing neither: for a thing
    that stays itself while its words change (a card becoming its grad_fn, a caption's words),
    which a fade out and in would make blink."""
    return [FadeOut(old, rate_func=at_half), FadeIn(new, rate_func=at_half)]


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


def within(begin: float, length: float, play: float, rate: Callable[[float], float]) -> Callable[[float], float]:
    """``rate`` run from ``begin`` seconds into a play of ``play`` seconds for ``length`` (cut to
    the play's end), still before and done after: an animation at its own time and length in a
    longer step (a caption's fade while the walk's camera moves).

    >>> r = within(0.5, 0.25, 1.0, lambda t: t)
    >>> r(0.25), r(0.625), r(0.9)
    (0.0, 0.5, 1.0)
    """
    a = min(max(begin / play, 0.0), 1.0) if play > 0 else 0.0
    share = min(length / play, 1.0 - a) if play > 0 else 0.0
    return lambda t: rate(min(1.0, max(0.0, (t - a) / share))) if share > 0 else rate(1.0 if t >= a else 0.0)


def phase(i: int, n: int) -> Callable[[float], float]:
    """A rate that runs smoothly in the ``i``-th of ``n`` equal parts of the play (0-based) and
    is still before and done after: steps that must not overlap, in one play."""
    return lambda t: smooth(min(1.0, max(0.0, n * t - i)))


def at_end(t: float) -> float:
    """Nothing until the animation's last instant, then all: a badge shown as its token lands."""
    return 1.0 if t >= 1.0 - 1e-9 else 0.0


def after_wait(wait: float | None) -> Callable[[float], float]:
    """A ride's rate (Manim's ``smooth``) that first waits ``wait`` of its time (None: none).

    >>> [float(after_wait(w)(t)) for w, t in ((0.5, 0.25), (0.5, 1.0), (None, 0.5))]
    [0.0, 1.0, 0.5]
    """
    w = wait or 0.0
    return lambda t: smooth(min(1.0, max(0.0, (t - w) / (1.0 - w))))


PANE_CLEARED = 0.75
"""The share of the walk's pane step after which the pane's old place is clear (`after_the_pane`)."""
PANE_LEAVES = 0.1
"""The share of the pane's step back by which what stood in its place is gone (`before_the_pane`)."""


def after_the_pane(t: float) -> float:
    """The walk's legend coming in where the code pane stepped aside from: still while the pane's
    lines slide up through its place and the backdrop closes up over it (`scroll.reflow`, over the
    whole step), then a quick fade in the step's last quarter."""
    return float(smooth(max(0.0, (t - PANE_CLEARED) / (1.0 - PANE_CLEARED))))


def before_the_pane(t: float) -> float:
    """The walk's legend going as the whole pane comes back: gone in the step's first tenth,
    before the backdrop opens out and the lit line slides down over its place."""
    return float(smooth(min(1.0, t / PANE_LEAVES)))
