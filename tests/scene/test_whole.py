"""The whole graph grown as the code pane steps aside (issue 39 item 4): when the plan moves it,
and that the grown layout keeps every arrow on its cards."""

from __future__ import annotations

import pytest

from scenes.layout.camera import graph_bounds
from scenes.layout.clip import clip_layout, code_rect
from scenes.layout.place import tag_reach
from scenes.layout.whole import area, clear_view, extent, stretched
from scenes.render.camera_plan import laid_out_at
from scenes.render.whole_plan import BUILDS
from scenes.storyboard import load, plan_of, storyboard_path
from scenes.theme import load_theme

WITHOUT_WALK = ("graph_build", "backward_graph")


@pytest.mark.parametrize("name", WITHOUT_WALK)
@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_graph_grows_once_built_before_the_next_beat(name: str, aspect: str) -> None:
    """One ``whole`` cue, after the graph's last card or arrow is drawn and no later than the
    next beat's first cue, in a pause (no other cue animates meanwhile)."""
    checked = load(storyboard_path(name))
    shared = plan_of(checked)
    p, _ = laid_out_at(checked, shared, aspect)
    moves = [c for c in p.cues if c.kind.startswith("whole")]
    assert [c.kind for c in moves] == ["whole"]
    grow = moves[0]
    last = max((c for c in shared.cues if c.kind in BUILDS), key=lambda c: c.start + c.duration)
    assert grow.start >= last.start + last.duration - 1e-6
    assert grow.start + grow.duration <= min(c.start for c in shared.cues if c.beat > last.beat) + 1e-6
    assert not any(c.start < grow.start + grow.duration - 1e-6 and grow.start < c.start + c.duration - 1e-6
                   for c in shared.cues)


def test_a_printing_walk_clip_and_a_square_frame_keep_the_graph_home() -> None:
    """A walk clip whose program prints keeps its printed lines (and the pane) for the takeaway;
    1:1 has ``whole_graph: home``."""
    for name, aspect in (("missing_gradient", "16:9"), ("graph_build", "1:1")):
        checked = load(storyboard_path(name))
        p, _ = laid_out_at(checked, plan_of(checked), aspect)
        assert not [c for c in p.cues if c.kind.startswith("whole")], (name, aspect)


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_a_walk_clip_grows_the_graph_once_the_walk_is_over(aspect: str) -> None:
    """backward_walk prints nothing: its graph grows once, after the last visit, the camera's
    move back out and the takeaway's recap (whose board it keeps off), and stays."""
    checked = load(storyboard_path("backward_walk"))
    p, _ = laid_out_at(checked, plan_of(checked), aspect)
    moves = [c for c in p.cues if c.kind.startswith("whole")]
    assert [c.kind for c in moves] == ["whole"]
    over = max(c.start + c.duration for c in p.cues if c.kind in ("visit", "camera"))
    recap = max(c.start + c.duration for c in p.cues if c.kind == "recap")
    assert max(over, recap) <= moves[0].start and moves[0].start + moves[0].duration < p.duration


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_grown_layout_is_larger_and_keeps_its_arrows_on_their_cards(aspect: str) -> None:
    """Clear of the lit line's pane, the grown graph's cards take a larger box than at home, no
    card is smaller, and each route's ends keep their place on their cards, grown as they are."""
    theme = load_theme()
    checked = load(storyboard_path("graph_build"))
    p = plan_of(checked)
    spec = theme.aspect(aspect)
    home = clip_layout(p, checked.run.events, checked.index.source, aspect, theme)
    safe = theme.safe_rect(spec)
    free = (safe[0], spec.caption[3] + spec.margin, safe[2], safe[3])
    found = clear_view(home, free, [code_rect(spec, theme, True, checked.index.source)], tag_reach(theme, home.scale),
                       theme.layout.whole_zoom, theme.layout.whole_stretch)
    assert found is not None
    s, region = found
    grown = stretched(home, s, region)
    assert area(graph_bounds(grown)) > 1.5 * area(graph_bounds(home))
    assert area(extent(home.boxes, s)) == pytest.approx(area(graph_bounds(grown)))
    assert s.k >= 1.0 - 1e-6 and min(s.kx, s.ky) >= s.k - 1e-9
    for r0, r1 in zip(home.routes, grown.routes):
        for end, item in ((0, r0.src), (-1, r0.dst)):
            b0, b1 = home.boxes[item], grown.boxes[item]
            off0 = (r0.points[end][0] - b0.x, r0.points[end][1] - b0.y)
            off1 = (r1.points[end][0] - b1.x, r1.points[end][1] - b1.y)
            assert off1 == pytest.approx((off0[0] * s.k, off0[1] * s.k)), (r0.src, r0.dst)
