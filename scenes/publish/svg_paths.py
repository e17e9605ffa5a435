"""The figures' SVG pieces: a coordinate as short text, a text, a rounded rectangle, and an
edge's path with its head, smooth through a long edge's dummy slots as the clip draws it.

Why apart from :mod:`.svg`: the graph figure, the network's and the curve's share them, and the
path's curve is Manim's own (``set_points_smoothly``), so that a figure's edge bends where the
clip's does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape
from typing import Any

SANS_ADVANCE = 0.63
"""A character's width per em, at most for the sans labels (the layout's glyph advance per height)."""


def svg_num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def arrow(points: list[tuple[float, float]], colour: str, width: float, tip: float, extra: str = "") -> str:
    """A path ending in a filled triangle at its last point: through three points or more, the
    smooth curve the clip draws (`scenes.draw.visuals.edges.route_path`: a dummy slot rounds a
    long edge's corner, it does not kink it), else a straight line."""
    path, (x0, y0) = _smooth_path(points)
    x1, y1 = points[-1]
    d = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / d, (y1 - y0) / d
    bx, by = x1 - ux * tip, y1 - uy * tip
    half = tip * 0.45
    head = f"{svg_num(x1)},{svg_num(y1)} {svg_num(bx - uy * half)},{svg_num(by + ux * half)} {svg_num(bx + uy * half)},{svg_num(by - ux * half)}"
    return (f'<g{extra}><path d="{path(bx, by)}" fill="none" stroke="{colour}" stroke-width="{svg_num(width)}" '
            f'stroke-linejoin="round"/><polygon points="{head}" fill="{colour}"/></g>')


def _smooth_path(points: list[tuple[float, float]]) -> tuple[Callable[[float, float], str], tuple[float, float]]:
    """The path's ``d`` through ``points`` as a function of where it stops (the tip's base), and
    the point the path comes from into its last point (the tip's direction): Manim's smooth
    handles, as ``set_points_smoothly`` gives the clip's edges."""
    (sx, sy), (ex, ey) = points[0], points[-1]
    if len(points) < 3:
        return (lambda bx, by: f"M{svg_num(sx)},{svg_num(sy)} L{svg_num(bx)},{svg_num(by)}"), (sx, sy)
    import numpy as np
    from manim.utils.bezier import get_smooth_cubic_bezier_handle_points

    anchors = np.array([[x, y, 0.0] for x, y in points])
    h1, h2 = get_smooth_cubic_bezier_handle_points(anchors)

    def xy(p: Any) -> str:
        return f"{svg_num(float(p[0]))},{svg_num(float(p[1]))}"

    def d(bx: float, by: float) -> str:
        parts = [f"M{xy(anchors[0])}"] + [f"C{xy(a)} {xy(b)} {xy(c)}" for a, b, c in zip(h1[:-1], h2[:-1], anchors[1:-1])]
        last = (float(h2[-1][0]) + bx - ex, float(h2[-1][1]) + by - ey)  # the last handle moves with the end
        return " ".join(parts + [f"C{xy(h1[-1])} {xy(last)} {svg_num(bx)},{svg_num(by)}"])

    return d, (float(h2[-1][0]), float(h2[-1][1]))


def svg_text(x: float, y: float, text: str, size: float, fill: str, font: str, anchor: str = "middle",
          extra: str = "") -> str:
    return (f'<text x="{svg_num(x)}" y="{svg_num(y)}" font-size="{svg_num(size)}" fill="{fill}" font-family="{escape(font)}, '
            f'sans-serif" text-anchor="{anchor}" dominant-baseline="central"{extra}>{escape(text)}</text>')


def svg_rect(x: float, y: float, w: float, h: float, rx: float, fill: str, stroke: str = "", width: float = 0.0,
          extra: str = "") -> str:
    """A rounded rectangle centred on (x, y); no stroke when ``stroke`` is empty."""
    line = f' stroke="{stroke}" stroke-width="{svg_num(width)}"' if stroke else ""
    return (f'<rect{extra} x="{svg_num(x - w / 2)}" y="{svg_num(y - h / 2)}" width="{svg_num(w)}" height="{svg_num(h)}" '
            f'rx="{svg_num(rx)}" fill="{fill}"{line}/>')
