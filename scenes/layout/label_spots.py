"""Where the small things around a card go: its op name, AccumulateGrad, the gradient badge of
a backward visit. Pure geometry over a `Layout`, like the layout itself.

Why not simply a fixed spot (centred above the card, its top right corner): arrows meet cards
there. A card with one input has that arrow meet it in the middle, so a tag centred above it
would sit under the arrow head; in a top-to-bottom graph every backward edge leaves a card's
top, so a badge on the top right corner would sit where the token riding that edge waits. Each
label takes the first of a few spots that no arrow crosses and no other card or label touches.

Where a label goes depends on the layout and on sizes that do not change with numbers (a tag's
text is an op name; a badge is placed as if it were ``sizes.badge_width`` wide), so nothing
moves when the author changes a number.

>>> from engine import run_program
>>> from scenes.layout.place import layout_events
>>> from scenes.theme import load_theme
>>> log = run_program("import torch\\nw = torch.tensor(2., requires_grad=True)\\nz = w * 3\\ns = z.relu()\\n", "p.py")
>>> lay = layout_events(log.events, "16:9", load_theme())
>>> x, y = tag_centre(lay, lay.boxes["t1"], (0.3, 0.1), above=True, gap=0.05, clear=0.07, step=0.5)
>>> x != lay.boxes["t1"].x  # z = w * 3: the arrow to s = z.relu() leaves its top in the middle
True
"""

from __future__ import annotations

from collections.abc import Iterable

from scenes.layout.clear_rects import meets
from scenes.layout.label_sides import gap_between
from scenes.layout.place import Box, Layout, Point
from scenes.theme import Rect


def tag_centre(lay: Layout, box: Box, size: Point, *, above: bool, gap: float, clear: float, step: float,
               avoid: Iterable[Rect] = (), beside: bool = False, within: Rect | None = None) -> Point:
    """A tag of ``size`` (w, h) ``gap`` outside the box's top (or bottom) edge: centred, or slid
    along the edge, ``step`` times its width at a time, to the nearest spot ``clear`` of arrows
    and touching no other card and nothing in ``avoid`` (where gradient tokens wait, other
    tags); no further than the box's corner. Else one level with the box, right of it or
    left; else such a spot on the other edge (a bucket
    squeezed between two cards in 1:1 has no room below for AccumulateGrad beside the op name
    of the card under it); else the nearest spot on its own edge that only touches ``avoid``;
    else the first of those that crosses an arrow but touches no other card; else centred. ``beside``: first level with the box, right of it or left (a tag wider than
    its card, slid along a short gap between layers, would sit level with the card above and
    read as that card's). Every spot but the last resort stays ``within`` (the frame, so that
    an op name beside a card at its edge is not cut off)."""
    avoid = list(avoid)
    spots, other = (_edge_spots(box, size, gap, step, side) for side in (above, not above))
    outer = [p for k in (1, 2) for side in (above, not above)
             for p in _edge_spots(box, size, gap + k * (size[1] + gap), step, side, reach=size[0])]
    sides = [(box.x + sign * (box.w / 2 + gap + size[0] / 2), box.y) for sign in (1, -1)]
    level = sides if beside else []
    # a tag with no room on its own edge goes level with its box before the other edge or a row
    # further out: an op name under its card sits over the edge to the next card and reads as
    # that one's (issue 39: L's ``** 2`` beside sub), and AccumulateGrad a row under its bucket,
    # slid aside, stood level with the op name of the card below and read as that card's
    # (backward_graph 9:16, review 6 item 6)
    then = sides if not beside else []
    tiers: list[tuple[list[Point], list[Rect]]] = [(level, avoid), (spots, avoid), (then, avoid), (other, avoid),
                                                   (outer, avoid), (spots, [])]
    # where every spot clear of the cards crosses an arrow, the first of them before one on a card: cubic_fit3's
    # `add` centred over `a * x + b`, its layers closer than a tag's room, lay on the card above (1:1, 9:16)
    for routes in (True, False):
        for where, rects in tiers:
            found = first_clear(lay, box, size, where, clear, rects, within=within, routes=routes)
            if found is not None:
                return where[found]
    return spots[0]


def _edge_spots(box: Box, size: Point, gap: float, step: float, above: bool, reach: float = 0.0) -> list[Point]:
    """Centres along the box's top (or bottom) edge, ``gap`` outside it: the middle first, then
    ``step`` tag widths at a time to either side, no further than ``reach`` past the box's corner."""
    w, h = size
    y = box.y + (box.h / 2 + gap + h / 2) * (1 if above else -1)
    dx = max(w * step, 1e-3)
    spots = [(box.x, y)]
    for k in range(1, int((box.w / 2 + reach) / dx) + 1):
        spots += [(box.x + k * dx, y), (box.x - k * dx, y)]
    return spots


def badge_spots(box: Box, size: Point, gap: float, low: bool = False, top: bool = False) -> list[Point]:
    """Where a badge of ``size`` may go, best first: just outside the box's right side, its left
    side (``low``: each side then level with its bottom edge too, beside a card's lower row), then
    off its corners (top right, top left, bottom right, bottom left: touching the box at most at
    a corner, never over it), then just over and just under the box (a bucket, the last node,
    has nothing below it). ``top``: off its top corners first (the highest spots beside it)."""
    w, h = size
    left, bottom, right, up = box.bounds
    ox, oy = gap + w / 2, gap + h / 2
    sides = [(right + ox, box.y), (left - ox, box.y)]
    if low:
        sides = [sides[0], (right + ox, bottom + h / 2), sides[1], (left - ox, bottom + h / 2)]
    high = [(right + ox, up + oy), (left - ox, up + oy)]
    if top:
        sides, high = high, sides
    return sides + high + [(right + ox, bottom - oy), (left - ox, bottom - oy), (box.x, up + oy), (box.x, bottom - oy)]


def badge_centre(lay: Layout, box: Box, size: Point, *, nominal: Point, gap: float, clear: float,
                 head: float, avoid: Iterable[Rect] = (), low: bool = False, top: bool = False) -> Point:
    """The centre of a badge of ``size`` beside ``box``. The spot is chosen for a badge of the
    ``nominal`` size (so that it does not depend on the number shown): the first of
    `badge_spots` ``clear`` of arrows that touches no other card, no ``avoid`` rectangle (the
    box's own tags) and stays inside the layout's region (never over the code), off every
    arrowhead (`route_ends`, ``head`` its length) first; else the first that only crosses an arrow; else the one
    that covers least of other cards. The badge then sits at that spot with its inner edge where a nominal badge's would be.
    Of those spots, one where the badge as drawn, ``size``, touches no other card nor ``avoid`` either
    is taken first (a wider badge moves only where it would cover something); where none is, the
    one of the first tier with a clear spot whose badge as drawn covers least.
    ``low``: beside the box level with its bottom edge too, before its corners; ``top``: off its
    top corners first (`badge_spots`)."""
    avoid = list(avoid)
    spots, drawn = badge_spots(box, nominal, gap, low, top), badge_spots(box, size, gap, low, top)
    # the badge as drawn touches no other card nor ``avoid`` either, where a spot allows: wider than the
    # nominal (a 7-character number), beside a bucket in a row of them it covered the next one's value (issue 39)
    others = obstacles(lay, box, avoid)
    over = [covered(rect_around(x, y, size, 0.0), others, None) for x, y in drawn]
    tiers = [(avoid + route_ends(lay, head), True), (avoid, True), (avoid, False)]
    for fits in (True, False):  # one that fits as drawn, by the tiers; else the one that covers least in a tier
        for rects, routes in tiers:
            found = clear_spots(lay, box, nominal, spots, clear, rects, within=lay.region, routes=routes)
            found = [i for i in found if over[i] == 0.0] if fits else found
            if found:
                return drawn[min(found, key=lambda i: (over[i], i))]
    best = min(range(len(spots)), key=lambda i: (covered(rect_around(*spots[i], nominal, 0.0), others, lay.region),
                                                 over[i], i))
    return drawn[best]


def route_ends(lay: Layout, head: float) -> list[Rect]:
    """Where an arrowhead may stand: a square around either end of every route, ``head`` (a
    head's length) on every side (a head sits at a route's end drawn forward, at its start
    drawn backward). A badge waiting on one hides which way the gradient flows (issue 39)."""
    r = head
    return [rect_around(x, y, (2 * r, 2 * r)) for route in lay.routes if route.points
            for x, y in (route.points[0], route.points[-1])]


def first_clear(lay: Layout, box: Box, size: Point, spots: list[Point], clear: float, avoid: Iterable[Rect] = (),
                within: Rect | None = None, routes: bool = True) -> int | None:
    """The index of the first spot where a rectangle of ``size`` touches no card but ``box`` and
    nothing in ``avoid``, stays ``within``, and, grown by ``clear``, meets no route (unless
    ``routes`` is false); None if there is none."""
    found = clear_spots(lay, box, size, spots, clear, avoid, within, routes, first=True)
    return found[0] if found else None


def clear_spots(lay: Layout, box: Box, size: Point, spots: list[Point], clear: float, avoid: Iterable[Rect] = (),
                within: Rect | None = None, routes: bool = True, first: bool = False) -> list[int]:
    """The indices of the spots that are clear as `first_clear` says, in order (``first``: only
    the first of them)."""
    segments = [(p, q) for r in lay.routes for p, q in zip(r.points, r.points[1:])] if routes else []
    others = obstacles(lay, box, avoid)
    out: list[int] = []
    for i, (x, y) in enumerate(spots):
        rect = rect_around(x, y, size, 0.0)
        if within is not None and not inside(rect, within):
            continue
        if any(meets(rect, o) for o in others):
            continue
        grown = rect_around(x, y, size, clear)
        if not any(crosses(grown, p, q) for p, q in segments):
            out.append(i)
            if first:
                break
    return out


def obstacles(lay: Layout, box: Box, avoid: Iterable[Rect]) -> list[Rect]:
    """Every card but ``box``, and the ``avoid`` rectangles."""
    return [b.bounds for b in lay.boxes.values() if b.id != box.id] + list(avoid)


def covered(rect: Rect, others: list[Rect], region: Rect | None) -> float:
    """How much of ``others`` the rectangle covers; leaving the region (if given) counts as covering all."""
    if region is not None and not inside(rect, region):
        return float("inf")
    return sum(max(0.0, min(rect[2], o[2]) - max(rect[0], o[0])) * max(0.0, min(rect[3], o[3]) - max(rect[1], o[1]))
               for o in others)


def inside(rect: Rect, within: Rect) -> bool:
    """Whether ``rect`` lies wholly in ``within`` (both left, bottom, right, top)."""
    return within[0] <= rect[0] and rect[2] <= within[2] and within[1] <= rect[1] and rect[3] <= within[3]


def rect_around(x: float, y: float, size: Point, grown: float = 0.0) -> Rect:
    """The rectangle (left, bottom, right, top) of ``size`` centred on (x, y), grown on every side."""
    return (x - size[0] / 2 - grown, y - size[1] / 2 - grown, x + size[0] / 2 + grown, y + size[1] / 2 + grown)


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
