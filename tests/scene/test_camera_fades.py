"""How a camera move fades what it takes out of view and brings back: over frames a viewer
sees, never half of a shape's opacity in one frame, and never where the shape would lie over
a pane or the caption (`scenes.draw.glide.glide_out`, `glide_in`)."""

from __future__ import annotations

from manim import Rectangle, Square, VGroup
from manim.utils.rate_functions import linear

from scenes.draw.frame_spots import bounds
from scenes.draw.fade_times import FADE_LEAST, comes_from, settled
from scenes.draw.glide import glide_in, glide_out, hop
from scenes.draw.ways import first_met, parts, seen_until, ways
from scenes.layout.clear_rects import meets
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
    that far along (the way eases in: a sixth of its time), it is held there and fades over
    several frames, clear of the pane."""
    card = Square(1.0, fill_opacity=1.0).move_to([0.0, 1.5, 0.0])
    pane = (-4.0, 2.25, 0.6, 4.0)  # a quarter of a card above it, across it
    way = ways(Zoom(1.5, (0.0, 0.0), (-0.5, 2.0)))[0]  # up and larger: under the pane at once
    until = seen_until(bounds(card), way, lambda box: not meets(box, pane))
    assert 0.0 < until <= 1 / 6
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
    in the move's last third (0.2 s), eased: 0.43 to 0.97 in one frame, three cards at once (a
    pop). Now they fade in there linearly from half the move on (or once nothing passes over
    where they land); one that glides into view late fades in until the move's end, not only
    until the glide's."""
    back = 1.0 - 1.0 / 3.0  # the glide's end, with only what comes back to fade
    assert comes_from(back, 0.2) == 1.0 - FADE_LEAST and comes_from(back, 0.9) == back
    card = Square(1.0, fill_opacity=1.0)
    target = card.copy().shift([0.0, 2.0, 0.0])
    card.set_opacity(0.0)
    frames = _frames(hop(card, target, comes_from(back, 0.0), 1.0, out=False, eased=linear), card)
    rises = [b[0] - a[0] for a, b in zip(frames, frames[1:])]
    assert frames[-1][0] == 1.0 and max(rises) < 0.5, rises

    way = ways(Zoom(0.5, (0.0, -3.0), (0.0, 0.0)))[0]  # up from under the caption, smaller
    rate = settled(0.0, 0.5)  # a glide over the first half of the move
    card = Square(1.0, fill_opacity=1.0).move_to([0.0, -3.0, 0.0])
    target = card.copy().shift([0.0, 3.0, 0.0]).scale(0.5)
    card.set_opacity(0.0)
    frames = _frames(glide_in(card, target, way, rate, 0.75), card)
    rises = [b[0] - a[0] for a, b in zip(frames, frames[1:])]
    assert frames[-1][0] == 1.0 and max(rises) < 0.5, rises


def test_a_card_held_while_it_fades_is_gone_before_a_card_gliding_on_meets_it() -> None:
    """What leaves is held where it is seen while it fades (`glide_out`): the card gliding up
    towards it (missing_gradient's z, towards z - 1) must find it gone (`first_met`)."""
    rate = settled(0.0, 1.0)
    way = ways(Zoom(1.0, (0.0, 0.0), (0.0, 2.0)))[0]  # straight up by two
    held, below = (-0.5, 1.0, 0.5, 1.5), (-0.5, 0.0, 0.5, 0.5)
    met = first_met((held,), way, rate, 1 / 16, [((below,), 1.0, 1.0)])
    assert 0.0 < met < 1.0
    card = Square(0.5, fill_opacity=1.0).move_to([0.0, 1.25, 0.0])
    frames = _frames(glide_out(card, way, rate, 1 / 16, met), card)
    for k, (o, box) in enumerate(frames):
        if o > 0.0:  # shown: not past a sixteenth of the way, nor where the one below has come
            assert box[1] <= 1.0 + 2.0 / 16 + 1e-9 and k / FRAMES < met, (k, o, box)


def _box(x0: float, y0: float, x1: float, y1: float) -> Rectangle:
    """A rectangle with those edges (left, bottom, right, top)."""
    return Rectangle(width=x1 - x0, height=y1 - y0, fill_opacity=1.0).move_to([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])


def test_a_held_card_is_gone_before_a_card_gliding_on_meets_its_op_name() -> None:
    """micrograd_readme 9:16 at 33.6 s: the op's name over t8's card, at the frame's left edge,
    stood just left of t9's card in the row above, so the two cards' boxes (each with its texts)
    overlapped while none of their parts did; `first_met` skipped t9 as met where both start,
    and as the move held t8 to fade it while t9 glided on, t9's card ran into the name (0.7 px,
    both still showing). Judged by their parts, t8 is gone by then."""
    rate = settled(0.0, 1.0)
    way = ways(Zoom(1.0, (0.0, 0.0), (-2.0, 0.0)))[0]  # left by two
    frame, tag = _box(-1.0, -0.15, 1.0, 0.15), _box(-1.05, 0.2, -0.65, 0.38)  # the op's name over its left end
    card = VGroup(frame, tag)
    above = (-0.6, 0.37, 2.0, 0.67)  # the next row's card: right of the name, its foot below the name's top
    assert meets(bounds(card), above) and not any(meets(p, above) for p in parts(card))
    met = first_met(parts(card), way, rate, 1 / 16, [((above,), 1.0, 1.0)])
    assert 0.0 < met < 1.0
    frames = _frames(glide_out(card, way, rate, 1 / 16, met), tag)  # (a group has no fill of its own)
    assert frames[0][0] == 1.0
    for k, (o, box) in enumerate(frames):
        shift = way(rate(k / FRAMES)).point((0.0, 0.0))[0]
        there = (above[0] + shift, above[1], above[2] + shift, above[3])
        if o > 0.0:  # shown: the gliding card is not over its op's name
            assert not meets(box, there), (k, o, box, there)
