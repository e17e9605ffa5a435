"""The MLP view: where units sit, and the circle and line builders that draw them.

Placement is `scenes.layout.netplace`'s (pure): layers stacked bottom to top over the whole
region (the loss on top, as the articles draw it), each centred across it, with a radius large
enough for the names and small enough that no line crosses a unit it does not join.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from manim import Circle, Line, Mobject, VGroup

from scenes.layout.netplace import UnitRules, place_units
from scenes.storyboard.network import Network
from scenes.theme import Rect, Theme
from scenes.draw.record import tag
from scenes.draw.visuals.baseline import baseline
from scenes.draw.visuals.glyphs import label


@dataclass(frozen=True)
class Places:
    """Centre of each unit, the common radius, and the flow ("up": inputs at the bottom, the
    loss on top)."""

    centre: dict[str, tuple[float, float]]
    radius: float
    flow: str


def unit_rules(net: Network, theme: Theme) -> UnitRules:
    """The theme's sizes for `place_units`; the least radius holds every name at
    ``font_sizes.unit_name_least``, set as `unit_circle` sets it, with its glyphs' corners at
    ``unit_label`` of the radius (`name_reach`)."""
    s, q, f = theme.sizes, theme.proportions, theme.font_sizes
    names = {u.name for u in net.units.values()} or {"x"}
    reach = max(name_reach(label(n, theme.fonts.mono, f.unit_name_least, theme.colors.text)) for n in names)
    least = reach / q.unit_label
    return UnitRules(radius_max=max(s.unit_radius, least), radius_min=least, main=q.unit_main, cross=q.unit_cross,
                     ring=q.unit_ring, gap=theme.spacing.edge_clearance)


def _cap_centre(text: Mobject) -> float:
    """How far above ``text``'s centre the middle of its glyphs above the baseline is: a name is
    centred in its circle by them, what hangs below (``h1_0``'s ``_``, near its middle) hangs
    lower, where the circle is wide."""
    return (baseline(text) + float(text.get_top()[1])) / 2 - float(text.get_y())


def name_reach(text: Mobject) -> float:
    """How far from a circle's centre the farthest corner of a glyph of ``text`` reaches, the
    text centred on it by its glyphs above the baseline (`_cap_centre`). Why corners, not the
    width: a name sized by its width alone touched the ring with ``h``'s top at 480p (mlp's
    ``h1_0``, review 5)."""
    dy = _cap_centre(text)
    cx, cy = float(text.get_x()), float(text.get_y()) + dy
    return max(math.hypot(x - cx, y - cy) for g in (text.submobjects or [text])
               for x, y, _ in (g.get_corner(c) for c in ([1, 1, 0], [-1, 1, 0], [1, -1, 0], [-1, -1, 0])))


def network_places(net: Network, region: Rect, theme: Theme, edges: bool = True) -> Places:
    """Layers stacked from the bottom of ``region`` to its top, units evenly across (``edges``:
    the widest layer's from edge to edge), one radius for all."""
    centre, radius = place_units(net.layers, net.lines(), region, unit_rules(net, theme), edges)
    return Places(centre, radius, "up")


def unit_circle(name: str, at: tuple[float, float], radius: float, meaning: str, theme: Theme) -> VGroup:
    """A unit: a circle in its ``meaning``'s colour (`Network.meaning`: input, result or the
    loss) with its program name inside, shrunk until its box's corners are at ``unit_label`` of
    the radius, clear of the ring, but never under ``font_sizes.unit_name_least`` (the
    placement makes the circle large enough)."""
    t = theme
    ring = tag(Circle(radius=radius, color=t.colour(meaning), stroke_width=t.strokes.card), "unit", meaning=meaning)
    ring.set_fill(t.colors.card_fill, opacity=t.opacity.card_fill).move_to([at[0], at[1], 0])
    tag(ring, "unit")  # the network's share of the frame is measured from its units (scenes/render/fill.py)
    text = label(name, t.fonts.mono, t.font_sizes.unit_name, t.colors.text)
    fits = radius * t.proportions.unit_label / max(name_reach(text), 1e-9)
    f = max(min(1.0, fits), t.font_sizes.unit_name_least / t.font_sizes.unit_name)
    if f < 1.0:
        text.scale(f)
    text.move_to(ring.get_center()).shift([0.0, -_cap_centre(text), 0.0])
    group = VGroup(ring, text)
    group.ring, group.text = ring, text
    return group


def ghost_circle(at: tuple[float, float], radius: float, theme: Theme) -> Circle:
    """A unit still to come: its circle's outline, dimmed, so that the first beats show the
    network's shape (input, hidden layers, output, loss) while its units are named one by one;
    in the theme's colour of what is inactive. Tagged as a ``unit`` (meaning ``skipped``), so that
    `render inspect` lists what is drawn and the checks (the frame's fill) see the outline."""
    ring = Circle(radius=radius, color=theme.colors.dimmed, stroke_width=theme.strokes.link).move_to([at[0], at[1], 0])
    return tag(ring, "unit", meaning="skipped")


def link_line(a: tuple[float, float], b: tuple[float, float], radius: float, colour: str, width: float) -> Line:
    """A weight: a straight line between two unit circles, stopping at their rims."""
    pa, pb = np.array([a[0], a[1], 0.0]), np.array([b[0], b[1], 0.0])
    d = pb - pa
    n = float(np.linalg.norm(d)) or 1.0
    u = d / n
    return Line(pa + u * radius, pb - u * radius, color=colour, stroke_width=width)
