"""A forward arrow turning round into its gradient arrow, whole on every frame.

Why not a `Transform` of the arrow into its flipped copy: the flipped path has the same points in
the reverse order, so a pointwise morph takes each point across to its mirror: the curve shrinks
from both ends into a hook around its middle, away from both cards, and grows back the other way
(backward_graph's w2 -> yh, review 2). Here the line stays where it is: the gradient's colour
sweeps along it from the card the arrow pointed at back to the card it came from (the way the
gradient will flow), the forward colour giving way ahead of it, while the old head fades out at
one end and the new one fades in at the other. So the route touches both cards throughout.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from manim import Animation, VMobject, smooth

from scenes.draw.record import ATTR, tag_of


def _segments(body: Any) -> list[VMobject]:
    """The drawn pieces of a body in path order: itself, or a dashed body's dashes."""
    return [m for m in body.family_members_with_points() if isinstance(m, VMobject)]


def _show_upto(parts: list[VMobject], whole: list[np.ndarray], upto: float) -> None:
    """Each of ``parts`` (one path cut in pieces, in order) shows the share of its whole points
    ``whole`` that lies within the first ``upto`` of the path (pieces counted as equal shares)."""
    n = len(parts)
    for i, (part, pts) in enumerate(zip(parts, whole)):
        share = min(1.0, max(0.0, upto * n - i))
        model = VMobject().set_points(pts)
        part.pointwise_become_partial(model, 0.0, share) if share > 0 else part.set_points(pts[:1].repeat(4, axis=0))


class TurnRound(Animation):
    """``arrow`` (an `edge_arrow` group: ``body``, ``tip``) becomes ``new``, the same route drawn
    the other way, without leaving its line: ``new``'s body is drawn from its start (where
    ``arrow`` pointed) over ``arrow``'s, which gives way from its end; the heads cross-fade.
    ``new`` is read when the play begins, so a dim built later in the same step
    (``StepScratch.turning``) fades it. At the end ``arrow`` holds ``new``'s parts and tags:
    it stays the mobject the graph keeps."""

    def __init__(self, arrow: Any, new: Any, **kwargs: Any) -> None:
        self.new = new
        super().__init__(arrow, rate_func=kwargs.pop("rate_func", smooth), **kwargs)

    def begin(self) -> None:
        arrow, new = self.mobject, self.new.copy()
        self.old_body, self.old_tip = arrow.body, arrow.tip
        self.new_body, self.new_tip = new.body, new.tip
        self.old_parts, self.new_parts = _segments(self.old_body), _segments(self.new_body)
        self.old_whole = [p.points.copy() for p in self.old_parts]
        self.new_whole = [p.points.copy() for p in self.new_parts]
        self.old_fill = self.old_tip.get_fill_opacity()
        self.new_fill = self.new_tip.get_fill_opacity()
        self.new_tag = tag_of(self.new)
        arrow.submobjects = [self.old_body, self.new_body, self.old_tip, self.new_tip]
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        a = self.rate_func(alpha)
        _show_upto(self.new_parts, self.new_whole, a)  # from where the arrow pointed ...
        _show_upto(self.old_parts, self.old_whole, 1.0 - a)  # ... the old line giving way to it
        self.old_tip.set_fill(opacity=self.old_fill * (1.0 - a))
        self.new_tip.set_fill(opacity=self.new_fill * a)

    def finish(self) -> None:
        super().finish()
        arrow = self.mobject
        for part, pts in zip(self.new_parts, self.new_whole):
            part.set_points(pts)
        arrow.submobjects = [self.new_body, self.new_tip]
        arrow.body, arrow.tip = self.new_body, self.new_tip
        if self.new_tag is not None:
            setattr(arrow, ATTR, self.new_tag)
