"""How a camera move fades what it takes out of view and brings back: over frames a viewer
sees, never half of a shape's opacity in one frame, and never where the shape would lie over
a pane or the caption (`scenes.draw.glide.glide_out`, `glide_in`)."""

from __future__ import annotations

from manim import Square

from scenes.draw.frame_spots import bounds
from scenes.draw.glide import glide_out, seen_until, settled, ways
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
