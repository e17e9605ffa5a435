"""Where the camera goes for a beat's `focus:`: the layout as seen closer, around some cards.

Why a layout and not a camera: every cue places what it draws by the layout (a token rides a
route, a badge waits beside a box), so while the camera is close the scene reads the layout
seen from there, and what it draws then lands where the moved cards are. Pure: an affine map
of the boxes and routes (no Manim), which the scene also applies to the shapes on screen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from scenes.layout.place import Box, Layout
from scenes.layout.routes import Route

Point = tuple[float, float]


@dataclass(frozen=True)
class Zoom:
    """p -> (p - about) * factor + to: the camera's move, as a map of scene points."""

    factor: float
    about: Point
    to: Point

    def point(self, p: Point) -> Point:
        return ((p[0] - self.about[0]) * self.factor + self.to[0], (p[1] - self.about[1]) * self.factor + self.to[1])

    def inverse(self) -> "Zoom":
        return Zoom(1.0 / self.factor, self.to, self.about)

    def then(self, other: "Zoom") -> "Zoom":
        """This move followed by ``other``, as one move.

        >>> a, b = Zoom(2.0, (1.0, 0.0), (0.0, 1.0)), Zoom(0.5, (3.0, 3.0), (0.0, 0.0))
        >>> a.then(b).point((2.0, 2.0)) == b.point(a.point((2.0, 2.0)))
        True
        """
        to = ((self.to[0] - other.about[0]) * other.factor + other.to[0],
              (self.to[1] - other.about[1]) * other.factor + other.to[1])
        return Zoom(self.factor * other.factor, self.about, to)


def focus_zoom(lay: Layout, items: Iterable[str], most: float) -> Zoom:
    """The move that brings the boxes of ``items`` (and their buckets) to the middle of the
    layout's region, as large as fits there and at most ``most`` times larger; no move (factor 1)
    when they fill the region already or none of them has a box."""
    wanted = set(items)
    boxes = [b for k, b in lay.boxes.items() if k in wanted or (k.startswith("bucket:") and k[7:] in wanted)]
    left, bottom, right, top = lay.region
    mid = ((left + right) / 2, (bottom + top) / 2)
    if not boxes:
        return Zoom(1.0, mid, mid)
    x0, y0 = min(b.bounds[0] for b in boxes), min(b.bounds[1] for b in boxes)
    x1, y1 = max(b.bounds[2] for b in boxes), max(b.bounds[3] for b in boxes)
    k = max(1.0, min(most, (right - left) / max(x1 - x0, 1e-9), (top - bottom) / max(y1 - y0, 1e-9)))
    return Zoom(k, ((x0 + x1) / 2, (y0 + y1) / 2), mid)


def zoomed(lay: Layout, z: Zoom) -> Layout:
    """The layout as the camera sees it after ``z``: every box and route moved and scaled, its
    scale and zoom ``z.factor`` times larger (strokes, tokens and tags grow with it); same region."""
    boxes = {k: Box(b.id, b.kind, *z.point((b.x, b.y)), b.w * z.factor, b.h * z.factor) for k, b in lay.boxes.items()}
    routes = tuple(Route(r.src, r.dst, r.slot, r.needs_grad, tuple(z.point(p) for p in r.points)) for r in lay.routes)
    return replace(lay, boxes=boxes, routes=routes, scale=lay.scale * z.factor, zoom=lay.zoom * z.factor)


def inside(bounds: tuple[float, float, float, float], region: tuple[float, float, float, float]) -> bool:
    """Whether ``bounds`` lie within ``region`` (both left, bottom, right, top)."""
    eps = 1e-6
    return (bounds[0] >= region[0] - eps and bounds[1] >= region[1] - eps
            and bounds[2] <= region[2] + eps and bounds[3] <= region[3] + eps)


def shifted_in(z: Zoom, rects: Iterable[tuple[float, float, float, float]],
               room: tuple[float, float, float, float]) -> Zoom | None:
    """``z`` moved sideways and up or down, as little as brings every one of ``rects`` (as ``z``
    shows them) inside ``room``: ``z`` itself where they lie inside already, None where together
    they are wider or taller than ``room``.

    >>> z = Zoom(1.0, (0.0, 0.0), (0.0, 0.0))
    >>> shifted_in(z, [(0.0, 0.0, 2.5, 1.0)], (-1.0, -1.0, 2.0, 2.0)).to, shifted_in(z, [(0.0, 0.0, 1.0, 1.0)], (-1.0, -1.0, 2.0, 2.0)) is z
    ((-0.5, 0.0), True)
    >>> shifted_in(z, [(-1.5, 0.0, 0.0, 1.0), (0.0, 0.0, 2.5, 1.0)], (-1.0, -1.0, 2.0, 2.0)) is None
    True
    """
    rs = list(rects)
    if not rs:
        return z
    shift = []
    for lo_side, hi_side in ((0, 2), (1, 3)):
        lo = max(room[lo_side] - r[lo_side] for r in rs)  # the least move that brings every low side in
        hi = min(room[hi_side] - r[hi_side] for r in rs)  # the most that keeps every high side in
        if lo > hi + 1e-9:
            return None
        shift.append(min(max(0.0, lo), hi))
    if shift == [0.0, 0.0]:
        return z
    return Zoom(z.factor, z.about, (z.to[0] + shift[0], z.to[1] + shift[1]))
