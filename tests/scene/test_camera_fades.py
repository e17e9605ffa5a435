"""How a camera move fades what it takes out of view and brings back: over frames a viewer
sees, never half of a shape's opacity in one frame, and never where the shape would lie over
a pane or the caption (`scenes.draw.glide.glide_out`, `glide_in`)."""

from __future__ import annotations

from manim import Square
from manim.utils.rate_functions import linear

from scenes.draw.frame_spots import bounds
from scenes.draw.glide import FADE_LEAST, comes_in, glide_in, glide_out, hop, seen_until, settled, ways
from scenes.layout.camera import meets
from scenes.layout.focus import Zoom

FRAMES = 9
"""A walk camera's shortest move (0.6 s) at 15 frames a second, the frame checks' rate."""


def _frames(anim, shape) -> list[tuple[float, tuple[float, float, float, float]]]:
    """(fill opacity, box) of ``shape`` at each frame of ``anim``."""
    anim.begin()
    out = []
    for k in range(FRAMES + 1):
        anim.interpolate(k / FRAMES)
        out.append((shape.get_fill_opacity(), bounds(shape)))
    return out


def test_a_card_the_move_carries_under_a_pane_at_once_fades_over_frames_where_it_is_seen() -> None:
    """missing_gradient 16:9 at 28.47 s: the move in on w carried z - 1 up under the code pane
    within the first sixteenth of its way, so it faded in one frame (1.0 to 0.13). Seen only
    that far along, it is held there and fades over several frames, clear of the pane."""
    card = Square(1.0, fill_opacity=1.0).move_to([0.0, 1.5, 0.0])
    pane = (-4.0, 2.25, 0.6, 4.0)  # a quarter of a card above it, across it
    way = ways(Zoom(1.5, (0.0, 0.0), (-0.5, 2.0)))[0]  # up and larger: under the pane at once
    until = seen_until(bounds(card), way, lambda box: not meets(box, pane))
    assert until == 1 / 16
    rate = settled(0.0, 1.0)
    frames = _frames(glide_out(card, way, rate, until), card)
    falls = [a[0] - b[0] for a, b in zip(frames, frames[1:])]
    assert frames[0][0] == 1.0 and frames[-1][0] == 0.0
    assert max(falls) < 0.5, falls
    assert sum(1 for o, _ in frames if 0.0 < o < 1.0) >= 3
    shown = [box for o, box in frames if o > 0.0]
    assert not any(meets(box, pane) for box in shown), shown


def test_what_a_move_brings_back_late_fades_in_over_frames() -> None:
    """backward_walk 16:9 at 26.33 s: the move out from L's visit to yh's brought x, w1 and w2 up
    from under the caption, in view only as the glide ended, so they faded in where they landed
    in the move's last 0.2 s, eased: 0.43 to 0.97 in one frame, three cards at once (a pop).
    Now the glide leaves half the move for them, and they fade in linearly over it; one that
    glides into view late in a glide that ends early fades in until the move's end."""
    back = 1.0 - comes_in(1 / 3, 0.0)  # the fades' share of a move with only something coming back
    assert back <= 1.0 - FADE_LEAST
    card = Square(1.0, fill_opacity=1.0)
    target = card.copy().shift([0.0, 2.0, 0.0])
    card.set_opacity(0.0)
    frames = _frames(hop(card, target, back, 1.0, out=False, eased=linear), card)
    rises = [b[0] - a[0] for a, b in zip(frames, frames[1:])]
    assert frames[-1][0] == 1.0 and max(rises) < 0.5, rises

    way = ways(Zoom(0.5, (0.0, -3.0), (0.0, 0.0)))[0]  # up from under the caption, smaller
    rate = settled(0.0, back)
    card = Square(1.0, fill_opacity=1.0).move_to([0.0, -3.0, 0.0])
    target = card.copy().shift([0.0, 3.0, 0.0]).scale(0.5)
    card.set_opacity(0.0)
    frames = _frames(glide_in(card, target, way, rate, 0.75), card)
    rises = [b[0] - a[0] for a, b in zip(frames, frames[1:])]
    assert frames[-1][0] == 1.0 and max(rises) < 0.5, rises
