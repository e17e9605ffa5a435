"""Code pane: the program source in monospace, with a bar on the running line and an optional
column sub-span (the `(yh - y)` inside `L = (yh - y)**2`).

Why one Text with struts: Pango lays out all lines in one go, so baselines and indentation are
exact; a full-height strut glyph (U+2502) starts every line and is then removed, which gives each
line's exact vertical extent and the x of column 0 without guessing glyph bearings.
"""

from __future__ import annotations

from manim import Rectangle, RoundedRectangle, VGroup

from scenes.layout.code_rows import WRAP_MIN_COLS, soft_wrap
from scenes.theme import Rect, Theme
from scenes.draw.record import tag
from scenes.draw.visuals.glyphs import label, line_pitch, text_rows, text_width



class CodePane(VGroup):
    """Background, and the glyphs of each source line shown (`self.lines[i]`, 0-based in the
    window; a line too long for the pane is wrapped, so its VGroup holds one row per part).

    `bar(line, span)` builds a highlight bar for a 1-based line (and optional [col, end_col)
    span); the scene adds it behind the text and Transforms it from line to line.
    """

    def __init__(self, source: str, rect: Rect, theme: Theme, first: int = 1, max_rows: int | None = None,
                 most: float = 1.0) -> None:
        """``first``: the first line shown when the program is too long to show whole at the
        theme's ``code_min`` size; the pane then shows as many lines as fit from there (a window,
        see ``window_for``). When the longest line would only fit under ``code_wrap``, the lines
        too wide at ``code_min`` are wrapped instead (``soft_wrap``). ``max_rows``: a window of
        at most that many rows from ``first``, at the size the whole ``rect`` gives (the pane
        stepping aside: the same code, less of it, its backdrop hugging what is left). ``most``:
        the largest size, as a share of the theme's ``code`` size (over 1 for a pane shown large
        before the first picture, `scenes.layout.code_first`)."""
        super().__init__()
        self.theme = theme
        left, bottom, right, top = rect
        pad = theme.sizes.code_pad
        lines = source.rstrip("\n").split("\n") or [""]
        longest = max(len(s) for s in lines) + 1
        font, size = theme.fonts.mono, theme.font_sizes.code
        adv = (text_width("M" * 11, font, size) - text_width("M", font, size)) / 10
        pitch = line_pitch(font, size) * theme.sizes.code_line_spacing
        width, height = right - left - 2 * pad, top - bottom - 2 * pad
        wide = width / max(longest * adv, 1e-6)
        factor = min(most, wide, height / max(pitch * len(lines), 1e-6))
        parts = [[(0, s)] for s in lines]
        fit = len(lines)
        if factor * size < theme.font_sizes.code_min:  # a window, at a readable size
            factor = min(1.0, wide, theme.font_sizes.code_min / size)
            if wide * size < theme.font_sizes.code_wrap:  # too wide to read whole: wrap the long lines
                factor = min(1.0, theme.font_sizes.code_min / size)
                cols = max(WRAP_MIN_COLS, int(width / (adv * factor)) - 1)
                parts = [soft_wrap(s, cols) for s in lines]
            fit = max(1, int(height / (pitch * factor)))
        if max_rows is not None:  # never fewer rows than the first line takes (it is the lit one)
            fit = max(1, min(fit, max(max_rows, len(parts[min(first, len(parts)) - 1]))))
        self.total = len(lines)
        self.longest = longest  # columns of the longest line, with the strut each line starts with
        self._rows = [min(len(p), fit) for p in parts]
        self._fit = fit
        a = max(1, min(first, self._last_start()))
        b = self._window_end(a)
        self.window = (a, b)
        self.bg = RoundedRectangle(width=right - left, height=top - bottom, corner_radius=theme.radii.code,
                                   stroke_width=0, fill_color=theme.colors.code_bg, fill_opacity=theme.opacity.code_bg)
        tag(self.bg, "pane")  # what of the frame the pane takes (scenes/render/fill.py), its short lines' ends too
        self.bar_slot = VGroup()  # the highlight lives between background and text
        tag(self.bar_slot, "code_bar")  # which line runs (`render inspect`)
        self.add(self.bg, self.bar_slot)
        shown = [(n, start, text) for n in range(a, b + 1) for start, text in parts[n - 1][:self._rows[n - 1]]]
        rows, struts, _ = text_rows([text for _, _, text in shown], font, size, theme.colors.code_text,
                                    theme.sizes.code_line_spacing)
        text = VGroup(*(VGroup(strut, row) for strut, row in zip(struts, rows)))
        text.scale(factor, about_point=text.get_corner([-1, 1, 0]))
        text.move_to([left + pad, top - pad, 0], aligned_edge=[-1, 1, 0])
        self.bg.stretch_to_fit_height(min(top - bottom, text.height + 2 * pad))  # hug the code
        self.bg.move_to([(left + right) / 2, top, 0], aligned_edge=[0, 1, 0])
        self.adv = adv * factor
        self.font_size = size * factor
        centres = [strut.get_center()[1] for strut in struts]
        # the strut glyph overlaps its neighbours a little (it is made to join up), so a row's
        # extent is one pitch centred on its strut
        self.row_height = (centres[0] - centres[-1]) / (len(centres) - 1) if len(centres) > 1 else struts[0].height
        self.lines: list[VGroup] = []
        self.col0: list[float] = []  # x of column 0 per line
        self._parts: list[list[tuple[int, int, int, float, float]]] = []  # per line: its rows' (source start, indent, length, x of column 0, centre y)
        for (n, start, row_text), strut, glyphs, y in zip(shown, struts, rows, centres):
            tag(glyphs, "code", id=f"line {n}")
            x0 = strut.get_center()[0] + self.adv / 2
            indent = len(row_text) - len(row_text.lstrip(" ")) if start else 0
            if n - a == len(self.lines):  # the line's first row
                self.lines.append(VGroup())
                self.col0.append(x0)
                self._parts.append([])
            self.lines[-1].add(glyphs)
            self._parts[-1].append((start, indent, len(row_text) - indent, x0, y))
            self.add(glyphs)
        h = self.row_height / 2
        self.line_extent: list[tuple[float, float]] = [(rs[-1][4] - h, rs[0][4] + h) for rs in self._parts]  # (bottom, top) per line, all its rows

    def _window_end(self, first: int) -> int:
        """The last line of a window from ``first``: as many lines as their rows fit (one at least)."""
        end, used = first, self._rows[first - 1]
        while end < self.total and used + self._rows[end] <= self._fit:
            used += self._rows[end]
            end += 1
        return end

    def _last_start(self) -> int:
        """The latest first line whose window still reaches the program's end."""
        first, used = self.total, self._rows[-1]
        while first > 1 and used + self._rows[first - 2] <= self._fit:
            first -= 1
            used += self._rows[first - 1]
        return first

    @property
    def whole(self) -> bool:
        """Whether the pane shows every line of the program, each on one row (no window, no wrap)."""
        return self.window == (1, self.total) and all(r == 1 for r in self._rows)

    def shows(self, line: int) -> bool:
        """Whether 1-based ``line`` is inside the window."""
        return self.window[0] <= line <= self.window[1]

    def window_for(self, line: int) -> int:
        """The first line of a window of this pane's height that shows ``line`` a third of the
        way down (the lines that led to it above, the next ones below)."""
        n = self.window[1] - self.window[0] + 1
        first = max(1, min(line - n // 3, self._last_start()))
        while first < line and self._window_end(first) < line:
            first += 1
        return first

    def last_row(self, row: int) -> tuple[VGroup, float]:
        """The glyphs of the last row of the window's ``row``-th line (0-based) and its centre y."""
        return self.lines[row][-1], self._parts[row][-1][4]

    def highlight(self, line: int, span: tuple[int, int] | None = None) -> VGroup:
        """Put the bar on `line` now (no animation); returns `bar_slot`. To animate, use
        `Transform(pane.bar_slot, pane.bar(line, span))`."""
        self.bar_slot.become(self.bar(line, span))
        return self.bar_slot

    def bar(self, line: int, span: tuple[int, int] | None = None) -> VGroup:
        """Highlight for 1-based `line`: a full-width bar over all its rows, plus a brighter box
        over `span` columns (in each row the span reaches, when the line is wrapped)."""
        line -= self.window[0] - 1  # rows are the window's
        b, t = self.line_extent[line - 1]
        c = self.theme.colors
        bar = Rectangle(width=self.bg.width, height=t - b, stroke_width=self.theme.strokes.code_bar,
                        fill_color=c.code_highlight, fill_opacity=1.0)
        bar.move_to([self.bg.get_center()[0], (b + t) / 2, 0])
        group = VGroup(bar)
        tag(group, "code_bar")  # a Transform gives the slot its target's tag (`carry_tags`)
        if span is None:
            return group
        c0, c1 = span[0], max(span[1], span[0] + 1)
        for start, indent, length, x0, y in self._parts[line - 1]:
            a, b = max(c0, start), min(c1, start + length)
            if b <= a:
                continue
            x = x0 + (indent + a - start) * self.adv
            box = Rectangle(width=(b - a) * self.adv, height=self.row_height, stroke_width=0,
                            fill_color=c.code_span, fill_opacity=1.0)
            group.add(box.move_to([x + (b - a) * self.adv / 2, y, 0]))
        return group


def pass_mark(pane: CodePane, line: int, text: str, theme: Theme) -> VGroup:
    """A small muted label (``pass 2/3``) just after the text of 1-based ``line`` of the pane,
    kept inside the pane's right edge: the loop is shown as written, with the count beside it.
    A pane showing a window of the program has rows for the window's lines only: a ``line``
    outside it puts the mark on the window's nearest row (the for line scrolled above) that has
    room after its text, as a mark on a full row would cover its code."""
    size = max(pane.font_size * theme.font_sizes.code_pass, theme.font_sizes.min_readable)
    mark = label(text, theme.fonts.mono, size, theme.colors.text_muted)
    row = min(max(line - pane.window[0], 0), len(pane.lines) - 1)
    last = pane.bg.get_right()[0] - theme.sizes.code_pad - mark.width  # the mark's left edge at most

    def after(r: int) -> float:
        glyphs, _ = pane.last_row(r)
        return (glyphs.get_right()[0] if len(glyphs) else pane.col0[r]) + 2 * pane.adv

    if row != line - pane.window[0] and after(row) > last:  # the for line is scrolled away and the
        fits = [r for r in range(len(pane.lines)) if after(r) <= last]  # window's edge row is full:
        row = min(fits, key=lambda r: abs(r - row), default=row)  # the nearest row with room
    x = min(after(row), last)
    return VGroup(mark.move_to([x, pane.last_row(row)[1], 0], aligned_edge=[-1, 0, 0]))
