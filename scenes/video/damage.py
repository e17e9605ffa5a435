"""The damaged rectangle of a frame: the pixels a frame of a play can change.

Why: during a play only the moving shapes change, and in our clips they are small (a number
landing in a bucket, a caption fading in, the wavefront on one edge). Outside the union of their
boxes, at the frame before and at this one, the frame is the frame before. So the player restores
the background and lays the overlay only inside that rectangle, redraws only the shapes that
reach into it, and the encoder converts only that part to YUV. Inside the rectangle the pixels
are those of a full redraw: the background, then every shape that touches them, in order.

A rectangle is grown to a 16-pixel grid, so that its corners fall on whole 4:2:0 chroma samples.

>>> PixelRect(3, 5, 20, 9).union(PixelRect(30, 0, 31, 1))
PixelRect(x0=3, y0=0, x1=31, y1=9)
>>> PixelRect(3, 5, 20, 9).snapped(100, 50)
PixelRect(x0=0, y0=0, x1=32, y1=16)
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

GRID = 16
"""Rectangles start and end on multiples of this (clamped to the frame)."""
AA_PIXELS = 2.0
"""Anti-aliasing reaches one pixel past a path; one more for rounding."""
MITER = 5.0
"""Half Cairo's default miter limit (10): how far a sharp join may reach, in line widths."""


class PixelRect(NamedTuple):
    """Pixels x0 <= x < x1, y0 <= y < y1 (y down, as in the frame array)."""

    x0: int
    y0: int
    x1: int
    y1: int

    def union(self, other: "PixelRect") -> "PixelRect":
        return PixelRect(min(self.x0, other.x0), min(self.y0, other.y0),
                         max(self.x1, other.x1), max(self.y1, other.y1))

    def meets(self, other: "PixelRect") -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def snapped(self, width: int, height: int) -> "PixelRect":
        """Grown to the grid and clamped to a ``width`` x ``height`` frame."""
        return PixelRect(max(0, self.x0 // GRID * GRID), max(0, self.y0 // GRID * GRID),
                         min(width, -(-self.x1 // GRID) * GRID), min(height, -(-self.y1 // GRID) * GRID))

    def grown(self, pixels: int, width: int, height: int) -> "PixelRect":
        """``pixels`` more on every side, clamped to a ``width`` x ``height`` frame."""
        return PixelRect(max(0, self.x0 - pixels), max(0, self.y0 - pixels),
                         min(width, self.x1 + pixels), min(height, self.y1 + pixels))

    def area(self) -> int:
        return max(0, self.x1 - self.x0) * max(0, self.y1 - self.y0)

    def slices(self) -> tuple[slice, slice]:
        """Index of this rectangle in a frame array."""
        return slice(self.y0, self.y1), slice(self.x0, self.x1)


def drawable(shape: Any) -> bool:
    """Whether ``shape_box`` bounds everything the camera draws for this shape: a vectorised
    shape's ink lies in the hull of its Bézier points, grown by its stroke. Images, point clouds
    and shapes filled from a background image are not boxed: a play with one of them among the
    shapes it redraws is redrawn whole."""
    from manim import VMobject

    return isinstance(shape, VMobject) and not shape.get_background_image()


def shape_box(camera: Any, shape: Any) -> PixelRect | None:
    """Pixels this shape's fill and strokes may touch, or None when it draws nothing."""
    return shapes_box(camera, [shape])


def shapes_box(camera: Any, shapes: list[Any]) -> PixelRect | None:
    """Pixels these shapes' fills and strokes may touch (one box around all of them, grown by
    the widest stroke), or None when they draw nothing."""
    drawn = [s.points for s in shapes if len(s.points)]
    if not drawn:
        return None
    points = drawn[0] if len(drawn) == 1 else np.concatenate(drawn)
    # each column reduced alone: numpy reduces an (n, 3) array along its rows five times slower
    # (a whole graph's points on every frame of a camera's glide); the least and most are the same
    xs, ys = points[:, 0], points[:, 1]
    left, bottom, right, top = float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())
    if not all(map(math.isfinite, (left, bottom, right, top))):
        return PixelRect(0, 0, camera.pixel_width, camera.pixel_height)  # the camera draws it at the origin
    scale_x = camera.pixel_width / camera.frame_width
    scale_y = camera.pixel_height / camera.frame_height
    width = max(max(s.get_stroke_width(), s.get_stroke_width(background=True)) for s in shapes)
    reach = width * camera.cairo_line_width_multiple * max(scale_x, scale_y) * MITER + AA_PIXELS
    cx, cy = camera.frame_center[0], camera.frame_center[1]
    return PixelRect(math.floor((left - cx) * scale_x + camera.pixel_width / 2 - reach),
                     math.floor(camera.pixel_height / 2 - (top - cy) * scale_y - reach),
                     math.ceil((right - cx) * scale_x + camera.pixel_width / 2 + reach),
                     math.ceil(camera.pixel_height / 2 - (bottom - cy) * scale_y + reach))


def damage(boxes: list[PixelRect | None], width: int, height: int) -> PixelRect | None:
    """The grid-snapped union of ``boxes`` inside the frame, or None when nothing is drawn."""
    out: PixelRect | None = None
    for box in boxes:
        if box is not None:
            out = box if out is None else out.union(box)
    if out is None:
        return None
    out = out.snapped(width, height)
    return out if out.area() > 0 else None
