"""A caption that names the red (where backward() starts) is read while that card shows it.

Review 4, item 10: dynamic_graph said "backward() starts at s, the red card" as the walk began,
while the wavefront's glow ringed s and left its red a thin inner line: the card called red was
not red. The red is named before the walk rings it (docs/visual-grammar.md, "Red is the
loss"): no caption naming it overlaps a walk, from its ``backward_start`` to the
end of its beat.
"""

from __future__ import annotations

import re

import pytest

from scenes.storyboard import load_and_plan, storyboard_path

CLIPS = ["graph_build", "backward_graph", "backward_walk", "leaf_nodes", "missing_gradient",
         "grad_accumulation", "dynamic_graph", "mlp", "reverse_mode"]


@pytest.mark.parametrize("clip", CLIPS)
def test_the_red_is_named_while_no_walk_rings_it(clip: str) -> None:
    _, plan = load_and_plan(storyboard_path(clip))
    walks = []
    for start in (c for c in plan.cues if c.kind == "backward_start"):
        end = max(c.start + c.duration for c in plan.cues if c.beat == start.beat)
        walks.append((start.start, end))
    named = [c for c in plan.captions if re.search(r"\bred\b", c.text, re.IGNORECASE)]
    for cap in named:
        assert not any(cap.start < end and start < cap.end for start, end in walks), (cap.text, walks)
    assert clip != "dynamic_graph" or named  # it has no legend at 16:9: a caption names the red
