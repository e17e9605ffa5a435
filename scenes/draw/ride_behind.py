"""A token rides its way, hidden where the way passes behind something on screen.

Why: a gradient token's way goes round the words and cards beside its edge (`ride_path`), but
where the spot it must reach is boxed in there is no way round, and a pill moving over "mul" or
a note's row, even for two frames, is two texts on top of each other. Along such a way the
token is not drawn where it covers something (`hidden_spans`), as if it passed behind it, and
is drawn again, as it was, once it is clear.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import Mobject, MoveAlongPath, VMobject

from scenes.draw.collisions import TOUCH
from scenes.draw.frame_spots import bounds
from scenes.draw.reading import READS_ON
from scenes.theme import Rect

_ALPHAS = ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas")


class RideBehind(MoveAlongPath):
    """`MoveAlongPath` of ``mob`` along ``path``, not drawn while the part of the way done (a
    fraction of its length, as `MoveAlongPath` takes it) is inside one of ``hidden``. ``under``:
    the rectangle of the product it sets off from, drawn over it (`emerging`): the copy comes
    out from under it, as opaque as it is clear of it, so the two pills never read as one
    smeared number (issue 39: ``4/4/3`` as a 4/3 set off from its note)."""

    def __init__(self, mob: Mobject, path: VMobject, hidden: Sequence[tuple[float, float]] = (),
                 under: Rect | None = None, **kwargs: object) -> None:
        self.hidden = tuple(hidden)
        self.under = under
        self._alphas: list[tuple[np.ndarray, np.ndarray]] = []
        self._shown = 1.0
        super().__init__(mob, path, **kwargs)

    def begin(self) -> None:
        self._alphas = [(arr, arr[:, 3].copy()) for m in self.mobject.get_family()
                        for name in _ALPHAS if len(arr := getattr(m, name, np.zeros((0, 4))))]
        self._shown = 1.0
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        """The token at ``alpha`` of its way, placed from where it started, not from where the
        last frame left it (``MoveAlongPath`` shifts it from there): its points then depend on
        ``alpha`` alone, so a beat taken to its end without drawing (``scenes.video.player.apply``)
        leaves them bit for bit where drawing it does, and the picture digest (rounded to a
        millionth, which a coordinate on a half millionth straddles) is the same both ways."""
        point = self.path.point_from_proportion(self.rate_func(alpha))
        shift = point - self.starting_mobject.get_center()
        for m, start in zip(self.mobject.get_family(), self.starting_mobject.get_family(), strict=True):
            m.points = start.points + shift
        done = self.rate_func(alpha)
        shown = 0.0 if any(lo <= done <= hi for lo, hi in self.hidden) else 1.0
        if self.under is not None and done < 1.0:  # landed: drawn whole wherever it is
            shown *= emerging(bounds(self.mobject), self.under)
        if shown != self._shown:
            for arr, alphas in self._alphas:
                arr[:, 3] = alphas * shown
            self._shown = shown


def emerging(tok: Rect, under: Rect) -> float:
    """How opaque a token with the rectangle ``tok`` is drawn coming out from under ``under``
    (left, bottom, right, top): the square of the share of it that is clear, from 0 (right
    under it) to 1 (out): the cut-off part out from under (``/3`` of a 4/3) stays faint until
    the whole pill is nearly out, and reads as the copy's motion, not as a number. ``under``
    being a product's reading run (`reading.reading_run`): not drawn at all while it starts past
    the product within the run, level with it (a third of its height), where `reading.reads_with`
    reads the two as one number (grad_accumulation 16:9's 3 rising off its row's end, ``= 3 3``).

    >>> run = (0, 0, 5, 1)  # a product 1 wide and high, and the run right of it
    >>> emerging((0, 0, 1, 1), run), emerging((0, -0.75, 1, 0.25), run), emerging((5, 0, 6, 1), run)
    (0.0, 0.5625, 1.0)
    >>> emerging((1.5, 0, 2.5, 1), run), emerging((1.5, -0.75, 2.5, 0.25), run)  # level past it; below
    (0.0, 0.5625)
    """
    dx = max(0.0, min(tok[2], under[2]) - max(tok[0], under[0]))
    dy = max(0.0, min(tok[3], under[3]) - max(tok[1], under[1]))
    h = under[3] - under[1]
    if dy >= h / 3 and under[2] - READS_ON * h - TOUCH <= tok[0] < under[2]:  # past the product, level with it
        return 0.0
    area = max((tok[2] - tok[0]) * (tok[3] - tok[1]), 1e-12)
    return max(0.0, 1.0 - dx * dy / area) ** 2
