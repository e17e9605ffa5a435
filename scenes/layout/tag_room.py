"""How much room an op name over a card takes: its height, its gap to the card, and the clear
space past it. One place, so that the layout's reserved room (between layers, over the top
card, round the walk camera's view) and where the scene draws a tag agree.

Why the gap grows with the scale: a tag stands on a copy of itself outlined in the background
colour (its halo, `card_tag`), and the card's border is a stroke; both widen with the layout's
scale. A fixed gap let the halo eat into the border of a card drawn large (grad_accumulation's
``mul`` over y at scale 1.8: the border, broken under the word, read as underlining or striking
it), so the gap keeps the halo's edge off the border's by a share of the tag's height.

>>> from scenes.theme import load_theme
>>> t = load_theme()
>>> tag_gap(t, 0.5) == t.spacing.edge_clearance  # small cards: the theme's clearance is enough
True
>>> tag_gap(t, 1.8) > tag_halo(t, 1.8) + card_stroke(t, 1.8)  # large ones: the halo stays off the border
True
>>> badge_gap(t, 0.5) == t.spacing.edge_clearance, badge_gap(t, 1.8) == ring_reach(t, 1.8) > t.spacing.edge_clearance
(True, True)
>>> all(op_tag_gap(t, k) > ring_reach(t, k) and op_tag_gap(t, k) >= tag_gap(t, k) for k in (0.3, 0.8, 1.0, 1.8))
True
"""

from __future__ import annotations

from scenes.theme import Theme

STROKE_UNIT = 0.01
"""Cairo draws stroke_width 1 as about 1/100 scene unit (a unit conversion)."""


def tag_height(theme: Theme, scale: float = 1.0) -> float:
    """An op name's height at ``scale``, as `card_tag` sizes it (never under `min_readable`)."""
    f = theme.font_sizes
    return theme.layout.glyph_height * max(f.card_flag * scale, f.min_readable)


def card_stroke(theme: Theme, scale: float = 1.0) -> float:
    """How far a card's border reaches outside its outline at ``scale``: half its stroke."""
    return theme.strokes.card * max(scale, theme.proportions.min_stroke_scale) * STROKE_UNIT / 2


def tag_halo(theme: Theme, scale: float = 1.0) -> float:
    """How far a tag's halo reaches outside its letters at ``scale``: half its stroke."""
    return theme.strokes.tag_halo * max(scale, theme.proportions.min_stroke_scale) * STROKE_UNIT / 2


def tag_gap(theme: Theme, scale: float = 1.0) -> float:
    """The gap between a card's outline and an op name by it at ``scale``: the card's border and
    the tag's halo, and ``proportions.tag_gap`` of the tag's height between them; no less than
    ``spacing.edge_clearance``."""
    inked = card_stroke(theme, scale) + tag_halo(theme, scale) + theme.proportions.tag_gap * tag_height(theme, scale)
    return max(theme.spacing.edge_clearance, inked)


def tag_reach(theme: Theme, scale: float = 1.0) -> float:
    """How far an op name over a card reaches past the card's top at ``scale``: its gap to the
    card (`tag_gap`), its height, and ``spacing.edge_clearance`` past it."""
    return tag_gap(theme, scale) + tag_height(theme, scale) + theme.spacing.edge_clearance


def ring_reach(theme: Theme, scale: float = 1.0) -> float:
    """How far the walk's ring round a box reaches outside the box at ``scale``: its pad and half
    its stroke, both widening with the scale as `scenes.draw.visuals.wavefront.Rings` draws them."""
    k = max(scale, theme.proportions.min_stroke_scale)
    return (theme.sizes.wavefront_pad + theme.strokes.wavefront * STROKE_UNIT / 2) * k


def badge_gap(theme: Theme, scale: float = 1.0) -> float:
    """The gap between a box and a badge waiting beside it at ``scale``: ``spacing.edge_clearance``,
    and no less than the ring the box gets at its visit reaches (`ring_reach`): a badge on the
    ring reads as cut by it (detach_stop's ``12.00`` beside ``a``'s bucket at scale 1.06)."""
    return max(theme.spacing.edge_clearance, ring_reach(theme, scale))


def op_tag_gap(theme: Theme, scale: float = 1.0) -> float:
    """The gap at which a tag is drawn by its card at ``scale``: `tag_gap`, and no less than the
    ring the card gets at its visit reaches (`ring_reach`) and ``proportions.ring_tag_gap`` of
    the tag's height past it. At `tag_gap` alone the ring's ink ran along the foot of the word,
    its halo cutting the ring there (backward_walk's ``mul`` over yh and z read struck through).
    The layout's room for a tag (`tag_reach`) keeps `tag_gap`: the few pixels more come out of
    the clearance past the tag, whose glyph box is lower than `tag_height` besides."""
    ringed = ring_reach(theme, scale) + theme.proportions.ring_tag_gap * tag_height(theme, scale)
    return max(tag_gap(theme, scale), ringed)
