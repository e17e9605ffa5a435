"""Where a bucket's terms stand one over another over its leaf's card: a column's x, or one x a pill.

Why apart from :mod:`scenes.draw.buckets`: finding room for the column is plane geometry on
rectangles (what it must not meet, what it must cover whole), testable without a scene. The
buckets try one x for the whole column first (`column_x`); where none is (a label beside the
bucket level with the lower pills, the card's value level with the upper ones: cubic_fit3's b at
1:1, its op name ``× 2``), each pill takes its own x and width (`stepped_column`), the column's
edges kept as straight as they can be. And whose terms a spot reads as (`by_leaf`,
`nearer_other_leaf`).
"""

from __future__ import annotations

from collections.abc import Sequence

from scenes.layout.clear_rects import meets
from scenes.layout.label_sides import BUCKET, gap_between, kin
from scenes.layout.label_spots import inside, rect_around
from scenes.layout.place import Box, Layout
from scenes.theme import Rect


def column_x(middle: float, y: float, size: tuple[float, float], avoid: list[Rect], span: tuple[float, float],
             gap: float, whole: Sequence[Rect] = ()) -> float | None:
    """The x nearest ``middle`` at which a column of ``size`` centred at height ``y`` meets none
    of ``avoid``, covers each of ``whole`` it meets all over (a card's value: a digit showing past
    the column reads as more of its number, ``20.0000`` and ``0`` as ``20.00000``) and stays
    within ``span`` (left, right), still over ``middle`` (a bucket's middle: the column is that
    bucket's); tried at ``middle``, just past either side of each of ``avoid`` (``gap`` off it)
    and flush with either side of each of ``whole``. None where no such x is.

    >>> column_x(0.0, 0.0, (2.0, 3.0), [(-1.5, -1.0, -0.5, 1.0)], (-9.0, 9.0), 0.1)
    0.6
    >>> column_x(0.0, 0.0, (2.0, 3.0), [(-1.5, -1.0, -0.5, 1.0), (0.8, -1.0, 1.5, 1.0)], (-9.0, 9.0), 0.1) is None
    True
    >>> column_x(0.0, 0.0, (2.0, 3.0), [], (-9.0, 9.0), 0.1, [(-0.5, -0.2, 1.5, 0.2)])
    0.5
    """
    w = size[0]
    xs = [middle] + [e for o in avoid for e in (o[2] + gap + w / 2, o[0] - gap - w / 2)]
    xs += [e for o in whole for e in (o[0] + w / 2, o[2] - w / 2)]

    def fits(r: Rect) -> bool:
        return not any(meets(r, o) for o in avoid) and all(not meets(r, o) or inside(o, r) for o in whole)

    ok = [x for x in xs if abs(x - middle) < w / 2 and span[0] <= x - w / 2 and x + w / 2 <= span[1]
          and fits(rect_around(x, y, size))]
    return min(ok, key=lambda x: abs(x - middle), default=None)


def covered(rect: Rect, by: Sequence[Rect]) -> bool:
    """Whether ``rect`` lies wholly under the union of ``by``: at every height, the rectangles
    there span its width with no gap (each slice between two of their edges is tried).

    >>> covered((0, 0, 2, 2), [(-1, -1, 3, 1), (-1, 1, 3, 3)]), covered((0, 0, 2, 2), [(-1, -1, 3, 1), (0.5, 1, 3, 3)])
    (True, False)
    """
    cuts = sorted({rect[1], rect[3], *(e for r in by for e in (r[1], r[3]) if rect[1] < e < rect[3])})
    for lo, hi in zip(cuts, cuts[1:]):
        y, x = (lo + hi) / 2, rect[0]
        for r in sorted((r for r in by if r[1] <= y <= r[3]), key=lambda r: r[0]):
            if r[0] > x:
                break
            x = max(x, r[2])
        if x < rect[2]:
            return False
    return True


def stepped_column(middle: float, pills: Sequence[tuple[float, float, float]], wide: float, avoid: list[Rect],
                   span: tuple[float, float], gap: float,
                   whole: Sequence[Rect] = ()) -> list[tuple[float, float]] | None:
    """Each pill's (x, width) in a column whose pills need not share one x: ``pills`` are (height
    it is centred at, its own width, its height), top to bottom; each is ``wide`` (the column's
    width) or its own, meets none of ``avoid`` (``gap`` beside it where all can), stays within
    ``span`` and over ``middle``, and one it meets of ``whole`` is covered by the pills all over
    (`covered`): a pill level with it covers its width. Of those, the column whose pills' edges step least (each pill's left or right edge
    against the one above's), then nearest ``middle``. None where a pill has no place.

    A label at the right level with the lowest pill only, a value above it: the lowest steps left.

    >>> stepped_column(0.0, [(1.0, 2.0, 1.0), (0.0, 2.0, 1.0)], 2.0, [(0.9, -0.5, 2.0, 0.4)], (-9.0, 9.0), 0.1,
    ...                [(-0.8, 0.6, 1.0, 1.4)])
    [(0.0, 2.0), (-0.2, 2.0)]
    """
    # each pill's edges tried: its middle's, just past each of avoid, flush with each of whole, then
    # flush with another pill's edges there (a straight side where one can be)
    edges = [middle - wide / 2, middle + wide / 2] + [e for o in avoid for e in (o[2] + gap, o[0] - gap)]
    edges += [e for o in whole for e in (o[0], o[2])]
    cands: list[list[tuple[float, float]]] = []
    beside = [(o[0] - gap, o[1], o[2] + gap, o[3]) for o in avoid]
    for keep in (beside, avoid):  # a gap beside what is level with a pill, where every pill can keep it
        for _ in range(2):
            cands = [fitting(middle, pill, (wide, pill[1]), edges, keep, span, whole) for pill in pills]
            edges += [x + side * w / 2 for opts in cands for x, w in opts for side in (-1, 1)]
        if all(cands):
            break
    else:
        return None

    def step(a: tuple[float, float], b: tuple[float, float]) -> float:
        return min(abs((a[0] - a[1] / 2) - (b[0] - b[1] / 2)), abs((a[0] + a[1] / 2) - (b[0] + b[1] / 2)))

    # the least stepping column ending in each option of the pill so far, and its cost
    best = [((0.0, abs(c[0] - middle)), [c]) for c in cands[0]]
    for opts in cands[1:]:
        best = [min((((s + step(path[-1], c), m + abs(c[0] - middle)), [*path, c]) for (s, m), path in best),
                    key=lambda p: p[0]) for c in opts]
    (_, found) = min(best, key=lambda p: p[0])
    rects = [rect_around(x, y, (w, h)) for (x, w), (y, _, h) in zip(found, pills)]
    if any(any(meets(r, o) for r in rects) and not covered(o, rects) for o in whole):
        return None
    return found


def under(y: float, size: tuple[float, float], middle: float, avoid: Sequence[Rect]) -> list[float]:
    """The height just under what a column of ``size`` centred at (``middle``, ``y``) meets above
    its middle (the layer above, close at 1:1), where it meets any: a column a hair lower there
    stands clear of it. None otherwise.

    >>> under(0.0, (1.0, 2.0), 0.0, [(-2.0, 0.9, 2.0, 2.0), (3.0, 0.5, 4.0, 2.0)])
    [-0.100001]
    """
    col = rect_around(middle, y, size)
    above = [o[1] for o in avoid if meets(col, o) and o[1] > y]
    return [round(min(above) - size[1] / 2 - 1e-6, 9)] if above else []  # a hair under: not meeting it


def fitting(middle: float, pill: tuple[float, float, float], widths: tuple[float, float], edges: Sequence[float],
            avoid: Sequence[Rect], span: tuple[float, float], whole: Sequence[Rect]) -> list[tuple[float, float]]:
    """The (x, width) of ``pill`` (its height, own width, height: `stepped_column`) of each width
    in ``widths`` with a side on one of ``edges`` (and at ``middle``) that meet none of ``avoid``,
    stay within ``span`` and over ``middle``, and cover the width of each of ``whole`` level with it.

    >>> fitting(0.0, (0.0, 1.0, 1.0), (2.0, 1.0), [0.5], [(0.6, -1.0, 2.0, 1.0)], (-9.0, 9.0), [])
    [(-0.5, 2.0), (0.0, 1.0)]
    """
    y, _, h = pill
    level = [o for o in whole if o[1] < y + h / 2 and y - h / 2 < o[3]]
    out = []
    for w in dict.fromkeys(widths):
        for x in dict.fromkeys(round(c, 12) for c in [middle, *(e + side * w / 2 for e in edges for side in (-1, 1))]):
            r = rect_around(x, y, (w, h))
            if (abs(x - middle) < w / 2 and span[0] <= r[0] and r[2] <= span[1] and not any(meets(r, o) for o in avoid)
                    and all(r[0] <= o[0] and o[2] <= r[2] for o in level)):
                out.append((x, w))
    return out


def nearer_other_leaf(lay: Layout, box: Box, rect: Rect) -> bool:
    """Whether ``rect`` lies nearer another leaf's card or bucket than to the bucket ``box`` or
    its leaf's card: gradients waiting there read as that leaf's (cubic_fit3's c, between b and d).

    >>> lay = type("L", (), {"boxes": {i: Box(i, "leaf", x, 0.0, 1.0, 1.0) for i, x in
    ...                                (("bucket:a", 0.0), ("a", 0.0), ("bucket:b", 3.0), ("b", 3.0))}})()
    >>> nearer_other_leaf(lay, lay.boxes["bucket:a"], (0.6, 0.0, 1.0, 0.5)), nearer_other_leaf(lay, lay.boxes["bucket:a"], (2.0, 0.0, 2.4, 0.5))
    (False, True)
    """
    leaves = {b.id for b in lay.boxes.values() if b.id.startswith(BUCKET)}
    leaves |= {i[len(BUCKET):] for i in leaves}
    own = min(gap_between(rect, b.bounds) for b in lay.boxes.values() if kin(box.id, b.id))
    return any(gap_between(rect, b.bounds) < own for b in lay.boxes.values() if b.id in leaves and not kin(box.id, b.id))


def by_leaf(lay: Layout, box: Box, rect: Rect) -> bool:
    """Whether ``rect`` lies by the bucket ``box`` or its leaf's card: within the bucket's width
    of one of them (terms farther off, by the sums at the frame's top, read as no leaf's).

    >>> lay = type("L", (), {"boxes": {i: Box(i, "leaf", 0.0, y, 1.0, 1.0) for i, y in (("bucket:a", 0.0), ("a", 2.0))}})()
    >>> by_leaf(lay, lay.boxes["bucket:a"], (0.6, 2.0, 1.4, 2.5)), by_leaf(lay, lay.boxes["bucket:a"], (3.0, 5.0, 4.0, 5.5))
    (True, False)
    """
    return min(gap_between(rect, b.bounds) for b in lay.boxes.values() if kin(box.id, b.id)) <= box.w
