"""How the walk's camera carries the graph's shapes: glides along a way that keeps off the
panes (:mod:`scenes.draw.ways`), fades out and in around a move (a hop) at the times
:mod:`scenes.draw.fade_times` gives, and the saved colours a faded shape comes back with.
Manim animations driven by the play's clock; where the camera looks is
:mod:`scenes.layout.camera`'s, which shapes move is `scenes.draw.focus.CameraFocus`'s.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from manim import Animation, Mobject, Transform, UpdateFromAlphaFunc, smooth
from manim.utils.rate_functions import linear

from scenes.draw.fade_times import fades_by, gone_by, span
from scenes.draw.ways import Way
from scenes.layout.focus import Zoom

Colours = list[tuple[np.ndarray, np.ndarray]]
"""The fill and stroke colours of each part of a shape, kept while a move hides it."""


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


class Beside(Transform):
    """``m`` carried beside ``anchor`` through a camera move, turning into ``target`` (``m``'s
    words placed anew beside where the move puts ``anchor``; ``landed``: its box there): its
    offset from the anchor's centre, read on every frame after the anchor's own step (the play
    steps its animations in order: this one comes after the move's), and its size go smoothly
    from what they are to ``target``'s, never over the anchor: where the way between the two
    offsets would cross it (from under a bucket to its left), further out along it, as far off
    as the nearer of the two ends (`_clear_of`). The same words at another size and place keep
    their glyphs, each taken to itself."""

    def __init__(self, m: Mobject, target: Mobject, anchor: Mobject, landed: tuple[float, float, float, float]) -> None:
        self.anchor = anchor
        self.was = m.get_center()[:2] - anchor.get_center()[:2]
        self.will = target.get_center()[:2] - np.array([(landed[0] + landed[2]) / 2, (landed[1] + landed[3]) / 2])
        self.gap = min(_gap_off(self.was, (m.width, m.height), (anchor.width, anchor.height)),
                       _gap_off(self.will, (target.width, target.height), (landed[2] - landed[0], landed[3] - landed[1])))
        super().__init__(m, target, rate_func=smooth)

    def interpolate_mobject(self, alpha: float) -> None:
        super().interpolate_mobject(alpha)
        r = self.rate_func(alpha)
        off = _clear_of(self.was + (self.will - self.was) * r, (self.mobject.width, self.mobject.height),
                        (self.anchor.width, self.anchor.height), max(0.0, self.gap))
        at = self.anchor.get_center()[:2] + off
        self.mobject.shift(np.array([*at, 0.0]) - self.mobject.get_center())


def _gap_off(off: np.ndarray, size: tuple[float, float], other: tuple[float, float]) -> float:
    """How far a box of ``size`` centred ``off`` from the centre of a box of size ``other`` stands
    clear of it (its larger gap across or up; under 0: they overlap).

    >>> float(_gap_off(np.array([0.0, -2.0]), (1.0, 1.0), (2.0, 2.0)))
    0.5
    """
    return float(max(abs(off[0]) - (size[0] + other[0]) / 2, abs(off[1]) - (size[1] + other[1]) / 2))


def _clear_of(off: np.ndarray, size: tuple[float, float], other: tuple[float, float], gap: float) -> np.ndarray:
    """``off`` taken out along itself, as little as needed, for a box of ``size`` centred there to
    stand ``gap`` clear of a box of size ``other`` centred at the origin (`_gap_off`).

    >>> [float(v) for v in _clear_of(np.array([-1.0, -1.0]), (1.0, 1.0), (2.0, 2.0), 0.5)]
    [-2.0, -2.0]
    >>> [float(v) for v in _clear_of(np.array([0.0, -3.0]), (1.0, 1.0), (2.0, 2.0), 0.5)]
    [0.0, -3.0]
    """
    if _gap_off(off, size, other) >= gap - 1e-9:
        return off
    need = [(s + o) / 2 + gap for s, o in zip(size, other)]
    k = min((n / abs(v) for n, v in zip(need, off) if abs(v) > 1e-9), default=1.0)
    return off * max(1.0, k)


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
