"""A square frame's checklist column gives the walk's notes their room: the legend placed under
the list, in the column kept at the graph's left (``checklist: aside``), goes into the strip the
code pane frees as the walk starts, and the list moves down to where it stood
(`scenes.draw.frame_spots.FreeFrame.legend_in_list_column`). Before, missing_gradient 1:1's
rules of z - 1 and z, and ``z.grad = None``, found no spot of their own beside their cards (the
list and the legend filled the column level with them) and went above L1, nearer it than their
own (issue 39)."""

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
    """From the walk's first visit to ``v.grad = None`` (its bucket at the frame's right edge, x
    and L2's arrows at its left: still astray, tests/test_no_overlap.py), every half second, no
    note lies nearer another card than its own."""
    checked, plan = load_and_plan(storyboard_path("missing_gradient"))
    plan = plan_at(checked, plan, "1:1")
    visits = [c for c in plan.cues if c.kind == "visit"]
    nones = sorted((c for c in plan.cues if c.kind == "grad_none"), key=lambda c: c.start)  # z's, then v's
    assert len(nones) == 2
    start, end = visits[0].start, nones[-1].start
    assert start < end
    at = [start + 0.5 * k for k in range(int((end - start) / 0.5) + 1)]
    astray, notes = [], set()
    for sample in inspect_clip(checked, plan, RenderOptions(aspect="1:1"), at=at):
        notes |= {(i["id"], "None" in (i.get("text") or "")) for i in sample["items"]
                  if i["role"] == "note" and i["opacity"] > 0.5}
        astray += [f"{sample['time']:.1f} s: {c.describe()}" for c in notes_astray(sample["items"])
                   + labels_astray(sample["items"])]
    assert len(notes) >= 4, notes  # pow's, sub's and mul's rules, and z.grad = None (mul's owner's) were seen
    assert not astray, astray
