"""A Cairo camera that remembers the path of every shape it has drawn.

Why: most of a frame's drawing time went into turning each glyph's Bézier points into a Cairo path
(finding subpaths with numpy, then one ``curve_to`` per curve, in Python), over and over for
shapes that had not moved. Cairo can hand a built path back (``copy_path``) and replay it
(``append_path``) in microseconds, so a path is built once per distinct set of points and
replayed from then on. The pixels are the ones Manim's camera draws: the same path, the same
fill and stroke calls.
"""

from __future__ import annotations

import hashlib
from typing import Any

from manim import Camera

CAPACITY = 50_000
"""Paths kept before the memory is emptied and filled again (about 300 bytes each for a glyph).
A shape in motion has new points every frame and fills most of it; shapes at rest are rebuilt
once after each emptying."""


class PathCachingCamera(Camera):
    """Manim's Camera with ``set_cairo_context_path`` memoised on the shape's points."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._paths: dict[bytes, Any] = {}

    def set_cairo_context_path(self, ctx: Any, vmobject: Any) -> "PathCachingCamera":
        points = vmobject.points
        if len(points) == 0:
            return super().set_cairo_context_path(ctx, vmobject)
        key = hashlib.blake2b(points.tobytes(), digest_size=16).digest()
        path = self._paths.get(key)
        if path is not None:
            ctx.new_path()
            ctx.append_path(path)
            return self
        super().set_cairo_context_path(ctx, vmobject)
        if len(self._paths) >= CAPACITY:
            self._paths.clear()
        self._paths[key] = ctx.copy_path()
        return self
