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

from scenes.atomic import temp_beside, write_atomic
from scenes.render.code_version import code_digest
from scenes.theme import theme_file
from scenes.render.beats import SEGMENTS


QUALITY: dict[str, tuple[int, int]] = {"low": (480, 15), "medium": (720, 30), "high": (1080, 60), "4k": (2160, 60)}
"""Preset -> (pixels on the frame's short side, frames per second), as Manim's -ql/-qm/-qh/-qk."""
X264: dict[str, dict[str, str]] = {
    "low": {"preset": "veryfast", "crf": "19"},
    "medium": {"preset": "faster", "crf": "22"},
    "high": {"preset": "veryfast", "crf": "21"},
    "4k": {"preset": "veryfast", "crf": "21"},
}
"""x264 settings per preset. Why fast presets: at 1080p the encoder is most of the work, and for
flat colours and text a faster preset with a lower crf keeps the picture as sharp at a fraction
of the time. At low, veryfast/crf 19 against the former medium/crf 23 on backward_walk's frames:
PSNR 50.7 dB against 50.1, half the encoder's CPU time, files 18 % larger (0.47 MB). No B-frames: every segment
then has pts == dts and beats join by stream copy with plain timestamp shifts."""
X264_PARAMS = "subme=0"
"""Motion searched to whole pixels only, at every quality. Our pictures are flat colours and text
that mostly stand still, where sub-pixel refinement buys little. On backward_walk's frames x264
took 4.9-5.8 CPU-s at medium and 9.0-11.8 at 1080p30 without it, against 11.4-12.6 and 16.2-17.9
with the presets' own search; files grew 8 % and 11 %, PSNR-Y fell by 1 dB from 51 (the worst
frame of either shows no difference to the eye). On the four core clips at low: 3.1-4.3 CPU-s
against 5.0-5.3, files 7 % larger. The whole 1080p60 render of backward_walk: 25.9-28.0 s in
three benchmark runs, against 31.3 and 35.5 s in two with the preset's search."""
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
    jobs: int = 1


@dataclass
class RenderResult:
    clip: Path
    rendered: bool
    seconds: float = 0.0
    frames: int = 0
    ledger: list[tuple[str, int | None]] | None = None
    plan: object = None
    beats_drawn: list[int] | None = None


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


def cache_key(storyboard_file: str, opts: RenderOptions) -> str:
    """sha256 over the storyboard text, the --set values, the theme, the options that change
    frames, and the source of engine/ and scenes/ (so a code change renders again)."""
    h = hashlib.sha256()
    def part(tag: str, data: bytes) -> None:
        h.update(tag.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    part("storyboard", Path(storyboard_file).read_bytes())
    part("sets", "\n".join(opts.sets).encode())
    part("theme", theme_file().read_bytes())
    part("options", repr((opts.quality, opts.aspect, opts.captions, opts.fmt, opts.size, opts.fps)).encode())
    part("code", code_digest().encode())
    return h.hexdigest()


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


def _move_atomic(src: Path, target: Path) -> None:
    tmp = temp_beside(target)
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

    checked = load(storyboard_file, sets=list(opts.sets), name=name)  # bad input stops here, in the parent
    p = make_plan(checked.run.events, checked.storyboard, default_timings(), checked.index.source)
    out.mkdir(parents=True, exist_ok=True)
    _sweep_leftovers(out, name)
    _sweep_leftovers(out / SEGMENTS, "")
    work = Path(tempfile.mkdtemp(prefix=f".{name}-pid{os.getpid()}-", dir=out))
    try:
        outcomes, ledger = _render_beats(storyboard_file, name, opts, (checked, p), log)
        parts = [segment_path(out, o.key) for o in outcomes]
        video = work / f"clip.{opts.fmt}"
        from scenes.video.encoder import join_segments

        join_segments(parts, video)
        poster = work / "poster.png"
        _poster(parts, [o.frames for o in outcomes], p, opts, poster)
        _move_atomic(video, paths["clip"])
        _move_atomic(poster, paths["poster"])
        write_atomic(paths["srt"], srt(p.captions))
        write_atomic(paths["events"], checked.run.jsonl)
        write_atomic(paths["key"], key + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    trim_segments(out / SEGMENTS, keep=set(parts))
    drawn = [o for o in outcomes if o.rendered]
    log(f"{name}: {len(drawn)} of {len(outcomes)} beats drawn, {len(outcomes) - len(drawn)} from the cache")
    return RenderResult(paths["clip"], True, time.monotonic() - t0, sum(o.frames for o in outcomes), ledger, p,
                        beats_drawn=[o.index for o in drawn])


def fps_of(opts: RenderOptions) -> int:
    return opts.fps or QUALITY[opts.quality][1]


def scene_config(opts: RenderOptions, theme: object, work: Path) -> tuple[dict, tuple[int, int], int]:
    """Manim's config for a scene at these options: (config, pixel size, fps)."""
    spec = theme.aspect(opts.aspect)  # type: ignore[attr-defined]
    width, height = pixel_size(opts, (spec.pixel_width, spec.pixel_height))
    fps = fps_of(opts)
    cfg = {
        "pixel_width": width, "pixel_height": height, "frame_rate": fps,
        "frame_width": spec.frame_width, "frame_height": spec.frame_height,
        "background_color": theme.colors.background, "media_dir": str(work),  # type: ignore[attr-defined]
        "verbosity": "ERROR", "progress_bar": "none", "disable_caching": True,
        "write_to_movie": False, "save_last_frame": False,
    }
    return cfg, (width, height), fps


def segment_path(out: Path, key: str) -> Path:
    return out / SEGMENTS / f"{key}.mp4"


def _render_beats(storyboard_file: str, name: str, opts: RenderOptions, loaded: tuple[object, object],
                  log: Callable[[str], None]) -> tuple[list, list[tuple[str, int | None]]]:
    """All beats, in this process (``jobs`` 1) or split over ``jobs`` processes: this one draws
    the first range, workers (each loading the storyboard again) the others. ``loaded`` is the
    checked storyboard and its plan."""
    from dataclasses import asdict

    from scenes.render.beats import BeatJob, render_range, text_sha256

    segs = _segments_of(loaded[1], opts)
    stale = None
    if opts.jobs > 1:
        from scenes.render.beats import stale_segments

        stale = stale_segments(opts, loaded)
    planned_from = text_sha256(loaded[0])
    jobs = [BeatJob(storyboard_file, name, asdict(opts), a, b, planned_from)
            for a, b in split_beats(segs, opts.jobs, fps_of(opts), stale)]
    if len(jobs) == 1:
        outcomes, ledger, _ = render_range(jobs[0], log, loaded)
        return outcomes, ledger
    from scenes.render.workers import run_workers

    outcomes, ledger = run_workers(jobs, log, lambda job, check: render_range(job, log, loaded, check)[0])
    assert [o.index for o in outcomes] == list(range(len(segs)))
    return outcomes, ledger


def _segments_of(p: object, opts: RenderOptions) -> list:
    from scenes.video.timeline import clip_segments
    from scenes.theme import load_theme

    return clip_segments(p, opts.captions, load_theme().timings.caption_fade, fps_of(opts))


def drawn_frames(storyboard_file: str, opts: RenderOptions) -> int:
    """Frames of the clip in which something moves: what a process spends its time on, since a
    held frame is drawn once and x264's work on it runs beside the drawing. ``render all`` hands
    out the clips with the most first, so that the last to finish are short ones. At low, the
    core clips graph_build, backward_graph, backward_walk and grad_accumulation took 5.3, 9.0, 7.3
    and 7.1 s one after the other and have 240, 282, 277 and 272 such frames. Handed out most
    frames first, two processes finished 1.1 and 1.7 s apart in two renders, against 3.2 and
    3.5 s in the order above; counting a held frame a quarter, as ``split_beats`` does, would
    rank them 304, 357, 384 and 417, which shares them out as that order does. A storyboard that
    cannot be planned counts as the most work: its worker reports the problem at once.

    >>> drawn_frames("scenes/storyboards/graph_build.yaml", RenderOptions())  # doctest: +SKIP
    240
    """
    from scenes.storyboard import default_timings, load, plan

    try:
        checked = load(storyboard_file, sets=list(opts.sets), name=Path(storyboard_file).stem)
        segs = _segments_of(plan(checked.run.events, checked.storyboard, default_timings(), checked.index.source), opts)
    except Exception:  # an estimate never stops a render: the worker reports what went wrong, and goes on
        return sys.maxsize
    return sum(st.frames for seg in segs for st in seg.steps if st.actions)


MIN_JOB_SECONDS = 8.0
"""Work below which another process does not pay, in seconds of frames as ``split_beats`` counts
them: a worker spends about 1.5 s of a core on Python's start and Manim's import, and one such
second takes about 0.3 s to draw at low quality (more at higher ones)."""


def split_beats(segs: list, jobs: int, fps: int, stale: list[bool] | None = None) -> list[tuple[int, int]]:
    """Contiguous ranges of segments, about equal in work: a moving frame counts 1, a held frame
    (drawn once, encoded again) 1/4, and a segment found in the cache (``stale`` False) nothing.
    No more ranges than MIN_JOB_SECONDS of work allows (a last-beat edit stays in one process),
    and none without work: a cut follows a segment with work and leaves work after it."""
    cost = [sum(st.frames + st.hold / 4 for st in seg.steps) for seg in segs]
    if stale is not None:
        cost = [c if s else 0.0 for c, s in zip(cost, stale, strict=True)]
    total = sum(cost)
    jobs = max(1, min(jobs, len(segs), int(total / fps / MIN_JOB_SECONDS)))
    ranges, start, acc, shares = [], 0, 0.0, 0
    for k, c in enumerate(cost):
        acc += c
        if c > 0 and acc < total and acc >= total * (shares + 1) / jobs:
            ranges.append((start, k))
            start = k + 1
            shares = max(shares + 1, int(acc * jobs / total))  # one cut for a segment that passes several shares
    ranges.append((start, len(segs) - 1))
    return ranges


def _poster(parts: list[Path], frames: list[int], p: object, opts: RenderOptions, png: Path) -> None:
    """The poster frame, decoded from the one segment that holds it."""
    at = round(poster_time(p) * fps_of(opts))
    for part, n in zip(parts, frames):
        if at < n:
            extract_frame(part, at / fps_of(opts), png)
            return
        at -= n
    extract_frame(parts[-1], frames[-1], png)


def trim_segments(folder: Path, keep: set[Path], budget: int = 2 << 30) -> None:
    """Keep the cache of segments and beat states under ``budget`` bytes: the least recently used
    go first, never the segments of the clip just made."""
    if not folder.is_dir():
        return
    stats = {}
    for f in folder.iterdir():
        try:  # another render may be trimming the same folder
            if not f.name.startswith("."):
                stats[f] = f.stat()
        except FileNotFoundError:
            continue
    size = sum(st.st_size for st in stats.values())
    for f in sorted((f for f in stats if f not in keep), key=lambda f: stats[f].st_mtime):
        if size <= budget:
            break
        size -= stats[f].st_size
        f.unlink(missing_ok=True)
