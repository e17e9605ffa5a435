"""The graph's colour legend: what each colour means, once, instead of a label on every card.

Why: ``requires_grad=True`` written small on each weight's card would be unreadable (about 5 px
at 480p); one colour per meaning (a weight, an input that needs no gradient, a result, the loss,
a gradient flowing) and a legend that names each colour say it once, large enough to read.
"""

from __future__ import annotations

from collections.abc import Iterator

from manim import DOWN, LEFT, RIGHT, RoundedRectangle, VGroup

from scenes.theme import Theme
from scenes.draw.visuals.glyphs import label


def legend(entries: list[tuple[str, str]], theme: Theme, *, across: bool = False, columns: int = 1,
           size: float | None = None, wrap: bool = False) -> VGroup:
    """(colour, words) entries as swatch-and-words rows, stacked (or side by side when
    ``across``; or, with ``columns`` over 1, in that many columns, read row by row: short and
    wide, for the strip the code pane frees in a tall frame), centred at the origin; its words at
    ``size`` (None: the theme's ``card_flag``). ``wrap``: an entry wider than the others need
    (`_wrapped`) on two lines, its swatch by the first."""
    t = theme
    size = t.font_sizes.card_flag if size is None else size
    rows = []
    # one swatch size for every row, from a line's full height (ascender to descender): sized by
    # each row's own words ("loss" against "weight (requires_grad)"), the swatches differed in
    # width and the words started 2-5 px apart at 480p
    high = label("Ag(", t.fonts.sans, size, t.colors.text_muted).height
    lines = _wrapped([words for _, words in entries], theme, size) if wrap else [(w,) for _, w in entries]
    for (colour, _), words in zip(entries, lines):
        said = [label(w, t.fonts.sans, size, t.colors.text_muted) for w in words]
        text = said[0] if len(said) == 1 else VGroup(*said).arrange(DOWN, aligned_edge=LEFT, buff=t.sizes.token_pad)
        swatch = RoundedRectangle(width=high * 1.4, height=high, corner_radius=t.radii.token / 2,
                                  stroke_color=colour, stroke_width=t.strokes.card * 0.6,
                                  fill_color=t.colors.card_fill, fill_opacity=1.0)
        rows.append(VGroup(swatch, text).arrange(RIGHT, buff=t.sizes.token_pad * 1.5))
        swatch.set_y(said[0].get_y())  # by its first line, as an entry on one line has it
    pad = t.sizes.token_pad * 3
    # a row's entries share a baseline; a column's start at one left edge (aligned_edge=LEFT in a
    # row would put every entry's left edge on the first's, drawing the words over each other)
    group = VGroup(*rows)
    if columns > 1 and not across:  # each column's entries start at one left edge, as a column's do
        group.arrange_in_grid(cols=columns, buff=(pad * 2, pad * 0.6), cell_alignment=LEFT)
    else:
        group.arrange(RIGHT if across else DOWN, aligned_edge=DOWN if across else LEFT, buff=pad * (2 if across else 0.6))
    return group.move_to([0.0, 0.0, 0.0])


def _wrapped(words: list[str], theme: Theme, size: float) -> list[tuple[str, ...]]:
    """Each entry's lines: on two (split at the space that leaves its longer line shortest) where
    it is wider on one than the widest line any entry needs (one split, or the entry itself where
    it has no space); else on one. Why: "weight (requires_grad)" alone sets the legend's width,
    a third wider than its next entry ("weight" over "(requires_grad)": grad_accumulation 9:16)."""
    t = theme

    def wide(text: str) -> float:
        return float(label(text, t.fonts.sans, size, t.colors.text_muted).width)

    def split(text: str) -> tuple[str, ...]:
        cuts = [i for i, ch in enumerate(text) if ch == " "]
        if not cuts:
            return (text,)
        i = min(cuts, key=lambda i: max(wide(text[:i]), wide(text[i + 1:])))
        return (text[:i], text[i + 1:])

    splits = [split(w) for w in words]
    need = max(max(wide(line) for line in lines) for lines in splits)
    return [lines if wide(w) > need + 1e-9 else (w,) for w, lines in zip(words, splits)]


def smaller_legends(entries: list[tuple[str, str]], theme: Theme, least: float) -> Iterator[VGroup]:
    """The legend's shapes a frame tries where neither its column nor its row at the theme's size
    finds a corner, in order: in two columns (short: under the printout, in the code's column), at
    that size, then at ``least`` (the least readable size); a column at ``least``; three columns,
    then a row, wide enough to reach into the graph's region (three columns at the theme's size
    there, across leaf_nodes 16:9's foot, kept the whole graph's grow at the takeaway to 35 % of
    the frame). Why: beside the pane (16:9) leaf_nodes' graph and printout leave a corner only a
    little too short, missing_gradient's graph and checklist one a little too narrow, and the
    captions read the colours from the first card on. Built one at a time, as they are tried."""
    size = theme.font_sizes.card_flag
    for s, c in ((size, 2), (least, 2), (least, 1), (size, 3), (least, 3)):
        yield legend(entries, theme, columns=c, size=s)
    yield legend(entries, theme, across=True, size=least)
    yield legend(entries, theme, size=least, wrap=True)
