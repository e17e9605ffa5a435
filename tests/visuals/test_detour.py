"""A riding token's way (`ride_path`, `hidden_spans`) and how it is drawn (`RideBehind`). Why: a
token that cannot go round the words beside its edge must never be drawn over them (two texts
on top of each other, even for two frames)."""

from __future__ import annotations

import math

import pytest

from scenes.layout.detour import clear_of, dense, ride_path
from scenes.layout.ride_cover import hidden_spans

SIZE = (0.4, 0.2)
WITHIN = (-3.0, -3.0, 7.0, 3.0)


def _along(path: list[tuple[float, float]], step: float) -> list[tuple[float, tuple[float, float]]]:
    """Points of ``path`` every ``step``, each with the fraction of the length it is at."""
    pts = dense(path, step)
    total = sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))
    out, done = [(0.0, pts[0])], 0.0
    for a, b in zip(pts, pts[1:]):
        done += math.dist(a, b)
        out.append((done / total, b))
    return out


def test_a_way_round_is_taken_and_nothing_of_it_is_hidden() -> None:
    """A label on the edge with room beside it: the way steps round it, wholly clear."""
    edge = [(0.0, 0.0), (4.0, 0.0)]
    label = (1.8, -0.1, 2.2, 0.1)
    way = ride_path(edge[0], edge[-1], edge, SIZE, [label], within=WITHIN, step=0.05, clear=0.02)
    assert all(clear_of(p, SIZE, [label]) for p in dense(way, 0.01))
    assert hidden_spans(way, SIZE, [label], 0.05) == []


def test_a_boxed_in_spot_is_reached_hidden_only_where_it_passes_behind() -> None:
    """The spot the token must reach is walled in by words: no clear way exists. The token is
    hidden exactly where its pill covers a word: shown at both ends, nowhere shown over one, and
    hidden for less than half the way (it goes through the wall, not along it)."""
    edge = [(0.0, 0.0), (4.0, 0.0)]
    wall = [(2.8, -1.0, 3.0, 1.0), (2.8, 0.3, 5.0, 0.5), (2.8, -0.5, 5.0, -0.3), (4.6, -1.0, 4.8, 1.0)]
    way = ride_path(edge[0], edge[-1], edge, SIZE, wall, within=WITHIN, step=0.05, clear=0.02)
    assert way[0] == edge[0] and way[-1] == edge[-1]
    spans = hidden_spans(way, SIZE, wall, 0.05)
    assert spans and spans[0][0] > 0.0 and spans[-1][1] < 1.0
    assert sum(hi - lo for lo, hi in spans) < 0.5
    for done, p in _along(way, 0.005):
        if not any(lo <= done <= hi for lo, hi in spans):
            assert clear_of(p, SIZE, wall), f"shown over a word at {p} ({done:.3f} of the way)"


def test_a_card_it_may_cross_is_gone_round_where_a_way_round_is_free() -> None:
    """The card a token leaves lies between its note and its edge (grad_accumulation 9:16: the
    note above y, the edge below it): the way goes round the card, not over it (REVIEW5 8:
    ``3ulBackward0``); where the only other way covers a word, it crosses the card instead."""
    start, edge = (0.0, 1.0), [(0.0, -1.0), (0.0, -2.0)]
    card = (-0.6, -0.6, 0.6, 0.6)
    way = ride_path(start, edge[-1], edge, SIZE, [], within=WITHIN, step=0.05, clear=0.02, soft=[card])
    touching = (SIZE[0] - 0.05, SIZE[1] - 0.05)  # it may run along the card, and cut its corner by under a step
    assert all(clear_of(p, touching, [card]) for p in dense(way, 0.01))
    walls = [(-3.0, -0.6, -0.6, 0.6), (0.6, -0.6, 7.0, 0.6)]  # words either side of the card, to the frame's edges
    way = ride_path(start, edge[-1], edge, SIZE, walls, within=WITHIN, step=0.05, clear=0.02, soft=[card])
    assert all(clear_of(p, touching, walls) for p in dense(way, 0.01))


def test_a_way_keeps_its_gap_off_a_card_its_edge_does_not_join_where_it_can() -> None:
    """A card beside the edge, clear of the pill riding it by less than the gap (backward_walk
    16:9's 4/9 passed 3 px from s's corner): the way steps aside to keep the gap, straightened
    no nearer; where a wall on the far side leaves no room for the gap, it still gets through."""
    edge = [(0.0, 0.0), (4.0, 0.0)]
    card, gap = (1.5, 0.12, 2.5, 0.6), 0.06  # 0.02 above the pill riding the line
    way = ride_path(edge[0], edge[-1], edge, SIZE, [card], within=WITHIN, step=0.05, clear=0.0, apart=[card], gap=gap)
    assert all(clear_of(p, SIZE, [card], gap - 1e-6) for p in dense(way, 0.01))
    wall = (1.5, -0.6, 2.5, -0.13)  # 0.25 between the two: the pill's 0.2 fits, with no room for the gap
    way = ride_path(edge[0], edge[-1], edge, SIZE, [card, wall], within=WITHIN, step=0.05, clear=0.0,
                    apart=[card], gap=gap)
    assert way[-1] == edge[-1] and all(clear_of(p, SIZE, [card, wall]) for p in dense(way, 0.01))


def test_a_ride_is_hidden_inside_its_spans_and_shown_as_it_was_outside() -> None:
    pytest.importorskip("manim")
    from manim import RoundedRectangle, Text, VGroup, VMobject, linear

    from scenes.draw.ride_behind import RideBehind

    tok = VGroup(RoundedRectangle(width=0.4, height=0.2, corner_radius=0.05, fill_opacity=0.8),
                 Text("4/9", font_size=12))
    path = VMobject()
    path.set_points_as_corners([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0]])
    ride = RideBehind(tok, path, [(0.4, 0.6)], rate_func=linear)
    ride.begin()

    def alphas() -> list[float]:
        return [float(a) for m in tok.get_family() for a in getattr(m, "fill_rgbas", [])[:, 3]]

    shown = alphas()
    assert max(shown) > 0.5
    ride.interpolate(0.5)
    assert tok.get_center()[0] == pytest.approx(2.0, abs=1e-6)
    assert max(alphas()) == 0.0
    ride.interpolate(0.8)
    assert tok.get_center()[0] == pytest.approx(3.2, abs=1e-6)
    assert alphas() == shown
    ride.finish()
    assert alphas() == shown


def test_a_badge_waits_where_it_was_put_or_at_the_nearest_free_spot() -> None:
    """`nearest_free`: a spot that touches nothing is kept; one over a card moves to the nearest
    grid point where it touches nothing, inside its area; with no such point it stays."""
    from scenes.layout.detour import nearest_free

    card = (-0.5, -0.15, 0.5, 0.15)
    area = (-2.0, -2.0, 2.0, 2.0)
    assert nearest_free((1.0, 1.0), SIZE, [card], within=area, step=0.05, clear=0.0) == (1.0, 1.0)
    x, y = nearest_free((0.3, 0.05), SIZE, [card], within=area, step=0.05, clear=0.0)
    assert clear_of((x, y), SIZE, [card]) and math.hypot(x - 0.3, y - 0.05) == pytest.approx(0.2, abs=1e-9)
    walled = nearest_free((0.0, 0.0), SIZE, [(-3.0, -3.0, 3.0, 3.0)], within=area, step=0.05, clear=0.0)
    assert walled == (0.0, 0.0)


def test_a_token_ridden_frame_by_frame_ends_where_one_taken_to_its_end_does() -> None:
    """A beat walked without drawing (scenes.video.player.apply) and one drawn must leave the same
    picture to the bit: a picture digest rounds to a millionth, which a coordinate on a half
    millionth straddles (beat 6 of backward_walk was drawn again on a worker that walked)."""
    from manim import Circle, VMobject

    from scenes.draw.ride_behind import RideBehind

    def ridden(alphas: list[float]) -> VMobject:
        token = Circle(radius=0.1313557).move_to([-0.7071231, 0.1313555, 0])
        way = VMobject().set_points_smoothly([[-0.7071231, 0.1313555, 0], [0.3, 0.9, 0], [2.7887979, -0.1834649, 0]])
        ride = RideBehind(token, way, hidden=[(0.2, 0.4)])
        ride.begin()
        for alpha in alphas:
            ride.interpolate(alpha)
        ride.finish()
        return token

    drawn, walked = ridden([i / 37 for i in range(37)]), ridden([])
    assert drawn.points.tobytes() == walked.points.tobytes()


def test_a_token_beside_the_middle_of_its_edge_joins_it_on_the_way_not_at_its_far_start() -> None:
    """A note beside a curved edge's middle (dynamic_graph's -1 at 9:16, right of x * w's card,
    its edge bowing left down to w): the lead to the edge's start (the first part of the ride,
    as `OnScreen.ride` gives it) lies behind the token; the way never goes back from where it
    lands by more than a grid step."""
    start, step = (0.0, 0.0), 0.05
    curve = [(-4.0 + 4.0 * math.sin(k * math.pi / 20), -3.0 * k / 10) for k in range(11)]  # bows left of start
    way = ride_path(start, curve[-1], [start, *curve], SIZE, [], within=(-6.0, -4.0, 3.0, 2.0), step=step, clear=0.02)
    far = [math.dist(p, curve[-1]) for p in dense(way, step / 2)]
    assert all(far[k] <= min(far[:k]) + step for k in range(1, len(far)))


def test_a_token_grazing_a_card_s_corner_by_a_sliver_is_not_hidden() -> None:
    """backward_walk 16:9 at 50.73 s: w1's 8/3, riding from w1's card to wait beside its bucket,
    passed the dim x card's corner by a third of a pixel between two of the way's checks (half a
    step apart) and was hidden for that frame: a blink beside the bucket. The way as the render
    found it (its corners, the pill, x's card, the rides' grid step, in frame units)."""
    way = [(0.6941, 0.6663), (-0.0228, -1.6635), (-0.2708, -1.8927)]
    pill, card, step = (0.875, 0.5271), (-2.7007, -1.5193, -0.5762, -0.2829), 0.1792
    assert not all(clear_of(p, pill, [card]) for p in dense(way, step / 16))  # it does graze the corner
    assert hidden_spans(way, pill, [card], step) == []
