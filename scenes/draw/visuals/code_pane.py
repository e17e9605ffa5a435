"""Code pane: the program source in monospace, with a bar on the running line and an optional
column sub-span (the `(yh - y)` inside `L = (yh - y)**2`).

Why one Text with struts: Pango lays out all lines in one go, so baselines and indentation are
exact; a full-height strut glyph (U+2502) starts every line and is then removed, which gives each
line's exact vertical extent and the x of column 0 without guessing glyph bearings.
"""

from __future__ import annotations

from manim import Rectangle, RoundedRectangle, VGroup

from scenes.theme import Rect, Theme
from scenes.draw.record import tag
from scenes.draw.visuals.glyphs import label, line_pitch, text_rows, text_width



class CodePane(VGroup):
    """Background, and one VGroup of glyphs per source line (`self.lines[i]`, 0-based).

    `bar(line, span)` builds a highlight bar for a 1-based line (and optional [col, end_col)
    span); the scene adds it behind the text and Transforms it from line to line.
    """

    def __init__(self, source: str, rect: Rect, theme: Theme, first: int = 1) -> None:
        """``first``: the first line shown when the program is too long to show whole at the
        theme's ``code_min`` size; the pane then shows as many lines as fit from there (a window,
        see ``window_for``)."""
        super().__init__()
        self.theme = theme
        left, bottom, right, top = rect
        pad = theme.sizes.code_pad
        lines = source.rstrip("\n").split("\n") or [""]
        longest = max(len(s) for s in lines) + 1
        font, size = theme.fonts.mono, theme.font_sizes.code
        adv = (text_width("M" * 11, font, size) - text_width("M", font, size)) / 10
        pitch = line_pitch(font, size) * theme.sizes.code_line_spacing
        wide = (right - left - 2 * pad) / max(longest * adv, 1e-6)
        tall = (top - bottom - 2 * pad) / max(pitch * len(lines), 1e-6)
        factor = min(1.0, wide, tall)
        self.total = len(lines)
        self.window = (1, len(lines))
        if factor * size < theme.font_sizes.code_min and wide > tall:  # a window on the program, at a readable size
            factor = min(1.0, wide, theme.font_sizes.code_min / size)
            fit = max(1, int((top - bottom - 2 * pad) / (pitch * factor)))
            first = max(1, min(first, len(lines) - fit + 1))
            self.window = (first, min(len(lines), first + fit - 1))
        a, b = self.window
        self.bg = RoundedRectangle(width=right - left, height=top - bottom, corner_radius=theme.radii.code,
                                   stroke_width=0, fill_color=theme.colors.code_bg, fill_opacity=theme.opacity.code_bg)
        self.bar_slot = VGroup()  # the highlight lives between background and text
        self.add(self.bg, self.bar_slot)
        rows, struts, _ = text_rows(lines[a - 1:b], font, size, theme.colors.code_text, theme.sizes.code_line_spacing)
        text = VGroup(*(VGroup(strut, row) for strut, row in zip(struts, rows)))
        text.scale(factor, about_point=text.get_corner([-1, 1, 0]))
        text.move_to([left + pad, top - pad, 0], aligned_edge=[-1, 1, 0])
        self.bg.stretch_to_fit_height(min(top - bottom, text.height + 2 * pad))  # hug the code
        self.bg.move_to([(left + right) / 2, top, 0], aligned_edge=[0, 1, 0])
        self.adv = adv * factor
        self.font_size = size * factor
        self.lines: list[VGroup] = []
        self.line_extent: list[tuple[float, float]] = []  # (bottom, top) per line
        self.col0: list[float] = []  # x of column 0 per line
        centres = []
        for n, (strut, glyphs) in enumerate(zip(struts, rows), start=1):
            tag(glyphs, "code", id=f"line {n}")
            centres.append(strut.get_center()[1])
            self.col0.append(strut.get_center()[0] + self.adv / 2)
            self.lines.append(glyphs)
            self.add(glyphs)
        # the strut glyph overlaps its neighbours a little (it is made to join up), so a line's
        # extent is one pitch centred on its strut
        pitch = (centres[0] - centres[-1]) / (len(centres) - 1) if len(centres) > 1 else struts[0].height
        self.line_extent = [(c - pitch / 2, c + pitch / 2) for c in centres]

    def shows(self, line: int) -> bool:
        """Whether 1-based ``line`` is inside the window."""
        return self.window[0] <= line <= self.window[1]

    def window_for(self, line: int) -> int:
        """The first line of a window of this pane's height that shows ``line`` a third of the
        way down (the lines that led to it above, the next ones below)."""
        n = self.window[1] - self.window[0] + 1
        return max(1, min(line - n // 3, self.total - n + 1))

    def highlight(self, line: int, span: tuple[int, int] | None = None) -> VGroup:
        """Put the bar on `line` now (no animation); returns `bar_slot`. To animate, use
        `Transform(pane.bar_slot, pane.bar(line, span))`."""
        self.bar_slot.become(self.bar(line, span))
        return self.bar_slot

    def bar(self, line: int, span: tuple[int, int] | None = None) -> VGroup:
        """Highlight for 1-based `line`: a full-width bar, plus a brighter box over `span` columns."""
        line -= self.window[0] - 1  # rows are the window's
        b, t = self.line_extent[line - 1]
        c = self.theme.colors
        bar = Rectangle(width=self.bg.width, height=t - b, stroke_width=self.theme.strokes.code_bar,
                        fill_color=c.code_highlight, fill_opacity=1.0)
        bar.move_to([self.bg.get_center()[0], (b + t) / 2, 0])
        group = VGroup(bar)
        if span is not None:
            c0, c1 = span
            x0 = self.col0[line - 1] + c0 * self.adv
            w = max(c1 - c0, 1) * self.adv
            box = Rectangle(width=w, height=t - b, stroke_width=0, fill_color=c.code_span, fill_opacity=1.0)
            group.add(box.move_to([x0 + w / 2, (b + t) / 2, 0]))
        return group


def pass_mark(pane: CodePane, line: int, text: str, theme: Theme) -> VGroup:
    """A small muted label (``pass 2/3``) just after the text of 1-based ``line`` of the pane,
    kept inside the pane's right edge: the loop is shown as written, with the count beside it.
    A pane showing a window of the program has rows for the window's lines only: a ``line``
    outside it puts the mark on the window's nearest row (the for line scrolled above)."""
    size = max(pane.font_size * theme.font_sizes.code_pass, theme.font_sizes.min_readable)
    mark = label(text, theme.fonts.mono, size, theme.colors.text_muted)
    row = min(max(line - pane.window[0], 0), len(pane.lines) - 1)
    glyphs = pane.lines[row]
    b, t = pane.line_extent[row]
    x = (glyphs.get_right()[0] if len(glyphs) else pane.col0[row]) + 2 * pane.adv
    x = min(x, pane.bg.get_right()[0] - theme.sizes.code_pad - mark.width)
    return VGroup(mark.move_to([x, (b + t) / 2, 0], aligned_edge=[-1, 0, 0]))
