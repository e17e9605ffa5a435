"""An arrow's head keeps its shape when the whole graph grows (`scenes.draw.whole`).

Review 6, grad_accumulation 9:16 72-79 s: the takeaway's grown graph drew its arrowheads as
48x18 px wedges where they had been 16x17 px: the spread that moves the cards apart (up to
``layout.whole_stretch`` along an axis) moved each head's corners as far apart, while the
cards grew by much less. A head is drawn again in its shape, as much larger as the cards.
"""

from __future__ import annotations

import pytest

from scenes.draw.collisions import MIN_OPACITY
from scenes.render.camera_plan import plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frames looked at


def _heads(smp: dict) -> dict[str, tuple[float, float]]:
    """Each arrowhead drawn: its width and height (px), by its edge."""
    return {i["id"]: (i["bbox"][2] - i["bbox"][0], i["bbox"][3] - i["bbox"][1]) for i in smp["items"]
            if i["role"] == "arrowhead" and i["opacity"] >= MIN_OPACITY}


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_heads_keep_their_shape_in_the_grown_graph(aspect: str) -> None:
    checked, plan = load_and_plan(storyboard_path("grad_accumulation"))
    plan = plan_at(checked, plan, aspect)  # as the clip is drawn at the aspect (its camera's and whole's cues)
    opts = RenderOptions(aspect=aspect)
    fps = fps_of(opts)
    start = min(c.start for c in plan.cues if c.kind == "visit")
    end = max(c.start + c.duration for c in plan.cues)
    before, after = inspect_clip(checked, plan, opts, frames=[round(start * fps), round(end * fps) - 1])
    was, now = _heads(before), _heads(after)
    assert was and now, (was, now)
    shape = {round(w / h, 2) for w, h in was.values()}  # the edges of one graph, its heads of one shape
    assert max(shape) / min(shape) < 1.05, was
    for edge, (w, h) in now.items():
        assert w / h == pytest.approx(min(shape), rel=0.2), (edge, (w, h), was)
