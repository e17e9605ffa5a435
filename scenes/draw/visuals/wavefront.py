"""Wavefront highlight: a glow outline around the boxes the backward walk is on.
Why outlines around layout boxes: the highlight must not cover labels, and one call can light a
single node (a visit) or a whole layer (the reverse-mode sweep)."""

from __future__ import annotations

from collections.abc import Iterable

from manim import RoundedRectangle, VGroup

from scenes.layout.place import Box
from scenes.theme import Theme


def wavefront(boxes: Iterable[Box], theme: Theme, *, scale: float = 1.0) -> VGroup:
    """One glowing rounded outline per box, padded by the theme's `wavefront_pad`. Behind a card
    its fill shows as a halo round the card's own; a bucket is open (its inside is its level),
    so behind one it has none: a filled glow read as liquid in an empty bucket (docs/visual-grammar.md,
    "A cleared gradient")."""
    k = max(scale, theme.proportions.min_stroke_scale)
    pad = theme.sizes.wavefront_pad * k
    group = VGroup()
    for b in boxes:
        r = RoundedRectangle(width=b.w + 2 * pad, height=b.h + 2 * pad,
                             corner_radius=min(theme.radii.card * k + pad, (b.h + 2 * pad) / 2),
                             stroke_color=theme.colour("now"), stroke_width=theme.strokes.wavefront * k,
                             fill_color=theme.colour("now"),
                             fill_opacity=0.0 if b.kind == "bucket" else theme.opacity.wavefront_glow)
        group.add(r.move_to([b.x, b.y, 0]))
    return group
