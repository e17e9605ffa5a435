"""The checklist never slides over the graph as it moves with the walk's legend
(`scenes.draw.legend_spots.LegendFrame._list_aside`, `_list_back`): where its straight way
crosses a card, it fades out where it stood and in where it lands. Before, missing_gradient
9:16's list slid from beside z - 1 up to under the walk's legend in a tenth of a second, and
at 16.03 s "2. is it a leaf?" and "3. which loss?" lay over L1's card and its ``** 2``."""

from __future__ import annotations

import pytest

from scenes.layout.clear_rects import meets
from scenes.render.camera_plan import plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene through its walk

FPS = 60
"""Samples a second: the slide took six frames at 60 fps, none at the clip's 10."""


def _rows_over_graph(sample: dict) -> list[str]:
    """The checklist's rows shown over a card of the graph (or a word on one) in ``sample``."""
    shown = [i for i in sample["items"] if i["opacity"] > 0.05]
    rows = [i for i in shown if i["role"] == "label" and i.get("id") is None
            and (i.get("text") or "")[:3] in ("1. ", "2. ", "3. ")]
    marks = [i for i in shown if i.get("id") and i["role"] in ("card", "label", "value")]
    return [f"{sample['time']:.3f} s: {r['text']!r} over {m['id']} {m.get('text')!r}"
            for r in rows for m in marks if meets(r["bbox"], m["bbox"])]


def test_the_checklist_moving_with_the_walks_legend_never_crosses_a_card() -> None:
    """missing_gradient 9:16, every 60th of a second from a second before the walk's first visit
    to half a second into it (the pane steps aside, the legend comes into its strip, the list
    under it): no row of the list is drawn over a card, its name or its value; and it is shown
    where it landed once the step is over."""
    checked, plan = load_and_plan(storyboard_path("missing_gradient"))
    plan = plan_at(checked, plan, "9:16")
    start = next(c.start for c in plan.cues if c.kind == "visit")
    at = [start - 1.0 + k / FPS for k in range(int(1.5 * FPS) + 1)]
    samples = list(inspect_clip(checked, plan, RenderOptions(aspect="9:16", fps=FPS), at=at))
    over = [o for s in samples for o in _rows_over_graph(s)]
    assert not over, over
    last = [i for i in samples[-1]["items"] if i.get("text") == "1. the call order" and i["opacity"] > 0.9]
    first = [i for i in samples[0]["items"] if i.get("text") == "1. the call order" and i["opacity"] > 0.9]
    assert first and last and last[0]["bbox"][1] < first[0]["bbox"][1], "the list did not move up"
