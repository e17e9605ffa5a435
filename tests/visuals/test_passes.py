"""One graph stays itself (scenes/layout/passes.py): a forward pass that records the same graph
again is laid out where the freed one was, unless the storyboard keeps the freed one beside it."""

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


def test_a_freed_graph_kept_beside_the_next_keeps_its_place() -> None:
    """dynamic_graph fades (``dim``) the loop's first graph ``h = w * w`` and keeps it beside the
    next, whose first multiply records the same graph: it keeps its own place. Without the dim,
    the next one would take it; a rebound input (``x = torch.tensor(-1.0)``) makes another graph."""
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    graph = graph_from_events(checked.run.events, checked.index.source)
    kept = {i for c in plan.cues if c.kind == "dim" for i in c.ids}
    assert share_slots(graph, checked.run.events, kept) == {}
    first_h = next(c.ids[0] for c in plan.cues if c.kind == "node_appear" and c.text("name") == "h")
    assert set(share_slots(graph, checked.run.events).values()) == {first_h}
