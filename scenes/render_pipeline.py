"""Render one storyboard to out/NAME.mp4 (+ .png poster, .srt captions, .events.jsonl).

Why this shape: the same inputs must cost nothing (a cache key over everything that can change a
frame is checked before Manim is even imported), and an interrupted render must never leave a
half-written clip (every output is written beside its target and renamed into place, the key
last). Manim's config is set programmatically with ``tempconfig``, so nothing depends on a
manim.cfg or the working directory.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
THEME_FILE = ROOT / "assets" / "theme.yaml"

QUALITY: dict[str, tuple[int, int]] = {"low": (480, 15), "medium": (720, 30), "high": (1080, 60), "4k": (2160, 60)}
"""Preset -> (pixels on the frame's short side, frames per second), as Manim's -ql/-qm/-qh/-qk."""
ASPECTS = ("16:9", "9:16", "1:1")
CAPTIONS = ("burn", "srt", "off")
FORMATS = ("mp4",)


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


@dataclass
class RenderResult:
    clip: Path
    rendered: bool
    seconds: float = 0.0
    frames: int = 0
    ledger: list[tuple[str, int | None]] | None = None
    plan: object = None


def pixel_size(opts: RenderOptions, theme_aspect: tuple[int, int]) -> tuple[int, int]:
    """Pixel width and height for the preset on this aspect (even numbers, as H.264 wants)."""
    if opts.size is not None:
        return opts.size
    short = QUALITY[opts.quality][0]
    w, h = theme_aspect
    k = short / min(w, h)
    return (round(w * k / 2) * 2, round(h * k / 2) * 2)


def _source_files() -> list[Path]:
    files = [p for d in ("engine", "scenes") for p in (ROOT / d).rglob("*")
             if p.is_file() and p.suffix in (".py", ".yaml", ".json") and "__pycache__" not in p.parts]
    return sorted(files)


def cache_key(storyboard_file: str, opts: RenderOptions) -> str:
    """sha256 over the storyboard text, the --set values, the theme, the options that change
    frames, and the source of engine/ and scenes/ (so a code change renders again)."""
    h = hashlib.sha256()
    def part(tag: str, data: bytes) -> None:
        h.update(tag.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    part("storyboard", Path(storyboard_file).read_bytes())
    part("sets", "\n".join(opts.sets).encode())
    part("theme", THEME_FILE.read_bytes())
    part("options", repr((opts.quality, opts.aspect, opts.captions, opts.fmt, opts.size, opts.fps)).encode())
    part("tools", repr([_version(d) for d in ("manim", "av", "manimpango", "pycairo", "numpy")]).encode())
    for f in _source_files():
        part(str(f.relative_to(ROOT)), f.read_bytes())
    return h.hexdigest()


def _version(dist: str) -> str:
    """An installed distribution's version, read from its metadata (no import: no Manim here)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return f"{dist} {version(dist)}"
    except PackageNotFoundError:
        return f"{dist} -"


def _sweep_leftovers(out: Path, name: str) -> None:
    """Remove what a render of ``name`` killed with SIGKILL left behind (its hidden work folder,
    half-copied outputs): each carries the pid of its process, and only dead ones are swept."""
    for p in out.glob(f".{name}*"):
        pid = _pid_in(p.name)
        if pid is None or pid == os.getpid() or _alive(pid):
            continue
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def _pid_in(filename: str) -> int | None:
    for part in filename.replace(".tmp", "-").split("-"):
        if part.startswith("pid") and part[3:].isdigit():
            return int(part[3:])
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def outputs(name: str, out: Path, fmt: str) -> dict[str, Path]:
    return {"clip": out / f"{name}.{fmt}", "poster": out / f"{name}.png", "srt": out / f"{name}.srt",
            "events": out / f"{name}.events.jsonl", "key": out / f"{name}.key"}


def is_up_to_date(name: str, key: str, opts: RenderOptions) -> bool:
    paths = outputs(name, Path(opts.out), opts.fmt)
    if not all(p.exists() for p in paths.values()):
        return False
    return paths["key"].read_text().strip() == key


def _write_atomic(target: Path, data: bytes | str) -> None:
    """Write beside the target, fsync, then rename: readers see the old file or the new one."""
    tmp = target.with_name(f".{target.name}.tmp-pid{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)


def _move_atomic(src: Path, target: Path) -> None:
    tmp = target.with_name(f".{target.name}.tmp-pid{os.getpid()}")
    shutil.copyfile(src, tmp)
    os.replace(tmp, target)


def poster_time(plan: object) -> float:
    """A late, informative moment: just after the last cue that is not a closing title ends."""
    cues = [c for c in plan.cues if c.kind != "title"] or list(plan.cues)  # type: ignore[attr-defined]
    t = max((c.start + c.duration for c in cues), default=0.0)
    return min(t + 0.5, max(plan.duration - 0.1, 0.0))  # type: ignore[attr-defined]


def extract_frame(video: Path, t: float, png: Path) -> None:
    """Decode with PyAV up to time ``t`` and save that frame as PNG."""
    import av

    with av.open(str(video)) as box:
        stream = box.streams.video[0]
        last = None
        for frame in box.decode(stream):
            last = frame
            if frame.time is not None and frame.time >= t:
                break
        if last is None:
            raise RuntimeError(f"{video}: no frames")
        last.to_image().save(str(png), format="PNG")


def count_frames(video: Path) -> int:
    import av

    with av.open(str(video)) as box:
        return sum(1 for _ in box.decode(box.streams.video[0]))


def render_storyboard(storyboard_file: str, name: str, opts: RenderOptions,
                      log: Callable[[str], None] = lambda s: print(s, file=sys.stderr)) -> RenderResult:
    """Render (or skip, when up to date) one storyboard. Raises StoryboardError on bad input."""
    import time

    t0 = time.monotonic()
    out = Path(opts.out)
    paths = outputs(name, out, opts.fmt)
    key = cache_key(storyboard_file, opts)
    if not opts.force and is_up_to_date(name, key, opts):
        log(f"{name}: up to date")
        return RenderResult(paths["clip"], False, time.monotonic() - t0)

    from scenes.storyboard import default_timings, load, plan as make_plan, srt

    checked = load(storyboard_file, sets=list(opts.sets), name=name)
    p = make_plan(checked.run.events, checked.storyboard, default_timings(), checked.index.source)
    out.mkdir(parents=True, exist_ok=True)
    _sweep_leftovers(out, name)
    work = Path(tempfile.mkdtemp(prefix=f".{name}-pid{os.getpid()}-", dir=out))
    try:
        video, ledger = _render_video(p, checked, opts, work, name, log)
        frames = count_frames(video)
        poster = work / "poster.png"
        extract_frame(video, poster_time(p), poster)
        _move_atomic(video, paths["clip"])
        _move_atomic(poster, paths["poster"])
        _write_atomic(paths["srt"], srt(p.captions))
        _write_atomic(paths["events"], checked.run.jsonl)
        _write_atomic(paths["key"], key + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return RenderResult(paths["clip"], True, time.monotonic() - t0, frames, ledger, p)


def _render_video(p: object, checked: object, opts: RenderOptions, work: Path, name: str,
                  log: Callable[[str], None]) -> tuple[Path, list[tuple[str, int | None]]]:
    from manim import tempconfig

    from scenes.clip_scene import ClipScene
    from scenes.theme import load_theme

    theme = load_theme(THEME_FILE)
    spec = theme.aspect(opts.aspect)
    width, height = pixel_size(opts, (spec.pixel_width, spec.pixel_height))
    fps = opts.fps or QUALITY[opts.quality][1]
    cfg = {
        "pixel_width": width, "pixel_height": height, "frame_rate": fps,
        "frame_width": spec.frame_width, "frame_height": spec.frame_height,
        "background_color": theme.colors.background, "media_dir": str(work / "media"),
        "verbosity": "ERROR", "progress_bar": "none", "disable_caching": True,
        "write_to_movie": True, "save_last_frame": False, "output_file": name, "format": opts.fmt,
        "movie_file_extension": f".{opts.fmt}",
    }

    def progress(beat: int, count: int, visual: str) -> None:
        log(f"{name}: beat {beat + 1}/{count} {visual}")

    with tempconfig(cfg):
        scene = ClipScene(p, checked.run.events, checked.index.source, theme,  # type: ignore[attr-defined]
                          aspect=opts.aspect, captions=opts.captions, progress=progress)
        scene.render()
        video = Path(scene.renderer.file_writer.movie_file_path)
    return video, scene.ledger
