"""The MLP view: where units sit, and the circle and line builders that draw them.

Why its own placement instead of scenes.layout.place: the unit diagram has a fixed shape (layers of a
few units, every unit joined to every unit of the next layer), so it needs no crossing reduction;
what matters is that its units stay large at any aspect. Layers are stacked bottom to top (the
loss on top, as the articles draw it); each layer is centred across it. ``network_places`` is pure (no Manim objects).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import Circle, Line, VGroup

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


def network_places(net: Network, region: Rect, theme: Theme) -> Places:
    """Layers stacked evenly from the bottom of ``region`` up, units evenly across, one radius for all."""
    left, bottom, right, top = region
    layers = net.layers
    flow = "up"  # the articles' orientation: the input layer at the bottom, the loss on top
    main, cross = top - bottom, right - left
    n_layers = max(len(layers), 1)
    widest = max((len(l) for l in layers), default=1)
    pitch_main = main / n_layers
    pitch_cross = cross / max(widest, 1)
    q = theme.proportions
    radius = min(theme.sizes.unit_radius, q.unit_main * pitch_main, q.unit_cross * pitch_cross)
    centre: dict[str, tuple[float, float]] = {}
    for i, layer in enumerate(layers):
        m = (i + 0.5) * pitch_main
        for j, uid in enumerate(layer):
            c = (j + 0.5 - len(layer) / 2) * pitch_cross
            centre[uid] = ((left + right) / 2 + c, bottom + m)
    return Places(centre, radius, flow)


def unit_circle(name: str, at: tuple[float, float], radius: float, colour: str, theme: Theme) -> VGroup:
    """A unit: a circle in its role's colour with its program name inside, shrunk to fit."""
    t = theme
    ring = Circle(radius=radius, color=colour, stroke_width=t.strokes.card)
    ring.set_fill(t.colors.card_fill, opacity=t.opacity.card_fill).move_to([at[0], at[1], 0])
    tag(ring, "unit")  # the network's share of the frame is measured from its units (scenes/render/fill.py)
    text = label(name, t.fonts.mono, t.font_sizes.unit_name, t.colors.text)
    # never under the least readable size: a long name (h1_0) then reaches the ring, still inside it;
    # a little over it (`layout.name_over`), as a compact card's name, for names of short letters (out)
    shrink_to_fit(text, 2 * radius * t.proportions.unit_label, radius,
                  least=t.font_sizes.min_readable * t.layout.name_over / t.font_sizes.unit_name)
    group = VGroup(ring, text.move_to(ring.get_center()))
    group.ring, group.text = ring, text
    return group


def link_line(a: tuple[float, float], b: tuple[float, float], radius: float, colour: str, width: float) -> Line:
    """A weight: a straight line between two unit circles, stopping at their rims."""
    pa, pb = np.array([a[0], a[1], 0.0]), np.array([b[0], b[1], 0.0])
    d = pb - pa
    n = float(np.linalg.norm(d)) or 1.0
    u = d / n
    return Line(pa + u * radius, pb - u * radius, color=colour, stroke_width=width)
