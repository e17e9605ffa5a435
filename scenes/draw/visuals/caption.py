"""Caption bar: burned-in caption text at the bottom, word-wrapped to the caption region (or set
in the lines the plan chose) and shrunk rather than ever leaving it. Why measure words: wrapping
by measured word widths (cached) avoids building a Text for every candidate line."""

from __future__ import annotations

from manim import RoundedRectangle, VGroup

from scenes.draw.record import tag
from scenes.theme import Rect, Theme
import re

from scenes.draw.visuals.glyphs import (_MEASURE, STRUT, label, line_pitch, markup_label, shrink_to_fit,
                                        text_rows, text_width, word_space)

_REF = 48.0  # font size at which words are measured (a measuring unit, not a visual)


def wrap_words(text: str, font: str, size: float, max_width: float) -> list[str]:
    """Greedy word wrap by measured widths; a single over-long word gets a line of its own.
    Words are measured once at a reference size and scaled, as glyph advances scale linearly."""
    words = text.split()
    if not words:
        return [""]
    k = size / _REF
    space = word_space(font, size)
    lines, cur, cur_w = [], [words[0]], text_width(words[0], font, _REF) * k
    for w in words[1:]:
        ww = text_width(w, font, _REF) * k
        if cur_w + space + ww <= max_width:
            cur.append(w)
            cur_w += space + ww
        else:
            lines.append(" ".join(cur))
            cur, cur_w = [w], ww
    lines.append(" ".join(cur))
    return lines


def balanced_wrap(text: str, font: str, size: float, max_width: float) -> list[str]:
    """As many lines as ``wrap_words`` needs, but as even as they can be: the narrowest width
    that still wraps into that many lines. Why: a greedy wrap fills the first line and can leave
    one word alone on the second, which the eye reads as an afterthought.

    >>> balanced_wrap("The walk starts with a gradient of 1 at the loss.", "Sans", 24, 4.0)
    ['The walk starts with a', 'gradient of 1 at the loss.']
    """
    lines = wrap_words(text, font, size, max_width)
    if len(lines) < 2:
        return lines
    widest_word = max(text_width(w, font, _REF) for w in text.split()) * size / _REF
    if widest_word >= max_width:  # a word has a line of its own already: nothing to balance
        return lines
    lo, hi = widest_word, max_width  # wrap(hi) gives len(lines) lines; below lo no word fits
    for _ in range(BALANCE_STEPS):
        mid = (lo + hi) / 2
        if len(wrap_words(text, font, size, mid)) <= len(lines):
            hi = mid
        else:
            lo = mid
    return wrap_words(text, font, size, hi)


BALANCE_STEPS = 16
"""Halvings of the width range when balancing a caption's lines (to 1/65536 of the range)."""


_CODE = re.compile(r"`([^`]*)`")
_JOIN = "\u00a4"  # stands for a space inside quoted code while wrapping, so code never breaks


def _code_joined(text: str) -> str:
    """``text`` with the spaces of each backtick-quoted span joined, for wrapping."""
    return _CODE.sub(lambda m: "`" + m.group(1).replace(" ", _JOIN) + "`", text)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def caption_rows(lines: list[str], font: str, mono: str, size: float, colour: str,
                 spacing: float) -> tuple[list[VGroup], list]:
    """As ``text_rows``, but a line with backtick-quoted code sets that code in ``mono``
    (without the backticks), through Pango markup, on the same strut and pitch."""
    lines = [line.replace(_JOIN, " ") for line in lines]
    if not any("`" in line for line in lines):
        rows, struts, _ = text_rows(lines, font, size, colour, spacing)
        return rows, struts
    pitch = line_pitch(font, size) * spacing
    rows, struts = [], []
    for k, line in enumerate(lines):
        parts = line.split("`")
        markup = "".join(_escape(p) if i % 2 == 0 else f'<span font_family="{mono}">{_escape(p)}</span>'
                         for i, p in enumerate(parts))
        row = markup_label(STRUT + markup, font, size, colour)
        row.shift([-row[0].get_center()[0], -k * pitch - row[0].get_center()[1], 0])
        struts.append(row[0])
        rows.append(VGroup(*row[1:]))
    return rows, struts


def _block_height(n: int, font: str, size: float, spacing: float) -> float:
    """Height of n lines set by ``text_rows`` at ``spacing``: one line's glyph height, plus a
    pitch per further line."""
    one = label("Ag", font, _REF, _MEASURE).height
    return (one + (n - 1) * line_pitch(font, _REF) * spacing) * size / _REF


MEASURE_LINE = "The quick brown fox jumps over the lazy dog, then the loss."
"""Ordinary words, cut to a caption line's characters, stand for the widest line a caption may
have (a measuring unit, not a visual): the narration size is chosen before any caption is read."""


def narration_size(rect: Rect, theme: Theme) -> float:
    """The one size every narration caption is set at in the bar ``rect``: the theme's caption
    size, stepped down until ``reading.lines`` lines fit its height and a line of
    ``reading.line_chars`` characters its width. Why from the bar and the reading rules alone:
    each caption sized by itself would change size between one line and two, and a size read
    from all of a clip's captions would tie every beat's cached segment to every other's words."""
    pad = theme.sizes.caption_pad
    left, bottom, right, top = rect
    max_w, max_h = right - left - 2 * pad, top - bottom - 2 * pad
    font, spacing, r = theme.fonts.sans, theme.sizes.caption_line_spacing, theme.reading
    line = ((MEASURE_LINE + " ") * (r.line_chars // len(MEASURE_LINE) + 1))[:r.line_chars]
    size = theme.font_sizes.caption
    while size > theme.font_sizes.min_readable and (
            _block_height(r.lines, font, size, spacing) > max_h or text_width(line, font, size) > max_w):
        size = max(size * theme.proportions.caption_shrink_step, theme.font_sizes.min_readable)
    return size


def caption_size(text: str, rect: Rect, theme: Theme, size: float | None = None,
                 lines: tuple[str, ...] | list[str] = ()) -> tuple[float, list[str]]:
    """The font size a caption is set at in the bar ``rect`` (the caption size unless ``size``
    is given, stepped down until the lines fit) and its lines (``lines``, else wrapped)."""
    left, bottom, right, top = rect
    pad = theme.sizes.caption_pad
    max_w, max_h = right - left - 2 * pad, top - bottom - 2 * pad
    font = theme.fonts.sans
    size = size or theme.font_sizes.caption
    spacing = theme.sizes.caption_line_spacing
    given = [x for x in lines if x]
    joined = _code_joined(text)
    while True:
        out = given or balanced_wrap(joined, font, size, max_w)
        wide = bool(given) and max(text_width(x.replace("`", ""), font, size) for x in given) > max_w
        if (not wide and _block_height(len(out), font, size, spacing) <= max_h) or size <= theme.font_sizes.min_readable:
            return size, list(out)
        size = max(size * theme.proportions.caption_shrink_step, theme.font_sizes.min_readable)


def caption_bar(text: str, rect: Rect, theme: Theme, size: float | None = None,
                lines: tuple[str, ...] | list[str] = (), role: str = "caption") -> VGroup:
    """Backdrop filling `rect`, text centred in it; font (the caption size unless `size` is
    given) steps down until the lines fit. ``lines``: the lines to set (a caption event's, so the
    picture breaks where the .srt does), else the text is wrapped to the bar. Each line is
    tagged with ``role`` (:mod:`scenes.draw.record`)."""
    left, bottom, right, top = rect
    pad = theme.sizes.caption_pad
    max_w, max_h = right - left - 2 * pad, top - bottom - 2 * pad
    font = theme.fonts.sans
    bg = RoundedRectangle(width=right - left, height=top - bottom, corner_radius=theme.radii.caption,
                          stroke_width=0, fill_color=theme.colors.caption_bg, fill_opacity=theme.opacity.caption_bg)
    bg.move_to([(left + right) / 2, (top + bottom) / 2, 0])
    spacing = theme.sizes.caption_line_spacing
    size, lines = caption_size(text, rect, theme, size, lines)
    rows, struts = caption_rows(lines, font, theme.fonts.mono, size, theme.colors.caption_text, spacing)
    for row, line in zip(rows, lines):  # each line centred on its own; baselines stay on the struts' pitch
        tag(row, role, text=line.replace(_JOIN, " ").replace("`", ""), id=role)
        row.shift([-row.get_center()[0], 0, 0])
    body = VGroup(*rows)
    frame = VGroup(*struts)  # the rows' common vertical extent, whatever glyphs they hold
    shift = [bg.get_center()[0], bg.get_center()[1] - frame.get_center()[1], 0]
    body.shift(shift)
    frame.shift(shift)
    k = shrink_to_fit(body, max_w, max_h)  # the last resort keeps it inside the bar
    if k < 1:
        body.move_to(bg.get_center())
    group = VGroup(bg, body)
    group.bg, group.text, group.lines = bg, body, [line.replace(_JOIN, " ") for line in lines]
    return group
