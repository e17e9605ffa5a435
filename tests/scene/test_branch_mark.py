"""What an ``if`` test gave is marked beside its line (``→ True``), not printed in the console:
the program printed nothing there, and the console shows exactly what it prints (issue 39)."""

from __future__ import annotations

import functools

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import default_theme

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frames looked at


@functools.cache
def _samples() -> tuple[list, dict[int, dict]]:
    """One play of dynamic_graph for both tests: the branch tests' cues, and the samples at
    half a second after each test and at every second after the first (by frame)."""
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    tests = [c for c in plan.cues if c.kind == "branch_test"]
    fps = fps_of(RenderOptions())
    first = min(c.start + c.duration for c in tests)
    frames = sorted({round((c.start + c.duration + 0.5) * fps) for c in tests}
                    | {round((first + k) * fps) for k in range(int(plan.duration - first))})
    return tests, dict(zip(frames, inspect_clip(checked, plan, RenderOptions(), frames=frames)))


def test_branch_results_sit_by_their_if_lines() -> None:
    tests, samples = _samples()
    assert [c.text("taken") for c in tests] == ["True", "False"]
    fps = fps_of(RenderOptions())
    mark = default_theme().labels.branch_mark
    for cue in tests:
        sample = samples[round((cue.start + cue.duration + 0.5) * fps)]
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
    _, samples = _samples()
    marks = {default_theme().labels.branch_mark.format(taken=t) for t in ("True", "False")}
    seen = 0
    for sample in samples.values():
        items = sample["items"]
        for shown in (i for i in items if i["text"] in marks and i["opacity"] > 0.1):
            middle = (shown["bbox"][1] + shown["bbox"][3]) / 2
            rows = [i for i in items if i["role"] == "code" and i["bbox"][1] - 2 < middle < i["bbox"][3] + 2]
            assert rows and all(r["text"].lstrip().startswith("if ") for r in rows), (sample["time"], [r["text"] for r in rows])
            seen += 1
    assert seen  # the marks were looked at


LOOKED_AT = RenderOptions(fps=10)
"""The slowest rate a clip is looked at (a quick render): a move of a few frames there has the
fewest steps, where a mark coming back beside a sliding line shows on one."""


def test_a_mark_comes_back_once_the_lines_are_still() -> None:
    """The pane opening from its lit line to the whole program slides its lines past the ``if``
    line's row: the test's result comes back by its line once they are still, never drawn over a
    line sliding past (dynamic_graph 16:9 at 67.4 s, 10 fps: ``→ False`` stood at its spot as
    ``print(w.grad)`` slid over it). Every frame of every code line after the first test."""
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    first = min(c.start for c in plan.cues if c.kind == "branch_test")
    fps = fps_of(LOOKED_AT)
    frames = sorted({f for c in plan.cues if c.kind == "code_line" and c.start > first
                     for f in range(round(c.start * fps), round((c.start + c.duration) * fps) + 2)})
    marks = {default_theme().labels.branch_mark.format(taken=t) for t in ("True", "False")}
    seen = 0
    for sample in inspect_clip(checked, plan, LOOKED_AT, frames=frames):
        items = sample["items"]
        for shown in (i for i in items if i["text"] in marks and i["opacity"] > 0.1):
            y0, y1 = shown["bbox"][1], shown["bbox"][3]
            over = [i["text"] for i in items if i["role"] == "code" and i["opacity"] > 0.1
                    and min(y1, i["bbox"][3]) - max(y0, i["bbox"][1]) > (y1 - y0) / 3
                    and not i["text"].lstrip().startswith("if ")]
            assert not over, (sample["time"], shown["text"], over)
            seen += 1
    assert seen
