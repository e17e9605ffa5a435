"""The way a gradient token rides: along its edge, around whatever is on screen in between.

Why not the edge itself: a token is a pill several times wider than the line it rides, so on the
line it passes over the op names, values and cards beside it, and the lead
from a visit's note (where the product is written) to the edge crosses the cards between. The
ride is a shortest path on a grid over the part of the frame around the edge, where a step costs
more the further it is from the edge (so the token follows the line where the line is clear and
steps beside it where it is not) and a step whose pill would touch an obstacle costs far more (so
a way is always found, and it touches as little as it can). Where even that way touches
something (the spot it must reach is boxed in by words and cards), the token is hidden for
that part (`hidden_spans`): it passes behind the op name, never over it. Pure geometry, like
the layout.

>>> p = ride_path((0.0, 0.0), (4.0, 0.0), [(0.0, 0.0), (4.0, 0.0)], (0.4, 0.2), [(1.8, -0.2, 2.2, 0.2)],
...               within=(-1.0, -2.0, 5.0, 2.0), step=0.1, clear=0.02)
>>> any(meets(rect_around(x, y, (0.4, 0.2)), (1.8, -0.2, 2.2, 0.2)) for x, y in dense(p, 0.05))
False
>>> p[0], p[-1]
((0.0, 0.0), (4.0, 0.0))
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
import math

import numpy as np

from scenes.layout.clear_rects import meets
from scenes.layout.label_spots import inside, rect_around
from scenes.theme import Rect

Point = tuple[float, float]

BLOCKED = 4000.0
"""What a grid step whose pill covers an obstacle costs, in steps: a detour of that many steps
is taken rather than one covered step."""
NEAR = 8.0
"""What a grid step costs, in steps, where the pill only comes within ``clear`` of an obstacle
(a token leaves its product's pill, right beside the note's words, through such steps)."""
AWAY = 1.5
"""Extra cost of a step per pill height it is from the edge: how strongly the ride keeps to it."""
MARGIN = 4.0
"""How far (in pill widths) around the edge and its two ends the search may go."""
GRAZE = 1 / 8
"""How deep (in grid steps) a riding pill may cover something and still be drawn
(`hidden_spans`): the way is checked clear half a step apart, so a straight run past a corner may
graze it between two checks (backward_walk 16:9 at 50.73 s: w1's 8/3 by a third of a pixel,
hidden for a frame beside its bucket, a blink); about a pixel at 854x480."""
BACK = 8.0
"""Extra cost of a step per pill height it is further from the way's end than its start is."""
CROSS = 40.0
"""What a grid step whose pill covers a ``soft`` rectangle costs, in steps: what a token may cross
where no way goes round (the card it leaves, its visit's note), but goes round where one does: a
token crossing y's card read ``3ulBackward0`` and ``y3 = 9 3`` (REVIEW5 8). Far below `BLOCKED`,
so crossing it is still taken rather than covering anything else."""

APART = 2 * CROSS
"""What a grid step costs, in steps, where the pill comes within ``gap`` of one of ``apart`` (the
cards a token's edge does not join): crossing the card it leaves is taken rather than skimming
another (backward_walk 16:9's 8/3 rode 2 px under yh - y, its 4/9 3 px past s's corner)."""


def _to_polyline(p: Point, line: list[Point]) -> float:
    """The distance from ``p`` to the polyline ``line``."""
    best = math.inf
    for (ax, ay), (bx, by) in zip(line, line[1:] or line):
        dx, dy = bx - ax, by - ay
        n = dx * dx + dy * dy
        t = 0.0 if n < 1e-12 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / n))
        best = min(best, math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy))
    return best


def dense(path: list[Point], step: float) -> list[Point]:
    """The points of ``path`` with points added along each segment, at most ``step`` apart."""
    out = [path[0]]
    for (ax, ay), (bx, by) in zip(path, path[1:]):
        n = max(1, math.ceil(math.hypot(bx - ax, by - ay) / step))
        out += [(ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(1, n + 1)]
    return out


def clear_of(p: Point, size: Point, obstacles: list[Rect], grown: float = 0.0) -> bool:
    """Whether a pill of ``size`` centred on ``p`` (grown by ``grown``) touches no obstacle."""
    r = rect_around(p[0], p[1], size, grown)
    return not any(meets(r, o) for o in obstacles)


def ride_path(start: Point, end: Point, edge: list[Point], size: Point, obstacles: list[Rect], *,
              within: Rect, step: float, clear: float, settle: bool = True,
              rest_off: Sequence[Rect] = (), soft: Sequence[Rect] = (), apart: Sequence[Rect] = (),
              gap: float = 0.0) -> list[Point]:
    """Corners of a way from ``start`` to ``end`` for a pill of ``size`` (w, h) that keeps near
    the polyline ``edge`` (from where it joins it without going back, `joined`) and, grown by ``clear``, touches none of ``obstacles`` where it can;
    it goes round ``soft`` rectangles too where a way round is not far longer (`CROSS`);
    it stays ``within`` (left, bottom, right, top). ``step``: the grid's pitch. Where a pill at
    ``end`` would touch an obstacle, or one of ``rest_off`` (what shows again once the token has
    left it: the product pill it set off from), the way ends at the nearest spot where it
    touches none (unless ``settle`` is false: a badge's spot is already chosen; then, where the
    straight way touches something, a way along the axes to it that touches nothing is taken
    before the grid's, `square_way`). ``apart``: what it keeps ``gap`` off where it can
    (`APART`), besides ``clear``."""
    w, h = size
    soft = [o for o in soft if not inside(rect_around(start[0], start[1], (0.0, 0.0)), o)]  # what it sets off from
    edge = joined(start, edge, step)
    pts = [start, end, *edge]
    pad = MARGIN * max(w, h)
    x0 = max(within[0] + w / 2, min(p[0] for p in pts) - pad)
    x1 = min(within[2] - w / 2, max(p[0] for p in pts) + pad)
    y0 = max(within[1] + h / 2, min(p[1] for p in pts) - pad)
    y1 = min(within[3] - h / 2, max(p[1] for p in pts) + pad)
    if x1 <= x0 or y1 <= y0:
        return [start, end]
    if x0 <= start[0] <= x1 and y0 <= start[1] <= y1:  # the grid through the start: its first step
        x0 = start[0] - math.floor((start[0] - x0) / step) * step  # is the way's, not a rounding
        y0 = start[1] - math.floor((start[1] - y0) / step) * step  # onto the words beside it
    nx, ny = int((x1 - x0) / step) + 1, int((y1 - y0) / step) + 1
    xs, ys = x0 + np.arange(nx) * step, y0 + np.arange(ny) * step
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    blocked = np.zeros((nx, ny), dtype=bool)  # the pill, grown by ``clear``, touches something
    hard = np.zeros((nx, ny), dtype=bool)  # the pill itself covers something
    for o in obstacles:
        blocked |= _covers(gx, gy, size, o, clear)
        hard |= _covers(gx, gy, size, o, 0.0)
    crossed = np.zeros((nx, ny), dtype=bool)  # the pill covers something it may cross
    for o in soft:
        crossed |= _covers(gx, gy, size, o, 0.0)
    near = np.zeros((nx, ny), dtype=bool)  # the pill, grown by ``gap``, touches what it keeps apart from
    for o in apart:
        near |= _covers(gx, gy, size, o, gap)
    away = np.full((nx, ny), np.inf)
    for (ax, ay), (bx, by) in zip(edge, edge[1:] or edge):
        dx, dy = bx - ax, by - ay
        n = max(dx * dx + dy * dy, 1e-12)
        t = np.clip(((gx - ax) * dx + (gy - ay) * dy) / n, 0.0, 1.0)
        d = np.hypot(gx - ax - t * dx, gy - ay - t * dy)
        away = np.minimum(away, d)
    # a step further from the end than the start is costs more: a way round that first backs
    # away reads as the token going the wrong way (`scenes.render.flight`)
    back = np.maximum(np.hypot(gx - end[0], gy - end[1]) - math.dist(start, end), 0.0)
    weight = (1.0 + AWAY * away / max(h, 1e-6) + BACK * back / max(h, 1e-6) + NEAR * blocked + BLOCKED * hard
              + CROSS * (crossed & ~hard) + APART * (near & ~hard))

    def cell(p: Point) -> tuple[int, int]:
        return (min(nx - 1, max(0, round((p[0] - x0) / step))), min(ny - 1, max(0, round((p[1] - y0) / step))))

    if settle:  # where it would wait something is shown: it waits at the nearest free spot
        end = nearest_free(end, size, [*obstacles, *rest_off], within=(x0 - w / 2, y0 - h / 2, x1 + w / 2, y1 + h / 2),
                           step=step, clear=clear)
    upto = edge[:min(range(len(edge)), key=lambda k: math.dist(edge[k], end)) + 1]  # not past where it waits
    both = [*obstacles, *soft]
    spaced = (list(apart), gap)
    for way in ([start, end], [start, *(p for p in upto if clear_of(p, size, both)), end]):
        if _keeps_to(way, [start, *edge], size, both, step) and _spaced(way, size, spaced, step):
            return _simplify(way, size, both, 0.0, step, spaced)  # no search: its grid may miss a narrow gap
    square = None if settle else square_way(start, end, size, both, step, within)
    if square is not None and _spaced(square, size, spaced, step):
        return square
    came = _search(cell(start), cell(end), weight)
    corners = [_off_sliver((float(xs[i]), float(ys[j])), size, both, GRAZE * step) for i, j in came]
    corners = _round_corners(corners, size, list(obstacles))
    return _simplify([start, *corners[1:-1], end], size, both, clear, step, spaced)


def _round_corners(way: list[Point], size: Point, obstacles: list[Rect]) -> list[Point]:
    """``way`` with each diagonal step whose pill, midway, covers one of ``obstacles`` that
    neither end of the step covers taken round that corner instead (along the axes, by the
    corner where the pill covers none of them): a grid's ends of a step clear of an op name,
    its middle cut past its corner and the pill went over the name's end (grad_accumulation
    9:16's 3 past ``mul``, 19.8 s).

    >>> _round_corners([(0.0, 1.0), (1.0, 0.0)], (0.8, 0.8), [(0.7, 0.7, 1.5, 1.5)])
    [(0.0, 1.0), (0.0, 0.0), (1.0, 0.0)]
    >>> _round_corners([(0.0, 1.0), (1.0, 0.0)], (0.8, 0.8), [(2.0, 2.0, 3.0, 3.0)])
    [(0.0, 1.0), (1.0, 0.0)]
    """
    out = way[:1]
    for a, b in zip(way, way[1:]):
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        cut = [o for o in obstacles if not clear_of(mid, size, [o]) and clear_of(a, size, [o]) and clear_of(b, size, [o])]
        if a[0] != b[0] and a[1] != b[1] and cut:
            corner = next((c for c in ((a[0], b[1]), (b[0], a[1])) if clear_of(c, size, obstacles)), None)
            if corner is not None:
                out.append(corner)
        out.append(b)
    return out


def _spaced(way: list[Point], size: Point, spaced: tuple[list[Rect], float], step: float) -> bool:
    """Whether a pill of ``size`` along ``way`` keeps the gap of ``spaced`` (what, how far) off what
    it keeps apart from (`ride_path`'s ``apart``)."""
    return _spacing(way, size, spaced, step) >= spaced[1]


def _spacing(way: list[Point], size: Point, spaced: tuple[list[Rect], float], step: float) -> float:
    """How near a pill of ``size`` along ``way`` comes to what ``spaced`` keeps it apart from (its
    gap where nothing is nearer; below 0 where it covers one): straightening a run of a way
    (`_simplify`) brings it no nearer than the run came.

    >>> round(_spacing([(0.0, 0.0), (2.0, 0.0)], (0.4, 0.2), ([(1.0, 0.15, 1.2, 0.5)], 0.1), 0.1), 6)
    0.05
    """
    apart, gap = spaced
    near = gap
    for x, y in dense(way, step / 2) if apart else []:
        pill = rect_around(x, y, size)
        near = min(near, *(max(o[0] - pill[2], pill[0] - o[2], o[1] - pill[3], pill[1] - o[3]) for o in apart))
    return near


def _off_sliver(p: Point, size: Point, obstacles: Sequence[Rect], depth: float) -> Point:
    """``p``, a grid point of a way, moved off the obstacles a pill of ``size`` there covers by a
    sliver (``depth`` or less, across the nearer side), where that makes it meet nothing it did
    not: drawn there (`hidden_spans` hides a pill only deeper than `GRAZE`), it read as on them
    (micrograd_readme 16:9's 83.30, on a grid row 0.6 px into t15's card, 88.40 s).

    >>> _off_sliver((0.0, 0.0), (0.4, 0.2), [(-1.0, 0.09, 1.0, 0.5)], 0.0125)
    (0.0, -0.01000125)
    >>> _off_sliver((0.0, 0.0), (0.4, 0.2), [(-1.0, 0.09, 1.0, 0.5), (-1.0, -0.5, 1.0, -0.105)], 0.0125)
    (0.0, 0.0)
    """
    eps = depth * 1e-4
    pill = rect_around(p[0], p[1], size)
    met = [o for o in obstacles if meets(pill, o)]
    for o in met:
        over_x, over_y = min(pill[2], o[2]) - max(pill[0], o[0]), min(pill[3], o[3]) - max(pill[1], o[1])
        if over_y <= depth and over_y < over_x:
            q = (p[0], p[1] + (over_y + eps) * (-1.0 if p[1] < (o[1] + o[3]) / 2 else 1.0))
        elif over_x <= depth:
            q = (p[0] + (over_x + eps) * (-1.0 if p[0] < (o[0] + o[2]) / 2 else 1.0), p[1])
        else:
            continue
        moved = rect_around(q[0], q[1], size)
        if all(any(r is m for m in met) for r in obstacles if meets(moved, r)) and not meets(moved, o):
            return (round(float(q[0]), 9), round(float(q[1]), 9))
    return p


def square_way(start: Point, end: Point, size: Point, obstacles: list[Rect], step: float,
               within: Rect) -> list[Point] | None:
    """A way from ``start`` to a spot ``end`` already chosen with one turn, across then along
    or along then across, where a pill of ``size`` on it touches none of ``obstacles`` and stays
    ``within`` (or no further out than at ``end``); None where neither does. The grid runs
    through the start, and a gap no wider than the pill down to the spot (a badge beside a card
    at the frame's edge: lesson 3's -1.0000 going down a's side to 2.0000) has no column of it:
    the grid's way went half a step off, over the card's ring.

    >>> square_way((0.0, 2.0), (1.0, 0.0), (0.4, 0.2), [(-0.5, -0.5, 0.75, 1.5)], 0.3, (-2.0, -2.0, 1.2, 3.0))
    [(0.0, 2.0), (1.0, 2.0), (1.0, 0.0)]
    >>> square_way((0.0, 2.0), (1.0, 0.0), (0.4, 0.2), [(-0.5, -0.5, 0.85, 1.5)], 0.3, (-2.0, -2.0, 1.2, 3.0)) is None
    True
    """
    pill = rect_around(end[0], end[1], size)
    room = (min(within[0], pill[0]), min(within[1], pill[1]), max(within[2], pill[2]), max(within[3], pill[3]))
    for turn in ((end[0], start[1]), (start[0], end[1])):
        way = [start, turn, end]
        pts = dense(way, step / 4)
        if all(clear_of(p, size, obstacles) and inside(rect_around(p[0], p[1], size), room) for p in pts):
            return way
    return None


def joined(start: Point, edge: list[Point], step: float) -> list[Point]:
    """The part of ``edge`` a token setting off from ``start`` rides: from its first point whence
    the way (straight from ``start`` to it, then on along ``edge``) never goes back from the
    edge's end by more than ``step``; the end alone where no such point is. A lead to the edge's
    far start from a note beside its middle went out and came back (dynamic_graph's -1 went left
    to w's curved edge and back right along it): it joins the edge further on, or goes straight.

    >>> joined((0.0, 0.0), [(-4.0, 1.0), (-2.0, 3.0), (0.0, 4.0), (2.0, 4.0)], 0.1)
    [(0.0, 4.0), (2.0, 4.0)]
    >>> joined((0.0, 0.0), [(0.0, 1.0), (0.0, 2.0)], 0.1)
    [(0.0, 1.0), (0.0, 2.0)]
    """
    for k in range(len(edge)):
        near = math.inf
        for p in dense([start, *edge[k:]], step / 2):
            d = math.dist(p, edge[-1])
            if d > near + step:
                break
            near = min(near, d)
        else:
            return edge[k:]
    return edge[-1:]


def _keeps_to(way: list[Point], guide: list[Point], size: Point, obstacles: list[Rect], step: float) -> bool:
    """Whether a pill of ``size`` along ``way`` touches none of ``obstacles``, never further than
    its own height from ``guide`` (the lead to the edge and the edge), nor going back (no point
    of it further from its end than the nearest before it, by more than a grid ``step``)."""
    pts = dense(way, step / 2)
    far = [math.dist(p, way[-1]) for p in pts]
    return (all(clear_of(p, size, obstacles) for p in pts) and all(_to_polyline(p, guide) <= size[1] for p in pts)
            and all(far[k] <= min(far[:k]) + step for k in range(1, len(far))))


def nearest_free(p: Point, size: Point, obstacles: list[Rect], *, within: Rect, step: float, clear: float,
                 flush: bool = False) -> Point:
    """``p`` if a pill of ``size`` there, grown by ``clear``, touches none of ``obstacles``; else
    the nearest point of a grid of pitch ``step`` through ``p`` where it touches none, the pill
    inside ``within`` (``p`` too: a badge moved back inside the frame may land on a card);
    ``p`` itself when there is none. Where a token or a badge waits. ``flush``: the grid also
    has the lines where the pill stands against an obstacle's side or ``within``'s (`_flush`),
    so a gap barely wider than the pill is found wherever the grid's pitch falls.

    >>> nearest_free((0.0, 0.0), (0.4, 0.2), [(-0.5, -0.15, 0.5, 0.15)], within=(-2.0, -2.0, 2.0, 2.0), step=0.05, clear=0.0)
    (0.0, -0.25)
    >>> gap = [(-2.0, -1.0, 0.0, 1.0), (0.45, -1.0, 2.0, 1.0)]  # 0.45 wide, between two grid lines
    >>> nearest_free((-1.1, 0.0), (0.4, 0.2), gap, within=(-2.0, -1.0, 2.0, 1.0), step=0.3, clear=0.0)
    (-1.1, 0.0)
    >>> nearest_free((-1.1, 0.0), (0.4, 0.2), gap, within=(-2.0, -1.0, 2.0, 1.0), step=0.3, clear=0.0, flush=True)
    (0.200001, 0.0)
    """
    if clear_of(p, size, obstacles, clear) and inside(rect_around(p[0], p[1], size), within):
        return p
    w, h = size
    lo_x, hi_x = (within[0] + w / 2 - p[0]) // step, (within[2] - w / 2 - p[0]) // step
    lo_y, hi_y = (within[1] + h / 2 - p[1]) // step, (within[3] - h / 2 - p[1]) // step
    xs = p[0] + np.arange(int(lo_x) + 1, int(hi_x) + 1) * step
    ys = p[1] + np.arange(int(lo_y) + 1, int(hi_y) + 1) * step
    if flush:
        xs = _flush(xs, [(o[0], o[2]) for o in obstacles], (within[0], within[2]), w / 2 + clear, w / 2)
        ys = _flush(ys, [(o[1], o[3]) for o in obstacles], (within[1], within[3]), h / 2 + clear, h / 2)
    if not len(xs) or not len(ys):
        return p
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    blocked = np.zeros(gx.shape, dtype=bool)
    for o in obstacles:
        blocked |= _covers(gx, gy, size, o, clear)
    if blocked.all():
        return p
    d = np.where(blocked, np.inf, np.hypot(gx - p[0], gy - p[1]))
    i, j = np.unravel_index(int(np.argmin(d)), d.shape)
    return (round(float(xs[i]), 9), round(float(ys[j]), 9))


FLUSH = 1e-6
"""How far off an obstacle's side (grown) `_flush` stands a pill: touching, less a rounding error."""


def _flush(grid: np.ndarray, sides: list[tuple[float, float]], within: tuple[float, float], off: float,
           half: float) -> np.ndarray:
    """The coordinates of ``grid`` along one axis and those where a pill (``half`` its size that
    way) stands ``off`` outside an obstacle's ``sides`` or against ``within``'s, those that keep
    it inside ``within``."""
    lo, hi = within[0] + half, within[1] - half
    at = [a - off - FLUSH for a, _ in sides] + [b + off + FLUSH for _, b in sides] + [lo, hi]
    more = [v for v in at if lo <= v <= hi]
    return np.unique(np.concatenate([grid, np.array(more, dtype=float)]))


def _covers(gx: np.ndarray, gy: np.ndarray, size: Point, rect: Rect, grown: float) -> np.ndarray:
    """Where on the grid (``gx``, ``gy``) a pill of ``size``, grown by ``grown``, meets ``rect``."""
    (w, h), (left, bottom, right, top) = size, rect
    return ((gx > left - w / 2 - grown) & (gx < right + w / 2 + grown)
            & (gy > bottom - h / 2 - grown) & (gy < top + h / 2 + grown))


def _search(a: tuple[int, int], b: tuple[int, int], weight: np.ndarray) -> list[tuple[int, int]]:
    """The cheapest 8-connected way from cell ``a`` to cell ``b`` (A*, a step costing its length
    times the mean weight of its two cells)."""
    nx, ny = weight.shape
    best = {a: 0.0}
    back: dict[tuple[int, int], tuple[int, int]] = {}
    todo = [(0.0, a)]
    moves = [(di, dj, math.hypot(di, dj)) for di in (-1, 0, 1) for dj in (-1, 0, 1) if di or dj]
    while todo:
        _, c = heapq.heappop(todo)
        if c == b:
            break
        g = best[c]
        for di, dj, length in moves:
            n = (c[0] + di, c[1] + dj)
            if not (0 <= n[0] < nx and 0 <= n[1] < ny):
                continue
            cost = g + length * (weight[c] + weight[n]) / 2
            if cost < best.get(n, math.inf):
                best[n], back[n] = cost, c
                heapq.heappush(todo, (cost + math.hypot(b[0] - n[0], b[1] - n[1]), n))
    way = [b]
    while way[-1] != a and way[-1] in back:
        way.append(back[way[-1]])
    return way[::-1] if way[-1] == a else [a, b]


def _simplify(path: list[Point], size: Point, obstacles: list[Rect], clear: float, step: float,
              spaced: tuple[list[Rect], float] = ([], 0.0)) -> list[Point]:
    """Fewer corners (Ramer-Douglas-Peucker): a run of the way becomes one straight segment when
    every point of it is within a step of the segment and the pill on the segment touches
    nothing, nor comes nearer what ``spaced`` keeps it apart from than the run did (`_spacing`,
    up to its gap); else it is split at its furthest point (down to the grid's own steps)."""
    if len(path) <= 2:
        return list(path)
    seg = [path[0], path[-1]]
    far = [_to_polyline(p, seg) for p in path[1:-1]]
    k = max(range(len(far)), key=far.__getitem__)
    if far[k] <= step and all(clear_of(p, size, obstacles, clear) for p in dense(seg, step / 2)) and (
            _spacing(seg, size, spaced, step) >= min(spaced[1], _spacing(path, size, spaced, step)) - 1e-9):
        return seg
    return (_simplify(path[:k + 2], size, obstacles, clear, step, spaced)[:-1]
            + _simplify(path[k + 1:], size, obstacles, clear, step, spaced))
