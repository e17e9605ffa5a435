"""What the walk's camera costs, without changing a pixel: a moved box measured without a copy
(to the bit), a camera move's animation that keeps no copy Manim never reads, shapes that
paint nothing skipped by the camera (the frame as with them), the camera's paints as Manim's,
the parts of a shape listed once per play (each frame as when listed afresh), a code row set
back each frame as ``become`` sets it, and the box of what moves as the rows' reduction."""

from __future__ import annotations

import numpy as np
from manim import Circle, Group, RoundedRectangle, Square, VGroup

from scenes.draw.frame_spots import bounds
from scenes.draw.glide import glide, hop
from scenes.draw.ways import moved_bounds, ways, zoom_shape
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


def test_the_camera_paints_as_manims_does() -> None:
    """Each shape's paints (background stroke, fill, stroke, a gradient's, a clear fill under a
    stroke), and a point cloud between them, come out as Manim's own camera draws them, to the byte:
    the walk's camera reads each colour once and makes the same Cairo calls, in the same order."""
    from manim import Camera, Line, PMobject, Text

    shapes = [Square(1.3, fill_opacity=0.7, stroke_width=5).set_stroke(width=9, opacity=0.4, background=True),
              Circle(radius=0.8, fill_opacity=0.0, stroke_width=3).shift([1.1, 0.2, 0]),
              Square(0.9, fill_opacity=0.8, stroke_width=0).set_fill(["#ff0000", "#0000ff"]).shift([-1.4, 0.3, 0]),
              Line([-2.0, -1.0, 0], [2.0, 1.1, 0], stroke_width=6).set_stroke(["#00ff00", "#ffff00"]),
              Text("w1.grad", font_size=30).shift([0.2, -0.9, 0]).set_opacity(0.6)]
    picture = PMobject(stroke_width=6).add_points(np.array([[x / 7, 0.4 - x / 9, 0.0] for x in range(-9, 9)]), color="#40c060")
    flat = [p for s in shapes for p in s.family_members_with_points()]
    flat[3:3] = [picture]  # another kind (not Cairo's) between two runs of Cairo's shapes

    def frame(cam: Camera) -> np.ndarray:
        cam.reset()
        cam.capture_mobjects(flat, include_submobjects=False)
        return cam.pixel_array.copy()

    ours, manims = PathCachingCamera(pixel_width=160, pixel_height=90), Camera(pixel_width=160, pixel_height=90)
    assert np.array_equal(frame(ours), frame(manims))
    assert np.array_equal(frame(ours), frame(manims))  # paths replayed from its memory


def _looks(m) -> list:
    return [(p.points.copy(), p.fill_rgbas.copy(), p.stroke_rgbas.copy(), p.stroke_width)
            for p in m.family_members_with_points()]


def _same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(all(np.array_equal(x, y) for x, y in zip(pa, pb)) for pa, pb in zip(a, b))


def test_a_camera_moves_fades_set_what_interpolating_every_part_sets() -> None:
    """A glide's fades list the parts of their shape once and give the parts the glide carries
    their colours only: every frame shows what Manim's ``interpolate`` of every part, listed
    afresh, then the glide's carry, shows (to the bit), for a fade out, a fade in and a hop,
    whose two halves blend two other pairs of ends."""
    from manim import Text

    from scenes.draw.fade_times import fades_by, gone_by, span
    from scenes.draw.glide import _carry, glide_in, glide_out

    z = Zoom(1.6, (0.2, -0.1), (1.0, 0.4))
    way, rate = ways(z)[1], span(0.1, 0.9)

    def shape():
        return VGroup(*_shapes()[1], Text("yh", font_size=28).shift([0.4, 0.6, 0])).set_stroke(width=3)

    def lerp(mob, a, b, t) -> None:
        for sm, sa, sb in zip(mob.family_members_with_points(), a.family_members_with_points(),
                              b.family_members_with_points()):
            sm.interpolate(sa, sb, t)

    target = zoom_shape(shape(), z).set_opacity(0.45)
    fade_out, fade_in = span(0.0, fades_by(rate, 0.6), lambda x: x), span(gone_by(rate, 0.3), 1.0, lambda x: x)
    kinds = {"out": (lambda m: glide_out(m, way, rate, 0.6),  # held at 0.6 of its way while it shows
                     lambda m, s, g, t: (lerp(m, s, g, fade_out(t)), rate(t) if fade_out(t) >= 1.0 else min(rate(t), 0.6))),
             "in": (lambda m: glide_in(m, target, way, rate, 0.3),
                    lambda m, s, g, t: (lerp(m, s, target, fade_in(t)), rate(t))),
             "hop": (lambda m: hop(m, target, 0.0, 0.5, out=True),
                     lambda m, s, g, t: (lerp(m, s, g, span(0.0, 0.5)(t)) if t < 0.5 else lerp(m, target, target, 1.0),
                                         None))}
    for kind, (make, frame) in kinds.items():
        m, ref = shape(), shape()
        anim, start, gone = make(m), ref.copy(), ref.copy().set_opacity(0.0)
        at = [(sm, sm.points.copy()) for sm in ref.family_members_with_points()]
        anim.begin()
        for t in [0.0, 0.05, 0.3, 0.5, 0.55, 0.8, 1.0]:
            anim.interpolate(t)
            r = frame(ref, start, gone, t)[1]
            if r is not None:
                _carry(at, way(r))
            assert _same(_looks(m), _looks(ref)), (kind, t)


def test_animations_listing_their_parts_once_land_as_manims() -> None:
    """Manim's animations, nested in a group and a succession (whose second begins halfway),
    list the parts they interpolate at their first frame and reuse the list: every frame shows
    what listing them afresh shows."""
    from manim import AnimationGroup, FadeOut, Succession, Transform

    from scenes.video.player import _families_kept

    def play(kept: bool) -> list:
        a, b, c = (VGroup(*_shapes()[1]).shift([k * 0.3, 0.0, 0.0]) for k in range(3))
        then = Succession(Transform(b, Circle(0.3).shift([1.0, 1.0, 0.0])), FadeOut(c, shift=[0.5, 0.0, 0.0]))
        then.scene = None  # played without a scene: it begins its parts by itself
        group = AnimationGroup(Transform(a, _shapes()[0]), then)
        if kept:
            _families_kept([group])
        group.begin()
        seen = []
        for t in [0.0, 0.2, 0.45, 0.5, 0.7, 1.0]:
            group.interpolate(t)
            seen.append(_looks(VGroup(a, b, c)))
        group.finish()
        return seen + [_looks(VGroup(a, b, c))]

    assert all(_same(x, y) for x, y in zip(play(True), play(False), strict=True))


def _style(m) -> list:
    """Every part's points and each colour attribute ``become`` copies, with its type."""
    from scenes.draw.scroll import _COLOURS

    return [(p.points.copy(), *[x for a in _COLOURS for x in (type(getattr(p, a)), np.array(getattr(p, a)))])
            for p in m.get_family()]


def test_a_code_row_set_back_is_what_become_then_shift_sets() -> None:
    """A scroll or a reflow sets each row back to its still copy every frame, then moves it:
    the families paired once give every part what Manim's ``become`` and ``shift`` give it,
    points and colours to the bit, from a row another frame left moved and faded (a list or
    an array to move by, as the two callers give)."""
    from manim import Text

    from scenes.draw.scroll import _Still

    def row():
        return VGroup(Text("w1 * x", font_size=24), *_shapes()[1]).set_stroke(width=2).set_sheen(0.2)

    for by in ([0, 0.37, 0], np.array([0.11, -0.2, 0.0]), None):
        part, ref = row(), row()
        still = part.copy()
        for m in (part, ref):  # where an earlier frame left it
            m.shift([0.3, -0.4, 0]).set_fill(opacity=0.25).set_stroke(opacity=0.5, width=4)
        _Still(part, still)(by)
        ref.become(still)
        if by is not None:
            ref.shift(by)
        assert all(all(np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y for x, y in zip(a, b))
                   for a, b in zip(_style(part), _style(ref), strict=True)), by


def test_a_box_of_moving_shapes_is_the_rows_least_and_most() -> None:
    """The player's box of the shapes that move, each column reduced alone: the pixels of the
    least and most of all their points taken row-wise, as numpy's reduction along the rows
    gives them (a zero's sign, a shape out of the frame, one without points)."""
    import math

    from scenes.video.damage import MITER, AA_PIXELS, PixelRect, shapes_box

    cam = PathCachingCamera(pixel_width=854, pixel_height=480)
    rng = np.random.default_rng(7)

    def rows(shapes) -> PixelRect | None:  # the box as taken before, from a reduction along the rows
        drawn = [s.points for s in shapes if len(s.points)]
        if not drawn:
            return None
        (left, bottom, _), (right, top, _) = np.concatenate(drawn).min(axis=0), np.concatenate(drawn).max(axis=0)
        sx, sy = cam.pixel_width / cam.frame_width, cam.pixel_height / cam.frame_height
        w = max(max(s.get_stroke_width(), s.get_stroke_width(background=True)) for s in shapes)
        reach = w * cam.cairo_line_width_multiple * max(sx, sy) * MITER + AA_PIXELS
        cx, cy = cam.frame_center[0], cam.frame_center[1]
        return PixelRect(math.floor((left - cx) * sx + cam.pixel_width / 2 - reach),
                         math.floor(cam.pixel_height / 2 - (top - cy) * sy - reach),
                         math.ceil((right - cx) * sx + cam.pixel_width / 2 + reach),
                         math.ceil(cam.pixel_height / 2 - (bottom - cy) * sy + reach))

    shapes = [s.copy().shift([*rng.normal(0, 4, 2), 0]).set_stroke(width=float(rng.uniform(0, 6)))
              for s in [*_shapes()[1], *_shapes()[1]] for _ in range(20)]
    zero = Square(0.5).shift([0.25, -0.25, 0])
    zero.points[:, :2] *= -1.0  # -0.0 beside 0.0 at its corner
    for group in [shapes, shapes[:1], [zero, *shapes[:3]], [VGroup(), *shapes[4:9]]]:
        assert shapes_box(cam, group) == rows(group), group
