"""Rectangles clear of others: whether two meet, the largest rectangles of a free area that meet
none of what it keeps off (the code pane, the legend), whether a shape shows inside a free area.
Pure geometry over (left, bottom, right, top) tuples, for the camera's views and the graph's
grows, which look for room in the frame the same way.

>>> clear_rect((0.0, 0.0, 10.0, 6.0), [(0.0, 5.0, 4.0, 6.0), (0.0, 0.0, 2.0, 2.0)])
(2.0, 0.0, 10.0, 5.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement

from scenes.theme import Rect


def meets(a: Rect, b: Rect) -> bool:
    """Whether two rectangles (left, bottom, right, top) overlap by more than touching."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def clear_rect(free: Rect, keep_off: Sequence[Rect]) -> Rect:
    """The largest rectangle inside ``free`` that meets none of ``keep_off`` (the code pane,
    the legend): its sides lie on ``free``'s or on a rectangle's edges (a few rectangles: every
    choice of sides is tried)."""
    return clear_rects(free, keep_off)[0]


def clear_rects(free: Rect, keep_off: Sequence[Rect]) -> list[Rect]:
    """Every rectangle inside ``free`` that meets none of ``keep_off`` and lies in no larger
    one that meets none, largest first (`clear_rect`'s sides): beside a legend in a corner, the
    wide one under it and the tall one beside it.

    >>> clear_rects((0.0, 0.0, 10.0, 6.0), [(8.0, 5.0, 10.0, 6.0)])
    [(0.0, 0.0, 10.0, 5.0), (0.0, 0.0, 8.0, 6.0)]
    """
    xs = sorted({free[0], free[2], *(v for r in keep_off for v in (r[0], r[2]) if free[0] < v < free[2])})
    ys = sorted({free[1], free[3], *(v for r in keep_off for v in (r[1], r[3]) if free[1] < v < free[3])})
    found = [(x0, y0, x1, y1) for x0, x1 in combinations_with_replacement(xs, 2)
             for y0, y1 in combinations_with_replacement(ys, 2)
             if x0 < x1 and y0 < y1 and not any(meets((x0, y0, x1, y1), r) for r in keep_off)]
    found.sort(key=lambda r: -(r[2] - r[0]) * (r[3] - r[1]))  # stable: of equals, the first as before
    out: list[Rect] = []
    for r in found:
        if not any(o[0] <= r[0] and o[1] <= r[1] and r[2] <= o[2] and r[3] <= o[3] for o in out):
            out.append(r)
    return out or [free]


def seen_in(bounds: Rect, free: Rect, keep_off: Iterable[Rect], slack: float = 0.0) -> bool:
    """Whether a shape at ``bounds`` may show while the camera is close: inside ``free`` (by
    ``slack``: a card's stroke at the graph region's edge, where it shows at home) and over
    none of ``keep_off``.

    >>> seen_in((0.0, -0.02, 1.0, 1.0), (0.0, 0.0, 5.0, 5.0), [], 0.05), seen_in((0.0, 0.0, 1.0, 1.0), (0.0, 0.0, 5.0, 5.0), [(0.5, 0.5, 2.0, 2.0)])
    (True, False)
    """
    eps = 1e-6 + slack
    inside = (bounds[0] >= free[0] - eps and bounds[1] >= free[1] - eps
              and bounds[2] <= free[2] + eps and bounds[3] <= free[3] + eps)
    return inside and not any(meets(bounds, r) for r in keep_off)


def largest_rooms(free: Rect, keep_off: list[Rect], share: float) -> list[Rect]:
    """The rectangles of ``free`` clear of ``keep_off`` (`clear_rects`) at least ``share`` of the
    largest's area, largest first.

    >>> largest_rooms((0.0, 0.0, 10.0, 6.0), [(8.0, 5.0, 10.0, 6.0)], 0.5)
    [(0.0, 0.0, 10.0, 5.0), (0.0, 0.0, 8.0, 6.0)]
    """
    found = clear_rects(free, keep_off)
    area = (found[0][2] - found[0][0]) * (found[0][3] - found[0][1])
    return [r for r in found if (r[2] - r[0]) * (r[3] - r[1]) >= area * share]
