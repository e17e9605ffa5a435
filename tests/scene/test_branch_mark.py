"""What an ``if`` test gave is marked beside its line (``→ True``), not printed in the console:
the program printed nothing there, and the console shows exactly what it prints (issue 39)."""

from __future__ import annotations

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import default_theme

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frames looked at


def test_branch_results_sit_by_their_if_lines() -> None:
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    tests = [c for c in plan.cues if c.kind == "branch_test"]
    assert [c.text("taken") for c in tests] == ["True", "False"]
    opts = RenderOptions()
    fps = fps_of(opts)
    mark = default_theme().labels.branch_mark
    for cue, sample in zip(tests, inspect_clip(checked, plan, opts,
                                               frames=[round((c.start + c.duration + 0.5) * fps) for c in tests])):
        items = sample["items"]
        (line,) = [i for i in items if i["role"] == "code" and i["id"] == f"line {cue.line}"]
        (shown,) = [i for i in items if i["text"] == mark.format(taken=cue.text("taken"))]
        assert shown["bbox"][0] > line["bbox"][2] - 1  # after the if line's text
        assert line["bbox"][1] - 2 < (shown["bbox"][1] + shown["bbox"][3]) / 2 < line["bbox"][3] + 2  # on its row
        printed = {i["text"] for i in items if i["role"] == "console"}
        assert not {t for t in printed if "s > 0" in t}
