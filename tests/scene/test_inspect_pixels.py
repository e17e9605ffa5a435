"""``render inspect``'s record against a rendered frame: what the record lists at full opacity
shows in the frame's pixels.

Why: the frame checks and the takeaway check read the record, never a picture. Once inspect's
replay gave a finished Transform's shapes their targets' tags and a render's did not, so a
bucket refilled lost its tag in the record only; at 9:16 grad_accumulation's recap found room
over that bucket in inspect's replay and none in the render's, and the record listed a takeaway
panel the video never showed (review 3, item 2); with both alike, the panel found no room at all
(it kept off where more prints would go, after the last print). One clip at the aspect that
showed it, at its poster time, at a tiny size: one replay each way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scenes.render.camera_plan import laid_out_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of, scene_config
from scenes.render.poster import poster_time
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import load_theme

pytestmark = pytest.mark.slow  # two replays of a clip's scene through Manim

NAME, ASPECT, SIZE = "grad_accumulation", "9:16", (480, 854)
SHOWN = 0.9  # at least this opaque in the record: must show in the frame
NEAR = 40  # a pixel this close (each channel, of 255) to the item's colour is the item drawn
PER_ROLE = 3  # items checked of each role


def rendered_frame(checked: Any, plan: Any, layout: Any, opts: RenderOptions, frame: int, tmp: Path) -> np.ndarray:
    """Frame ``frame`` of the clip as a render draws it: the steps before it applied as a render
    applies them (`scenes.video.player.run_step`), then the picture drawn whole."""
    from manim import tempconfig

    from scenes.draw.scene import ClipScene
    from scenes.video.player import _draw, _everything, run_step
    from scenes.video.timeline import clip_segments

    theme = load_theme()
    cfg, _, fps = scene_config(opts, theme, tmp)
    with tempconfig(cfg):
        scene = ClipScene(plan, checked.run.events, checked.index.source, theme, aspect=opts.aspect,
                          captions=opts.captions, layout=layout)
        at = 0
        for seg in clip_segments(plan, opts.captions, theme.timings.caption_fade, fps):
            for st in seg.steps:
                if at + st.hold + st.frames > frame:  # the poster is calm: no step plays through it
                    return _draw(scene, _everything(scene), None)[:, :, :3]
                at += st.hold + st.frames
                run_step(scene, st, fps, None)
        return _draw(scene, _everything(scene), None)[:, :, :3]


def test_what_the_record_lists_shows_in_the_rendered_frame(tmp_path: Path) -> None:
    checked, p = load_and_plan(storyboard_path(NAME))
    plan, layout = laid_out_at(checked, p, ASPECT)
    opts = RenderOptions(aspect=ASPECT, size=SIZE, fps=5)
    fps = fps_of(opts)
    frame = round(poster_time(plan, load_theme().timings.caption_fade, fps) * fps)
    (sample,) = inspect_clip(checked, plan, opts, frames=[frame])
    pixels = rendered_frame(checked, plan, layout, opts, frame, tmp_path).astype(int)
    per_role: dict[str, int] = {}
    missing = []
    for item in sample["items"]:
        x0, y0, x1, y1 = (round(v) for v in item["bbox"])
        if (item["opacity"] < SHOWN or item["colour"] is None or x1 - x0 < 2 or y1 - y0 < 2
                or per_role.get(item["role"], 0) >= PER_ROLE):
            continue
        per_role[item["role"]] = per_role.get(item["role"], 0) + 1
        rgb = np.array([int(item["colour"][i:i + 2], 16) for i in (1, 3, 5)])
        box = pixels[max(0, y0 - 1):y1 + 1, max(0, x0 - 1):x1 + 1]  # a pixel's rounding either way
        if not box.size or np.abs(box - rgb).max(axis=2).min() > NEAR:  # not one pixel of its colour
            missing.append((item["role"], item["text"], item["colour"], item["bbox"]))
    assert {"card", "label", "value", "recap"} <= per_role.keys(), per_role  # the takeaway's panel is up
    assert missing == [], f"listed at full opacity, not drawn in its colour there: {missing}"
