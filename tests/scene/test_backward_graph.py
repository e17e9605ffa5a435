"""The backward graph keeps the numbers of the forward pass: a card that becomes its grad_fn
still shows its value (review 2: ``yh 2/3`` became ``yh``, ``L 4/9`` became ``L``, and the clip
ended with no value on any result, the 4/9 graph_build ended on gone without a word). The
seed article prints a result as ``tensor(0.3333, grad_fn=<MulBackward0>)``: value and grad_fn
together."""

from __future__ import annotations

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene up to its last frame


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_backward_graph_ends_with_every_value(aspect: str) -> None:
    checked, plan = load_and_plan(storyboard_path("backward_graph"))
    opts = RenderOptions(aspect=aspect)
    (sample,) = inspect_clip(checked, plan, opts, frames=[round(plan.duration * fps_of(opts)) - 1])
    shown = {(i["id"], i["text"]) for i in sample["items"] if i["role"] == "value" and i["opacity"] >= 0.5}
    became = {c.ids[1] for c in plan.cues if c.kind == "grad_fn_appear"}
    assert became, "the clip turns no card into its grad_fn"
    values = {c.ids[0]: c.text("value") for c in plan.cues if c.kind == "node_appear" and c.ids[0] in became}
    assert {(tid, v) for tid, v in values.items() if (tid, v) not in shown} == set()
