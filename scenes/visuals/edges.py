"""Edge arrows along layout routes, forward (data flow) or flipped (gradient flow).

Why own arrows instead of `Arrow`: routes are polylines through dummy slots, and the backward
arrow must be the same path reversed, so a gradient token can ride exactly the drawn line.
"""

from __future__ import annotations

import numpy as np
from manim import DashedVMobject, Polygon, VGroup, VMobject

from scenes.layout import Route
from scenes.theme import Theme


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


def edge_arrow(
    route: Route,
    theme: Theme,
    *,
    backward: bool = False,
    scale: float = 1.0,
    colour: str | None = None,
    dimmed: bool = False,
) -> VGroup:
    """Path plus a filled triangular tip at its end. A skipped edge (`needs_grad` false) is
    dashed when drawn backward, since no gradient travels along it."""
    c, q = theme.colors, theme.proportions
    k = max(scale, q.min_stroke_scale)
    col = colour or (c.grad if backward else c.edge)
    width = (theme.strokes.edge_backward if backward else theme.strokes.edge) * k
    opacity = theme.opacity.dimmed if dimmed else 1.0
    if dimmed:
        col = c.dimmed if colour is None else col
    tip_len = theme.sizes.arrow_tip * k
    path = route_path(route, backward=backward)
    end = path.get_end()
    direction = end - path.point_from_proportion(max(0.0, 1 - tip_len / max(path.get_arc_length(), 1e-6)))
    norm = np.linalg.norm(direction)
    direction = direction / norm if norm > 1e-9 else np.array([1.0, 0.0, 0.0])
    side = np.array([-direction[1], direction[0], 0.0])
    base = end - direction * tip_len
    tip = Polygon(end, base + side * tip_len * q.arrow_tip_half_width, base - side * tip_len * q.arrow_tip_half_width,
                  stroke_width=0, fill_color=col, fill_opacity=opacity)
    body = path.copy()
    body.set_stroke(col, width=width, opacity=opacity)
    body.set_fill(opacity=0)
    if backward and not route.needs_grad:
        body = DashedVMobject(body, num_dashes=max(4, int(path.get_arc_length() / max(tip_len, 1e-3))))
    arrow = VGroup(body, tip)
    arrow.body, arrow.tip = body, tip
    return arrow


def token_ride(route: Route, size: tuple[float, float], theme: Theme,
               reaches: tuple[float, float, float, float]) -> VMobject:
    """The part of a route's backward path that a gradient token of ``size`` (w, h) rides: from
    the card it leaves to the last point where the token, by the theme's edge clearance, stays
    off the card it ``reaches`` (left, bottom, right, top), so that while it waits there it
    hides none of that card's text ("MulBackward0"). On a route too short for that it stops
    halfway."""
    path = route_path(route, backward=True)
    gap = theme.spacing.edge_clearance
    left, bottom, right, top = reaches

    def off_card(t: float) -> bool:
        x, y = path.point_from_proportion(t)[:2]
        w, h = size[0] / 2 + gap, size[1] / 2 + gap
        return x + w <= left or x - w >= right or y + h <= bottom or y - h >= top

    stop = next((t for t in np.linspace(1.0, 0.5, RIDE_STEPS + 1) if off_card(t)), 0.5)
    ride = VMobject()
    ride.pointwise_become_partial(path, 0.0, stop)
    return ride


RIDE_STEPS = 50
"""Where a token stops is searched along the second half of its path in this many steps."""
