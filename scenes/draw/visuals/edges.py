"""Edge arrows along layout routes, forward (data flow) or flipped (gradient flow).

Why own arrows instead of `Arrow`: routes are polylines through dummy slots, and the backward
arrow must be the same path reversed, so a gradient token can ride exactly the drawn line.
"""

from __future__ import annotations

import numpy as np
from manim import DashedVMobject, Polygon, VGroup, VMobject

from scenes.draw.record import tag
from scenes.layout.compact import floored
from scenes.layout.label_spots import rect_around
from scenes.layout.place import Layout
from scenes.layout.routes import Route
from scenes.theme import Rect, Theme


def route_path(route: Route, *, backward: bool = False) -> VMobject:
    """The route as a smooth path (corners rounded at dummy slots); reversed when backward."""
    pts = [np.array([x, y, 0.0]) for x, y in route.points]
    if backward:
        pts.reverse()
    path = VMobject()
    if len(pts) > 2:
        path.set_points_smoothly(pts)
    else:
        path.set_points_as_corners(pts)
    return path


def dashed(path: VMobject, dash: float) -> VMobject:
    """``path`` drawn in dashes about ``dash`` long (an arrowhead's length: a skipped edge's, and
    the ring round a skipped card, keep one rhythm), at least four."""
    return DashedVMobject(path, num_dashes=max(4, int(path.get_arc_length() / max(dash, 1e-3))))


def edge_arrow(
    route: Route,
    theme: Theme,
    *,
    backward: bool = False,
    scale: float = 1.0,
    zoom: float = 1.0,
    colour: str | None = None,
    dimmed: bool = False,
) -> VGroup:
    """Path plus a filled triangular tip at its end. A skipped edge (`needs_grad` false) is
    dashed when drawn backward, since no gradient travels along it. ``scale`` and ``zoom``: the
    layout's (its strokes `floored` at home)."""
    c, q = theme.colors, theme.proportions
    k = floored(scale, q.min_stroke_scale, zoom)
    col = colour or theme.colour("gradient" if backward else "forward")
    width = (theme.strokes.edge_backward if backward else theme.strokes.edge) * k
    opacity = theme.opacity.dimmed if dimmed else 1.0
    if dimmed:
        col = theme.colour("skipped") if colour is None else col
    tip_len = theme.sizes.arrow_tip * k
    path = route_path(route, backward=backward)
    end = path.get_end()
    direction = end - path.point_from_proportion(max(0.0, 1 - tip_len / max(path.get_arc_length(), 1e-6)))
    norm = np.linalg.norm(direction)
    direction = direction / norm if norm > 1e-9 else np.array([1.0, 0.0, 0.0])
    side = np.array([-direction[1], direction[0], 0.0])
    base, half = end - direction * tip_len, arrow_reach(theme, scale, zoom)
    tip = Polygon(end, base + side * half, base - side * half, stroke_width=0, fill_color=col, fill_opacity=opacity)
    body = path.copy()
    body.set_stroke(col, width=width, opacity=opacity)
    body.set_fill(opacity=0)
    if backward and not route.needs_grad:
        body = dashed(body, tip_len)
    meaning = "skipped" if dimmed and colour is None else "gradient" if backward else "forward"
    head = tag(tip, "arrowhead", id=f"{route.src}->{route.dst}", meaning=meaning)
    arrow = tag(VGroup(body, head), "arrow", id=f"{route.src}->{route.dst}", meaning=meaning)
    arrow.body, arrow.tip = body, tip
    return arrow


def arrow_length(theme: Theme, scale: float = 1.0, zoom: float = 1.0) -> float:
    """An arrow's head's length, as `edge_arrow` draws it: a badge keeps this far from a
    route's end (`scenes.layout.label_spots.route_ends`)."""
    return theme.sizes.arrow_tip * floored(scale, theme.proportions.min_stroke_scale, zoom)


def arrow_reach(theme: Theme, scale: float = 1.0, zoom: float = 1.0) -> float:
    """How far an arrow reaches from its line: half the width of its head, as `edge_arrow`
    draws it. Labels keep this far from every route."""
    return arrow_length(theme, scale, zoom) * theme.proportions.arrow_tip_half_width


def token_ride(route: Route, size: tuple[float, float], theme: Theme,
               reaches: tuple[float, float, float, float],
               leaves: tuple[float, float, float, float] | None = None) -> VMobject:
    """The part of a route's backward path that a gradient token of ``size`` (w, h; pass a size
    that does not change with the number, so that the token stops in the same place whatever it
    shows) rides: from the card it leaves to the last point where it stays, by the theme's edge
    clearance, off the card it ``reaches`` (left, bottom, right, top), so that while it waits
    there it hides none of that card's text ("MulBackward0"). It stops no earlier than
    ``proportions.token_wait_min`` of the way, where a route is too short for that. Given the
    card it ``leaves``, it sets off where it is first clear of that card (not half on it, over
    its name), no later than where it stops."""
    path = route_path(route, backward=True)
    gap = theme.spacing.edge_clearance
    w, h = size[0] / 2 + gap, size[1] / 2 + gap

    def at(t: float) -> VMobject:
        part = VMobject()
        part.pointwise_become_partial(path, 0.0, t)
        return part

    def off(t: float, card: tuple[float, float, float, float]) -> bool:
        left, bottom, right, top = card
        x, y = at(t).get_end()[:2]
        return x + w <= left or x - w >= right or y + h <= bottom or y - h >= top

    def crossing(lo: float, hi: float, card: tuple[float, float, float, float]) -> float:
        """Where the path, off ``card`` at one end of [lo, hi] and on it at the other, meets it."""
        first_off = off(lo, card)
        for _ in range(RIDE_STEPS):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if off(mid, card) == first_off else (lo, mid)
        return lo if first_off else hi

    lo, hi = theme.proportions.token_wait_min, 1.0
    if off(hi, reaches):  # no card in the way
        end = hi
    elif not off(lo, reaches):  # no room before it
        end = lo
    else:  # off the card at lo, on it at hi: the path reaches it once
        end = crossing(lo, hi, reaches)
    start = 0.0
    if leaves is not None and not off(0.0, leaves):
        start = crossing(0.0, end, leaves) if off(end, leaves) else 0.0
    part = VMobject()
    part.pointwise_become_partial(path, start, end)
    return part


RIDE_STEPS = 12
"""Halvings in the search for where a token stops (to 1/4096 of the path's second half)."""


def token_rests(lay: Layout, box_id: str, size: tuple[float, float], theme: Theme) -> list[Rect]:
    """Where a gradient token of ``size`` waits on each route at the box ``box_id`` (the end of
    its `token_ride`), with the theme's edge clearance around: a tag beside that box stays out of
    these, so no waiting token hides it. On a short edge the token waits halfway, just outside
    the card it left, where that card's op name would otherwise sit."""
    gap = theme.spacing.edge_clearance
    rests = []
    for r in lay.routes:
        if box_id in (r.src, r.dst):
            x, y = token_ride(r, size, theme, lay.boxes[r.src].bounds).get_end()[:2]
            rests.append(rect_around(x, y, size, gap))
    return rests
