"""The ways a walk camera's move may carry the graph (straight, or in two parts round a pane),
and what a shape meets along one: a pane it passes over (`crosses`), its fastest step
(`stride`), where it is seen (`shows_from`, `seen_until`), which moving shape meets it
(`first_met`, `last_met`); a shape moved as the whole move moves it (`zoom_shape`). Geometry of
boxes and points only: the animations are :mod:`scenes.draw.glide`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import math

import numpy as np
from manim import Mobject

from scenes.draw.frame_spots import bounds
from scenes.draw.reading import reading_run
from scenes.layout.clear_rects import meets, seen_in
from scenes.layout.detour import nearest_free
from scenes.layout.focus import Zoom
from scenes.layout.label_spots import inside, rect_around
from scenes.layout.place import Point
from scenes.theme import Rect

Way = Callable[[float], Zoom]
"""A camera move's way: how far the picture has moved (a `Zoom` of where it starts) at each
share of the glide's time, from none at 0 to the whole move at 1: the way eases itself (`ease`),
so the glide plays it at an even pace (`scenes.draw.fade_times.settled`)."""

def ease(t: float) -> float:
    """How each part of a way speeds up and slows down over its own time (Manim's
    ``ease_in_out_sine``, as a float): from still to still, its fastest 1.6 times its mean
    (Manim's ``smooth``: 2.5). Each part is eased on its own, not the way as a whole: a part that
    began on an eased share of the way when that share was already going fast went from still
    to full speed in a frame (review 7 item 5: backward_walk 16:9 at 34.27 s, 1.5 to 19 px a
    frame at 1080p60, after a creep of the first part).

    >>> [round(ease(t), 3) for t in (0.0, 0.1, 0.25, 0.5, 0.9, 1.0)]
    [0.0, 0.024, 0.146, 0.5, 0.976, 1.0]
    """
    return (1.0 - math.cos(math.pi * t)) / 2.0


LEAD = 1.0 / 3.0
"""The share of a two-part way (`ways`) that its first part leads the second by: each part takes
the rest, the second beginning before the first ends, so that neither goes at more than
``1 / (1 - LEAD)`` times the pace of the straight way (in two halves, each went at twice it:
leaf_nodes 16:9's yh card 170 px a frame at 10 fps at 29.3 s, review 6)."""


def ways(z: Zoom) -> list[Way]:
    """The ways the picture may take through the move ``z``: straight (each point on a line, as a
    `Transform` goes), shifted first and then scaled, scaled first and then shifted, or shifted
    along one axis first and then scaled and shifted along the other (round a pane's corner);
    the second part of a way begins `LEAD` of the way after the first. Each part eases in and
    out over its own time (`ease`): nothing on a way sets off or stops at speed.

    >>> z = Zoom(3.0, (0.0, 0.0), (4.0, 2.0))
    >>> [(tuple(round(v, 3) for v in w(0.5).point((1.0, 1.0))), w(1.0).point((1.0, 1.0))) for w in ways(z)]
    [((4.0, 3.0), (7.0, 5.0)), ((4.707, 3.0), (7.0, 5.0)), ((3.293, 3.0), (7.0, 5.0)), ((4.707, 1.586), (7.0, 5.0)), ((1.879, 3.0), (7.0, 5.0))]
    """
    a, b, k = z.about, z.to, z.factor

    def first(s: float) -> float:
        return ease(min(1.0, s / (1.0 - LEAD)))

    def then(s: float) -> float:
        return ease(max(0.0, (s - LEAD) / (1.0 - LEAD)))

    def part(s: float) -> Point:
        return (a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1]))

    def straight(s: float) -> Zoom:
        e = ease(s)
        return Zoom(1.0 + e * (k - 1.0), a, part(e))

    def shift_first(s: float) -> Zoom:
        return Zoom(1.0 + then(s) * (k - 1.0), a, part(first(s)))

    def scale_first(s: float) -> Zoom:
        return Zoom(1.0 + first(s) * (k - 1.0), a, part(then(s)))

    def across_first(s: float) -> Zoom:  # along x first, then down or up as it scales
        return Zoom(1.0 + then(s) * (k - 1.0), a, (a[0] + first(s) * (b[0] - a[0]), a[1] + then(s) * (b[1] - a[1])))

    def down_first(s: float) -> Zoom:  # down or up first, then along x as it scales
        return Zoom(1.0 + then(s) * (k - 1.0), a, (a[0] + then(s) * (b[0] - a[0]), a[1] + first(s) * (b[1] - a[1])))

    return [straight, shift_first, scale_first, across_first, down_first]


GLIDE_SAMPLES = 24
"""Points along a glide at which `crosses` looks for what it passes over (evenly in its time: a
way eased as `ease` goes 1.6 times its mean pace at its middle, where 24 points step about as
far as 16 did when the way went at an even pace)."""


def crosses(box: Rect, way: Way, keep_off: Sequence[Rect]) -> bool:
    """Whether ``box``, carried along ``way``, passes over one of ``keep_off`` on the way (where
    it starts and lands counts too).

    >>> right = ways(Zoom(1.0, (0.0, 0.0), (4.0, 0.0)))[0]
    >>> crosses((0.0, 0.0, 1.0, 1.0), right, [(2.0, 0.5, 3.0, 2.0)]), crosses((0.0, 0.0, 1.0, 1.0), right, [(2.0, 1.5, 3.0, 2.0)])
    (True, False)
    """
    for i in range(GLIDE_SAMPLES + 1):
        z = way(i / GLIDE_SAMPLES)
        lo, hi = z.point((box[0], box[1])), z.point((box[2], box[3]))
        if any(meets((lo[0], lo[1], hi[0], hi[1]), r) for r in keep_off):
            return True
    return False


CALM = 1.0 / (1.0 - LEAD)
"""How much faster than the calmest of the ways a glide may take (`stride`) to keep what leaves
the view in the frame longer: a two-part way's parts go at up to this pace (`LEAD`); in two
halves, twice as fast, they took leaf_nodes 16:9's cards 170 px in a frame at 10 fps (29.3 s,
review 6), which no fade of what leaves is worth."""


def stride(box: Rect, way: Way) -> float:
    """The longest step a corner of ``box`` takes between two of `GLIDE_SAMPLES` points along
    ``way``: how fast the way carries it at its fastest, for the same time.

    >>> z = Zoom(1.0, (0.0, 0.0), (4.0, 0.0))
    >>> [round(stride((0.0, 0.0, 1.0, 1.0), w), 6) for w in ways(z)][:2]
    [0.261052, 0.390181]
    """
    longest, last = 0.0, None
    for i in range(GLIDE_SAMPLES + 1):
        z = way(i / GLIDE_SAMPLES)
        now = [z.point((box[0], box[1])), z.point((box[2], box[3]))]
        if last is not None:
            longest = max(longest, *(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for a, b in zip(now, last)))
        last = now
    return longest


LATEST = 0.8
"""How far along its glide a shape coming back into view must show for good to glide in
(`shows_from`); one that shows only later fades in where it lands, after the glide."""


def shows_from(box: Rect, way: Way, seen: Callable[[Rect], bool]) -> float | None:
    """How far along ``way`` ``box`` (a shape out of view) is seen (``seen``) from then to the
    end, sampled at `GLIDE_SAMPLES` points; None where that is later than `LATEST`: a shape
    coming back fades in from there (`glide_in`), never while it is out of the frame or over a pane.

    >>> right = ways(Zoom(1.0, (0.0, 0.0), (4.0, 0.0)))[0]
    >>> shows_from((-2.0, 0.0, -1.0, 1.0), right, lambda b: b[0] >= 0.0), shows_from((-5.0, 0.0, -4.0, 1.0), right, lambda b: b[0] >= 0.0)
    (0.5416666666666666, None)
    """
    first = None
    for i in range(GLIDE_SAMPLES, -1, -1):
        z = way(i / GLIDE_SAMPLES)
        lo, hi = z.point((box[0], box[1])), z.point((box[2], box[3]))
        if not seen((lo[0], lo[1], hi[0], hi[1])):
            break
        first = i / GLIDE_SAMPLES
    return first if first is not None and first <= LATEST else None


def seen_until(box: Rect, way: Way, seen: Callable[[Rect], bool]) -> float:
    """How far along ``way`` ``box`` is seen (``seen``) from its start on, sampled at
    `GLIDE_SAMPLES` points: 1 where it is seen all the way, 0 where it is not seen where it starts.

    >>> right = ways(Zoom(1.0, (0.0, 0.0), (4.0, 0.0)))[0]
    >>> seen_until((0.0, 0.0, 1.0, 1.0), right, lambda b: b[2] <= 3.0), seen_until((0.0, 0.0, 1.0, 1.0), right, lambda b: b[2] <= 9.0)
    (0.5, 1.0)
    """
    last = 0.0
    for i in range(GLIDE_SAMPLES + 1):
        z = way(i / GLIDE_SAMPLES)
        lo, hi = z.point((box[0], box[1])), z.point((box[2], box[3]))
        if not seen((lo[0], lo[1], hi[0], hi[1])):
            break
        last = i / GLIDE_SAMPLES
    return last


def carried_off(width: float, height: float, foot: float, keep_off: Sequence[Rect]) -> Callable[[Rect], bool]:
    """Where a shape a camera move takes out of view may still be as the move carries it, fading
    (`glide_out`): inside the frame (``width`` by ``height``, about the origin: past its safe edge,
    not its edge), above ``foot`` (the caption's margin), over none of ``keep_off`` (the code pane,
    the legend).

    >>> off = carried_off(8.0, 6.0, -2.0, [(-4.0, 2.0, -1.0, 3.0)])
    >>> off((3.0, 2.5, 3.9, 2.9)), off((3.5, 2.5, 4.5, 3.5)), off((0.0, -2.5, 1.0, -1.5)), off((-2.0, 1.5, -0.5, 2.5))
    (True, False, False, False)
    """
    frame = (-width / 2, foot, width / 2, height / 2)
    return lambda b: seen_in(b, frame, keep_off)


Parts = tuple[Rect, ...]
"""A shape as the boxes of its parts (`parts`): a card's frame, its texts, the op's name over
it. Two shapes whose boxes already meet may have no parts that do: an op's name over one card
reaches into the gap between two rows, and the boxes of that card and of the next row's card
overlap where none of their parts do (`first_met`, `last_met`)."""


def parts(m: Mobject) -> Parts:
    """The boxes of ``m``'s parts (`Parts`): of each of its shapes with points, where it has no
    points of its own (a card, a group); else ``m``'s box, one part (an arrow and its tip)."""
    if len(m.points) or not m.submobjects:
        return (bounds(m),)
    found = tuple(bounds(s) for s in m.submobjects if any(len(f.points) for f in s.get_family()))
    return found or (bounds(m),)


def _hull(ps: Parts) -> Rect:
    """The box round all of ``ps``."""
    return (min(p[0] for p in ps), min(p[1] for p in ps), max(p[2] for p in ps), max(p[3] for p in ps))


Mover = tuple[Parts, float, float]
"""A shape a camera move carries, as `first_met` and `last_met` read it: its parts' boxes where
the move starts, the share of the way at which it is held (1: it glides all the way) and the
share of the play until which it shows (1: to the end)."""


def _moved(way: Way, b: Rect, s: float) -> Rect:
    """``b`` where ``way`` has it at ``s`` of the way."""
    z = way(s)
    lo, hi = z.point((b[0], b[1])), z.point((b[2], b[3]))
    return (lo[0], lo[1], hi[0], hi[1])


def _touch(way: Way, a: Parts, ha: Rect, sa: float | None, b: Parts, hb: Rect, sb: float | None) -> bool:
    """Whether a part of ``a`` (where ``way`` has it at ``sa`` of the way; None: where it is)
    meets a part of ``b`` (at ``sb``): the parts are looked at only where the boxes round them
    (``ha``, ``hb``: `_hull`, taken once per shape, not per step) meet (the way moves and scales
    a box as it does its parts)."""
    def at(r: Rect, s: float | None) -> Rect:
        return r if s is None else _moved(way, r, s)

    if not meets(at(ha, sa), at(hb, sb)):
        return False
    there = [at(q, sb) for q in b]
    return any(meets(at(p, sa), q) for p in a for q in there)


Judged = tuple[Parts, Rect, Parts, Rect, float, float]
"""A mover as `first_met` and `last_met` judge it against a shape: its parts and their hull, the
shape's parts and their hull, the share of the way at which it is held and of the play until
which it shows."""


def _judged(way: Way, box: Parts, movers: Sequence[Mover], sb: Callable[[Mover], float | None]) -> list[Judged]:
    """The movers counted as meeting ``box`` (where it stands) only later, each with the parts it
    and ``box`` are judged by: their boxes, where those do not meet there and at ``sb`` (as
    ever), or their parts, where the boxes meet but no parts do (`Parts`); a mover a part of
    which meets one of ``box``'s there is not counted (an arrow's card, itself)."""
    hull = _hull(box)
    whole: Parts = (hull,)
    out: list[Judged] = []
    for b, u, t in movers:
        hb = _hull(b)
        if not _touch(way, whole, hull, None, (hb,), hb, sb((b, u, t))):
            out.append(((hb,), hb, whole, hull, u, t))
        elif not _touch(way, box, hull, None, b, hb, sb((b, u, t))):
            out.append((b, hb, box, hull, u, t))
    return out


def first_met(box: Parts, way: Way, rate: Callable[[float], float], until: float, movers: Sequence[Mover],
              steps: int = 48) -> float:
    """The first share of the play at which one of ``movers`` (carried along ``way`` as ``rate``
    says, while it shows) meets ``box`` (a shape's parts) as `glide_out` carries it (held at
    ``until`` of the way); 1 where none does. A mover that meets it where both start (an
    arrow's card, itself) is not counted; one whose box meets its box there but none of whose
    parts meets one of its parts is, by those parts (`_judged`: an op's name at the frame's
    edge, flush with the next row's card, was not, and the two met as the move carried them).

    >>> from manim.utils.rate_functions import linear
    >>> from scenes.draw.fade_times import span
    >>> right = ways(Zoom(1.0, (0.0, 0.0), (4.0, 0.0)))[0]
    >>> first_met(((2.0, 0.0, 3.0, 1.0),), right, span(0.0, 1.0, linear), 0.0, [(((0.0, 0.0, 1.5, 1.0),), 1.0, 1.0), (((2.5, 0.0, 2.9, 0.5),), 1.0, 1.0)], 8)
    0.25
    """
    apart = _judged(way, box, movers, lambda m: None)
    for k in range(steps + 1):
        r = rate(k / steps)
        if any(k / steps < t and _touch(way, mine, hm, min(r, until), b, hb, min(r, u))
               for b, hb, mine, hm, u, t in apart):
            return k / steps
    return 1.0


def last_met(box: Parts, way: Way, rate: Callable[[float], float], movers: Sequence[Mover], steps: int = 48) -> float:
    """The last share of the play at which one of ``movers`` (carried along ``way`` as ``rate``
    says, while it shows) meets ``box`` (a shape's parts, where the move lands it: `hop`, it
    fades in there); 0 where none does. A mover that meets it where both land is not counted;
    one whose box meets its box there but none of whose parts meets one of its parts is, by
    those parts (`_judged`).

    >>> from manim.utils.rate_functions import linear
    >>> from scenes.draw.fade_times import span
    >>> right = ways(Zoom(1.0, (0.0, 0.0), (4.0, 0.0)))[0]
    >>> last_met(((3.0, 0.0, 4.0, 1.0),), right, span(0.0, 1.0, linear), [(((1.0, 0.0, 1.5, 1.0),), 1.0, 1.0)], 8)
    0.625
    """
    apart = _judged(way, box, movers, lambda m: m[1])
    for k in range(steps, -1, -1):
        r = rate(k / steps)
        if any(k / steps < t and _touch(way, mine, hm, None, b, hb, min(r, u)) for b, hb, mine, hm, u, t in apart):
            return k / steps
    return 0.0


def zoom_shape(m: Mobject, z: Zoom) -> Mobject:
    """``m`` itself, moved and scaled as the camera's move ``z`` moves the graph."""
    m.shift([z.to[0] - z.about[0], z.to[1] - z.about[1], 0])
    m.scale(z.factor, about_point=np.array([z.to[0], z.to[1], 0.0]))
    return m


def moved_bounds(m: Mobject, z: Zoom) -> Rect:
    """``bounds`` of ``m`` once `zoom_shape` has moved it, without copying ``m`` (a
    card and its texts: most of what a camera move cost before its first frame). The move takes
    every point by the same increasing steps, done here in its order on the same floats, so the
    least and the most coordinates land where the shape's own do, to the bit. A shape without
    points keeps Manim's (0, 0, 0, 0)."""
    if z.factor <= 0:
        return bounds(zoom_shape(m.copy(), z))
    box = bounds(m)
    if not any(len(s.points) for s in m.get_family()):
        return box
    (ax, ay), (tx, ty), k = z.about, z.to, z.factor
    dx, dy = tx - ax, ty - ay
    return (((box[0] + dx) - tx) * k + tx, ((box[1] + dy) - ty) * k + ty,
            ((box[2] + dx) - tx) * k + tx, ((box[3] + dy) - ty) * k + ty)


def carry_rests(shapes: Iterable[Mobject], z: Zoom) -> None:
    """Where each of ``shapes`` that waits for a later cue rests (a token's ``rests``, which the
    ways of the tokens after it keep off: `scenes.draw.onscreen.OnScreen.ride`) moved as the camera's
    move ``z`` moves it: left where it stood before the move, it pushed the next tokens off their
    row (dynamic_graph 16:9's last walk: two 1/27 settled lower by w's bucket, one looped round)."""
    for m in shapes:
        r = getattr(m, "rests", None)
        if r is not None:
            (x0, y0), (x1, y1) = z.point((r[0], r[1])), z.point((r[2], r[3]))
            m.rests = (x0, y0, x1, y1)


def back_inside(tok: Mobject, target: Mobject, taken: list[Rect], within: Rect, step: float) -> None:
    """Where a camera's move takes ``tok``, a token waiting for its node's visit (``target``, its
    moved copy), set instead at the nearest spot inside ``within`` clear of ``taken`` (on a grid
    of pitch ``step``, `nearest_free`) where the move takes it out, its ``rests`` with it: it
    settled in the free frame of the close view, and the move back carried it past the frame's
    top (cubic_fit3 16:9: the 5.0000 bound for p - y, 39.0-46.6 s).

    >>> from manim import Rectangle
    >>> tok = Rectangle(width=1.0, height=0.5)
    >>> to = tok.copy().move_to([0.0, 2.0, 0.0])  # its top past the frame's, at 2; a card under
    >>> back_inside(tok, to, [(-0.2, 1.0, 0.2, 1.8)], (-3.0, -2.0, 3.0, 2.0), 0.1)
    >>> [round(float(c), 2) for c in to.get_center()[:2]], [round(float(c), 2) for c in tok.rests]
    ([-0.7, 1.7], [-1.2, 1.45, -0.2, 1.95])
    """
    b = bounds(target)
    if inside(b, within):
        return
    size = (b[2] - b[0], b[3] - b[1])
    x, y = nearest_free(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), size, taken, within=within, step=step, clear=0.0)
    target.move_to([x, y, 0.0])
    tok.rests = rect_around(x, y, size, 0.0)


def keep_in_frame(waiting: list[Mobject], targets: dict[int, Mobject], skip: set[int], values: list[Mobject],
                  z: Zoom, frame: Rect, grid: float) -> None:
    """Each of the ``waiting`` tokens that a camera's move ``z`` takes out of ``frame`` (its
    moved copy in ``targets``, by shape id) set back inside at the nearest spot (`back_inside`,
    on a grid of ``grid`` times its height) off where the other shapes land (but those in
    ``skip``: the arrows, which it may pass) and off the runs of the cards' ``values``
    (`reading_run`: level just past a value, it reads as more of it), one after the other."""
    if not waiting:
        return
    skip = skip | {id(m) for m in waiting}
    taken = [bounds(t) for k, t in targets.items() if k not in skip]
    taken += [reading_run(moved_bounds(v, z)) for v in values]
    for tok in waiting:
        back_inside(tok, targets[id(tok)], taken, frame, grid * tok.height)
        taken.append(bounds(targets[id(tok)]))
