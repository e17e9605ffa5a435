"""The arithmetic of a visit, written beside its node: ``4/3 × 1/3 = [4/9]``, ``3 + 3 = 6``.

Why its own builder: the walk's one rule (the gradient from above times the local derivative)
is only taught if the product is seen being made; the product is drawn as a gradient token, the
same pill that then rides the edge, so the viewer sees the number leave the formula.
"""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, VGroup

from scenes.draw.record import tag
from scenes.theme import Theme
from scenes.draw.visuals.glyphs import label
from scenes.draw.visuals.token import grad_token


def formula(text: str, theme: Theme, *, product: str | None = None, muted: bool = False,
            scale: float = 1.0, size: float | None = None) -> VGroup:
    """One line of arithmetic in the gradient's colour (``muted``: the rule's words, in the
    muted text colour), ending in a token holding ``product`` when given. Attribute
    ``product`` is that token (or None), made at the layout ``scale`` as the token that rides
    away from it is, so the one starts where the other was drawn. ``size``: the words' font
    size instead of the theme's (a note set at the least readable size to fit beside its card, or
    as large as the cards' values where they are drawn large); the token as much further off as
    the words are set larger than the theme's."""
    f, c = theme.font_sizes, theme.colors
    words = label(text, theme.fonts.sans if muted else theme.fonts.mono, size or (f.card_flag if muted else f.note),
                  c.text_muted if muted else theme.colour("gradient"))
    if not muted:  # the arithmetic of a gradient: the gradient's colour, said so for the record
        tag(words, "label", meaning="gradient")
    row = VGroup(words)
    row.product = None
    if product is not None:
        apart = theme.sizes.token_pad * max(1.0, (size or f.note) / f.note)  # as much wider as larger words
        pill = grad_token(product, theme, scale=scale).next_to(words, RIGHT, buff=apart)
        row.add(pill)
        row.product = pill
    return row


def note_block(rows: list[VGroup], theme: Theme, owner: str | None = None) -> VGroup:
    """Rows stacked top to bottom, left-aligned, centred at the origin. ``owner``: the card or
    bucket whose note it is: each row's words are recorded as a ``note`` of ``note:OWNER``, so
    that a note drawn nearer another card than its own can be found (`render inspect`)."""
    for row in rows if owner is not None else []:
        tag(row.submobjects[0], "note", id=f"note:{owner}")
    block = VGroup(*rows).arrange(DOWN, aligned_edge=LEFT, buff=theme.sizes.token_pad * 1.5)
    return block.move_to([0.0, 0.0, 0.0])
