"""What is on screen at chosen times of a clip, without encoding a frame: ``render inspect``'s work.

Why here: it sets Manim up as a render does (:func:`scenes.render.options.scene_config`), builds
the clip's scene over the same layout and plan, and plays the clip's steps as the player would,
without a camera frame or an encoder (:func:`scenes.draw.record.sample`); at each time asked for
it lists the scene's tagged shapes (:func:`scenes.draw.record.items`). One JSON object a sample,
``{"time", "frame", "items"}`` (docs/inspect.md).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Iterable, Iterator

from scenes.render.options import RenderOptions, fps_of, pixel_size, scene_config


def sample_frames(duration: float, fps: int, at: Iterable[float] = (), every: float | None = None) -> list[int]:
    """The frames to look at: those of the times ``at``, or one each ``every`` seconds from 0
    (and the last frame), clamped to the clip."""
    last = max(0, round(duration * fps) - 1)
    if every is not None:  # frame k of each time k * every, not a rounded step added up (drift)
        frames = sorted({min(round(k * every * fps), last) for k in range(int(duration / every) + 1)})
        return frames if frames[-1] == last else frames + [last]
    return sorted({min(max(0, round(min(t, duration) * fps)), last) for t in at})  # 1e308 * fps is inf


def inspect_clip(checked: Any, plan: Any, opts: RenderOptions, frames: list[int] | None = None,
                 at: Iterable[float] = (), every: float | None = None) -> Iterator[dict[str, Any]]:
    """The samples of one clip, in time order: ``frames`` (frame numbers) or the times ``at`` /
    ``every`` seconds, at ``opts``' aspect, quality and caption mode."""
    from manim import tempconfig

    from scenes.draw.record import Frame, items, sample
    from scenes.draw.scene import ClipScene
    from scenes.layout.clip import clip_layout
    from scenes.theme import load_theme
    from scenes.video.timeline import clip_segments

    theme = load_theme()
    spec = theme.aspect(opts.aspect)
    fps = fps_of(opts)
    width, height = pixel_size(opts, (spec.pixel_width, spec.pixel_height))
    if frames is None:
        frames = sample_frames(plan.duration, fps, at, every)
    layout = clip_layout(plan, checked.run.events, checked.index.source, opts.aspect, theme)
    steps = [st for seg in clip_segments(plan, opts.captions, theme.timings.caption_fade, fps) for st in seg.steps]
    frame = Frame(width, height, spec.frame_width, spec.frame_height)
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="gradreel-inspect-") as media:
        cfg, _, _ = scene_config(opts, theme, Path(media))
        with tempconfig(cfg):
            scene = ClipScene(plan, checked.run.events, checked.index.source, theme, aspect=opts.aspect,
                              captions=opts.captions, layout=layout)
            listed: list[dict[str, Any]] = []

            def seen(f: int, same: bool) -> None:
                nonlocal listed
                if not same:  # a frame of a hold shows what the one before showed
                    listed = items(scene, frame)
                out.append({"time": round(f / fps, 3), "frame": [width, height], "items": listed})

            sample(scene, steps, fps, frames, seen)
    yield from out
