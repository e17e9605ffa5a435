"""Nothing with a stable id blinks in any of the repository's clips, at 16:9 and 9:16: every
frame read with `render inspect` (a card that went while its arrows turned, the caption bar at
each caption change, a code window or a counter faded out and in: issue 39)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenes.render.continuity import blinks
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan

CLIPS = sorted(p.stem for p in Path("scenes/storyboards").glob("*.yaml"))

pytestmark = pytest.mark.slow  # every frame of a clip, played without drawing: a few seconds each


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
@pytest.mark.parametrize("name", CLIPS)
def test_nothing_blinks(name: str, aspect: str) -> None:
    checked, plan = load_and_plan(f"scenes/storyboards/{name}.yaml")
    opts = RenderOptions(aspect=aspect)
    frames = list(range(round(plan.duration * fps_of(opts)) + 1))
    found = blinks(inspect_clip(checked, plan, opts, frames=frames))
    assert not found, f"{name} {aspect}: " + "; ".join(b.describe() for b in found[:8])
