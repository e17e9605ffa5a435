"""AccumulateGrad bucket: an open-topped container whose liquid shows `.grad` filling up.

Why a bucket: the article calls AccumulateGrad "a bucket where the weight's .grad is stored";
gradients arriving add up, so the picture is a level that rises (6 -> 12 on a second backward).
"""

from __future__ import annotations

from manim import Rectangle, VGroup, VMobject

from scenes.layout.place import Box
from scenes.layout.tag_room import STROKE_UNIT
from scenes.theme import Theme
from scenes.draw.record import tag
from scenes.draw.visuals.glyphs import label, shrink_to_fit


def bucket_fill(box: Box, theme: Theme, level: float, *, scale: float = 1.0) -> Rectangle:
    """The liquid for fill `level` in [0, 1] (clamped); rebuilt per level so scenes can Transform."""
    q = theme.proportions
    lw = theme.strokes.bucket * max(scale, q.min_stroke_scale) * STROKE_UNIT
    inner_w, inner_h = box.w * q.bucket_inner_width - 2 * lw, box.h * q.bucket_inner_height - 2 * lw
    lv = min(max(level, 0.0), 1.0)
    h = max(inner_h * lv, 1e-4)
    fill = Rectangle(width=inner_w, height=h, stroke_width=0, fill_color=theme.colors.bucket_fill,
                     fill_opacity=1.0 if lv > 0 else 0.0)
    fill.move_to([box.x, box.y - box.h / 2 + lw + h / 2, 0])
    return fill


def bucket(
    box: Box,
    theme: Theme,
    *,
    level: float = 0.0,
    value: str | None = None,
    scale: float = 1.0,
    dimmed: bool = False,
) -> VGroup:
    """Outline (a U, slightly tapered), liquid at `level`, and the value label centred on it.
    Attributes `outline`, `fill`, `value` let a scene animate each part."""
    q = theme.proportions
    meaning = "skipped" if dimmed else "gradient"  # a bucket holds a gradient: its rim is the gradient's colour
    col = theme.colour(meaning)
    x0, x1 = box.x - box.w / 2, box.x + box.w / 2
    y0, y1 = box.y - box.h / 2, box.y + box.h / 2
    taper = box.w * q.bucket_taper
    outline = VMobject(stroke_color=col, stroke_width=theme.strokes.bucket * max(scale, q.min_stroke_scale))
    outline.set_points_as_corners([[x0, y1, 0], [x0 + taper, y0, 0], [x1 - taper, y0, 0], [x1, y1, 0]])
    fill = bucket_fill(box, theme, level, scale=scale)
    group = tag(VGroup(fill, outline), "bucket", id=box.id, meaning=meaning)
    group.outline, group.fill, group.value = outline, fill, None
    if value:
        size = max(theme.font_sizes.bucket_label * scale, theme.font_sizes.min_readable_main)  # 11 px where its bucket fits it (shrunk to fit, not under 9 px)
        m = label(value, theme.fonts.mono, size, theme.colors.text)
        # never smaller than the least readable size: a value too long for the bucket (-0.3715)
        # overhangs its rim rather than being dropped, so .grad is always read where it is
        shrink_to_fit(m, box.w * q.bucket_label_width, box.h * q.bucket_label_height,
                      least=theme.font_sizes.min_readable / size)
        tag(m, "value", id=box.id).move_to([box.x, box.y, 0])  # as large as a card's value, so it sits in the middle
        group.add(m)
        group.value = m
    return group
