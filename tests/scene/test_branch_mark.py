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


def test_branch_results_never_sit_by_another_line() -> None:
    """Once shown, a test's result stays by its ``if`` line or goes: when the pane scrolls or
    steps aside for the walk (its lit line alone), "→ False" beside ``h.backward()`` would read
    as that line's result."""
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    first = min(c.start + c.duration for c in plan.cues if c.kind == "branch_test")
    opts = RenderOptions()
    fps = fps_of(opts)
    marks = {default_theme().labels.branch_mark.format(taken=t) for t in ("True", "False")}
    frames = [round((first + k) * fps) for k in range(int(plan.duration - first))]
    seen = 0
    for sample in inspect_clip(checked, plan, opts, frames=frames):
        items = sample["items"]
        for shown in (i for i in items if i["text"] in marks and i["opacity"] > 0.1):
            middle = (shown["bbox"][1] + shown["bbox"][3]) / 2
            rows = [i for i in items if i["role"] == "code" and i["bbox"][1] - 2 < middle < i["bbox"][3] + 2]
            assert rows and all(r["text"].lstrip().startswith("if ") for r in rows), (sample["time"], [r["text"] for r in rows])
            seen += 1
    assert seen  # the marks were looked at
