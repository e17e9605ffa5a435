"""The caption bar stays up from one caption event to the next: its words change in place, on
every frame around each change (a bar gone for a few frames mid-sentence reads as a blink)."""

from __future__ import annotations

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan
from scenes.video.timeline import BAR_KEPT

ROLES = ("caption", "title", "takeaway")


@pytest.mark.parametrize("name", ["graph_build", "grad_accumulation"])
def test_caption_words_on_every_frame_of_a_change(name: str) -> None:
    checked, plan = load_and_plan(f"scenes/storyboards/{name}.yaml")
    opts = RenderOptions()
    fps = fps_of(opts)
    caps = plan.captions
    changes = [b.start for a, b in zip(caps, caps[1:]) if b.start - a.end < BAR_KEPT]
    assert len(changes) >= 5
    frames = sorted({f for t in changes for f in range(round(t * fps) - 2, round(t * fps) + 6)})
    bare = []
    for sample in inspect_clip(checked, plan, opts, frames=frames):
        words = [it for it in sample["items"] if it["role"] in ROLES and it["opacity"] >= 0.5]
        if not words:
            bare.append(sample["time"])
    assert not bare, f"{name}: no caption words at {bare}"
