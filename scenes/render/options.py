"""What a render is asked for, and where it writes: the options, the quality presets and their
encoder settings, the pixel size and Manim config they give, and the paths of a clip's outputs.

Pure and Manim-free: the up-to-date check, the pipeline, the beats and the worker processes all
read these; a worker gets the options as :meth:`RenderOptions.to_json`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scenes.video.formats import FORMATS as FORMAT_TABLE

if TYPE_CHECKING:
    from scenes.theme import Theme

SEGMENTS = ".segments"
"""The per-beat cache under the output folder: segments and beat states."""

QUALITY: dict[str, tuple[int, int]] = {"low": (480, 15), "medium": (720, 30), "high": (1080, 60), "4k": (2160, 60)}
"""Preset -> (pixels on the frame's short side, frames per second), as Manim's -ql/-qm/-qh/-qk."""
X264: dict[str, dict[str, str]] = {
    "low": {"preset": "veryfast", "crf": "19"},
    "medium": {"preset": "faster", "crf": "22"},
    "high": {"preset": "veryfast", "crf": "21"},
    "4k": {"preset": "veryfast", "crf": "21"},
}
"""x264 settings per preset: fast presets with a low crf keep flat colours and text sharp at a
fraction of the time (figures in docs/bench.md). No B-frames: every segment then has
pts == dts, and beats join by stream copy with plain timestamp shifts."""
X264_PARAMS = "subme=0"
"""Motion searched to whole pixels only: our pictures are flat colours and text that mostly
stand still, where sub-pixel refinement costs much and buys little (figures in docs/bench.md)."""
ASPECTS = ("16:9", "9:16", "1:1")
CAPTIONS = ("burn", "srt", "off")
FORMATS = tuple(FORMAT_TABLE)
"""The containers ``--format`` offers: :data:`scenes.video.formats.FORMATS`, declared once there."""


@dataclass(frozen=True)
class RenderOptions:
    """Everything a render depends on besides the files; ``size``/``fps`` override the quality
    preset (tests render at a tiny size)."""

    quality: str = "low"
    aspect: str = "16:9"
    captions: str = "burn"
    fmt: str = "mp4"
    sets: tuple[str, ...] = ()
    out: str = "out"
    force: bool = False
    size: tuple[int, int] | None = None
    fps: int | None = None
    jobs: int = 1
    voice: str | None = None
    """The voice's name as asked (``--voice``), None to leave it to the storyboard and the course;
    the parent sets the one it chose (``scenes.render.sound.with_voice``) before any worker starts."""
    voice_key: str = ""
    """The chosen voice's key (``Voice.key``, or ``off``), set with ``voice``: it enters the clip's
    cache key and its beats' keys, so that a clip said by another voice is drawn again."""

    def to_json(self) -> str:
        """The one serialisation of the options, as a worker process receives them."""
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "RenderOptions":
        given = json.loads(text)  # JSON turns tuples into lists
        return cls(**{**given, "sets": tuple(given.get("sets") or ()),
                      "size": tuple(given["size"]) if given.get("size") else None})

    def frame_json(self) -> str:
        """What of the options changes frames or sound, as text for a cache key: the voice by its
    key (two names may say the same), and a silent clip's key as it was before clips had sound."""
        return json.dumps({k: v for k, v in asdict(self).items() if k not in ("out", "force", "jobs", "voice")
                           and (k, v) not in (("voice_key", ""), ("voice_key", "off"))}, sort_keys=True)


def pixel_size(opts: RenderOptions, theme_aspect: tuple[int, int]) -> tuple[int, int]:
    """Pixel width and height for the preset on this aspect (even numbers, as H.264 wants)."""
    if opts.size is not None:
        return opts.size
    short = QUALITY[opts.quality][0]
    w, h = theme_aspect
    k = short / min(w, h)
    return (round(w * k / 2) * 2, round(h * k / 2) * 2)


def encoder_options(opts: RenderOptions) -> dict[str, str]:
    return {**X264[opts.quality], "bf": "0", "x264-params": X264_PARAMS}


def fps_of(opts: RenderOptions) -> int:
    return opts.fps or QUALITY[opts.quality][1]


def scene_config(opts: RenderOptions, theme: Theme, work: Path) -> tuple[dict, tuple[int, int], int]:
    """Manim's config for a scene at these options: (config, pixel size, fps)."""
    spec = theme.aspect(opts.aspect)
    width, height = pixel_size(opts, (spec.pixel_width, spec.pixel_height))
    fps = fps_of(opts)
    cfg = {
        "pixel_width": width, "pixel_height": height, "frame_rate": fps,
        "frame_width": spec.frame_width, "frame_height": spec.frame_height,
        "background_color": theme.colors.background, "media_dir": str(work),
        "verbosity": "ERROR", "progress_bar": "none", "disable_caching": True,
        "write_to_movie": False, "save_last_frame": False,
    }
    return cfg, (width, height), fps


def segment_path(out: Path, key: str) -> Path:
    return out / SEGMENTS / f"{key}.mp4"


def output_stem(name: str, aspect: str) -> str:
    """The file stem of a clip's outputs at ``aspect``: ``NAME`` at 16:9, ``NAME.9x16`` and
    ``NAME.1x1`` at the others, so that every aspect of a clip can sit in one folder."""
    return name if aspect == ASPECTS[0] else f"{name}.{aspect.replace(':', 'x')}"


def outputs(name: str, out: Path, fmt: str, aspect: str = ASPECTS[0]) -> dict[str, Path]:
    """Every file a render writes, by kind: the clip, its poster, captions (SubRip and WebVTT),
    log and key."""
    stem = output_stem(name, aspect)
    return {"clip": out / f"{stem}.{fmt}", "poster": out / f"{stem}.png", "srt": out / f"{stem}.srt",
            "vtt": out / f"{stem}.vtt",
            "events": out / f"{stem}.events.jsonl", "key": out / f"{stem}.key"}
