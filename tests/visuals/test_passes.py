"""One graph stays itself (scenes/layout/passes.py): a forward pass that records the same graph
again is laid out where the freed one was, faded as freed (``dim``) or not."""

from __future__ import annotations

import pytest

from scenes.layout.clip import clip_layout
from scenes.layout.graph import graph_from_events
from scenes.layout.passes import share_slots
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import default_theme

THEME = default_theme()


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_a_graph_recorded_again_takes_the_freed_ones_place(aspect: str) -> None:
    """grad_accumulation runs ``y = w * w`` three times, each after a backward(): the three y
    cards share one box (they stood left, centre and right), and each y's two arrows from w
    follow the same routes."""
    checked, plan = load_and_plan(storyboard_path("grad_accumulation"))
    lay = clip_layout(plan, checked.run.events, checked.index.source, aspect, THEME)
    ys = [k for k, it in lay.items.items() if it.name == "y"]
    assert len(ys) == 3
    assert len({(lay.boxes[y].x, lay.boxes[y].y) for y in ys}) == 1
    paths = [sorted(r.points for r in lay.routes if r.dst == y) for y in ys]
    assert len(paths[0]) == 2 and paths[0] == paths[1] == paths[2]


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_a_freed_graph_faded_gives_its_place_to_the_same_graph_again(aspect: str) -> None:
    """dynamic_graph fades (``dim``) the loop's first graph ``h = w * w`` as freed; the next
    loop's first multiply records the same graph and is laid out in its place (issue 39, item 3:
    "new passes are laid out where the old graph was, after it is visibly freed"): kept in a
    place of its own, the loop-once h stood level with the three-pass walk's own h to the end."""
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    lay = clip_layout(plan, checked.run.events, checked.index.source, aspect, THEME)
    hs = [c.ids[0] for c in plan.cues if c.kind == "node_appear" and c.text("name") == "h"]
    assert len(hs) == 4  # once, then three times
    assert (lay.boxes[hs[0]].x, lay.boxes[hs[0]].y) == (lay.boxes[hs[1]].x, lay.boxes[hs[1]].y)
    graph = graph_from_events(checked.run.events, checked.index.source)
    assert set(share_slots(graph, checked.run.events).values()) == {hs[0]}  # a rebound x keeps its own place
