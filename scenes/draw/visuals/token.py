"""Gradient token: a small value pill that rides an edge backward. Why a pill: the number must stay
readable over edges and cards while it moves, so it carries its own opaque backing."""

from __future__ import annotations

from manim import RoundedRectangle, VGroup

from scenes.layout.compact import token_scale
from scenes.theme import Theme
from scenes.draw.record import tag
from scenes.draw.visuals.glyphs import label


def grad_token(text: str, theme: Theme, *, scale: float = 1.0, zoom: float = 1.0, id: str | None = None) -> VGroup:
    """Pill centred at the origin; the scene moves it along the part of a route `token_ride`
    gives (`RideBehind`, a `MoveAlongPath`). ``id``: what the badge belongs to, for the record
    (the bucket it drops into, say). ``scale`` and ``zoom``: the layout's (`token_scale`)."""
    k = token_scale(scale, theme, zoom)
    size = theme.font_sizes.token * k
    t = label(text, theme.fonts.mono, size, theme.colors.background)
    pad = theme.sizes.token_pad * k
    pill = RoundedRectangle(width=t.width + 2 * pad, height=t.height + 2 * pad,
                            corner_radius=min(theme.radii.token, (t.height + 2 * pad) / 2),
                            stroke_width=0, fill_color=theme.colour("gradient"), fill_opacity=1.0)
    group = tag(VGroup(pill, t.move_to(pill.get_center())), "badge", text=text, kind="text", id=id,
                meaning="gradient")
    group.pill, group.text = pill, t
    return group


_NOMINAL: dict[tuple[int, float, float], tuple[Theme, tuple[float, float]]] = {}
"""(id of a theme, scale, zoom) -> (that theme, kept so that its id is not reused; its nominal size)."""


def nominal_token_size(theme: Theme, *, scale: float = 1.0, zoom: float = 1.0) -> tuple[float, float]:
    """The size a gradient token is placed by, whatever number it shows, so that it sits in the
    same place when the numbers change: ``sizes.badge_width`` wide (scaled as tokens are), as
    tall as a token of one digit (digits share one height). ``scale`` and ``zoom``: the
    layout's, as `grad_token` draws at them: one size for placing and drawing, whether the
    camera is close or home. Kept per theme, scale and zoom: building the token is a text and a
    pill, and the walk's camera asks again at every scale it moves to (a theme is not hashable,
    so it is kept by its id, with the theme itself)."""
    key = (id(theme), scale, zoom)
    if key not in _NOMINAL:
        if len(_NOMINAL) >= 4096:  # a long `render watch` session: start afresh
            _NOMINAL.clear()
        _NOMINAL[key] = (theme, (theme.sizes.badge_width * token_scale(scale, theme, zoom),
                                 grad_token("0", theme, scale=scale, zoom=zoom).height))
    return _NOMINAL[key][1]
