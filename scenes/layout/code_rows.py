"""How the code pane lays its lines out in rows, without Manim: the soft wrap of a line too long
for the pane, and how many rows the lit line alone may take (`lit_rows`), which the layout keeps
room for before the pane is drawn (`scenes.layout.clip.code_rect`).

Why here: the pane (`scenes.draw.visuals.CodePane`) measures its glyphs with Pango; the layout
needs the same rows from the theme's estimate of a glyph's advance, and must wrap the same way.
"""

from __future__ import annotations

from typing import Any

WRAP_MIN_COLS = 12
"""A pane narrower than this many columns at the readable size still wraps at this width."""


def soft_wrap(line: str, cols: int) -> list[tuple[int, str]]:
    """The rows a source line is shown as in ``cols`` columns, each ``(source column of its first
    character, its text)``: a line that fits is one row; a longer one breaks after a space or an
    opening bracket where it can (else at the width), and its later rows hang four spaces in
    from its indentation, as an editor's soft wrap does. No character is lost or repeated: the
    spaces at a break are the only ones not drawn."""
    if len(line) <= cols:
        return [(0, line)]
    lead = len(line) - len(line.lstrip(" "))
    hang = " " * min(lead + 4, cols // 2)
    rows: list[tuple[int, str]] = []
    start, prefix = 0, ""
    while True:
        room = cols - len(prefix)
        rest = line[start:]
        if len(rest) <= room:
            rows.append((start, prefix + rest))
            return rows
        cut = next((p for p in range(room, room // 3, -1) if rest[p - 1] in " ([" or rest[p - 1:p + 1] == ", "), room)
        rows.append((start, prefix + rest[:cut].rstrip(" ")))
        start += cut
        while start < len(line) - 1 and line[start] == " ":
            start += 1
        prefix = hang


def lit_rows(source: str, spec: Any, theme: Any) -> int:
    """The most rows one line of ``source`` takes in a pane at the least code size
    (``font_sizes.code_min``), as `CodePane` wraps it: one, unless its longest line is too wide
    at ``code_wrap``. Counted with the theme's largest advance of a monospaced glyph, so never
    fewer than the pane draws."""
    left, _, right, _ = spec.code
    width = right - left - 2 * theme.sizes.code_pad
    adv, f = theme.layout.glyph_advance_mono, theme.font_sizes
    lines = source.rstrip("\n").split("\n") or [""]
    longest = max(len(s) for s in lines) + 1  # the pane's lines start with a strut
    if longest * adv * f.code_wrap <= width:
        return 1
    cols = max(WRAP_MIN_COLS, int(width / (adv * f.code_min)) - 1)
    return max(len(soft_wrap(s, cols)) for s in lines)
