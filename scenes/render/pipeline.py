"""Render one storyboard to out/NAME.mp4 (+ .png poster, .srt captions, .events.jsonl).

Why this shape: the same inputs must cost nothing (a cache key over everything that can change a
frame is checked before Manim is even imported), and an interrupted render must never leave a
half-written clip (every output is written beside its target and renamed into place, the key
last). Manim's config is set programmatically with ``tempconfig``, so nothing depends on a
manim.cfg or the working directory.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from scenes.atomic import dead_leftover
from scenes.render.code_version import code_digest
from scenes.render.options import SEGMENTS, RenderOptions, fps_of, outputs, segment_path
from scenes.render import poster_box
from scenes.render.poster import poster_frame
from scenes.render.writes import FolderWrite
from scenes.theme import theme_file

if TYPE_CHECKING:

    from scenes.render.sound import Voice
    from scenes.video.audio import Encoded
    from scenes.render.beats import BeatOutcome, Loaded
    from scenes.render.clip_keys import ClipKeys
    from scenes.storyboard.plan import Plan
    from scenes.video.timeline import Segment

Ledger = list[tuple[str, int | None]]
"""Every string drawn, with the log entry it came from (``ClipScene.ledger``)."""


@dataclass
class RenderResult:
    clip: Path
    rendered: bool
    seconds: float = 0.0
    frames: int = 0
    ledger: Ledger | None = None
    plan: Plan | None = None
    beats_drawn: list[int] | None = None


class BeatFarm(Protocol):
    """Somewhere else to draw a clip's beats (``--scheduler``: ``scenes.render.cluster.Cluster``,
    handed in, so that this module never imports Dask): the outcomes of every beat, and the
    ledger, as the local processes give them."""

    def draw_clip(self, storyboard_file: str, name: str, opts: RenderOptions, loaded: Loaded, keys: ClipKeys,
                  log: Callable[[str], None]) -> tuple[list[BeatOutcome], Ledger]: ...


def cache_key(storyboard_file: str, opts: RenderOptions) -> str:
    """sha256 over the storyboard text, the --set values, the theme, the options that change
    frames, the voice's key, and the source of engine/ and scenes/ (so a code change renders
    again). The storyboard is read within its size bound: StoryboardError for one too large to be one."""
    from scenes.render.sound import with_voice
    from scenes.storyboard.yamlsafe import read_bounded

    opts = with_voice(storyboard_file, opts)
    h = hashlib.sha256()
    def part(tag: str, data: bytes) -> None:
        h.update(tag.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    part("storyboard", read_bounded(storyboard_file))
    part("sets", "\n".join(opts.sets).encode())
    part("theme", theme_file().read_bytes())
    part("options", opts.frame_json().encode())
    part("code", code_digest().encode())
    return h.hexdigest()


def _sweep_leftovers(out: Path, name: str) -> None:
    """Remove what a render of ``name`` killed with SIGKILL left behind (its hidden work folder,
    half-copied outputs): each carries the pid of its process, and only dead ones are swept."""
    for p in out.glob(glob.escape(f".{name}") + "*"):  # a storyboard may be called "*.yaml"
        if not dead_leftover(p.name):
            continue
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def is_up_to_date(name: str, key: str, opts: RenderOptions) -> bool:
    paths = outputs(name, Path(opts.out), opts.fmt, opts.aspect)
    if not all(p.exists() for p in paths.values()):
        return False
    return paths["key"].read_text().strip() == key


def extract_frame(video: Path, t: float, png: Path, text: dict[str, str] | None = None) -> None:
    """Decode with PyAV up to time ``t`` and save that frame as PNG, with ``text`` in its text chunks."""
    import av
    from PIL.PngImagePlugin import PngInfo

    with av.open(str(video)) as box:
        stream = box.streams.video[0]
        last = None
        for frame in box.decode(stream):
            last = frame
            if frame.time is not None and frame.time >= t:
                break
        if last is None:
            raise RuntimeError(f"{video}: no frames")
        info = PngInfo()
        for k, v in (text or {}).items():
            info.add_text(k, v)
        last.to_image().save(str(png), format="PNG", pnginfo=info)


def count_frames(video: Path) -> int:
    import av

    with av.open(str(video)) as box:
        return sum(1 for _ in box.decode(box.streams.video[0]))


def render_storyboard(storyboard_file: str, name: str, opts: RenderOptions,
                      log: Callable[[str], None] = lambda s: print(s, file=sys.stderr),
                      farm: BeatFarm | None = None) -> RenderResult:
    """Render (or skip, when up to date) one storyboard. Raises StoryboardError on bad input.
    ``farm``: where to draw the beats instead of processes here (a Dask cluster)."""
    import time

    t0 = time.monotonic()
    from scenes.render.sound import with_voice

    opts = with_voice(storyboard_file, opts)  # chosen once, here: the workers are told
    out = Path(opts.out)
    paths = outputs(name, out, opts.fmt, opts.aspect)
    key = cache_key(storyboard_file, opts)
    if not opts.force and is_up_to_date(name, key, opts):
        log(f"{name}: up to date")
        return RenderResult(paths["clip"], False, time.monotonic() - t0)

    from scenes.storyboard import srt, vtt
    from scenes.storyboard.chapters import beat_chapters

    loaded, voice = plan_voiced(storyboard_file, opts, name)  # bad input stops here, in the parent
    checked, p = loaded.checked, loaded.plan
    out.mkdir(parents=True, exist_ok=True)
    _sweep_leftovers(out, name)
    _sweep_leftovers(out / SEGMENTS, "")
    work = Path(tempfile.mkdtemp(prefix=f".{name}-pid{os.getpid()}-", dir=out))
    try:
        from concurrent.futures import ThreadPoolExecutor

        frames = sum(seg.frames for seg in _segments_of(p, opts))
        with ThreadPoolExecutor(1, thread_name_prefix="sound") as sound:  # the track is mixed while beats are drawn
            track_made = sound.submit(_sound, p, opts, voice, frames)
            outcomes, ledger = _render_beats(storyboard_file, name, opts, loaded, log, farm)
            track = track_made.result()
        assert sum(o.frames for o in outcomes) == frames
        parts = [segment_path(out, o.key) for o in outcomes]
        video = work / f"clip.{opts.fmt}"
        from scenes.video.formats import FORMATS

        FORMATS[opts.fmt].write(parts, video, [(c.start, c.end, c.title) for c in beat_chapters(p)], fps_of(opts),
                                track)
        poster = work / "poster.png"
        _poster(parts, [o.frames for o in outcomes], p, opts, poster)
        with FolderWrite(out) as w:  # the key last: a clip is up to date only once all is in place
            w.copy(paths["clip"].name, video, "clip")
            w.copy(paths["poster"].name, poster, "poster")
            w.text(paths["srt"].name, srt(p.captions), "srt")
            w.text(paths["vtt"].name, vtt(p.captions), "vtt")
            w.text(paths["events"].name, checked.run.jsonl, "events")
            w.text(paths["key"].name, key + "\n", "key")
            w.commit()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    trim_segments(out / SEGMENTS, keep=set(parts))
    drawn = [o for o in outcomes if o.rendered]
    log(f"{name}: {len(drawn)} of {len(outcomes)} beats drawn, {len(outcomes) - len(drawn)} from the cache")
    return RenderResult(paths["clip"], True, time.monotonic() - t0, sum(o.frames for o in outcomes), ledger, p,
                        beats_drawn=[o.index for o in drawn])


def plan_voiced(storyboard_file: str, opts: RenderOptions, name: str) -> tuple[Loaded, Voice | None]:
    """The storyboard loaded, and planned with the voice ``opts`` chose (``with_voice``; None:
    silent, paced by reading) speaking its own words (``say:``): its phrases timed by the voice,
    each asked once, the answers kept for the workers. Returns them and the voice."""
    from scenes.render.beats import Loaded
    from scenes.render.sound import Recorder, table_json, voice_of
    from scenes.storyboard import load, plan_of

    checked = load(storyboard_file, sets=list(opts.sets), name=name)
    voice = voice_of(opts, checked)
    speak = Recorder(voice) if voice is not None else None
    from scenes.render.camera_plan import laid_out_at

    p, layout = laid_out_at(checked, plan_of(checked, speak), opts.aspect)
    return Loaded(checked, p, table_json(speak.table) if speak is not None else "", layout), voice


def _sound(p: Plan, opts: RenderOptions, voice: Voice | None, frames: int) -> Encoded | None:
    """The clip's sound track, as long as its ``frames``, encoded for the clip's format; None for
    a silent clip (no voice) or a format without sound (a gif). It depends on the plan alone,
    not on the picture: a render makes and encodes it in a thread of its own while the beats are
    drawn (the phrases are in the speech cache by then: planning said them; levelling, placing
    and the encoder run mostly outside the GIL), which takes it off the wait after a narration
    edit."""
    from scenes.render.sound import clip_track
    from scenes.video.audio import encode_track
    from scenes.video.formats import FORMATS

    if voice is None or not FORMATS[opts.fmt].sound:
        return None
    return encode_track(clip_track(p, voice, frames / fps_of(opts)), opts.fmt)


def _render_beats(storyboard_file: str, name: str, opts: RenderOptions, loaded: Loaded,
                  log: Callable[[str], None], farm: BeatFarm | None = None,
                  ) -> tuple[list[BeatOutcome], Ledger]:
    """All beats, in this process (``jobs`` 1) or split over ``jobs`` processes: this one draws
    the first range (it has the storyboard loaded, and saves a worker's start), the pool's
    workers (each loading the storyboard again) the others; or, given a ``farm``, all on the
    cluster. ``loaded`` is the checked storyboard and its plan."""
    from scenes.render.beats import BeatJob, render_range, text_sha256
    from scenes.render.clip_keys import ClipKeys

    keys = ClipKeys(opts, loaded.checked, loaded.plan, loaded.layout)
    if farm is not None:
        return farm.draw_clip(storyboard_file, name, opts, loaded, keys, log)
    segs = keys.segs
    stale = keys.stale(guess=True) if opts.jobs > 1 else None
    planned_from = text_sha256(loaded.checked)
    jobs = [BeatJob(storyboard_file, name, opts.to_json(), a, b, planned_from, timings=loaded.timings)
            for a, b in split_beats(segs, opts.jobs, fps_of(opts), stale)]
    if len(jobs) == 1:
        outcomes, ledger, _ = render_range(jobs[0], log, loaded, keys=keys)
        return outcomes, ledger
    from scenes.render.beats import draw_job, read_reply
    from scenes.render.pool import local_pool, raise_if_failed, submit

    with local_pool(len(jobs) - 1) as pool:
        futures = [submit(pool, draw_job, json.dumps(asdict(job))) for job in jobs[1:]]
        outcomes = render_range(jobs[0], log, loaded, lambda: raise_if_failed(futures), keys)[0]
        ledger = []
        for future in futures:
            more, ledger = read_reply(future.result())
            outcomes += more
    assert [o.index for o in outcomes] == list(range(len(segs)))
    return outcomes, ledger


def _segments_of(p: Plan, opts: RenderOptions) -> list[Segment]:
    from scenes.video.timeline import clip_segments
    from scenes.theme import load_theme

    return clip_segments(p, opts.captions, load_theme().timings.caption_fade, fps_of(opts))


def drawn_frames(storyboard_file: str, opts: RenderOptions) -> int:
    """Frames of the clip in which something moves: what a process spends its time on, since a
    held frame is drawn once and x264's work on it runs beside the drawing. ``render all`` hands
    out the clips with the most first, so that the last to finish are short ones (why moving
    frames and not the held ones too: docs/bench.md). A storyboard that cannot be planned counts
    as the most work: its worker reports the problem at once."""
    from scenes.storyboard import load_and_plan

    try:
        from scenes.render.camera_plan import plan_at

        checked, p = load_and_plan(storyboard_file, opts.sets, Path(storyboard_file).stem)
        segs = _segments_of(plan_at(checked, p, opts.aspect), opts)
    except Exception:  # an estimate never stops a render: the worker reports what went wrong, and goes on
        return sys.maxsize
    return sum(st.frames for seg in segs for st in seg.steps if st.actions)


MIN_JOB_SECONDS = 8.0
"""Work below which another process does not pay, in seconds of frames as ``split_beats`` counts
them: a worker first pays Python's start and Manim's import, and below this much work that
costs more than sharing out the drawing saves (the figures are in docs/bench.md)."""


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


def _poster(parts: list[Path], frames: list[int], p: Plan, opts: RenderOptions, png: Path) -> None:
    """The poster frame (:mod:`scenes.render.poster`), decoded from the one segment that holds it,
    with where it draws the graph (:mod:`scenes.render.poster_box`) where the beat's render noted it."""
    from scenes.theme import load_theme

    fps = fps_of(opts)
    at = poster_frame(p, load_theme().timings.caption_fade, fps)
    for part, n in zip(parts, frames):
        if at < n:
            known, box = poster_box.load(part, at)
            text = {poster_box.CHUNK: poster_box.chunk_text(box)} if known else {}
            memo = (str(part.resolve()), at, json.dumps(text, sort_keys=True))
            if memo not in _POSTER:
                extract_frame(part, at / fps, png, text)
                _POSTER.clear()
                _POSTER[memo] = png.read_bytes()
            else:
                png.write_bytes(_POSTER[memo])
            return
        at -= n
    extract_frame(parts[-1], frames[-1], png)


_POSTER: dict[tuple[str, int, str], bytes] = {}
"""The last poster made in this process, by its segment (whose name is its key), frame and text:
a ``render watch`` edit that leaves the poster's beat alone (a narration edit before it) writes
the same PNG again without decoding the segment up to it."""


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
