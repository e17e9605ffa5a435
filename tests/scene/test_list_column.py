"""A square frame's checklist column leaves the walk's notes their room: the column kept at the
graph's left for the list (``checklist: aside``) is as wide as the list is drawn
(`scenes.layout.clip.checklist_room`, the theme's ``glyph_advance_words``), the list stands under
the visited cards' level, and the legend, with no corner beside the graph, comes into the strip
under the lit line for the walk (`scenes.draw.legend_spots.LegendFrame.walk_legend`). Before, the
column was kept 0.7 units wider than the list, the legend stood in it under the list, and
missing_gradient 1:1's rules of z - 1 and z and its ``z.grad = None`` went above L1, its
``v.grad = None`` left of w's bucket: nearer another card than their own (issue 39)."""

from __future__ import annotations

import pytest

from scenes.draw.label_reading import labels_astray
from scenes.draw.reading import notes_astray
from scenes.render.camera_plan import plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene through its walk and its checks


def test_notes_stand_by_their_own_card_beside_the_list_column() -> None:
    """From the walk's first visit to the clip's end, every half second, no note lies nearer
    another card than its own, and the legend shows while the walk runs (from a second into it:
    it fades in as the pane steps aside)."""
    checked, plan = load_and_plan(storyboard_path("missing_gradient"))
    plan = plan_at(checked, plan, "1:1")
    visits = [c for c in plan.cues if c.kind == "visit"]
    start, end = visits[0].start, plan.duration
    at = [start + 0.5 * k for k in range(int((end - start) / 0.5) + 1)]
    astray, notes, legend = [], set(), []
    for sample in inspect_clip(checked, plan, RenderOptions(aspect="1:1"), at=at):
        shown = [i for i in sample["items"] if i["opacity"] > 0.5]
        notes |= {(i["id"], "None" in (i.get("text") or "")) for i in shown if i["role"] == "note"}
        astray += [f"{sample['time']:.1f} s: {c.describe()}" for c in notes_astray(sample["items"])
                   + labels_astray(sample["items"])]
        if start + 1.0 <= sample["time"] < visits[-1].start + visits[-1].duration:  # faded in with the first
            legend.append(any(i.get("text") == "gradient" for i in shown))
    assert len(notes) >= 5, notes  # pow's, sub's and mul's rules, z.grad = None (mul's owner's), v.grad = None
    assert not astray, astray
    assert all(legend), "the legend is not shown through the walk"
