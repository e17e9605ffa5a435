"""How large a big graph's texts are at each aspect, and how much a beat's `focus:` brings them up.

Why: a graph of 20 to 40 nodes at 16:9 shares the frame with the code pane, so its cards are
sized for their texts at the least readable size (9 px glyphs at 480p: `Detail.COMPACT`,
`Detail.DENSE`): readable, but no larger, at 16:9 as at 9:16 and 1:1. An author should read
that from `render check`, at every aspect, together with what the camera does: a beat's
`focus:` draws some cards larger (`focus_zoom`), and says by how much. Pure: no Manim; sizes
from the theme (a digit is `font_sizes.glyph_cap` pixels high per size unit at 480p).

>>> from scenes.theme import load_theme
>>> theme = load_theme()
>>> round(value_px(Detail.DENSE, 0.3, theme), 1), round(value_px(Detail.DENSE, 0.3, theme, zoom=1.5), 1)
(9.0, 13.5)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scenes.layout.compact import compact_text_scale
from scenes.layout.detail import Detail
from scenes.layout.focus import focus_zoom
from scenes.layout.place import Layout
from scenes.theme import Theme


def value_size(detail: Detail, scale: float, theme: Theme) -> float | None:
    """The font size a card's value is drawn at in a layout of ``detail`` at ``scale`` (never
    under the least readable size); None where cards carry no values (names only, bare boxes)."""
    f = theme.font_sizes
    if detail.text_sized:
        return f.min_readable * compact_text_scale(scale, theme)
    if detail is Detail.FULL:
        return max(f.card_value * scale, f.min_readable)
    return None


def value_px(detail: Detail, scale: float, theme: Theme, zoom: float = 1.0) -> float | None:
    """A card value's digit height in pixels at 480p, in a layout of ``detail`` at ``scale``,
    seen ``zoom`` times larger; None where cards carry no values (names only, bare boxes)."""
    size = value_size(detail, scale, theme)
    return None if size is None else size * theme.font_sizes.glyph_cap * zoom


@dataclass(frozen=True)
class Closer:
    """A beat whose `focus:` moves the camera in: ``beat`` (0-based), the cards' titles, the factor."""

    beat: int
    titles: tuple[str, ...]
    factor: float


def focus_moves(plan: Any, lay: Layout, theme: Theme) -> list[Closer]:
    """Each ``focus`` cue of the plan and how much larger the camera draws its cards in ``lay``
    (as `CameraFocus.draw_focus` moves it: `focus_zoom`)."""
    out = []
    for cue in plan.cues:
        if cue.kind != "focus":
            continue
        cards = list(dict.fromkeys(lay.card_of(t) for t in cue.ids))
        z = focus_zoom(lay, cards, theme.layout.focus_zoom)
        titles = tuple(dict.fromkeys(lay.items[c].title for c in cards if c in lay.items))
        out.append(Closer(cue.beat, titles, z.factor))
    return out


def sizing_lines(plan: Any, layouts: Mapping[str, Layout], theme: Theme, visuals: Iterable[str]) -> list[str]:
    """Per aspect whose graph is drawn with cards sized for their texts at the least readable
    size (``layouts``: `clip_layout` at each aspect), one line: how many cards, their values'
    size in pixels at 480p, and for each beat with a `focus:` how much larger the camera draws
    its cards there; without one, the hint that a `focus:` would. ``visuals``: each beat's.
    Cards whose texts are drawn larger than that (a small graph's) need no word."""
    names = list(visuals)
    out = []
    for aspect, lay in layouts.items():
        if not lay.detail.text_sized or compact_text_scale(lay.scale, theme) > 1.0:
            continue
        n = sum(1 for b in lay.boxes.values() if b.kind != "bucket")
        kind = "one-row cards (name beside value)" if lay.detail is Detail.DENSE else "compact cards"
        px = value_px(lay.detail, lay.scale, theme)
        line = f"at {aspect}, the graph's {n} cards are {kind} at the least readable size: values {px:.0f} px at 480p"
        moves = [m for m in focus_moves(plan, lay, theme) if m.factor > 1.0]
        if moves:
            line += "; the camera moves in: " + "; ".join(
                f"beat {m.beat + 1} ({names[m.beat] if m.beat < len(names) else '?'}) draws "
                f"{', '.join(f'`{t}`' for t in m.titles)} {m.factor:.1f}x larger, values "
                f"{value_px(lay.detail, lay.scale, theme, m.factor):.0f} px" for m in moves)
        else:
            line += "; a beat's `focus:` draws the cards it names larger"
        out.append(line)
    return out
