"""Where the MLP view's units go in the network's region, and a check that no line crosses a unit.

Why its own placement instead of scenes.layout.place: the unit diagram has a fixed shape (layers of a
few units, every unit joined to every unit of the next layer), so it needs no crossing reduction;
what matters is that it fills its region, that its units stay large enough for their names, and
that no weight's line runs through the circle of a unit it does not join (flat lines between
wide, close layers did: the line from ``h1_0`` to ``x3`` grazed ``h1_1``). Layers are stacked
bottom to top (the loss on top, as the articles draw it), each centred across the region.

Pure (no Manim): the clip (`scenes.draw.network`) and the article's figure
(`scenes.publish.svg_network`) both check their lines with `through_units`.

>>> flat = {"a": (0.0, 0.0), "b": (1.0, 0.0), "c": (2.0, 0.3)}
>>> through_units(flat, [("a", "c")], 0.2)
[('a', 'c', 'b')]
>>> through_units(flat, [("a", "b")], 0.2)
[]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, bottom, right, top


def through_units(centre: Mapping[str, Point], pairs: Iterable[tuple[str, str]], clearance: float
                  ) -> list[tuple[str, str, str]]:
    """Each ``(src, dst, unit)`` where the straight line between the centres of ``src`` and
    ``dst`` passes within ``clearance`` of the centre of a third ``unit`` (its circle, with its
    lit ring and a gap, when ``clearance`` is that ring's radius plus the gap)."""
    out = []
    for a, b in pairs:
        (x1, y1), (x2, y2) = centre[a], centre[b]
        dx, dy = x2 - x1, y2 - y1
        length2 = dx * dx + dy * dy or 1.0
        for u, (cx, cy) in centre.items():
            if u in (a, b):
                continue
            t = max(0.0, min(1.0, ((cx - x1) * dx + (cy - y1) * dy) / length2))
            if math.hypot(x1 + t * dx - cx, y1 + t * dy - cy) < clearance:
                out.append((a, b, u))
    return out


@dataclass(frozen=True)
class UnitRules:
    """The sizes the placement keeps to, in scene units and fractions (from the theme)."""

    radius_max: float  # a unit's circle, at most
    radius_min: float  # and at least: its name still readable inside it
    main: float  # the radius, at most this much of the pitch between layers
    cross: float  # ... and of the pitch between units of a layer
    ring: float  # a lit unit's ring, this much of its radius outside its circle
    gap: float  # a line keeps this far from another unit's ring


def ring_clearance(radius: float, rules: UnitRules) -> float:
    """How far a line must keep from another unit's centre: its lit ring and a gap."""
    return radius * (1 + rules.ring) + rules.gap


def place_units(layers: Sequence[Sequence[str]], pairs: Sequence[tuple[str, str]], region: Box,
                rules: UnitRules, edges: bool = True) -> tuple[dict[str, Point], float]:
    """Each unit's centre and the common radius: layers evenly spaced from the bottom of
    ``region`` to its top (one pitch for every gap: a shorter gap beside the one-unit output and
    loss read as a network squeezed at its top), the widest layer's units from its left edge to
    its right as the layers go from its foot to its top (each layer centred, one pitch across for
    all). Why edge to edge: units centred in equal slices left half a slice empty at each side,
    and the network took 37 % of a 16:9 frame (review 6 item 5); not ``edges``: centred in equal
    slices still, leaving room beside the outer units for what is written at them. The radius is the largest the
    pitches allow (``rules.main``, ``rules.cross``) down to ``rules.radius_min``, shrunk until no
    line of ``pairs`` crosses another unit's ring (`through_units`).

    >>> centre, r = place_units([["a", "b"], ["c"]], [("a", "c"), ("b", "c")], (0.0, 0.0, 4.0, 2.0),
    ...                         UnitRules(0.3, 0.1, 0.34, 0.38, 0.1, 0.05))
    >>> [round(v, 2) for v in (*centre["a"], *centre["b"], *centre["c"])]
    [0.33, 0.33, 3.67, 0.33, 2.0, 1.67]
    >>> centre, r = place_units([["a", "b"], ["c"]], [("a", "c"), ("b", "c")], (0.0, 0.0, 4.0, 2.0),
    ...                         UnitRules(0.3, 0.1, 0.34, 0.38, 0.1, 0.05), edges=False)
    >>> [round(centre[u][0], 2) for u in "abc"]
    [1.0, 3.0, 2.0]
    """
    left, bottom, right, top = region
    n = max(len(layers), 1)
    widest = max((len(l) for l in layers), default=1)
    radius = rules.radius_max
    while True:
        edge = radius * (1 + rules.ring)
        span = max(top - bottom - 2 * edge, 0.0)
        unit = span / max(n - 1, 1)
        pitch_cross = (right - left - 2 * edge) / (widest - 1) if edges and widest > 1 else (right - left) / widest
        full = min(unit, pitch_cross) if n > 1 else pitch_cross
        radius = min(radius, rules.main * full, rules.cross * pitch_cross)
        ys = [bottom + edge + unit * i for i in range(n)] if n > 1 else [(bottom + top) / 2]
        centre = {uid: ((left + right) / 2 + (j - (len(layer) - 1) / 2) * pitch_cross, ys[i])
                  for i, layer in enumerate(layers) for j, uid in enumerate(layer)}
        if radius <= rules.radius_min or not through_units(centre, pairs, ring_clearance(radius, rules)):
            return centre, radius
        radius = max(radius * 0.94, rules.radius_min)


WIDE = 1.0
"""A region wider than tall (16:9's, and 1:1's under its caption) has its tallies in a column
beside the network; a tall one (9:16's) above it. A band over a wide region leaves the layers
too little height for lines that clear the units beside them."""


@dataclass(frozen=True)
class NetRegions:
    """The network's region split: its units' box (right of the layers' names, which start at
    ``names_x``) and, when the clip counts passes, the tallies' box: a column beside the units in
    a wide region, a band above them in a tall one (the two tallies stacked in both)."""

    units: Box
    names_x: float
    tallies: Box | None
    side: bool
    latest: bool = True  # a row kept for forward mode's latest derivative (`tally_height`)


def tally_height(row: float, big: float, side: bool, gap: float, latest: bool = True) -> float:
    """The tallies' height, reverse mode's over forward mode's: in a column (``side``) each a
    heading row, its count (``big``) under it and two rows under that (reverse mode's weights
    reached, on two lines where one is too long for the column; forward mode's first and latest
    derivatives); in a band each count beside its words (a ``big`` line) and its rows under it
    (the weights reached on one line, the band being the frame's width). ``latest``: whether a
    pass after the first writes its derivative (else no row is kept for it: reverse_mode's
    rushed passes write none, and the empty row took the network's height at 9:16).

    >>> tally_height(0.5, 1.0, True, 0.2), tally_height(0.5, 1.0, False, 0.2, latest=False)
    (5.2, 3.2)
    """
    rows = (6 if side else 3) - (0 if latest else 1)
    return rows * row + 2 * big + gap


def split_region(region: Box, names_w: float, tally: tuple[float, float] | None, side_share: float,
                 gap: float, latest: bool = True, side_least: float = 0.0) -> NetRegions:
    """``region`` less the layers' names column (``names_w``) and the tallies' room (``tally``:
    a row's and a count's height, None without tallies). Why a column at 16:9: a band over the
    network there took a third of a short frame's height, and squeezed five layers into 200 px.
    The column is ``side_share`` of the region's width, or ``side_least`` where that is wider
    (its words at their least size: 1:1's share of a small region shrank them to 8 px)."""
    left, bottom, right, top = region
    if tally is None:
        return NetRegions((left + names_w, bottom, right, top), left, None, False)
    row, big = tally
    if right - left > WIDE * (top - bottom):
        col = max(side_share * (right - left), side_least)
        return NetRegions((left + names_w, bottom, right - col - gap, top), left, (right - col, bottom, right, top), True,
                          latest)
    h = tally_height(row, big, False, gap, latest)
    return NetRegions((left + names_w, bottom, right, top - h - gap), left, (left, top - h, right, top), False, latest)


REVERSE, FORWARD, FIRST, LATEST, REACHED, REVERSE_HEAD, FORWARD_HEAD = range(7)
"""The tallies' rows: the two counts (large), forward mode's first and latest derivatives, the
weights the reverse sweep has reached, and the words over (or beside) each count."""
TALLY_ORDER = ((REVERSE_HEAD, REVERSE, REACHED), (FORWARD_HEAD, FORWARD, FIRST, LATEST))
"""Each tally's rows from the top: reverse mode's, then forward mode's."""
COUNTS = {REVERSE_HEAD: REVERSE, FORWARD_HEAD: FORWARD}
"""Each heading's count: under it in a column, beside it in a band (`row_box`)."""


def _stack(tallies: Box, h: float, big: float, gap: float, latest: bool) -> tuple[float, float, float, float]:
    """A column's sizes, all smaller where the column is shorter than the stack (as a lesson's
    region under its code pane is), and the stack's top (at the column's foot)."""
    _, bottom, _, top = tallies
    fit = min(1.0, (top - bottom) / tally_height(h, big, True, gap, latest))
    h, big, gap = h * fit, big * fit, gap * fit
    return h, big, gap, bottom + tally_height(h, big, True, gap, latest)


def row_box(row: int, tallies: Box, side: bool, h: float, big: float, gap: float, latest: bool = True) -> Box:
    """Where a tally row goes in the tallies' box, reverse mode's tally over forward mode's, each
    one's rows from its top: in a column beside the network (``side``; the stack at its foot,
    clear of printed lines that reach past the code pane over the region's top; all rows smaller
    where the column is shorter than the stack, as a lesson's region under its code pane is)
    each count under its words, in a band above it each count on its words' line (the same box:
    the count is set after the words, `scenes.draw.passes`). A row is ``h`` high, a count
    ``big``; reverse mode's weights reached may take two rows in a column. Why stacked in the
    band too: side by side, 18 px apart at 9:16, the two headings read as one line (review 6,
    item 10).

    >>> row_box(FORWARD, (0.0, 0.0, 4.0, 4.0), False, 0.5, 1.0, 0.25)
    (0.0, 1.25, 4.0, 2.25)
    >>> row_box(FORWARD_HEAD, (0.0, 0.0, 4.0, 4.0), False, 0.5, 1.0, 0.25)
    (0.0, 1.25, 4.0, 2.25)
    >>> row_box(FORWARD_HEAD, (0.0, 0.0, 4.0, 9.0), True, 0.5, 1.0, 0.2)
    (0.0, 2.0, 4.0, 2.5)
    """
    left, bottom, right, top = tallies
    tally = next(k for k, rows in enumerate(TALLY_ORDER) if row in rows)
    y = top
    if side:
        h, big, gap, y = _stack(tallies, h, big, gap, latest)
        if tally:
            y -= 3 * h + big + gap
    elif tally:
        y -= big + h + gap
    for r in TALLY_ORDER[tally]:
        if not side and r in COUNTS.values():
            continue  # on its words' line
        tall = big if r in (REVERSE, FORWARD) or (not side and r in COUNTS) else 2 * h if r == REACHED and side else h
        if r == row or (not side and COUNTS.get(r) == row):
            return left, y - tall, right, y
        y -= tall
    raise ValueError(f"no tally row {row}")
