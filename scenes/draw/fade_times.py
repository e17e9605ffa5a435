"""When the parts of a walk camera's move happen: the glide's pace (`settled`), the fades of
what leaves and what comes back around it (`fades_by`, `comes_from`), as shares of the play.
Pure functions of the play's clock; the animations are :mod:`scenes.draw.glide`'s, the ways
the picture takes :mod:`scenes.draw.ways`'. And whether the walk's notes go as a move starts
(`before_the_move`) or move with the graph, still explained then (`still_said`).
"""

from __future__ import annotations

from collections.abc import Callable

from manim import Mobject, smooth
from manim.utils.rate_functions import linear

SETTLE = 0.05
"""The share of its part a move waits for: the frame after the end of a fade never shows a
half-faded shape beside one that has begun to move over it."""


CAMERA_FADES = 0.35
"""The share of a walk camera's move its fades take between them (what leaves, what comes
back): the rest is the move, long enough that nothing crosses more than a card's width a frame
(`scenes.render.continuity.jumps`) in the pauses it fits in."""


def span(t0: float, t1: float, rate: Callable[[float], float] = smooth) -> Callable[[float], float]:
    """A smooth ``rate`` from ``t0`` to ``t1`` of the play, still before and done after."""
    return lambda t: rate(min(1.0, max(0.0, (t - t0) / (t1 - t0)))) if t1 > t0 else float(t >= t0)


def settled(t0: float, t1: float) -> Callable[[float], float]:
    """The camera's glide from ``t0`` to ``t1`` of the play, begun `SETTLE` of that part into
    it, at an even pace: the way eases itself, each of its parts over its own time
    (`scenes.draw.ways.ease`, whose fastest frame is 1.6 times the mean), so that a move fitted
    into a short pause carries no card further than its width in a frame, and none sets off at
    speed."""
    return span(t0 + SETTLE * (t1 - t0), t1, linear)


def gone_by(rate: Callable[[float], float], until: float, steps: int = 96) -> float:
    """The first share of the play by which ``rate`` (a glide's, from the play's share to how far
    along its way) has come ``until`` of the way: what leaves the view over a glide is faded by
    then (`glide_out`).

    >>> from manim.utils.rate_functions import linear
    >>> gone_by(span(0.2, 0.8, linear), 0.5)
    0.5
    """
    return next((k / steps for k in range(steps + 1) if rate(k / steps) >= until - 1e-9), 1.0)


FADE_LEAST = 0.5
"""The least share of a camera's move over which what it takes out of view fades (`fades_by`):
at least 0.3 s of the shortest move (``camera_least``), three frames at 10 a second, so that no
frame takes half of its opacity."""


def fades_by(rate: Callable[[float], float], until: float, met: float = 1.0) -> float:
    """The share of the play by which a shape that leaves the view over a glide (``rate``: the
    glide's, from the play's share to how far along its way) has faded out: by where it has come
    ``until`` of the way (`gone_by`: where it would pass over a pane or the caption, or out of the
    frame), but over `FADE_LEAST` of the play at least, unless a shape that moves meets it sooner
    (``met``, a share of the play): `glide_out` holds it at ``until`` of the way while it fades.

    >>> from manim.utils.rate_functions import linear
    >>> fades_by(span(0.0, 1.0, linear), 0.75), fades_by(span(0.0, 1.0, linear), 1 / 16), fades_by(span(0.0, 1.0, linear), 0.0, met=0.25)
    (0.75, 0.5, 0.25)
    """
    return max(gone_by(rate, until), min(FADE_LEAST, met))


def comes_from(back: float, met: float) -> float:
    """The share of a camera's move from which what it brings back where the glide cannot carry
    it in view (`shows_from` says None: it clears the caption or a pane only as the glide ends)
    fades in where it lands (`hop`): once no shape that moves meets it there (``met``,
    `last_met`), over `FADE_LEAST` of the move at most, and from ``back`` (where the glide
    ends) at the latest (backward_walk 16:9 at 26.33 s: x, w1 and w2 came up from under the
    caption and faded in after the glide, in 0.2 s eased: 0.43 to 0.97 in one frame).

    >>> comes_from(2 / 3, 0.2), comes_from(2 / 3, 0.6), comes_from(2 / 3, 0.9)
    (0.5, 0.6, 0.6666666666666666)
    """
    return min(back, max(1.0 - FADE_LEAST, met))


GONE_BY = 1 / 12
"""The part of the camera's move back by which the last visit's note has faded out: one frame
at 15 per second, while the graph under it has moved by less than a pixel or two."""


def before_the_move(t: float) -> float:
    """A fade done by `GONE_BY` of the move."""
    return min(1.0, t / GONE_BY)


def still_said(m: Mobject, at: float | None) -> bool:
    """Whether the walk's mark ``m`` is still explained at ``at`` (a move's start; None: never): a
    visit's note whose caption is still up (its ``explained_until``, `visit_note.explained_past`),
    or a bucket's sum that a caption up then or later names (its ``named_until``,
    `BucketNotes.sums_note`). Going home, the walk's camera moves such a mark with the graph
    where it shows there, rather than fading it as the move starts: the walk draws a note as much
    larger as its camera draws the graph (`VisitNotes.place`), so at home it reads as one the walk
    writes there (dynamic_graph 16:9: the first h's rule went at 119.33 s, under "The first h is
    w times w ..." up to 121.17 s, as the camera went home for w's bucket)."""
    return at is not None and max(getattr(m, "explained_until", 0.0), getattr(m, "named_until", 0.0)) > at + 1e-6
