"""Where a riding token's pill covers something on its way: the parts of its way where it is
hidden (`hidden_spans`), and how long it waits on its product so that it never rides over a
token setting off with it (`set_off_after`); a way's length, how long of it is hidden, and
whether it backs away from its end (what a way round is judged by).

Why apart from the way itself (:mod:`scenes.layout.detour`): the way is searched once, on a
grid; these read a way already found, sampled along its length, against what is on screen and
against the other tokens riding at the same time; and where the nth token of a bucket's row
waits (`row_place`). Pure geometry, like the layout.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from scenes.layout.detour import GRAZE, Point, dense
from scenes.theme import Rect


def _along(path: list[Point]) -> np.ndarray:
    """How far along ``path`` each of its points is, from 0 to its length."""
    return np.concatenate([[0.0], np.cumsum([math.dist(a, b) for a, b in zip(path, path[1:])])])


def points_at(path: list[Point], done: np.ndarray) -> np.ndarray:
    """The points ``done`` (fractions of its length) along ``path``, as `MoveAlongPath` takes
    them: an (n, 2) array."""
    at = _along(path)
    way = np.asarray(path, dtype=float)
    if at[-1] <= 0.0:
        return np.repeat(way[:1], len(done), axis=0)
    d = np.clip(done, 0.0, 1.0) * at[-1]
    return np.column_stack([np.interp(d, at, way[:, 0]), np.interp(d, at, way[:, 1])])


def _pills_meet(centres: np.ndarray, size: Point, rects: np.ndarray) -> np.ndarray:
    """For each centre (n, 2), whether a pill of ``size`` there overlaps its row of ``rects``
    (n, m, 4): `meet` of `rect_around`, for every sample at once."""
    w, h = size
    x, y = centres[:, None, 0], centres[:, None, 1]
    return ((np.minimum(x + w / 2, rects[..., 2]) > np.maximum(x - w / 2, rects[..., 0]))
            & (np.minimum(y + h / 2, rects[..., 3]) > np.maximum(y - h / 2, rects[..., 1]))).any(axis=1)


def hidden_spans(path: list[Point], size: Point, obstacles: list[Rect], step: float,
                 alongside: list[tuple[list[Point], Point]] = ()) -> list[tuple[float, float]]:
    """The parts of ``path`` (as fractions of its length, in order) where a pill of ``size``
    covers an obstacle, or a pill riding one of ``alongside`` (way and size) at the same time
    (the same fraction of its own way: tokens that set off together): a token riding it is
    hidden there, as if it passed behind; by `GRAZE` of a ``step`` or less it is not. Sampled
    every quarter ``step``; each span is widened by one sample on each side, so that the pill is
    shown only where it is clear.

    >>> hidden_spans([(0.0, 0.0), (4.0, 0.0)], (0.4, 0.2), [(1.8, -0.2, 2.2, 0.2)], step=0.1)
    [(0.4, 0.6)]

    Past a word it grazes by a hundredth of a step, it is shown.

    >>> hidden_spans([(0.0, 0.0), (4.0, 0.0)], (0.4, 0.2), [(1.8, 0.099, 2.2, 0.3)], step=0.1)
    []
    >>> hidden_spans([(0.0, 0.0), (4.0, 0.0)], (0.4, 0.2), [], 0.1, [([(4.0, 0.0), (0.0, 0.0)], (0.4, 0.2))])
    [(0.45, 0.55)]
    """
    pts = dense(path, step / 4)
    along = _along(pts)
    total = float(along[-1])
    if total <= 0.0:
        return []
    done, centres = along / total, np.asarray(pts, dtype=float)
    rects = np.broadcast_to(np.asarray(obstacles, dtype=float).reshape(1, -1, 4), (len(pts), len(obstacles), 4))
    for way, (w, h) in alongside:  # where each token setting off with it is at the same time
        at = points_at(way, done)
        rects = np.concatenate([rects, np.column_stack([at[:, 0] - w / 2, at[:, 1] - h / 2,
                                                        at[:, 0] + w / 2, at[:, 1] + h / 2])[:, None, :]], axis=1)
    inner = (size[0] - 2 * GRAZE * step, size[1] - 2 * GRAZE * step)
    covered = _pills_meet(centres, inner, rects) if rects.shape[1] else np.zeros(len(pts), dtype=bool)
    spans: list[tuple[float, float]] = []
    for k in np.flatnonzero(covered):
        lo, hi = float(along[max(k - 1, 0)]) / total, float(along[min(k + 1, len(pts) - 1)]) / total
        if spans and lo <= spans[-1][1]:
            spans[-1] = (spans[-1][0], hi)
        else:
            spans.append((lo, hi))
    return [(round(a, 6), round(b, 6)) for a, b in spans]


SET_OFF_WAITS = (0.1, 0.2, 0.3, 0.4, 0.5)
"""The shares of a ride a token may wait on its product before it sets off (`set_off_after`)."""


def set_off_after(path: list[Point], size: Point, alongside: list[tuple[list[Point], Point]], step: float,
                  rate: Callable[[float], float]) -> float | None:
    """The least of `SET_OFF_WAITS` a token riding ``path`` waits before setting off, so that it
    never rides over one of the tokens setting off with it (``alongside``: their ways and sizes,
    ridden over the same time at ``rate``: the share of the time -> the share of the way), riding
    its own way the rest of the time (waiting, it lies under its product, which is drawn over
    it: what passes there meets the product, not it); None where no wait does. Tokens of one rule leave the ends
    of its rows, one above the other: round the other's whole way, backward_walk 9:16's 4/9 rode
    38 px off its own, under the 8/3's.

    >>> line = lambda t: t
    >>> set_off_after([(0.0, 0.0), (4.0, 0.0)], (0.4, 0.2), [([(0.0, 0.0), (4.0, 0.0)], (0.4, 0.2))], 0.1, line)
    >>> set_off_after([(0.0, 0.3), (4.0, 0.3)], (0.4, 0.2), [([(0.0, 0.5), (4.0, -1.0)], (0.4, 0.2))], 0.1, line)
    0.2
    """
    times = np.linspace(0.0, 1.0, 97)
    theirs = [(points_at(way, np.array([rate(float(t)) for t in times])), wh) for way, wh in alongside]
    inner = (size[0] - 2 * GRAZE * step, size[1] - 2 * GRAZE * step)
    for wait in SET_OFF_WAITS:
        ours = points_at(path, np.array([rate(min(1.0, max(0.0, (float(t) - wait) / (1.0 - wait)))) for t in times]))
        gone = times >= wait
        if not any(bool(np.any(gone & (np.abs(ours[:, 0] - at[:, 0]) < (inner[0] + w) / 2)
                               & (np.abs(ours[:, 1] - at[:, 1]) < (inner[1] + h) / 2))) for at, (w, h) in theirs):
            return wait
    return None


def backs_away(corners: Sequence[tuple[float, float]], slack: float) -> bool:
    """Whether a way, walked densely, ever gets further from its end than ``slack`` past the
    nearest it has been."""
    end, near = corners[-1], float("inf")
    for (ax, ay), (bx, by) in zip(corners, corners[1:]):
        n = max(1, int(np.hypot(bx - ax, by - ay) / max(slack, 1e-9)) * 2)
        for k in range(n + 1):
            d = float(np.hypot(ax + (bx - ax) * k / n - end[0], ay + (by - ay) * k / n - end[1]))
            if d > near + slack:
                return True
            near = min(near, d)
    return False


def hidden_length(corners: list[tuple[float, float]], size: tuple[float, float], over: list[Rect], step: float) -> float:
    """How long a stretch of the way ``corners`` a token of ``size`` is hidden behind ``over`` (`hidden_spans`)."""
    return way_length(corners) * sum(hi - lo for lo, hi in hidden_spans(corners, size, over, step))


def way_length(corners: Sequence[tuple[float, float]]) -> float:
    """The length of the way through ``corners``."""
    return float(sum(np.hypot(bx - ax, by - ay) for (ax, ay), (bx, by) in zip(corners, corners[1:])))


def row_places(first: tuple[float, float], middle: float, widths: Sequence[float], gap: float,
               span: Rect | None = None, tall: float = 0.0, toward: float | None = None,
               taken: Sequence[Rect] = ()) -> list[tuple[float, float]]:
    """Where the tokens of a row beside a bucket stand (their centres), ``widths`` wide, ``gap``
    apart, the first at ``first``, the bucket's middle at x ``middle``: on from the first, out
    from the bucket, past what is ``taken`` in its way. Where the row would leave ``span`` (the
    free frame: left, bottom, right, top), it wraps: a new row starts under (or over) the first,
    its inner edge where the first's is, ``tall`` apart, the rows stacking toward the height
    ``toward`` (the bucket's middle), or the other way where that leaves ``span``: every row
    stays by its own bucket, not stacked at the frame's edge. The nth place depends on the first
    n widths alone: a token that joins finds those before where it left them.

    >>> row_places((-1.0, 2.0), 0.0, [0.5, 0.5, 0.5], 0.0)
    [(-1.0, 2.0), (-1.5, 2.0), (-2.0, 2.0)]

    From 1.0 to 2.0 two fit: the third starts a row under the first, the fifth a third, which
    would leave the frame at 1.5 and goes over the first instead.

    >>> row_places((1.0, 2.0), 0.0, [0.5, 0.5, 0.5, 0.3, 0.5], 0.0, (-2.0, 1.5, 2.0, 2.8), 0.3, 0.0)
    [(1.0, 2.0), (1.5, 2.0), (1.0, 1.7), (1.4, 1.7), (1.0, 2.3)]

    A word in the second row's way: it starts past it.

    >>> row_places((1.0, 2.0), 0.0, [0.5, 0.5, 0.5], 0.0, (-2.0, 1.0, 2.0, 2.8), 0.3, 0.0, [(0.7, 1.6, 1.1, 1.8)])
    [(1.0, 2.0), (1.5, 2.0), (1.35, 1.7)]
    """
    out_x = 1.0 if first[0] >= middle else -1.0
    inner = first[0] - out_x * widths[0] / 2 if widths else first[0]  # the first's edge by the bucket
    toward_y = 1.0 if toward is not None and toward > first[1] else -1.0
    high = max(tall - gap, 0.0)  # a token's height
    out: list[tuple[float, float]] = []
    line, reach = 0, inner
    for w in widths:
        for _ in range(4 * len(widths) + 4):  # (a way out, however crowded)
            x = reach + out_x * ((gap if reach != inner else 0.0) + w / 2)
            if reach != inner and span is not None and not (span[0] <= x - w / 2 and x + w / 2 <= span[2]):
                line, reach = line + 1, inner  # past the frame's edge: a new row
                continue
            y = _line_y(first[1], line, tall, toward_y, span)
            hit = [r for r in taken if x - w / 2 < r[2] and r[0] < x + w / 2
                   and y - high / 2 < r[3] and r[1] < y + high / 2]
            if not hit or not out:  # (the first stands where it is)
                break
            reach = max(r[2] for r in hit) if out_x > 0 else min(r[0] for r in hit)  # on past it
        out.append((x, y))
        reach = x + out_x * w / 2
    return out


def _line_y(y0: float, line: int, tall: float, toward: float, span: Rect | None) -> float:
    """The height of the ``line``th row (from 0) of a row at ``y0``, rows ``tall`` apart: on the
    ``toward`` side (+1 up, -1 down) as far as ``span`` holds them, then on the other."""
    fit = line
    if span is not None:
        room = (span[3] - y0 if toward > 0 else y0 - span[1]) - tall / 2
        fit = max(0, int(math.floor(room / tall + 1e-9))) if tall > 0 else line
    return y0 + toward * line * tall if line <= fit else y0 - toward * (line - fit) * tall
