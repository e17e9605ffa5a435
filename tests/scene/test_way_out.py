"""The walk's way out while the code pane keeps its lit line: the plan takes the camera home
before the pane comes back whole (`scenes.render.camera_plan`'s ``home_before_pane``), so that
the way out may grow the graph into the room the lit line leaves (issue 39 item 4: leaf_nodes
9:16's leaves filled by a graph a third of the frame)."""

from __future__ import annotations

import pytest

from scenes.render.camera_plan import laid_out_at
from scenes.storyboard import load, plan_of, storyboard_path
from scenes.storyboard.cues import Cue, opens_pane
from scenes.storyboard.timings import default_timings


def _overlaps(a: Cue, b: Cue) -> bool:
    return a.start < b.start + b.duration - 1e-6 and b.start < a.start + a.duration - 1e-6


@pytest.mark.parametrize(("name", "aspect"), [("leaf_nodes", "9:16"), ("grad_accumulation", "9:16")])
def test_the_camera_goes_home_before_the_pane_comes_back(name: str, aspect: str) -> None:
    """After the walk's last way out, the next camera move is one home (no ids) in a pause, at
    least ``camera_hold`` after the way out lands, done by the first cue that brings the whole
    pane back."""
    checked = load(storyboard_path(name))
    shared = plan_of(checked)
    p, _ = laid_out_at(checked, shared, aspect)
    moves = [c for c in p.cues if c.kind == "camera"]
    last_in = max(i for i, c in enumerate(moves) if c.ids)
    way_out, home = moves[last_in + 1], moves[last_in + 2]
    assert not way_out.ids and not home.ids
    landed = way_out.start + way_out.duration
    pane = min(c.start for c in shared.cues if c.start >= landed - 1e-9 and opens_pane(c))
    assert home.start - landed >= default_timings().camera_hold - 1e-9
    assert home.start + home.duration <= pane + 1e-6
    assert not any(_overlaps(home, c) for c in shared.cues)


def test_a_walk_cue_keeps_the_walk_line_and_a_print_opens_the_pane() -> None:
    """A bucket's fill follows the walk's line (the pane stays aside for it); a printed line and
    a line lit do not."""
    assert not opens_pane(Cue(38.6, 0.8, "bucket_fill", 3, ("n1", "t3")))
    assert opens_pane(Cue(46.7, 0.6, "output_line", 4, ()))
    assert opens_pane(Cue(46.4, 0.3, "code_line", 4, (), (), 7))
    assert not opens_pane(Cue(45.6, 0.3, "light", 3, ()))


def test_beside_the_graph_the_whole_graph_grows_instead() -> None:
    """Where the pane stands aside beside the graph (leaf_nodes 16:9), the camera makes no move
    home after the way out: the whole graph grows into the column the pane frees and goes back
    before the pane comes back whole (`scenes.render.whole_plan`); two moves there would fight."""
    checked = load(storyboard_path("leaf_nodes"))
    shared = plan_of(checked)
    p, _ = laid_out_at(checked, shared, "16:9")
    moves = [c for c in p.cues if c.kind == "camera"]
    last_in = max(i for i, c in enumerate(moves) if c.ids)
    assert len(moves) == last_in + 2  # the way out, and no move home
    way_out = moves[-1]
    grow = next(c for c in p.cues if c.kind == "whole")
    back = next(c for c in p.cues if c.kind == "whole_back")
    pane = min(c.start for c in shared.cues if c.start >= back.start - 1e-9 and opens_pane(c))
    assert way_out.start + way_out.duration <= grow.start < back.start and back.start + back.duration <= pane + 1e-6
