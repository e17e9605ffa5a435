"""How the whole graph's shapes move as it grows (`scenes.draw.whole`): each point of a card, an
arrow or what is drawn on a card, mapped by the card (or the two cards) it belongs to, so every
shape grows evenly with its card and each arrow keeps its ends on its cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from manim import Animation, Mobject, smooth

from scenes.draw.crossfade import within
from scenes.draw.frame_spots import bounds
from scenes.draw.record import tag_of
from scenes.layout.place import Box
from scenes.layout.whole import Point, Stretch
from scenes.theme import Rect

Mapper = Callable[[tuple[float, float]], tuple[float, float]]
"""Where a point of a shape goes."""


def centre_of(boxes: Mapping[str, Box], item: str, at: tuple[float, float]) -> tuple[float, float]:
    """The centre of ``item``'s box (``at`` where it has none)."""
    b = boxes.get(item)
    return (b.x, b.y) if b is not None else at


def on_card(s: Stretch, centre: tuple[float, float]) -> Mapper:
    """A point drawn on the card centred at ``centre``, moved with it (`Stretch.local`)."""
    return lambda p: s.local(centre, p)


def along(s: Stretch, a: tuple[float, float], b: tuple[float, float], p0: tuple[float, float],
           p1: tuple[float, float]) -> Mapper:
    """A point of an arrow from ``p0`` (on the card centred at ``a``) to ``p1`` (on ``b``'s),
    moved as `Stretch.along` moves a route's points, by where it lies between the two ends."""
    d0 = s.local(a, p0)
    d1 = s.local(b, p1)
    q0, q1 = s.point(p0), s.point(p1)
    e0, e1 = (d0[0] - q0[0], d0[1] - q0[1]), (d1[0] - q1[0], d1[1] - q1[1])
    vx, vy = p1[0] - p0[0], p1[1] - p0[1]
    n = vx * vx + vy * vy

    def move(p: tuple[float, float]) -> tuple[float, float]:
        t = min(1.0, max(0.0, ((p[0] - p0[0]) * vx + (p[1] - p0[1]) * vy) / n)) if n > 1e-12 else 0.0
        q = s.point(p)
        return (q[0] + (1 - t) * e0[0] + t * e1[0], q[1] + (1 - t) * e0[1] + t * e1[1])
    return move


def warp(m: Mobject, move: Mapper) -> None:
    """Every point of ``m`` and its parts moved by ``move``."""
    for part in m.get_family():
        if len(part.points):
            pts = part.points
            moved = np.array([[*move((float(x), float(y))), z] for x, y, z in pts])
            part.points = moved


def head_kept(arrow: Mobject, was: Mobject, k: float) -> None:
    """``arrow``'s head (an `edge_arrow`'s ``tip``, its apex then its base's corners) warped with
    it, drawn again in its shape: ``was``'s head ``k`` times larger, its apex where the warp took
    it, along the warped head's axis. The spread moves the cards apart more than it grows them,
    and warped with them a head's corners spread as far: at 9:16 grad_accumulation's takeaway
    drew 16x17 px heads as 48x18 px wedges (review 6)."""
    tip, old = getattr(arrow, "tip", None), getattr(was, "tip", None)
    if tip is None or old is None or len(old.get_vertices()) != 3 or len(tip.get_vertices()) != 3:
        return
    a0, *corners0 = old.get_vertices()
    a1, *corners1 = tip.get_vertices()
    axis0, axis1 = a0 - (corners0[0] + corners0[1]) / 2, a1 - (corners1[0] + corners1[1]) / 2
    n0, n1 = float(np.linalg.norm(axis0)), float(np.linalg.norm(axis1))
    if n0 < 1e-9 or n1 < 1e-9:
        return
    d0, d1 = axis0 / n0, axis1 / n1
    side0, side1 = np.array([-d0[1], d0[0], 0.0]), np.array([-d1[1], d1[0], 0.0])
    # each corner as far along and across the axis as it was, k times
    kept = [a1 + k * (float(np.dot(c - a0, d0)) * d1 + float(np.dot(c - a0, side0)) * side1) for c in corners0]
    tip.set_points_as_corners([a1, *kept, a1])


def moved_rect(m: Mobject, move: Mapper) -> Rect:
    """The box of ``m`` once ``move`` has moved its corners."""
    b = bounds(m)
    (x0, y0), (x1, y1) = move((b[0], b[1])), move((b[2], b[3]))
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def moved_path(m: Mobject, move: Mapper) -> Rect:
    """The box of ``m`` (an arrow) once ``move`` has moved every point of it, handles too, as
    `warp` does: the spread bends a route between its ends (`Stretch.along`), so its middle may
    go past where its box's corners go (`bounds` reads the anchors only)."""
    pts = [move((float(x), float(y))) for part in m.get_family() for x, y, _ in part.points]
    if not pts:
        return moved_rect(m, move)
    return (min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts))


def to_centre(centre: tuple[float, float], at: tuple[float, float], k: float) -> Mapper:
    """A point of a shape centred at ``centre``, the shape grown ``k`` times and centred at ``at``."""
    return lambda p: (at[0] + k * (p[0] - centre[0]), at[1] + k * (p[1] - centre[1]))


def named(boxes: Mapping[str, Box], m: Mobject) -> Box | None:
    """The box a label drawn by a card names as its own (`card_tag` tags it with the box's id: an
    op name, a bucket's AccumulateGrad), where it has one: AccumulateGrad set level with its
    bucket, beside it, lay nearer another card and went with that one."""
    for part in m.get_family():
        t = tag_of(part)
        if t is not None and t.role == "label" and t.id is not None and t.id in boxes:
            return boxes[t.id]
    return None


def nearest(boxes: Mapping[str, Box], b: Rect) -> Box | None:
    """The box ``b``'s centre lies in, else the nearest to it."""
    items = list(boxes.values())
    if not items:
        return None
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2

    def gap(x: Box) -> float:
        x0, y0, x1, y1 = x.bounds
        dx, dy = max(x0 - cx, 0.0, cx - x1), max(y0 - cy, 0.0, cy - y1)
        return dx * dx + dy * dy
    return min(items, key=gap)


def shifted(r: Rect, d: Point) -> Rect:
    """``r`` moved by ``d``."""
    return (r[0] + d[0], r[1] + d[1], r[2] + d[0], r[3] + d[1])


def grown(k: Rect, by: float) -> Rect:
    """``k`` grown by ``by`` on every side."""
    return (k[0] - by, k[1] - by, k[2] + by, k[3] + by)


def widened(k: Rect, b: Rect, gap: float = 0.0, against: Rect | None = None) -> Rect:
    """``k`` widened, on the side ``b`` reaches into ``against`` (``k`` unless given) grown by
    ``gap`` from, by as far as it reaches in (the least of the four ways out of it): ``k``, what
    the cards keep off, widened again each time a shape still reaches into what is there.

    >>> widened((0.0, 0.0, 4.0, 2.0), (1.0, -1.0, 2.0, 0.5))
    (0.0, -0.5, 4.0, 2.0)
    >>> widened((0.0, 0.0, 4.0, 2.0), (1.0, -1.0, 2.0, -0.1), 0.25)
    (0.0, -0.15, 4.0, 2.0)
    >>> widened((0.0, -0.25, 4.0, 2.0), (1.0, -1.0, 2.0, -0.125), 0.25, against=(0.0, 0.0, 4.0, 2.0))
    (0.0, -0.375, 4.0, 2.0)
    """
    g = grown(k if against is None else against, gap)
    ways = [(b[2] - g[0], 0), (g[2] - b[0], 2), (b[3] - g[1], 1), (g[3] - b[1], 3)]
    d, side = min(ways)
    out = list(k)
    out[side] += -d if side < 2 else d
    return (out[0], out[1], out[2], out[3])


def during(a: Animation, t0: float, t1: float) -> Animation:
    """``a`` played between ``t0`` and ``t1`` of the cue (shares of it), at its own pace there."""
    a.rate_func = within(t0, t1 - t0, 1.0, a.rate_func)
    return a


BACK = 0.85
"""When, in the whole cue, a board going across the graph to what it names fades in: as the
graph lands (`WholeGraph._without_pane`)."""


def first_part(t: float) -> float:
    """The graph's move back, done by 60 % of the cue: the pane then slides back whole."""
    return smooth(min(1.0, t / 0.6))


def second_part(t: float) -> float:
    """The graph's move out, from 40 % of the cue, once the pane's lines have slid up."""
    return smooth(max(0.0, (t - 0.4) / 0.6))
