"""The whole graph, larger: where it goes once it is built and the code pane steps aside.

Why: a graph laid out beside (16:9) or under (9:16) the whole code pane stays a third of the
frame or less, while the narration turns to the graph as a whole (its last teaching beat, the
takeaway). Once the program is typed, the pane keeps only its lit line and the graph grows into
the frame it frees (issue 39 item 4). An even zoom cannot fill a wide frame with a tall graph,
so the move is a stretch: every card (and what is drawn on it) grows evenly by ``k``, and the
cards' centres spread apart by ``kx`` across and ``ky`` up (at least ``k``, so that no two cards
come nearer; at most ``k`` times the theme's ``layout.whole_stretch``). An arrow keeps its ends
on its cards: each end moves with its card, the points between with the spread, blended along
the route (`Stretch.along`). Pure: rectangles and maps (no Manim); `scenes.draw.whole` applies
them to the shapes on screen, `scenes.render.whole_plan` says when.

>>> from scenes.layout.place import Box
>>> lay = type("L", (), {"boxes": {"a": Box("a", "op", 0.0, 0.0, 1.0, 1.0), "b": Box("b", "op", 0.0, 3.0, 1.0, 1.0)}})()
>>> s = whole_view(lay, (-4.0, -1.0, 4.0, 5.0), 0.0, 2.0, 3.0)
>>> s.k, s.ky, [round(v, 6) for v in s.box_bounds(lay.boxes["b"])]
(1.5, 1.5, [-0.75, 3.5, 0.75, 5.0])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from dataclasses import dataclass, replace

from scenes.layout.clear_rects import meets
from scenes.layout.place import Box, Layout
from scenes.layout.routes import Route

Point = tuple[float, float]
Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Stretch:
    """The move of the whole graph: a card's centre p goes to ``to + (kx, ky) * (p - about)``,
    and the card grows by ``k`` about it."""

    k: float
    kx: float
    ky: float
    about: Point
    to: Point

    def point(self, p: Point) -> Point:
        """Where the spread takes a point between the cards."""
        return (self.to[0] + self.kx * (p[0] - self.about[0]), self.to[1] + self.ky * (p[1] - self.about[1]))

    def inverse(self) -> "Stretch":
        return Stretch(1.0 / self.k, 1.0 / self.kx, 1.0 / self.ky, self.to, self.about)

    def box(self, b: Box) -> Box:
        x, y = self.point((b.x, b.y))
        return Box(b.id, b.kind, x, y, b.w * self.k, b.h * self.k)

    def box_bounds(self, b: Box) -> Rect:
        """``box(b).bounds``, reckoned as `Box.bounds` reckons them, without making the Box (the
        search for a view asks it of every card of thousands of views)."""
        x, y = self.point((b.x, b.y))
        w, h = b.w * self.k, b.h * self.k
        return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)

    def local(self, centre: Point, p: Point) -> Point:
        """Where ``p``, drawn on a card centred at ``centre``, goes with that card."""
        c = self.point(centre)
        return (c[0] + self.k * (p[0] - centre[0]), c[1] + self.k * (p[1] - centre[1]))

    def along(self, points: list[Point], start: Point, end: Point) -> list[Point]:
        """The points of a path from the card centred at ``start`` to the one at ``end``: its
        first point goes with the first card, its last with the last, the ones between with the
        spread plus a share of the two ends' differences from it, by their order along the path,
        so that the path's ends stay on its cards through the move."""
        if not points:
            return []
        d0 = _minus(self.local(start, points[0]), self.point(points[0]))
        d1 = _minus(self.local(end, points[-1]), self.point(points[-1]))
        n = max(len(points) - 1, 1)
        out = []
        for i, p in enumerate(points):
            t = i / n
            q = self.point(p)
            out.append((q[0] + (1 - t) * d0[0] + t * d1[0], q[1] + (1 - t) * d0[1] + t * d1[1]))
        return out


def _minus(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def extent(boxes: Mapping[str, Box], s: Stretch) -> Rect:
    """The box around every card of ``boxes`` once ``s`` has moved them."""
    return _around([s.box_bounds(b) for b in boxes.values()])


def _around(bs: Sequence[Rect]) -> Rect:
    """The box around the rectangles ``bs``."""
    return (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))


def _spread(boxes: Mapping[str, Box], k: float, axis: int, room: float, most: float) -> float:
    """The spread of the cards' centres along ``axis`` (0 across, 1 up), from ``k`` to ``most``,
    at which the cards, grown by ``k``, take ``room`` (bisection: their extent grows with it)."""
    # each card's centre and half its grown size along ``axis``: `extent` of `Stretch` (k, f)
    # about the origin, reckoned as it reckons it, without a Box per card per step
    ends = [((b.x, (b.w * k) / 2) if axis == 0 else (b.y, (b.h * k) / 2)) for b in boxes.values()]

    def size(f: float) -> float:
        return max(f * c + r for c, r in ends) - min(f * c - r for c, r in ends)

    if size(k) >= room or most <= k:
        return k
    if size(most) <= room:
        return most
    lo, hi = k, most
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if size(mid) <= room else (lo, mid)
    return lo


def whole_view(lay: Layout, region: Rect, reach: float, most: float, stretch: float) -> Stretch:
    """The stretch that takes the whole graph of ``lay`` into ``region`` (less ``reach`` at its
    top: an op name over the top card, as the clip's layout keeps it): its cards grow evenly as much as fits, at
    most ``most`` times, and their centres spread apart along each axis up to ``stretch`` times
    that, as far as the region has room; centred in it."""
    boxes = lay.boxes
    g = extent(boxes, Stretch(1.0, 1.0, 1.0, (0.0, 0.0), (0.0, 0.0)))
    region = (region[0], region[1], region[2], region[3] - reach)
    w, h = region[2] - region[0], region[3] - region[1]
    k = max(min(most, w / max(g[2] - g[0], 1e-9), h / max(g[3] - g[1], 1e-9)), 1e-3)
    kx = _spread(boxes, k, 0, w, k * stretch)
    ky = _spread(boxes, k, 1, h, k * stretch)
    about = ((g[0] + g[2]) / 2, (g[1] + g[3]) / 2)
    s = Stretch(k, kx, ky, about, about)
    e = extent(boxes, s)
    mid = ((region[0] + region[2]) / 2, (region[1] + region[3]) / 2)
    return replace(s, to=(about[0] + mid[0] - (e[0] + e[2]) / 2, about[1] + mid[1] - (e[1] + e[3]) / 2))


def stretched(lay: Layout, s: Stretch, region: Rect) -> Layout:
    """The layout as the whole view shows it: every box moved and grown by ``s``, every route
    kept on its boxes (`Stretch.along`), its scale and zoom ``s.k`` times larger; ``region``
    where the cues place things meanwhile."""
    boxes = {key: s.box(b) for key, b in lay.boxes.items()}

    def centre(item: str, at: Point) -> Point:
        b = lay.boxes.get(item)
        return (b.x, b.y) if b is not None else at

    routes = []
    for r in lay.routes:
        pts = list(r.points)
        moved = s.along(pts, centre(r.src, pts[0]), centre(r.dst, pts[-1])) if pts else []
        routes.append(Route(r.src, r.dst, r.slot, r.needs_grad, tuple(moved)))
    return replace(lay, boxes=boxes, routes=tuple(routes), scale=lay.scale * s.k, zoom=lay.zoom * s.k, region=region)


def area(r: Rect) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


SIDES = 32
"""The equal steps across the free frame `clear_view` adds to its rectangles' sides where asked
(``sides``): a graph kept off a recap board may stand off the frame's middle."""

SPREADS = 8
"""The steps from the most spread to none that `clear_view` tries in each rectangle."""

TIE = 1e-6
"""How far (in frame units) a card's reach may overlap what it keeps off and still touch it only."""


Views = dict[tuple[Rect, float, float, float], tuple[Stretch, list[Rect]]]
"""The whole views of one layout `clear_view` has worked out (and their cards' bounds), by
rectangle, reach, most and spread: asked again with the pane or the legend elsewhere, it tries
many of the same rectangles."""


def clear_view(lay: Layout, free: Rect, keep_off: Sequence[Rect], reach: float, most: float,
               stretch: float, seen: Views | None = None, sides: int = 0) -> tuple[Stretch, Rect] | None:
    """The largest whole view of ``lay`` in ``free`` (`whole_view`) whose cards, ``reach``
    around each (an op name over it), meet none of ``keep_off`` (the lit line's pane, the
    legend): tried in each rectangle of ``free`` whose sides lie on its own or on the edges of
    ``keep_off`` (one may take in a short pane of one line over a corner of the graph where no
    card stands, or a board low beside the graph's foot, slid off it: `_clear_of`), each with its
    spread at most ``stretch`` or in `SPREADS` steps down to none (of
    two as large, the one in the larger rectangle: a graph the frame's height bounds is centred
    in the frame's width, not in a strip beside a board); the move and its rectangle, or None
    where none draws the graph larger than it is. ``seen``: the views of ``lay`` worked out so
    far, kept for the next call on it (the same answer, sooner). ``sides``: that many equal
    steps across ``free`` give its rectangles more left and right sides, so a graph centred in
    one may stand off the frame's middle, its cards passing beside what it keeps off (a board
    in a corner), where a rectangle on their edges sets it wholly beside them (leaf_nodes 16:9,
    beside its recap board: 44 % of the frame, 47 % across it).

    >>> from scenes.layout.place import Box
    >>> boxes = {k: Box(k, "op", 0.0, y, 1.0, 1.0) for k, y in (("a", 0.0), ("b", 2.0))}
    >>> lay = type("L", (), {"boxes": boxes})()
    >>> s, room = clear_view(lay, (-4.0, -1.0, 4.0, 5.0), [(-4.0, 4.0, -1.0, 5.0)], 0.0, 2.0, 2.0)
    >>> s.k, room
    (2.0, (-4.0, -1.0, 4.0, 5.0))
    """
    xs = sorted({free[0], free[2], *(v for r in keep_off for v in (r[0], r[2]) if free[0] < v < free[2]),
                 *(free[0] + (free[2] - free[0]) * i / sides for i in range(1, sides))})
    ys = sorted({free[1], free[3], *(v for r in keep_off for v in (r[1], r[3]) if free[1] < v < free[3])})
    best: tuple[float, Stretch, Rect] | None = None
    for x0, x1 in combinations(xs, 2):
        for y0, y1 in combinations(ys, 2):
            region = (x0, y0, x1, y1)
            if best is not None and area(region) < best[0] - 1e-9:
                continue  # a view fits in its region: none in this one is as large as the best
            for spread in (stretch - (stretch - 1.0) * i / SPREADS for i in range(SPREADS + 1)):
                key = (region, reach, most, spread)
                s, cards = seen[key] if seen is not None and key in seen else _view_of(lay, key)
                if seen is not None:
                    seen[key] = (s, cards)
                if s.k < 1.0 - 1e-6:
                    break
                size = area(_around(cards))
                if best is not None and (size < best[0] - 1e-9 or (size <= best[0] + 1e-9
                                                                   and area(region) <= area(best[2]))):
                    continue  # as large in a larger rectangle: nearer the frame's middle, centred in it
                clear = _clear_of(s, cards, region, keep_off, reach)
                if clear is not None:
                    best = (size, clear, region)
    if best is None or best[0] <= area(extent(lay.boxes, Stretch(1.0, 1.0, 1.0, (0.0, 0.0), (0.0, 0.0)))) * 1.01:
        return None
    return best[1], best[2]


SLIDES = 8
"""The steps, each way along each axis, in which `_clear_of` slides a view inside its rectangle."""


def _clear_of(s: Stretch, cards: Sequence[Rect], region: Rect, keep_off: Sequence[Rect], reach: float) -> Stretch | None:
    """The view ``s`` (its cards' bounds ``cards``, centred in ``region`` by `whole_view`) where
    its cards, ``reach`` around each, meet none of ``keep_off``: as it is, else slid across or up
    and down inside ``region`` as little as clears them (in `SLIDES` steps each way); None where
    none does. A board beside the bucket of a tall graph's foot kept the graph, centred, out of
    the frame's width for a few pixels' overlap (dynamic_graph 9:16's recap, w.grad = 4/27).

    >>> s = Stretch(1.0, 1.0, 1.0, (0.0, 0.0), (0.0, 0.0))
    >>> _clear_of(s, [(-1.0, -1.0, 1.0, 1.0)], (-3.0, -1.0, 3.0, 1.0), [(0.5, -1.0, 3.0, 1.0)], 0.0).to
    (-0.5, 0.0)
    """
    def clear(dx: float, dy: float) -> bool:
        # (less a hair: a top card's op name that `whole_view` set against the pane's foot
        # touches it, and a rounding error is no overlap)
        return not any(meets((c[0] + dx - reach / 2 + TIE, c[1] + dy - reach / 2 + TIE, c[2] + dx + reach / 2 - TIE,
                              c[3] + dy + reach - TIE), r) for c in cards for r in keep_off)

    if clear(0.0, 0.0):
        return s
    e = _around(cards)
    ways = [(d, 0.0) for d in _steps(region[0] - e[0], region[2] - e[2])]
    ways += [(0.0, d) for d in _steps(region[1] - e[1], region[3] - reach - e[3])]
    for dx, dy in sorted(ways, key=lambda w: abs(w[0]) + abs(w[1])):
        if clear(dx, dy):
            return replace(s, to=(s.to[0] + dx, s.to[1] + dy))
    return None


def _steps(lo: float, hi: float) -> list[float]:
    """The slides from ``lo`` to ``hi`` (0 between them) in `SLIDES` steps each way from 0."""
    return [f * v / SLIDES for v in (lo, hi) if abs(v) > 1e-9 for f in range(1, SLIDES + 1)]


def _view_of(lay: Layout, key: tuple[Rect, float, float, float]) -> tuple[Stretch, list[Rect]]:
    """`whole_view` of ``lay`` in a rectangle, with a reach, most and spread (``key``), and its
    cards' bounds."""
    s = whole_view(lay, *key)
    return s, [s.box_bounds(b) for b in lay.boxes.values()]
