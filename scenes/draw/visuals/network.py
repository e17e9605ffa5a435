"""The MLP view: where units sit, and the circle and line builders that draw them.

Placement is `scenes.layout.netplace`'s (pure): layers stacked bottom to top over the whole
region (the loss on top, as the articles draw it), each centred across it, with a radius large
enough for the names and small enough that no line crosses a unit it does not join.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import Circle, Line, VGroup

from scenes.layout.netplace import UnitRules, place_units
from scenes.storyboard.network import Network
from scenes.theme import Rect, Theme
from scenes.draw.record import tag
from scenes.draw.visuals.glyphs import label, shrink_to_fit


@dataclass(frozen=True)
class Places:
    """Centre of each unit, the common radius, and the flow ("up": inputs at the bottom, the
    loss on top)."""

    centre: dict[str, tuple[float, float]]
    radius: float
    flow: str


def unit_rules(net: Network, theme: Theme) -> UnitRules:
    """The theme's sizes for `place_units`; the least radius holds the longest name at
    ``font_sizes.unit_name_least`` (estimated from the mono glyph advance) in ``unit_label`` of
    its width."""
    s, q, f = theme.sizes, theme.proportions, theme.font_sizes
    longest = max((len(u.name) for u in net.units.values()), default=1)
    least = longest * theme.layout.glyph_advance_mono * f.unit_name_least / (2 * q.unit_label)
    return UnitRules(radius_max=max(s.unit_radius, least), radius_min=least, main=q.unit_main, cross=q.unit_cross,
                     ring=q.unit_ring, gap=theme.spacing.edge_clearance)


def network_places(net: Network, region: Rect, theme: Theme) -> Places:
    """Layers stacked from the bottom of ``region`` to its top, units evenly across, one radius for all."""
    centre, radius = place_units(net.layers, net.lines(), region, unit_rules(net, theme))
    return Places(centre, radius, "up")


def unit_circle(name: str, at: tuple[float, float], radius: float, meaning: str, theme: Theme) -> VGroup:
    """A unit: a circle in its ``meaning``'s colour (`Network.meaning`: input, result or the
    loss) with its program name inside, shrunk to fit but never under
    ``font_sizes.unit_name_least`` (the placement makes the circle large enough)."""
    t = theme
    ring = tag(Circle(radius=radius, color=t.colour(meaning), stroke_width=t.strokes.card), "unit", meaning=meaning)
    ring.set_fill(t.colors.card_fill, opacity=t.opacity.card_fill).move_to([at[0], at[1], 0])
    tag(ring, "unit")  # the network's share of the frame is measured from its units (scenes/render/fill.py)
    text = label(name, t.fonts.mono, t.font_sizes.unit_name, t.colors.text)
    shrink_to_fit(text, 2 * radius * t.proportions.unit_label, radius,
                  least=t.font_sizes.unit_name_least / t.font_sizes.unit_name)
    group = VGroup(ring, text.move_to(ring.get_center()))
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
