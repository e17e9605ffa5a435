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

_ALPHAS = ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas")


class RideBehind(MoveAlongPath):
    """`MoveAlongPath` of ``mob`` along ``path``, not drawn while the part of the way done (a
    fraction of its length, as `MoveAlongPath` takes it) is inside one of ``hidden``."""

    def __init__(self, mob: Mobject, path: VMobject, hidden: Sequence[tuple[float, float]] = (),
                 **kwargs: object) -> None:
        self.hidden = tuple(hidden)
        self._alphas: list[tuple[np.ndarray, np.ndarray]] = []
        self._shown = True
        super().__init__(mob, path, **kwargs)

    def begin(self) -> None:
        self._alphas = [(arr, arr[:, 3].copy()) for m in self.mobject.get_family()
                        for name in _ALPHAS if len(arr := getattr(m, name, np.zeros((0, 4))))]
        self._shown = True
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
        shown = not any(lo <= done <= hi for lo, hi in self.hidden)
        if shown != self._shown:
            for arr, alphas in self._alphas:
                arr[:, 3] = alphas if shown else 0.0
            self._shown = shown
