"""A rule's row keeps a word space from a badge waiting on its line: a rule flush with the
seed's ``1`` read "11 × 2 × 1/4 = 1/2" (leaf_nodes 9:16, REVIEW7 3)."""

from __future__ import annotations

import pytest

from scenes.render.camera_plan import plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene through its walk

SPACE = 3.0
"""Pixels at 480x854 between a badge and a row level with it, at least: under that the two
numbers read as one."""


def _level(a: list[float], b: list[float]) -> bool:
    """Whether boxes ``a`` and ``b`` share a third of the shorter one's height."""
    return min(a[3], b[3]) - max(a[1], b[1]) > min(a[3] - a[1], b[3] - b[1]) / 3


@pytest.mark.parametrize("name", ["leaf_nodes", "backward_walk"])
def test_a_rule_row_keeps_a_space_from_a_badge_on_its_line(name: str) -> None:
    checked, plan = load_and_plan(storyboard_path(name))
    plan = plan_at(checked, plan, "9:16")
    visits = [c for c in plan.cues if c.kind == "visit"]
    start, end = visits[0].start, visits[-1].start + visits[-1].duration
    at = [start + 0.25 * k for k in range(int((end - start) / 0.25) + 1)]
    flush = []
    for sample in inspect_clip(checked, plan, RenderOptions(aspect="9:16", size=(480, 854)), at=at):
        shown = [i for i in sample["items"] if i["opacity"] > 0.5 and i.get("text")]
        for badge in (i for i in shown if i["role"] == "badge"):
            for row in (i for i in shown if i["role"] == "note" and _level(i["bbox"], badge["bbox"])):
                gap = max(row["bbox"][0] - badge["bbox"][2], badge["bbox"][0] - row["bbox"][2])
                if -1.0 < gap < SPACE:  # beside it on its line (an overlap is the collide check's)
                    flush.append(f"{sample['time']:.2f} s: {badge['text']!r} {gap:.1f} px from {row['text']!r}")
    assert not flush, flush
