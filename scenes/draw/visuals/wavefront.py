"""Wavefront highlight: a glow outline around the boxes the backward walk is on.
Why outlines around layout boxes: the highlight must not cover labels, and one call can light a
single node (a visit) or a whole layer (the reverse-mode sweep)."""

from __future__ import annotations

from collections.abc import Iterable

from manim import RoundedRectangle, VGroup

from scenes.draw.record import tag
from scenes.draw.visuals.edges import dashed
from scenes.layout.place import Box
from scenes.theme import Theme

RingSize = tuple[float, float, bool, float]
"""What a ring's shape depends on besides the theme: the box's width and height, whether the box
is a bucket (an open ring) and the layout's scale."""


class Rings:
    """The glow rings of one clip's scene, each size built once and copied after.

    Why: Manim rounds a RoundedRectangle's corners by building arcs (about 7 ms a ring at 480p),
    and the walk and the lights ring the same few cards again and again (backward_walk: 23 rings
    of 6 sizes). A ring is built at the origin and then moved into place, so a copy of the one
    built before, moved to the same place, has the very same points and colours: no frame changes.
    Kept by the scene (``DrawContext.rings``), so it lives as long as one clip's drawing."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self._built: dict[RingSize, RoundedRectangle] = {}

    def around(self, boxes: Iterable[Box], *, scale: float = 1.0) -> VGroup:
        """One glowing rounded outline per box, padded by the theme's `wavefront_pad`. Behind a card
        its fill shows as a halo round the card's own; a bucket is open (its inside is its level),
        so behind one it has none: a filled glow read as liquid in an empty bucket
        (docs/visual-grammar.md, "A cleared gradient")."""
        group = VGroup()
        for b in boxes:
            size = (b.w, b.h, b.kind == "bucket", scale)
            ring = self._built.get(size)
            if ring is None:
                ring = self._built[size] = self._ring(*size)
            group.add(ring.copy().move_to([b.x, b.y, 0]))
        return group

    def skipped(self, box: Box, *, scale: float = 1.0) -> VGroup:
        """The mark round a card autograd skips (``x``, the target ``y``) while a caption points
        at it: the ring's outline, dashed as a path no gradient takes is, in the input's grey and
        with no glow, never the walk's yellow: "x and y are skipped" ringed them as the walk
        rings a node it visits (review 6 item 6; docs/visual-grammar.md). Tagged a ``ring`` of
        the card, meaning ``input``: a text beside the card keeps off it as off the walk's."""
        theme = self.theme
        k = max(scale, theme.proportions.min_stroke_scale)
        outline = self.around([box], scale=scale)[0].copy()
        outline.set_fill(opacity=0.0).set_stroke(theme.colour("input"), width=theme.strokes.card * k)
        return tag(VGroup(dashed(outline, theme.sizes.arrow_tip * k)), "ring", id=box.id, meaning="input")

    def _ring(self, w: float, h: float, bucket: bool, scale: float) -> RoundedRectangle:
        """The ring round a ``w`` x ``h`` box, at the origin."""
        theme = self.theme
        k = max(scale, theme.proportions.min_stroke_scale)
        pad = theme.sizes.wavefront_pad * k
        return RoundedRectangle(width=w + 2 * pad, height=h + 2 * pad,
                                corner_radius=min(theme.radii.card * k + pad, (h + 2 * pad) / 2),
                                stroke_color=theme.colour("now"), stroke_width=theme.strokes.wavefront * k,
                                fill_color=theme.colour("now"),
                                fill_opacity=0.0 if bucket else theme.opacity.wavefront_glow)


def wavefront(boxes: Iterable[Box], theme: Theme, *, scale: float = 1.0) -> VGroup:
    """The rings of :meth:`Rings.around`, built afresh (a caller drawing many keeps a ``Rings``)."""
    return Rings(theme).around(boxes, scale=scale)
