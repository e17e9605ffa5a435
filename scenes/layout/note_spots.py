"""Where a note goes beside its card or bucket: a visit's arithmetic, a bucket's sums, a
``w.grad = None``. Pure geometry over a `Layout`, like `scenes.layout.label_spots` (whose search
for a clear spot it uses), apart from it because a note, unlike a tag or a badge, is as wide as
its words and may have no room beside its own card: it is looked for over the whole free frame,
nearer its own card than any other (`astray`), in the forms it may be set (`form_spot`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from scenes.layout.label_sides import faces_other, gap_between, kin
from scenes.layout.label_spots import covered, first_clear, obstacles, rect_around
from scenes.layout.place import Box, Layout, Point
from scenes.theme import Rect


def note_spots(box: Box, size: Point, gap: float, beside: float) -> list[Point]:
    """Where a note of ``size`` (a visit's arithmetic) may go, best first: level with the box on
    its left, or on its right past a badge ``beside`` wide; then raised or lowered by half its
    height and by its height; then the same a step (half its width) further out, twice; last,
    on its right where no badge waits (a note too wide for the room past one: kept off what is
    there by the caller's ``avoid``, a badge waiting there included)."""
    w, h = size
    left, _, right, _ = box.bounds
    lx, rx = left - gap - w / 2, right + gap + beside + gap + w / 2
    spots: list[Point] = []
    for out in (0.0, w / 2, w):
        for dy in (0.0, h / 2, -h / 2, h, -h):
            spots += [(lx - out, box.y + dy), (rx + out, box.y + dy)]
    return spots + [(right + gap + w / 2, box.y + dy) for dy in (0.0, h / 2, -h / 2, h, -h)]


def note_centre(lay: Layout, box: Box, size: Point, *, gap: float, clear: float, beside: float,
                within: Rect, avoid: Iterable[Rect] = (), prefer_off: Iterable[Rect] = (), reach: float = 0.0) -> Point:
    """The centre of a note beside ``box``: the first of `note_spots` ``within`` the rectangle
    given (the frame less the code and the caption) touching no other card and nothing in
    ``avoid``, nearer ``box`` than any other card (`astray`: a note nearer another reads as
    that one's); else the nearest such spot anywhere ``within`` (a grid of spots, nearest to
    the box first: a narrow frame has no room beside the card; then spots flush with what is
    in the way, for a gap between two things that the grid's pitch steps over); then the same
    spots where another card is nearer; all of that clear of arrows first, then crossing them;
    else the spot that covers least of the cards. All that is tried first off ``prefer_off``
    too (where something may come later), then without it. ``reach``: a label's (`faces_other`)."""
    found = _note_search(lay, box, size, gap=gap, clear=clear, beside=beside, within=within, avoid=avoid,
                         prefer_off=prefer_off, strict=False, reach=reach)
    if found is not None:
        return found
    near = note_spots(box, size, gap, beside)
    cards = obstacles(lay, box, list(avoid))
    return near[min(range(len(near)), key=lambda i: covered(rect_around(*near[i], size, 0.0), cards, within))]


def free_note_centre(lay: Layout, box: Box, size: Point, *, gap: float, clear: float, beside: float,
                     within: Rect, avoid: Iterable[Rect] = (), prefer_off: Iterable[Rect] = (),
                     reach: float = 0.0, fits: Callable[[Point], bool] | None = None) -> Point | None:
    """The centre `note_centre` finds, but None where it finds only a spot that covers a card
    (its last resort): a caller may then look again with less to keep off. ``fits``: only the
    spots it says yes to (as `own_note_centre`)."""
    return _note_search(lay, box, size, gap=gap, clear=clear, beside=beside, within=within, avoid=avoid,
                        prefer_off=prefer_off, strict=False, reach=reach, fits=fits)


def own_note_centre(lay: Layout, box: Box, size: Point, *, gap: float, clear: float, beside: float,
                    within: Rect, avoid: Iterable[Rect] = (), prefer_off: Iterable[Rect] = (),
                    reach: float = 0.0, fits: Callable[[Point], bool] | None = None) -> Point | None:
    """The centre of a note beside ``box`` as `note_centre` finds it, but only a spot that reads
    as ``box``'s: nearer it than any other card and clear of the arrows, touching no card and
    nothing in ``avoid`` (off ``prefer_off`` first); None where there is none (a note too wide
    for the room beside its card, which may then be set smaller and looked for again).
    ``reach``: a label's (``v.grad = None``), which stands by no other card (`faces_other`).
    ``fits``: only the spots it says yes to (a visit's note: its tokens' ways out, `scenes.draw.visit_note`).

    >>> from scenes.layout.detail import Detail
    >>> a, b = Box("a", "op", -0.5, 0.0, 2.0, 1.0), Box("b", "op", 2.5, 0.0, 2.0, 1.0)
    >>> lay = Layout("16:9", (-1.5, -0.6, 4.0, 0.6), "up", 1.0, Detail.FULL, {"a": a, "b": b}, (), (("a", "b"),), {})
    >>> kw = dict(gap=0.1, clear=0.05, beside=0.0, within=lay.region, avoid=[b.bounds])
    >>> own_note_centre(lay, b, (1.5, 0.4), **kw) is None  # no room right of b; left, it would lie over a
    True
    >>> astray(lay, b, note_centre(lay, b, (1.5, 0.4), **kw), (1.5, 0.4))  # where room is found instead
    True
    >>> own_note_centre(lay, b, (0.4, 0.4), **kw)  # a narrower note fits between a and b, nearer b
    (1.2, 0.0)
    """
    return _note_search(lay, box, size, gap=gap, clear=clear, beside=beside, within=within, avoid=avoid,
                        prefer_off=prefer_off, strict=True, reach=reach, fits=fits)


NONE_WORDS_GAP = 1 / 3
"""The gap between an empty bucket and its ``w.grad = None``, or a result's card and its
``yh.grad = None``, a share of the items' gap (a third of a sum's): the words read as that
bucket's or card's where another card stands close by (x's card by v's bucket in
missing_gradient; z's ``z.grad = None`` fits left of z at 9:16). The clip's and the article's
figure's."""

F = TypeVar("F")


def form_spot(lay: Layout, box: Box, forms: Iterable[F], size: Callable[[F], Point], last: Callable[[], F], *,
              gap: float, clear: float, beside: float, within: Rect, avoid: Iterable[Rect] = (),
              prefer_off: Iterable[Rect] = (), reach: float = 0.0) -> tuple[F, Point]:
    """Where a note beside ``box`` goes, and in which of its forms: the first of ``forms`` (the
    ways it may be set, best first, made as they are asked for) with a spot of its own
    (`own_note_centre`), else ``last()`` wherever `note_centre` finds room. One search for the
    clip (a bucket's sums and its ``w.grad = None``: `scenes.draw.buckets`) and the article's
    figures (`scenes.publish.svg_unkept`), so that the page puts a note where the clip does.
    ``reach``: a label's (``v.grad = None``): it stands over, under or beside no other card
    nearer than that (`faces_other`), so it goes on its own box's far side from them; where no
    form has such a spot, the first with one nearer its box than any other card. Where ``last()``
    finds no spot clear of the cards, the first of ``forms`` that does, before it covers some.

    >>> from scenes.layout.detail import Detail
    >>> a, b = Box("a", "op", -0.5, 0.0, 2.0, 1.0), Box("b", "op", 2.5, 0.0, 2.0, 1.0)
    >>> lay = Layout("16:9", (-1.5, -0.6, 4.0, 0.6), "up", 1.0, Detail.FULL, {"a": a, "b": b}, (), (("a", "b"),), {})
    >>> kw = dict(gap=0.1, clear=0.05, beside=0.0, within=lay.region, avoid=[b.bounds])
    >>> form_spot(lay, b, [(1.5, 0.4), (0.4, 0.4)], lambda f: f, lambda: (0.2, 0.2), **kw)
    ((0.4, 0.4), (1.2, 0.0))
    """
    avoid, prefer_off, forms = list(avoid), list(prefer_off), list(forms)
    for by in [reach, 0.0] if reach > 0 else [0.0]:  # a label by no other card, else by its own nearest
        for form in forms:
            at = own_note_centre(lay, box, size(form), gap=gap, clear=clear, beside=beside, within=within,
                                 avoid=avoid, prefer_off=prefer_off, reach=by)
            if at is not None:
                return form, at
    form = last()
    # where ``last()`` finds no room clear of the cards anywhere, the first of the other forms that does
    # (four buckets' ``W2[0].grad = None`` at 187 px, a row of them 93 px apart: each went over the next)
    for f in [form, *forms]:
        at = free_note_centre(lay, box, size(f), gap=gap, clear=clear, beside=beside, within=within, avoid=avoid,
                              prefer_off=prefer_off, reach=reach)
        if at is not None:
            return f, at
    return form, note_centre(lay, box, size(form), gap=gap, clear=clear, beside=beside, within=within, avoid=avoid,
                             prefer_off=prefer_off, reach=reach)


def _note_search(lay: Layout, box: Box, size: Point, *, gap: float, clear: float, beside: float, within: Rect,
                 avoid: Iterable[Rect], prefer_off: Iterable[Rect], strict: bool,
                 reach: float = 0.0, fits: Callable[[Point], bool] | None = None) -> Point | None:
    """`note_centre`'s search, in its order of preference; ``strict``: only the spots nearer
    ``box`` than any other card and clear of the arrows (`own_note_centre`); ``reach``: a label's,
    not standing by another card (`faces_other`); ``fits``: only the spots it says yes to."""
    avoid, prefer_off = list(avoid), list(prefer_off)
    near = note_spots(box, size, gap, beside)
    if reach > 0:  # a label: first under or over its box, where a card's own words go (AccumulateGrad)
        near = _over_under(box, size, gap) + near
    far = far_spots(box, size, within)

    def stray(p: Point) -> bool:
        if reach <= 0:
            return astray(lay, box, p, size)
        return astray(lay, box, p, size, kin_too=True) or faces_other(lay, box, rect_around(*p, size), reach)

    for keep_off in ([avoid + prefer_off] if prefer_off else []) + [avoid]:
        flush = flush_spots(box, size, within, obstacles(lay, box, keep_off), clear)
        ours = [[p for p in spots if not stray(p) and (fits is None or fits(p))] for spots in (near, far, flush)]
        others = [] if strict else [[p for p in spots if stray(p) and (fits is None or fits(p))]
                                    for spots in (near, far, flush)]
        for routes in (True,) if strict else (True, False):  # off the arrows first: a note over one is hard to read
            for spots in ours + others:
                found = first_clear(lay, box, size, spots, clear, keep_off, within=within, routes=routes)
                if found is not None:
                    return spots[found]
    return None


def astray(lay: Layout, box: Box, at: Point, size: Point, kin_too: bool = False) -> bool:
    """Whether a note of ``size`` centred ``at`` lies nearer another card or bucket of the
    layout than ``box``, whose note it is: it would read as the other's (issue 39: the rule of
    yh drawn level with s and z, the multiply rule by b). ``kin_too``: ``box``'s card or bucket
    counts as its own (`kin`: ``v.grad = None`` reads as v's by v's card as by its bucket)."""
    rect = rect_around(at[0], at[1], size, 0.0)
    mine = [b for b in lay.boxes.values() if b.id == box.id or (kin_too and kin(box.id, b.id))]
    own = min(gap_between(rect, b.bounds) for b in mine + [box])
    return any(gap_between(rect, b.bounds) < own for b in lay.boxes.values() if b not in mine and b.id != box.id)


def _over_under(box: Box, size: Point, gap: float) -> list[Point]:
    """A label's spots centred under and over its box, ``gap`` off it (AccumulateGrad's place)."""
    dy = box.h / 2 + gap + size[1] / 2
    return [(box.x, box.y - dy), (box.x, box.y + dy)]


FAR_STEPS = (4, 2)
"""A far spot grid's pitch: a quarter of a note's width across, half its height up and down."""


def flush_spots(box: Box, size: Point, within: Rect, obstacles: list[Rect], gap: float) -> list[Point]:
    """Centres of a rectangle of ``size`` just above or below each of ``obstacles`` (``gap``
    away; a spot's x on `far_spots`' pitch, or flush with ``within``'s sides), nearest to
    ``box`` first: the free band between two rows of things (under the code pane, over the
    loss's op name) is often a little taller than a note and nowhere on the grid's pitch."""
    w, h = size
    left, bottom, right, top = within
    dx = w / FAR_STEPS[0]
    xs = {left + w / 2 + i * dx for i in range(int(max(0.0, right - left - w) / dx) + 1)} | {right - w / 2}
    ys = {y for o in obstacles for y in (o[1] - gap - h / 2, o[3] + gap + h / 2) if bottom + h / 2 <= y <= top - h / 2}
    ys |= {bottom + h / 2, top - h / 2}
    spots = [(x, y) for x in sorted(xs) for y in sorted(ys)]
    return sorted(spots, key=lambda p: (p[0] - box.x) ** 2 + (p[1] - box.y) ** 2)


def far_spots(box: Box, size: Point, within: Rect) -> list[Point]:
    """Centres of a rectangle of ``size`` on a grid over ``within``, nearest to ``box`` first."""
    w, h = size
    left, bottom, right, top = within
    dx, dy = w / FAR_STEPS[0], h / FAR_STEPS[1]
    nx, ny = int(max(0.0, right - left - w) / dx) + 1, int(max(0.0, top - bottom - h) / dy) + 1
    spots = [(left + w / 2 + i * dx, bottom + h / 2 + j * dy) for i in range(nx) for j in range(ny)]
    return sorted(spots, key=lambda p: (p[0] - box.x) ** 2 + (p[1] - box.y) ** 2)


def ways_out(at: Point, size: Point, box: Box, products: Sequence[tuple[Rect, float]], token: Point,
             words: Sequence[Rect]) -> bool:
    """Whether a note of ``size`` centred ``at`` over ``box`` (wholly above it; any other spot: yes)
    lets the tokens leaving its products reach their edges without crossing its rows: a product
    ends its row, the row's words left of it, so a token bound for an edge leaving the card left
    of the product first goes down, under its row, then left round the card; the band a
    ``token`` high under the product, from the product to past the card's left side, touches
    none of ``words`` (the card's op name, the note's other products: grad_accumulation 9:16's
    3 for the left edge crossed its rows above ``mul``). ``products``: each product's box as the
    note is set centred at the origin, and the x where its edge leaves the card, below it.

    >>> b = Box("y", "op", 0.0, 0.0, 2.0, 1.0)
    >>> left = [((0.4, -0.2, 0.6, 0.0), -0.5)]  # a product at the note's right end, bound left
    >>> ways_out((0.0, 1.0), (1.2, 0.6), b, left, (0.2, 0.3), [(-0.2, 0.55, 0.2, 0.65)])  # over the op name
    False
    >>> ways_out((-0.8, 1.0), (1.2, 0.6), b, left, (0.2, 0.3), [(-0.2, 0.55, 0.2, 0.65)])  # left of it
    True
    """
    if at[1] - size[1] / 2 < box.bounds[3]:
        return True
    tw, th = token
    for (x0, y0, x1, _), leaves in products:
        if leaves >= at[0] + x0:
            continue
        band = (min(leaves, box.bounds[0]) - tw, at[1] + y0 - th, at[0] + x1, at[1] + y0)
        if any(min(band[2], w[2]) > max(band[0], w[0]) and min(band[3], w[3]) > max(band[1], w[1]) for w in words):
            return False
    return True
