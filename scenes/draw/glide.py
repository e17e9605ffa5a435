"""How the walk's camera carries the graph's shapes: glides along a way that keeps off the
panes, fades out and in around a move (a hop), and the saved colours a faded shape comes back
with. Manim animations driven by the play's clock; where the camera looks is
:mod:`scenes.layout.camera`'s, which shapes move is `scenes.draw.focus.CameraFocus`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from manim import Animation, Mobject, UpdateFromAlphaFunc, smooth
from manim.utils.rate_functions import ease_in_out_sine, linear

from scenes.draw.frame_spots import bounds
from scenes.layout.camera import meets, seen_in
from scenes.layout.focus import Zoom
from scenes.layout.place import Point
from scenes.theme import Rect

Colours = list[tuple[np.ndarray, np.ndarray]]
"""The fill and stroke colours of each part of a shape, kept while a move hides it."""

SETTLE = 0.05
"""The share of its part a move waits for: the frame after the end of a fade never shows a
half-faded shape beside one that has begun to move over it."""

CAMERA_FADES = 0.35
"""The share of a walk camera's move its fades take between them (what leaves, what comes
back): the rest is the move, long enough that nothing crosses more than a card's width a frame
(`scenes.render.continuity.jumps`) in the pauses it fits in."""


def span(t0: float, t1: float, rate: Callable[[float], float] = smooth) -> Callable[[float], float]:
    """A smooth ``rate`` from ``t0`` to ``t1`` of the play, still before and done after."""
    return lambda t: rate(min(1.0, max(0.0, (t - t0) / (t1 - t0)))) if t1 > t0 else float(t >= t0)


def settled(t0: float, t1: float) -> Callable[[float], float]:
    """The camera's glide from ``t0`` to ``t1`` of the play, begun `SETTLE` of that part into
    it: eased by a sine, whose fastest frame is 1.6 times the mean (Manim's ``smooth``: 2.5),
    so that a move fitted into a short pause carries no card further than its width in a frame."""
    return span(t0 + SETTLE * (t1 - t0), t1, ease_in_out_sine)


class Driven(UpdateFromAlphaFunc):
    """An ``UpdateFromAlphaFunc`` whose step sets its shape whole on every frame, from the shapes
    it was made with: Manim's copy of the shape at the play's start (``starting_mobject``) is
    never read, and a deep copy of a card with its texts is most of what a camera move costs
    before its first frame, once for every shape of the graph."""

    def create_starting_mobject(self) -> Mobject:
        return Mobject()  # what Manim's Animation holds before it begins


def hop(m: Mobject, target: Mobject, t0: float, t1: float, out: bool,
        eased: Callable[[float], float] = smooth) -> Animation:
    """``m`` fades out where it is from ``t0`` to ``t1`` of the play and then moves to ``target``
    unseen (``out``), or moves there unseen and fades in over that part (``eased``): no
    half-faded shape slides across the code or the captions. (Each way copies only the shapes
    it blends.)"""
    start, blend = m.copy(), Blend()
    rate = span(t0, t1, eased)
    if out:
        gone = m.copy().set_opacity(0.0)

        def step(mob: Mobject, alpha: float) -> None:
            blend(mob, start, gone, rate(alpha)) if alpha < t1 else blend(mob, target, target, 1.0)
    else:
        hidden = target.copy().set_opacity(0.0)

        def step(mob: Mobject, alpha: float) -> None:
            blend(mob, start, start, 0.0) if alpha < t0 else blend(mob, hidden, target, rate(alpha))

    return Driven(m, step, rate_func=linear)  # ``step`` eases its own part: its times are the play's


def through(m: Mobject, target: Mobject, t0: float, t1: float) -> Animation:
    """``m`` fades out where it is by ``t0`` of the play, moves unseen, and fades in at ``target``
    from ``t1``: a shape whose glide would pass over the code pane, the legend or the checklist."""
    start, gone, hidden = m.copy(), m.copy().set_opacity(0.0), target.copy().set_opacity(0.0)
    leave, land, blend = span(0.0, t0), span(t1, 1.0), Blend()

    def step(mob: Mobject, alpha: float) -> None:
        if alpha < t0:
            blend(mob, start, gone, leave(alpha))
        elif alpha < t1:
            blend(mob, hidden, hidden, 0.0)
        else:
            blend(mob, hidden, target, land(alpha))

    return Driven(m, step, rate_func=linear)


class Blend:
    """``blend(mob, a, b, alpha)`` sets each part of ``mob`` ``alpha`` of the way from ``a``'s to
    ``b``'s, for the steps of one animation: the parts are listed with their two ends once per
    pair of ends (a play's shapes keep their parts from frame to frame; a camera move's walk over
    every card's family each frame was a tenth of its cost), and the parts whose points a glide
    sets right after (``carried``, ids) get their colours only (Manim's ``interpolate`` is the
    points' interpolation, then ``interpolate_color``: the points would be overwritten unread)."""

    def __init__(self, carried: set[int] | None = None) -> None:
        self.carried = carried or set()
        self.parts: dict[tuple[int, int], list[tuple[Mobject, Mobject, Mobject]]] = {}

    def __call__(self, mob: Mobject, a: Mobject, b: Mobject, alpha: float) -> None:
        parts = self.parts.get((id(a), id(b)))
        if parts is None:
            parts = self.parts[id(a), id(b)] = list(zip(mob.family_members_with_points(), a.family_members_with_points(),
                                                        b.family_members_with_points()))
        for sm, sa, sb in parts:
            if id(sm) in self.carried:
                sm.interpolate_color(sa, sb, alpha)
            else:
                sm.interpolate(sa, sb, alpha)


GLIDE_SAMPLES = 16
"""Points along a glide at which `crosses` looks for what it passes over."""

Way = Callable[[float], Zoom]
"""A camera move's way: how far the picture has moved (a `Zoom` of where it starts) at each
fraction of the move, from none at 0 to the whole move at 1."""


LEAD = 1.0 / 3.0
"""The share of a two-part way (`ways`) that its first part leads the second by: each part takes
the rest, the second beginning before the first ends, so that neither goes at more than
``1 / (1 - LEAD)`` times the pace of the straight way (in two halves, each went at twice it:
leaf_nodes 16:9's yh card 170 px a frame at 10 fps at 29.3 s, review 6)."""


def ways(z: Zoom) -> list[Way]:
    """The ways the picture may take through the move ``z``: straight (each point on a line, as a
    `Transform` goes), shifted first and then scaled, scaled first and then shifted, or shifted
    along one axis first and then scaled and shifted along the other (round a pane's corner);
    the second part of a way begins `LEAD` of the way after the first.

    >>> z = Zoom(3.0, (0.0, 0.0), (4.0, 2.0))
    >>> [(w(0.5).point((1.0, 1.0)), w(1.0).point((1.0, 1.0))) for w in ways(z)]
    [((4.0, 3.0), (7.0, 5.0)), ((4.5, 3.0), (7.0, 5.0)), ((3.5, 3.0), (7.0, 5.0)), ((4.5, 2.0), (7.0, 5.0)), ((2.5, 3.0), (7.0, 5.0))]
    """
    a, b, k = z.about, z.to, z.factor

    def first(s: float) -> float:
        return min(1.0, s / (1.0 - LEAD))

    def then(s: float) -> float:
        return max(0.0, (s - LEAD) / (1.0 - LEAD))

    def part(s: float) -> Point:
        return (a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1]))

    def straight(s: float) -> Zoom:
        return Zoom(1.0 + s * (k - 1.0), a, part(s))

    def shift_first(s: float) -> Zoom:
        return Zoom(1.0 + then(s) * (k - 1.0), a, part(first(s)))

    def scale_first(s: float) -> Zoom:
        return Zoom(1.0 + first(s) * (k - 1.0), a, part(then(s)))

    def across_first(s: float) -> Zoom:  # along x first, then down or up as it scales
        return Zoom(1.0 + then(s) * (k - 1.0), a, (a[0] + first(s) * (b[0] - a[0]), a[1] + then(s) * (b[1] - a[1])))

    def down_first(s: float) -> Zoom:  # down or up first, then along x as it scales
        return Zoom(1.0 + then(s) * (k - 1.0), a, (a[0] + then(s) * (b[0] - a[0]), a[1] + first(s) * (b[1] - a[1])))

    return [straight, shift_first, scale_first, across_first, down_first]


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
    [0.25, 0.375]
    """
    longest, last = 0.0, None
    for i in range(GLIDE_SAMPLES + 1):
        z = way(i / GLIDE_SAMPLES)
        now = [z.point((box[0], box[1])), z.point((box[2], box[3]))]
        if last is not None:
            longest = max(longest, *(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for a, b in zip(now, last)))
        last = now
    return longest


def _carry(start: list[tuple[Mobject, np.ndarray]], z: Zoom) -> None:
    """Each part's points as at the glide's start (``start``), moved and scaled by ``z``."""
    for sm, pts in start:
        moved = pts.copy()
        moved[:, 0] = (pts[:, 0] - z.about[0]) * z.factor + z.to[0]
        moved[:, 1] = (pts[:, 1] - z.about[1]) * z.factor + z.to[1]
        sm.points = moved


def glide(m: Mobject, way: Way, rate: Callable[[float], float]) -> Animation:
    """``m`` carried along ``way`` as the play goes (``rate``: how far along it is), every part of it
    moved and scaled as one picture: at the end, where the whole move puts it."""
    start = [(sm, sm.points.copy()) for sm in m.family_members_with_points()]

    def step(mob: Mobject, alpha: float) -> None:
        _carry(start, way(rate(alpha)))

    return Driven(m, step, rate_func=linear)


LATEST = 0.8
"""How far along its glide a shape coming back into view must show for good to glide in
(`shows_from`); one that shows only later fades in where it lands, after the glide."""


def shows_from(box: Rect, way: Way, seen: Callable[[Rect], bool]) -> float | None:
    """How far along ``way`` ``box`` (a shape out of view) is seen (``seen``) from then to the
    end, sampled at `GLIDE_SAMPLES` points; None where that is later than `LATEST`: a shape
    coming back fades in from there (`glide_in`), never while it is out of the frame or over a pane.

    >>> right = ways(Zoom(1.0, (0.0, 0.0), (4.0, 0.0)))[0]
    >>> shows_from((-2.0, 0.0, -1.0, 1.0), right, lambda b: b[0] >= 0.0), shows_from((-5.0, 0.0, -4.0, 1.0), right, lambda b: b[0] >= 0.0)
    (0.5, None)
    """
    first = None
    for i in range(GLIDE_SAMPLES, -1, -1):
        z = way(i / GLIDE_SAMPLES)
        lo, hi = z.point((box[0], box[1])), z.point((box[2], box[3]))
        if not seen((lo[0], lo[1], hi[0], hi[1])):
            break
        first = i / GLIDE_SAMPLES
    return first if first is not None and first <= LATEST else None


def glide_in(m: Mobject, target: Mobject, way: Way, rate: Callable[[float], float], shows: float) -> Animation:
    """``m``, out of view (faded), carried along ``way`` with the rest of the picture (``rate``:
    how far along) and fading in to ``target``'s colours (linearly) from where it has come
    ``shows`` of the way, in view for good (`shows_from`), to the play's end, where the glide
    may have ended before: what a move brings back into view comes in over the glide, as a
    camera would show it, not all at once after it (review 3: the walk's last move out popped
    the rest of the graph in)."""
    start = m.copy()
    at = [(sm, sm.points.copy()) for sm in m.family_members_with_points()]
    fade = span(gone_by(rate, shows), 1.0, linear)
    tint = Blend({id(sm) for sm, _ in at})

    def step(mob: Mobject, alpha: float) -> None:
        tint(mob, start, target, fade(alpha))  # its colours; its points are the glide's
        _carry(at, way(rate(alpha)))

    return Driven(m, step, rate_func=linear)


def comes_from(back: float, met: float) -> float:
    """The share of a camera's move from which what it brings back where the glide cannot carry
    it in view (`shows_from` says None: it clears the caption or a pane only as the glide ends)
    fades in where it lands (`hop`): once no shape that moves meets it there (``met``,
    `last_met`), over `FADE_LEAST` of the move at most, and from ``back`` (where the glide
    ends) at the latest (backward_walk 16:9 at 26.33 s: x, w1 and w2 came up from under the
    caption and faded in after the glide, in 0.2 s eased: 0.43 to 0.97 in one frame).

    >>> comes_from(2 / 3, 0.2), comes_from(2 / 3, 0.6), comes_from(2 / 3, 0.9)
    (0.5, 0.6, 0.6666666666666666)
    """
    return min(back, max(1.0 - FADE_LEAST, met))


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


def gone_by(rate: Callable[[float], float], until: float, steps: int = 96) -> float:
    """The first share of the play by which ``rate`` (a glide's, from the play's share to how far
    along its way) has come ``until`` of the way: what leaves the view over a glide is faded by
    then (`glide_out`).

    >>> gone_by(span(0.2, 0.8, linear), 0.5)
    0.5
    """
    return next((k / steps for k in range(steps + 1) if rate(k / steps) >= until - 1e-9), 1.0)


FADE_LEAST = 0.5
"""The least share of a camera's move over which what it takes out of view fades (`fades_by`):
at least 0.3 s of the shortest move (``camera_least``), three frames at 10 a second, so that no
frame takes half of its opacity."""


def fades_by(rate: Callable[[float], float], until: float, met: float = 1.0) -> float:
    """The share of the play by which a shape that leaves the view over a glide (``rate``: the
    glide's, from the play's share to how far along its way) has faded out: by where it has come
    ``until`` of the way (`gone_by`: where it would pass over a pane or the caption, or out of the
    frame), but over `FADE_LEAST` of the play at least, unless a shape that moves meets it sooner
    (``met``, a share of the play): `glide_out` holds it at ``until`` of the way while it fades.

    >>> fades_by(span(0.0, 1.0, linear), 0.75), fades_by(span(0.0, 1.0, linear), 1 / 16), fades_by(span(0.0, 1.0, linear), 0.0, met=0.25)
    (0.75, 0.5, 0.25)
    """
    return max(gone_by(rate, until), min(FADE_LEAST, met))


def glide_out(m: Mobject, way: Way, rate: Callable[[float], float], until: float, met: float = 1.0) -> Animation:
    """``m`` carried along ``way`` with the rest of the picture (``rate``: how far along) as far
    as ``until`` of it (`seen_until`: before it leaves the view or passes over a pane), and held
    there, fading out from the play's start (linearly) to `fades_by` of it; once gone it goes
    on unseen to where the move puts it (a later move or its return starts there): what a move takes out
    of view leaves with the move, as a camera would show it, not in a frame or two before it
    (issue 39: L's card dropped from full opacity to 0.15 in one frame while inside the frame;
    missing_gradient's z - 1, which the move in on w carried under the code pane within a
    sixteenth of its way, did so too). ``met``: the share of the play at which a shape that
    moves first meets it where it is held (`first_met`): it is gone by then."""
    start, gone = m.copy(), m.copy().set_opacity(0.0)
    at = [(sm, sm.points.copy()) for sm in m.family_members_with_points()]
    tint = Blend({id(sm) for sm, _ in at})
    fade = span(0.0, fades_by(rate, until, met), linear)

    def step(mob: Mobject, alpha: float) -> None:
        faded = fade(alpha)
        tint(mob, start, gone, faded)  # its colours; its points are the glide's, held while it shows
        _carry(at, way(rate(alpha) if faded >= 1.0 else min(rate(alpha), until)))

    return Driven(m, step, rate_func=linear)


Mover = tuple[Rect, float, float]
"""A shape a camera move carries, as `first_met` and `last_met` read it: its box where the move
starts, the share of the way at which it is held (1: it glides all the way) and the share of
the play until which it shows (1: to the end)."""


def _moved(way: Way, b: Rect, s: float) -> Rect:
    """``b`` where ``way`` has it at ``s`` of the way."""
    z = way(s)
    lo, hi = z.point((b[0], b[1])), z.point((b[2], b[3]))
    return (lo[0], lo[1], hi[0], hi[1])


def first_met(box: Rect, way: Way, rate: Callable[[float], float], until: float, movers: Sequence[Mover],
              steps: int = 48) -> float:
    """The first share of the play at which one of ``movers`` (carried along ``way`` as ``rate``
    says, while it shows) meets ``box`` as `glide_out` carries it (held at ``until`` of the way);
    1 where none does. A mover that meets it where both start (an arrow's card, itself) is not
    counted.

    >>> right = ways(Zoom(1.0, (0.0, 0.0), (4.0, 0.0)))[0]
    >>> first_met((2.0, 0.0, 3.0, 1.0), right, span(0.0, 1.0, linear), 0.0, [((0.0, 0.0, 1.5, 1.0), 1.0, 1.0), ((2.5, 0.0, 2.9, 0.5), 1.0, 1.0)], 8)
    0.25
    """
    apart = [m for m in movers if not meets(box, m[0])]
    for k in range(steps + 1):
        r = rate(k / steps)
        if any(k / steps < t and meets(_moved(way, box, min(r, until)), _moved(way, b, min(r, u))) for b, u, t in apart):
            return k / steps
    return 1.0


def last_met(box: Rect, way: Way, rate: Callable[[float], float], movers: Sequence[Mover], steps: int = 48) -> float:
    """The last share of the play at which one of ``movers`` (carried along ``way`` as ``rate``
    says, while it shows) meets ``box``, where the move lands a shape (`hop`: it fades in there);
    0 where none does. A mover that meets it where both land is not counted.

    >>> right = ways(Zoom(1.0, (0.0, 0.0), (4.0, 0.0)))[0]
    >>> last_met((3.0, 0.0, 4.0, 1.0), right, span(0.0, 1.0, linear), [((1.0, 0.0, 1.5, 1.0), 1.0, 1.0)], 8)
    0.625
    """
    apart = [m for m in movers if not meets(box, _moved(way, m[0], m[1]))]
    for k in range(steps, -1, -1):
        r = rate(k / steps)
        if any(k / steps < t and meets(box, _moved(way, b, min(r, u))) for b, u, t in apart):
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


def colours(m: Mobject) -> Colours:
    """The fill and stroke colours of each part of ``m``, kept while a camera move hides it."""
    return [(s.fill_rgbas.copy(), s.stroke_rgbas.copy()) for s in m.get_family() if hasattr(s, "fill_rgbas")]


def restore(target: Mobject, saved: Colours) -> None:
    """``target`` at the opacity of ``saved`` (from before a move faded it), its colour as drawn
    since: an arrow turned while the camera was away comes back a gradient's, not forward's."""
    parts = [s for s in target.get_family() if hasattr(s, "fill_rgbas")]
    if len(saved) != len(parts):
        return
    for s, (fill, stroke) in zip(parts, saved):
        if len(s.fill_rgbas) == len(fill) and len(s.stroke_rgbas) == len(stroke):
            f, k = s.fill_rgbas.copy(), s.stroke_rgbas.copy()
            f[:, 3], k[:, 3] = fill[:, 3], stroke[:, 3]
            s.fill_rgbas, s.stroke_rgbas = f, k
