"""The figure of a ``loss_curve`` beat: the value a loop's line binds, one point per pass, as SVG.

Why from the plan's cues: the clip draws the curve from its ``curve_axes`` cue (the name, the
highest and lowest value, the passes) and a ``curve_point`` per pass (the value as the captions
write it, and the logged number behind it); the figure places the same points on the same plain
axes, with the values as real text, no smaller than :data:`~.svg.MIN_TEXT_PX` on a phone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from scenes.publish.figures import figure_region
from scenes.publish.svg import MIN_TEXT_PX, PHONE_COLUMN_PX, SANS_ADVANCE, STROKE, SVG_NS, TEXT_PX_AT_NATURAL, U, \
    svg_num, svg_text
from scenes.theme import Theme


@dataclass(frozen=True)
class Point:
    """One pass's value: the pass, the text the clip shows and the logged number."""

    count: int
    text: str
    number: float


@dataclass
class CurvePicture:
    """The curve at the end of its beat: the name plotted, the passes and the points drawn."""

    name: str = ""
    top: str = ""
    total: int = 1
    points: list[Point] = field(default_factory=list)


def curve_pictures(p: Any, views: list[str]) -> list[CurvePicture | None]:
    """Per beat, the curve it ends on (None: the beat shows no curve)."""
    out: list[CurvePicture | None] = []
    for beat in p.beats:
        pic: CurvePicture | None = None
        for cue in (c for c in p.cues if c.beat == beat.index):
            if cue.kind == "curve_axes":
                pic = CurvePicture(cue.text("name") or "", cue.text("top") or "", int(cue.text("total") or 1))
            elif cue.kind == "curve_point" and pic is not None and cue.number("value") is not None:
                count = int(cue.text("count") or len(pic.points) + 1)
                pic.points.append(Point(count, cue.text("value") or "", float(cue.number("value") or 0.0)))
        if pic is not None and pic.points:  # a span outside a loop: its points count as passes
            pic.total = max([pic.total] + [pt.count for pt in pic.points])
        out.append(pic if views[beat.index] == "curve" and pic is not None and pic.points else None)
    return out


def describe_curve(pic: CurvePicture, theme: Theme) -> str:
    """The points in words, pass by pass, with the clip's numbers."""
    word = theme.labels.curve_passes
    each = "; ".join(f"{word} {pt.count}: {pt.text}" for pt in pic.points)
    return f"{pic.name} at each {word}, {word} 1 to {pic.total}, on axes from 0 up to {pic.top}: {each}."


def draw_curve(pic: CurvePicture, theme: Theme, fig_id: str, title: str, desc: str) -> str:
    """``pic`` as an ``<svg>``: the axes from 0, a dot per pass joined by a line, each value above
    its dot (beside it where above would leave the axes), the pass under it."""
    c, t = theme.colors, theme
    left, _, right, _ = figure_region(theme)
    pad = t.spacing.item_gap * U
    width = (right - left) * U + 2 * pad
    em = max(MIN_TEXT_PX * width / PHONE_COLUMN_PX, t.font_sizes.curve_label * t.layout.glyph_height * U / 1.2)
    height = width * 3 / 4
    x0, top = left * U - pad, 0.0
    ax = left * U + len(pic.top) * em * SANS_ADVANCE + pad
    ay0, ay1 = top + pad + 2 * em, top + height - pad - 2.6 * em  # the vertical axis, top to bottom (the 0)
    bx1 = right * U
    hi = max([pt.number for pt in pic.points] + [0.0])
    lo = min([pt.number for pt in pic.points] + [0.0])
    span = hi - lo or 1.0

    def at(pt: Point) -> tuple[float, float]:
        return (ax + (pt.count - 0.5) / max(pic.total, 1) * (bx1 - ax), ay1 - (pt.number - lo) / span * (ay1 - ay0))

    base = ay1 - (0.0 - lo) / span * (ay1 - ay0)
    axis_w, line_w = t.strokes.curve_axis * STROKE * U, t.strokes.curve_line * STROKE * U
    body = [f'<rect x="{svg_num(x0)}" y="{svg_num(top)}" width="{svg_num(width)}" height="{svg_num(height)}" '
            f'rx="{svg_num(t.radii.card * U)}" fill="{c.background}"/>',
            f'<path d="M{svg_num(ax)} {svg_num(ay0)} V{svg_num(ay1)} M{svg_num(ax)} {svg_num(base)} H{svg_num(bx1)}" fill="none" '
            f'stroke="{c.edge}" stroke-width="{svg_num(axis_w)}"/>',
            svg_text(ax, ay0 - em, pic.name, em, c.text, t.fonts.mono, "start"),
            svg_text(ax - pad / 2, ay0, pic.top, em, c.text_muted, t.fonts.sans, "end"),
            svg_text(bx1, base + 2.1 * em, t.labels.curve_passes, em, c.text_muted, t.fonts.sans, "end")]
    pts = [at(pt) for pt in pic.points]
    if len(pts) > 1:
        body.append(f'<polyline points="{" ".join(f"{svg_num(x)},{svg_num(y)}" for x, y in pts)}" fill="none" '
                    f'stroke="{c.loss}" stroke-width="{svg_num(line_w)}" stroke-linejoin="round"/>')
    dot = t.sizes.curve_dot * U
    for pt, (x, y) in zip(pic.points, pts):
        body.append(f'<circle cx="{svg_num(x)}" cy="{svg_num(y)}" r="{svg_num(dot)}" fill="{c.loss}"/>')
        if y - dot - em < ay0 - em / 2:  # the highest point: its value beside it
            body.append(svg_text(x + dot + pad / 3, y, pt.text, em, c.text, t.fonts.sans, "start"))
        else:
            body.append(svg_text(x, y - dot - em * 0.7, pt.text, em, c.text, t.fonts.sans))
        body.append(svg_text(x, base + em, str(pt.count), em, c.text_muted, t.fonts.sans))
    font_px = TEXT_PX_AT_NATURAL / em
    return (f'<svg xmlns="{SVG_NS}" class="figure curve" viewBox="{svg_num(x0)} {svg_num(top)} {svg_num(width)} '
            f'{svg_num(height)}" width="{svg_num(width * font_px)}" height="{svg_num(height * font_px)}" role="img" '
            f'aria-labelledby="{fig_id}-title {fig_id}-desc"><title id="{fig_id}-title">{escape(title)}</title>'
            f'<desc id="{fig_id}-desc">{escape(desc)}</desc>' + "".join(body) + "</svg>")


def curve_figures(p: Any, views: list[str], headings: list[str], theme: Theme) -> list[tuple[str, str] | None]:
    """Each beat's curve figure as (markup, description), None where the beat shows no curve."""
    out: list[tuple[str, str] | None] = []
    for k, pic in enumerate(curve_pictures(p, views)):
        if pic is None:
            out.append(None)
            continue
        desc = describe_curve(pic, theme)
        out.append((draw_curve(pic, theme, f"fig-{k + 1}", f"The curve: {headings[k]}", desc), desc))
    return out
