"""Each core clip renders at a tiny test size: exact frame count, display ledger equals the plan's
strings, outputs beside each other, and a second identical render writes nothing.

Why tiny: the scene's geometry is in scene units, so 256x144 at 5 fps draws the same picture
(cards, labels, captions) as 1080p while keeping each render to seconds.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from scenes.render_pipeline import RenderOptions, RenderResult, count_frames, render_storyboard
from scenes.storyboard import srt as to_srt, storyboard_path

CORE = ["graph_build", "backward_graph", "backward_walk", "grad_accumulation"]
TINY = {"size": (256, 144), "fps": 5}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[RenderResult, Path]]:
    out = tmp_path_factory.mktemp("clips")
    results = {}
    for name in CORE:
        opts = RenderOptions(out=str(out), **TINY)
        results[name] = (render_storyboard(storyboard_path(name), name, opts, log=lambda s: None), out)
    return results


@pytest.mark.parametrize("name", CORE)
def test_clip_renders_with_plan_frame_count(rendered, name: str) -> None:
    result, out = rendered[name]
    assert result.rendered
    expected = round(result.plan.duration * TINY["fps"])
    assert result.frames == expected == count_frames(out / f"{name}.mp4")
    for suffix in (".mp4", ".png", ".srt", ".events.jsonl", ".key"):
        assert (out / f"{name}{suffix}").stat().st_size > 0
    assert not [p for p in out.iterdir() if p.name.startswith(".")], "temporary files left behind"


@pytest.mark.parametrize("name", CORE)
def test_display_ledger_equals_plan_strings(rendered, name: str) -> None:
    result, _ = rendered[name]
    want = Counter((s.text, s.seq) for s in result.plan.displayed())
    got = Counter(result.ledger)
    assert got - want == Counter(), "on screen but not in the plan"
    assert want - got == Counter(), "in the plan but never drawn"


def test_srt_and_events_come_from_the_plan_and_log(rendered) -> None:
    result, out = rendered["backward_walk"]
    srt = (out / "backward_walk.srt").read_text()
    assert srt.startswith("1\n00:00:00,000 --> ")
    assert srt == to_srt(result.plan.captions)
    first = (out / "backward_walk.events.jsonl").read_text().splitlines()[0]
    assert '"format":"gradreel-events"' in first


def test_second_identical_render_is_up_to_date_and_writes_nothing(rendered) -> None:
    _, out = rendered["grad_accumulation"]
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    said: list[str] = []
    t0 = time.monotonic()
    again = render_storyboard(storyboard_path("grad_accumulation"), "grad_accumulation",
                              RenderOptions(out=str(out), **TINY), log=said.append)
    assert time.monotonic() - t0 < 1.0
    assert not again.rendered and said == ["grad_accumulation: up to date"]
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == before
