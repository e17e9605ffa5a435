"""What the walk's camera costs, without changing a pixel: a moved box measured without a copy
(to the bit), a camera move's animation that keeps no copy Manim never reads, and shapes that
paint nothing skipped by the camera (the frame as with them)."""

from __future__ import annotations

import numpy as np
from manim import Circle, Group, RoundedRectangle, Square, VGroup

from scenes.draw.frame_spots import bounds
from scenes.draw.glide import glide, hop, moved_bounds, ways, zoom_shape
from scenes.layout.focus import Zoom
from scenes.video.camera import PathCachingCamera, unseen


def _shapes() -> list:
    card = RoundedRectangle(width=1.337, height=0.713, corner_radius=0.1).shift([0.3141, -1.2718, 0])
    pair = VGroup(Circle(radius=0.271).shift([-2.05, 0.77, 0]), Square(0.4142).shift([1.99, -0.3, 0]))
    return [card, pair, Group(pair.copy().shift([0.1, 0.1, 0])), VGroup()]


def test_bounds_are_manims_corners() -> None:
    """``bounds`` gathers the boundary points once for both corners: the same floats as Manim's
    two ``get_corner`` calls, and (0, 0, 0, 0) for a shape without points."""
    for m in _shapes():
        (x0, y0, _), (x1, y1, _) = m.get_corner([-1, -1, 0]), m.get_corner([1, 1, 0])
        assert bounds(m) == (x0, y0, x1, y1), m
    assert bounds(VGroup()) == (0.0, 0.0, 0.0, 0.0)


def test_a_moved_box_is_the_moved_copys_box_to_the_bit() -> None:
    """The camera judges where each shape lands from ``moved_bounds``; were it off by a last
    bit, a shape at the view's edge could fade where its moved copy shows."""
    near = Zoom(1.7319, (0.1234567, -2.3), (3.3, 1.1))
    zooms = [near, near.inverse(), near.then(Zoom(0.61803, (-1.0, 0.5), (0.7, -0.2))), Zoom(1.0, (0.0, 0.0), (0.0, 0.0))]
    for m in _shapes():
        for z in zooms:
            assert moved_bounds(m, z) == bounds(zoom_shape(m.copy(), z)), (m, z)
    # the same move written as the map Zoom.point is (another order of the same sums) is not exact
    card, z = _shapes()[0], zooms[0]
    box = bounds(card)
    mapped = (*z.point(box[:2]), *z.point(box[2:]))
    assert mapped != bounds(zoom_shape(card.copy(), z))


def test_a_camera_move_keeps_no_copy_of_its_shape_and_lands_it() -> None:
    m, z = _shapes()[1], Zoom(2.0, (0.0, 0.0), (1.0, -0.5))
    target = zoom_shape(m.copy(), z)
    for anim in (hop(m, target.copy().set_opacity(0.0), 0.0, 0.5, out=True), glide(m.copy(), ways(z)[0], lambda t: t)):
        anim.begin()
        assert not anim.starting_mobject.get_family()[1:] and not len(anim.starting_mobject.points)
        anim.interpolate(1.0)
        assert np.allclose(bounds(anim.mobject), bounds(target))  # a glide maps points its own way


def test_the_camera_skips_only_what_paints_nothing() -> None:
    clear = Square(1.0, fill_opacity=0.0, stroke_width=4, stroke_opacity=0.0)
    thin = Square(1.0, fill_opacity=0.0, stroke_width=4, stroke_opacity=0.5)
    backed = Square(1.0, fill_opacity=0.0, stroke_width=0).set_stroke(width=6, opacity=0.3, background=True)
    filled = Square(1.0, fill_opacity=0.2, stroke_width=0)
    assert unseen(clear) and unseen(Square(1.0, fill_opacity=0.0, stroke_width=0))
    assert not any(unseen(s) for s in (thin, backed, filled))
    cam = PathCachingCamera(pixel_width=64, pixel_height=36)

    def frame(shapes: list) -> np.ndarray:
        cam.reset()
        cam.capture_mobjects(shapes, include_submobjects=False)
        return cam.pixel_array.copy()

    drawn = frame([filled, thin, backed])
    assert drawn.any()
    assert np.array_equal(frame([clear, filled, clear.copy().shift([0.3, 0, 0]), thin, backed, clear]), drawn)
