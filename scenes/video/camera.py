"""A Cairo camera that remembers the path of every shape it has drawn.

Why: without it most of a frame's drawing time goes into turning each glyph's Bézier points into
a Cairo path (finding subpaths with numpy, then one ``curve_to`` per curve, in Python), over and
over for shapes that have not moved. Cairo can hand a built path back (``copy_path``) and replay it
(``append_path``) in microseconds, so a path is built once per distinct set of points and
replayed from then on. The pixels are the ones Manim's camera draws: the same path, the same
fill and stroke calls.
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

import numpy as np
from manim import Camera, VMobject
from manim.camera.camera import CAP_STYLE_MAP, LINE_JOIN_MAP

RTOL = 1.0e-5
"""np.isclose's relative tolerance, which Manim uses to tell whether two anchors coincide."""

CAPACITY = 50_000
"""Paths kept before the memory is emptied and filled again (about 300 bytes each for a glyph).
A shape in motion has new points every frame and fills most of it; shapes at rest are rebuilt
once after each emptying."""


def _near(x0: float, y0: float, x1: float, y1: float, atol: float) -> bool:
    """Manim's ``consider_points_equals_2d``: each coordinate within atol + RTOL * |the second|."""
    return abs(x0 - x1) <= atol + RTOL * abs(x1) and abs(y0 - y1) <= atol + RTOL * abs(y1)


def _build_path(ctx: Any, vmobject: Any, points: np.ndarray) -> None:
    """The path ``Camera.set_cairo_context_path`` builds from finite points (the same subpaths,
    curves and closings, from the same doubles), with the points read once as Python floats
    instead of through numpy calls per subpath, which cost more than the path itself for the
    few curves of a glyph.

    A subpath ends where a curve's end anchor is not near the next curve's start anchor; it is
    closed when its first and last points are near."""
    n, step = len(points), vmobject.n_points_per_cubic_curve
    ctx.new_path()
    if n < step:
        return
    xy = points[:, :2].tolist()
    atol = vmobject.tolerance_for_point_equality
    cuts = [0]
    for b in range(step, n, step):  # _near, written out: this loop runs for every curve
        (ex, ey), (sx, sy) = xy[b - 1], xy[b]
        if abs(ex - sx) > atol + RTOL * abs(sx) or abs(ey - sy) > atol + RTOL * abs(sy):
            cuts.append(b)
    cuts.append(n)
    curve_to = ctx.curve_to
    for start, end in zip(cuts, cuts[1:]):
        if end - start < step:
            continue
        ctx.new_sub_path()
        ctx.move_to(*xy[start])
        for i in range(start, end - step + 1, step):
            (x1, y1), (x2, y2), (x3, y3) = xy[i + 1], xy[i + 2], xy[i + 3]
            curve_to(x1, y1, x2, y2, x3, y3)
        if _near(*xy[start], *xy[end - 1], atol):
            ctx.close_path()


def _clear(rgbas: np.ndarray) -> bool:
    """Whether every colour of ``rgbas`` has alpha 0 (one colour, the usual case, read as a scalar:
    this is asked of every shape of every frame)."""
    if len(rgbas) == 1:
        return bool(rgbas[0, 3] == 0.0)
    return not rgbas[:, 3].any()


def unseen(vmobject: Any) -> bool:
    """Whether Manim's ``display_vectorized`` paints nothing for this shape: no fill, stroke or
    background stroke with a width and an alpha above 0 (Cairo lays a clear colour OVER the
    frame as the frame itself). The walk's camera keeps the shapes it took out of view on
    screen at opacity 0 while it is close: a fifth of the shapes a clip's frames draw."""
    return (_clear(vmobject.get_fill_rgbas())
            and (vmobject.get_stroke_width() == 0 or _clear(vmobject.get_stroke_rgbas()))
            and (vmobject.get_stroke_width(True) == 0 or _clear(vmobject.get_stroke_rgbas(True))))


def _plain(m: Any) -> bool:
    """A vectorised shape without a background image: what Manim draws on the Cairo context."""
    return isinstance(m, VMobject) and not m.get_background_image()


class PathCachingCamera(Camera):
    """Manim's Camera with ``set_cairo_context_path`` memoised on the shape's points, and with
    shapes that paint nothing (``unseen``) skipped."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._paths: dict[bytes, Any] = {}

    def capture_mobjects(self, mobjects: Any, **kwargs: Any) -> None:
        """Manim's: the shapes drawn in order, those of a kind in a run; a vectorised shape
        without a background image drawn straight on the frame's Cairo context, as Manim's runs
        of such shapes are (``display_multiple_non_background_colored_vmobjects``), without
        telling each shape's kind apart twice (``type_or_raise`` builds its table of kinds for
        every shape of every frame)."""
        ctx = None
        for plain, run in itertools.groupby(self.get_mobjects_to_display(mobjects, **kwargs), _plain):
            if not plain:  # Manim's way, a run of its own
                for kind, part in itertools.groupby(run, self.type_or_raise):
                    self.display_funcs[kind](list(part), self.pixel_array)
                continue
            ctx = ctx or self.get_cairo_context(self.pixel_array)
            for m in run:
                self.display_vectorized(m, ctx)

    def display_vectorized(self, vmobject: Any, ctx: Any) -> "PathCachingCamera":
        """Manim's: the path, the background stroke, the fill, the stroke, by the same Cairo
        calls with the same numbers, each colour and width read once (Manim reads them again
        for each paint, and `unseen` once more: most of the Python a shape costs a frame);
        nothing for a shape that paints nothing (``unseen``)."""
        fill = vmobject.get_fill_rgbas()
        width, behind = vmobject.get_stroke_width(), vmobject.get_stroke_width(True)
        stroke = vmobject.get_stroke_rgbas() if width != 0 else None
        back = vmobject.get_stroke_rgbas(True) if behind != 0 else None
        if _clear(fill) and (stroke is None or _clear(stroke)) and (back is None or _clear(back)):
            return self  # its path would be built (or replayed) and painted clear
        self.set_cairo_context_path(ctx, vmobject)
        if back is not None:
            self._stroke(ctx, vmobject, back, behind)
        self.set_cairo_context_color(ctx, fill, vmobject)
        ctx.fill_preserve()
        if stroke is not None:
            self._stroke(ctx, vmobject, stroke, width)
        return self

    def _stroke(self, ctx: Any, vmobject: Any, rgbas: np.ndarray, width: float) -> None:
        """Manim's ``apply_stroke`` of a stroke with a width."""
        self.set_cairo_context_color(ctx, rgbas, vmobject)
        ctx.set_line_width(width * self.cairo_line_width_multiple * (self.frame_width / self.frame_width))
        ctx.set_line_join(LINE_JOIN_MAP[vmobject.joint_type])
        ctx.set_line_cap(CAP_STYLE_MAP[vmobject.cap_style])
        ctx.stroke_preserve()

    def set_cairo_context_path(self, ctx: Any, vmobject: Any) -> "PathCachingCamera":
        points = vmobject.points
        if len(points) == 0:  # Manim would leave the last shape's path for this one to fill
            ctx.new_path()
            return self
        key = hashlib.blake2b(points.tobytes(), digest_size=16).digest()
        path = self._paths.get(key)
        if path is not None:
            ctx.new_path()
            ctx.append_path(path)
            return self
        if np.isfinite(points).all():
            _build_path(ctx, vmobject, points)
        else:
            super().set_cairo_context_path(ctx, vmobject)
        if len(self._paths) >= CAPACITY:
            self._paths.clear()
        self._paths[key] = ctx.copy_path()
        return self
