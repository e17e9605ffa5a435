"""Where the small things around a card go: its op name, AccumulateGrad, the gradient badge of
a backward visit. Pure geometry over a `Layout`, like the layout itself.

Why not simply a fixed spot (centred above the card, its top right corner): arrows meet cards
there. A card with one input has that arrow meet it in the middle, so "relu" centred above it sat
under the arrow head; in a top-to-bottom graph every backward edge leaves a card's top, so a
badge on the top right corner sat where the token riding that edge waits. Each label takes the
first of a few spots that no arrow crosses and no other card or label touches. Positions depend
on the layout only, so they do not move when numbers change.

>>> tag_centre(lay, lay.boxes["t5"], (0.3, 0.1), above=True, gap=0.05, clear=0.07)  # doctest: +SKIP
(0.91, 1.02)
"""

from __future__ import annotations

from collections.abc import Iterable

from scenes.layout import Box, Layout, Point

Rect = tuple[float, float, float, float]
"""left, bottom, right, top"""


def tag_centre(lay: Layout, box: Box, size: Point, *, above: bool, gap: float, clear: float) -> Point:
    """A tag of ``size`` (w, h) ``gap`` outside the box's top (or bottom) edge: centred, or slid
    along the edge to the nearest spot ``clear`` of arrows and other cards, no further than the
    box's corner."""
    w, h = size
    y = box.y + (box.h / 2 + gap + h / 2) * (1 if above else -1)
    step = max(w / 8, 1e-3)
    spots = [(box.x, y)]
    for k in range(1, int(box.w / 2 / step) + 1):
        spots += [(box.x + k * step, y), (box.x - k * step, y)]
    return first_clear(lay, box, size, spots, clear) or spots[0]


def badge_centre(lay: Layout, box: Box, size: Point, *, gap: float, clear: float, avoid: Iterable[Rect] = ()) -> Point:
    """A badge of ``size`` (w, h) beside the box: just outside its right side, else its left
    side, else on one of its corners; the first spot ``clear`` of arrows, other cards and the
    ``avoid`` rectangles (the box's own tags). Where every spot is taken, the first that only
    crosses an arrow (covering a card's text is worse), else the top right corner."""
    w, h = size
    left, bottom, right, top = box.bounds
    spots = [(right + gap + w / 2, box.y), (left - gap - w / 2, box.y),
             (right, top), (left, top), (right, bottom), (left, bottom)]
    avoid = list(avoid)
    return (first_clear(lay, box, size, spots, clear, avoid, within=lay.region)  # not over the code
            or first_clear(lay, box, size, spots, clear, avoid, within=lay.region, routes=False)
            or (right, top))


def first_clear(lay: Layout, box: Box, size: Point, spots: list[Point], clear: float, avoid: Iterable[Rect] = (),
                within: Rect | None = None, routes: bool = True) -> Point | None:
    """The first spot where a rectangle of ``size``, grown by ``clear``, meets no route (unless
    ``routes`` is false), no card but ``box`` and nothing in ``avoid``, and, not grown, stays
    ``within``; None if there is none."""
    w, h = size
    segments = [(p, q) for r in lay.routes for p, q in zip(r.points, r.points[1:])] if routes else []
    others = [b.bounds for b in lay.boxes.values() if b.id != box.id] + list(avoid)
    x0, y0, x1, y1 = within or (-float("inf"), -float("inf"), float("inf"), float("inf"))
    for x, y in spots:
        rect = (x - w / 2 - clear, y - h / 2 - clear, x + w / 2 + clear, y + h / 2 + clear)
        inside = x0 <= x - w / 2 and x + w / 2 <= x1 and y0 <= y - h / 2 and y + h / 2 <= y1
        if inside and not any(crosses(rect, p, q) for p, q in segments) and not any(meet(rect, o) for o in others):
            return (x, y)
    return None


def meet(a: Rect, b: Rect) -> bool:
    """Whether two rectangles overlap."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def crosses(rect: Rect, p: Point, q: Point) -> bool:
    """Whether the segment p-q enters the rectangle: the parts of the segment's parameter range
    inside each slab, intersected (Liang-Barsky)."""
    lo, hi = 0.0, 1.0
    for a, d, low, high in ((p[0], q[0] - p[0], rect[0], rect[2]), (p[1], q[1] - p[1], rect[1], rect[3])):
        if abs(d) < 1e-12:
            if not low <= a <= high:
                return False
            continue
        t0, t1 = sorted(((low - a) / d, (high - a) / d))
        lo, hi = max(lo, t0), min(hi, t1)
    return lo <= hi
