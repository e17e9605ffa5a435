"""Node cards: one tensor (or internal autograd node) as a rounded box with its labels.

Why labels by detail level: a graph of a hundred nodes must stay readable, so the layout says
how much text fits (`Detail`) and any text whose fitted size falls under the theme's
`min_readable` is dropped instead of drawn as an illegible smudge; a value alone on its row
overhangs the card at that size instead, as a weight's must show every update.
"""

from __future__ import annotations

from manim import DOWN, RIGHT, RoundedRectangle, VGroup

from scenes.layout.compact import compact_text_scale
from scenes.layout.detail import Detail
from scenes.layout.place import Box
from scenes.theme import Theme
from scenes.theme_model import KIND_MEANING
from scenes.draw.record import tag
from scenes.draw.visuals.glyphs import label, shrink_to_fit


def kind_colour(kind: str, theme: Theme) -> str:
    """The colour of a layout item kind: its meaning's (``KIND_MEANING``), so a card is drawn in
    the colour the legend and docs/visual-grammar.md give what it is."""
    return theme.colour(KIND_MEANING.get(kind, "result"))


def card_tag(text: str, box: Box, theme: Theme, *, scale: float = 1.0) -> VGroup:
    """A small muted label for just outside a card (an op name, AccumulateGrad, a bucket's
    name), centred at the origin: `scenes.layout.label_spots.tag_centre` says where it goes.

    Why a halo: a tag sits in the card's margin, which is where the wavefront's glow ring is
    drawn when the card is lit, and where an arrow may pass when no clear spot is left. Muted
    text cannot be read on the glow ring, so the text stands on a copy of itself outlined in
    the background colour: whatever lies under a tag breaks off around its letters, as a legend
    interrupts a frame. The halo is one shape drawn before the text (not a background stroke
    per glyph, which would cut into the letter before it)."""
    least = theme.font_sizes.min_readable
    size = max(theme.font_sizes.card_flag * scale, least)
    m = tag(label(text, theme.fonts.sans, size, theme.colors.text_muted), "label", id=box.id)
    shrink_to_fit(m, box.w * theme.proportions.label_fill + theme.spacing.item_gap, box.h, least=least / size)
    bg = theme.colors.background
    halo = tag(m.copy(), None).set_fill(bg, opacity=1.0).set_stroke(
        bg, width=theme.strokes.tag_halo * max(scale, theme.proportions.min_stroke_scale), opacity=1.0)
    return VGroup(halo, m).move_to([0.0, 0.0, 0.0])


def node_card(
    box: Box,
    theme: Theme,
    *,
    name: str | None,
    value: str | None,
    grad_fn: str | None,
    requires_grad: bool = False,
    detail: Detail = Detail.FULL,
    scale: float = 1.0,
) -> VGroup:
    """A card centred on `box`: name on top, value in the middle, grad_fn (or the flag) below.

    `scale` is the layout scale; fonts shrink with it and then to fit the card. Submobjects are
    named attributes (`frame`, `name`, `value`, `sub`) so a scene can animate one of them.
    """
    f, z, q = theme.font_sizes, theme.sizes, theme.proportions
    colour = kind_colour(box.kind, theme)
    frame = RoundedRectangle(
        width=box.w, height=box.h, corner_radius=min(theme.radii.card * scale, box.h / 3),
        stroke_color=colour, stroke_width=theme.strokes.card * max(scale, q.min_stroke_scale),
        fill_color=theme.colors.card_fill, fill_opacity=theme.opacity.card_fill,
    ).move_to([box.x, box.y, 0])
    meaning = KIND_MEANING.get(box.kind, "result")  # what the log says it is: the colour must show it
    tag(frame, "card", id=box.id, meaning=meaning)
    card = VGroup(frame)
    card.frame = frame
    card.name = card.value = card.sub = None
    pad = z.card_pad * scale
    inner_w, inner_h = box.w - 2 * pad, box.h - 2 * pad
    if detail is Detail.NONE or inner_w <= 0 or inner_h <= 0:
        return card
    title = name if name is not None else (grad_fn.replace("Backward0", "").lower() if grad_fn else "")
    if box.kind == "internal":
        title = grad_fn or ""
    full = detail.shows_values
    sub = None
    if full and box.kind != "internal":
        sub = None if box.kind.startswith("leaf") else grad_fn  # a weight is told by its colour (the legend)
    # the name and the value share the top row (``yh  2/3``), the grad_fn takes the row below: two
    # rows stay readable (9 px at 480p) on cards small enough for a seven-layer graph
    top_row = [("name", title, theme.fonts.sans, f.card_name, colour)]
    shown_value = [("value", value, theme.fonts.mono, f.card_value, theme.colors.text)] \
        if full and value is not None and box.kind != "internal" else []
    apart = [("sep", theme.labels.name_value, theme.fonts.mono, f.card_value, theme.colors.text_muted)] \
        if shown_value else []  # one form on every card that shows both: ``x = 1``, ``z - 1 = 2``
    rows = [(top_row + apart + shown_value, q.card_name_row + q.card_value_row)]
    if sub:
        rows.append(([("sub", sub, theme.fonts.sans, f.card_fn, theme.colors.text_muted)], q.card_sub_row))
    if detail is Detail.DENSE:  # one row: name and value (a result's op is its tag, or its title)
        rows = [(top_row + apart + shown_value, 1.0)]
    elif detail is Detail.COMPACT:  # leaves: name over value; results: name and value over grad_fn
        second = shown_value if box.kind.startswith("leaf") else \
            [("sub", sub, theme.fonts.sans, f.card_fn, theme.colors.text_muted)] if sub else []
        rows = [(top_row + ([] if box.kind.startswith("leaf") else apart + shown_value), 1.0)] + \
            ([(second, 1.0)] if second else [])
    share = sum(r[1] for r in rows)
    top = box.y + inner_h / 2
    compact = detail.text_sized  # sized for its texts at the minimum size, times `compact_text_scale`
    k = compact_text_scale(scale, theme)
    # a compact card sized for its texts at 11 px (`compact_main_dims`) draws them so; one sized at 9 px, at 9 px
    sized = (inner_h * q.label_fill / (len(rows) * theme.layout.glyph_height)) if compact else 0.0
    floor = (f.min_readable_main if sized >= f.min_readable_main * k * (1 - 1e-3) else f.min_readable) * k  # boxes round
    gap = theme.sizes.token_pad * (compact_text_scale(scale, theme) if compact else scale) * 2
    for parts, part in rows:
        h = inner_h * part / share
        cy, top = top - h / 2, top - h
        made = []
        for role, text, font, size, col in parts:
            if not text:
                continue
            start = size if detail is Detail.NAME else size * scale if not compact \
                else floor * theme.layout.name_over if role == "name" else floor  # a lone name may fill its card
            made.append((role, label(text, font, start, col), start))
        if not made:
            continue
        row = VGroup(*(m for _, m, _ in made)).arrange(RIGHT, buff=_apart(made, gap, inner_w, h * q.label_fill, theme),
                                                       aligned_edge=DOWN)
        for k, (role, m, _) in enumerate(made):
            if role == "sep" and k + 1 < len(made):  # level with the value's digits, not on its baseline
                m.set_y(made[k + 1][1].get_center()[1])
        # a number alone on its row (a weight's, under its name) is never dropped: a longer one
        # (-0.2864, 5.52e-06) overhangs the card at the least readable size (not a rounding under
        # it); a printout (numbers: torch) is written under the code instead, as it always was
        lone_number = len(made) == 1 and made[0][0] == "value" and len(value or "") <= theme.layout.value_chars + 2
        factor = shrink_to_fit(row, inner_w, h * q.label_fill,
                               least=f.min_readable * (1 + 1e-9) / made[0][2] if lone_number else 0.0)
        if len(made) > 1 and any(st * factor < f.min_readable for r, _, st in made if r != "sep"):
            made = made[:1]  # the two do not fit side by side: the name alone (a printout goes to the console)
            row = VGroup(made[0][1].scale(1 / factor))
            factor = shrink_to_fit(row, inner_w, h * q.label_fill)
        row.move_to([box.x, cy, 0])
        for role, m, start in made:
            if start * factor >= f.min_readable:
                tag(m, {"value": "value", "sep": "separator"}.get(role, "label"), id=box.id,
                    meaning=meaning if role == "name" else None)
                setattr(card, role, m)
                card.add(m)
    if card.sub is None and card.name is not None:  # one row: it sits in the middle
        shown = VGroup(*(m for m in (card.name, getattr(card, "sep", None), card.value) if m is not None))
        shown.move_to([box.x, frame.get_center()[1], 0])
    return card


def _apart(made: list[tuple[str, VGroup, float]], gap: float, inner_w: float, inner_h: float, theme: Theme) -> float:
    """The gap between a row's texts: ``gap``; either side of a "=" (``labels.name_value``) as much
    of it as leaves the row's texts as large as they would be without the "=" (measured: the
    row as ``name  value`` fitted to ``inner_w`` by ``inner_h``), down to `name_value_gap` of it.
    Why: the layout sizes a card for a name, a gap and a value (`scenes.layout.compact`); a "="
    with a whole gap either side made a tight card's row shrink under the least readable size,
    and the value was dropped (cubic_fit3's ``b = -1.0000``), while a card with room to spare
    keeps ``L = 4/9`` spaced as ``L  4/9`` was."""
    sep = next((m for role, m, _ in made if role == "sep"), None)
    if sep is None:
        return gap
    texts = sum(m.width for _, m, _ in made)
    bare = texts - sep.width + gap  # the row without its "="
    high = max(m.height for _, m, _ in made)
    fit = min(1.0, inner_w / bare if bare > 0 else 1.0, inner_h / high if high > 0 else 1.0)
    room = inner_w / fit * (1 - 1e-6)  # as wide as the row may be before its texts shrink more (a hair less: rounding)
    return min(gap, max(gap * theme.proportions.name_value_gap, (room - texts) / 2))
