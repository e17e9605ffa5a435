"""Render a clip beat by beat, each beat to its own cached segment.

Why per beat: an author who changes one number re-renders only the beats whose picture changes.
A segment's key is a sha256 over exactly what its frames depend on:

* the clip's fixed part: frame size, frame rate, encoder settings, aspect, caption mode, the theme
  file, the sources of engine/ and scenes/, and the layout (every box and route);
* the picture its beat starts from and the scene's records at that moment
  (``scenes.video.digest.state_digest``), reached by applying the earlier beats' steps without drawing;
* its own steps: frames, and each action's kind, timing and every string and id it carries.

An edit in the last beat leaves the earlier beats' keys alone; an edit that changes what stays on
screen (a value on a card) changes the key of every beat that shows it, and of no other.

Segments live in ``OUT/.segments/KEY.mp4``, written beside their target and renamed into place.
To draw a beat, the scene is brought to the beat's start from the state stored when that beat was
last drawn (``scenes.render.states``), or else by applying earlier steps without drawing; the
picture digests make sure both ways give the same picture. One process can render any contiguous
range of beats (:func:`draw_job`, which ``render scene -j N`` hands to the pool's workers). The
frames of a beat do not depend on which process drew it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from scenes.render import poster_box
from scenes.render.poster import poster_frame
from scenes.render.clip_keys import ClipKeys, after
from scenes.render.options import RenderOptions, scene_config, segment_path

if TYPE_CHECKING:
    from scenes.layout.place import Layout
    from scenes.storyboard.plan import Plan
    from scenes.storyboard.validate import Checked


@dataclass(frozen=True)
class BeatJob:
    """What one process renders: segments ``first``..``last`` (inclusive) of a clip."""

    storyboard: str
    name: str
    options: str
    """``RenderOptions.to_json()``."""
    first: int
    last: int
    text_sha256: str = ""
    """Of the storyboard text the parent planned from: a worker that reads another (the file was
    saved during the render) stops instead of drawing beats of a different plan."""
    held: tuple[str, ...] = ()
    """Segment keys the process that joins the clip holds already: counted as cached, not drawn
    (a worker of another machine, which shares no disk with it, is told them)."""

    timings: str = ""
    """The phrase timings the parent planned with (``scenes.render.sound.table_json``), "" for
    a silent clip: a worker plans from them and never asks the voice (same beats, no synthesis)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "held", tuple(self.held))  # a list, as read back from JSON


@dataclass(frozen=True)
class Loaded:
    """A storyboard checked and planned (``scenes.storyboard.load_and_plan``), by a caller that
    has it in this process and need not load it again."""

    checked: Checked
    plan: Plan
    timings: str = ""
    """The phrase timings it was planned with, as ``BeatJob.timings`` carries them to workers."""
    layout: Layout | None = None
    """The clip's layout its plan was made with (`scenes.render.camera_plan.laid_out_at`), for
    the keys and the scene (None: laid out again)."""


def text_sha256(checked: Checked) -> str:
    """Of the storyboard text a checked storyboard was loaded from (``BeatJob.text_sha256``)."""
    return hashlib.sha256(checked.doc.text.encode()).hexdigest()


@dataclass
class BeatOutcome:
    index: int
    key: str
    frames: int
    rendered: bool


def render_range(job: BeatJob, log: Callable[[str], None], loaded: Loaded | None = None,
                 check: Callable[[], None] | None = None, keys: ClipKeys | None = None,
                 ) -> tuple[list[BeatOutcome], list[tuple[str, int | None]], Plan]:
    """For each beat of ``job``: find its segment in the cache, or bring the scene to the beat's
    start (from a stored state, applying steps only past the nearest one) and draw it. Manim is
    imported only when a beat must be drawn or a starting picture is not known yet.
    ``loaded``: the checked storyboard and its plan, when the caller (in this process) has them.
    ``check``: called before each beat is drawn; whatever it raises stops the range.
    ``keys``: the clip's keys, when the caller has worked them out already. A segment the job
    says is held (``BeatJob.held``) counts as in the cache, like a file on disk.
    Returns the outcomes, the strings drawn in this render (the display ledger), and the plan."""
    opts = RenderOptions.from_json(job.options)
    if loaded is None:
        from scenes.render.sound import table_from_json, table_speaker
        from scenes.storyboard import load_and_plan

        speak = table_speaker(table_from_json(job.timings)) if job.timings else None
        from scenes.render.camera_plan import laid_out_at

        checked, p = load_and_plan(job.storyboard, opts.sets, job.name, speak)
        p, layout = laid_out_at(checked, p, opts.aspect)
        if job.text_sha256 and text_sha256(checked) != job.text_sha256:
            raise RuntimeError(f"{job.storyboard} changed during the render; render it again")
    else:
        checked, p, layout = loaded.checked, loaded.plan, loaded.layout
    keys = keys or ClipKeys(opts, checked, p, layout)
    size, encoder, segs, pre, states = keys.size, keys.encoder, keys.segs, keys.pre, keys.states
    out: list[BeatOutcome] = []
    held = set(job.held)
    with contextlib.ExitStack() as stack:
        walk: _Walk | None = None

        def scene_walk() -> _Walk:
            nonlocal walk
            if walk is None:
                walk = _Walk(stack, checked, p, opts, keys)
            return walk

        before = None if opts.force or job.first == 0 else keys.known_keys()[job.first - 1]
        start = None  # the picture the segment before started from, once known here
        for k in range(job.first, job.last + 1):
            digest = None if opts.force else keys.known_digest(k, before)
            if digest is None:
                digest = scene_walk().digest_at(k)
            states.put_digest(pre[k], digest)
            if before is not None:  # where the segment before leads: found again after an edit before it
                states.put_digest(after(before), digest)
            if start is not None:  # and where its shape from its start leads (ClipKeys.stale's guess)
                states.put_digest(keys.ends(k - 1, start), digest)
            start = digest
            key = before = keys.key(k, digest)
            target = segment_path(Path(opts.out), key)
            beat = p.beats[segs[k].beat].visual if segs[k].beat < len(p.beats) else ""
            on_disk = target.exists() and (opts.force or not _cached_segment_broken(target, segs[k].frames, log))
            if (on_disk or key in held) and not opts.force:
                log(f"{job.name}: beat {k + 1}/{len(segs)} {beat} (cached)")
                if on_disk:
                    os.utime(target)  # recently used: kept when the cache is trimmed
                out.append(BeatOutcome(k, key, segs[k].frames, False))
                continue
            log(f"{job.name}: beat {k + 1}/{len(segs)} {beat}")
            try:
                if check is not None:  # e.g. another process drawing this clip has failed
                    check()
                scene_walk().draw(k, target, size, encoder)
            except BaseException:
                if walk is not None:
                    walk.abort()
                raise
            out.append(BeatOutcome(k, key, segs[k].frames, True))
        if walk is not None:
            try:
                walk.finish()
            except BaseException:
                walk.abort()
                raise
        return out, (walk.scene.ledger if walk is not None else []), p


def _cached_segment_broken(target: Path, frames: int, log: Callable[[str], None]) -> bool:
    """Whether the cached segment ``target`` fails to hold its ``frames`` frames (a disk that
    filled, a copy cut short): it is then deleted, said so in one line, and drawn again."""
    from scenes.video.encoder import segment_frames

    found = segment_frames(target)
    if found == frames:
        return False
    log(f"{target}: cached segment {'unreadable' if found is None else f'holds {found} of {frames} frames'}; "
        "drawn again")
    target.unlink(missing_ok=True)
    return True


MEDIA_PREFIX = "gradreel-media-"
"""Manim's scratch folder in the system's temporary folder, named with its process's pid."""


def sweep_media_folders() -> None:
    """Remove the scratch folders of renders that were killed (their pid is dead): a killed
    render's folder does not outlive the next render."""
    from scenes.atomic import dead_leftover

    for p in Path(tempfile.gettempdir()).glob(MEDIA_PREFIX + "pid*"):
        if p.is_dir() and dead_leftover(p.name):
            shutil.rmtree(p, ignore_errors=True)


class _Walk:
    """The Manim scene moving forward through a clip's segments; ``at`` is the segment whose start
    it shows. It never goes back: segments are visited in order. Made only when something must be
    drawn or digested (Manim is imported here), inside ``stack``, which undoes its config."""

    def __init__(self, stack: contextlib.ExitStack, checked: Checked, plan: Plan, opts: RenderOptions,
                 keys: ClipKeys) -> None:
        from manim import tempconfig

        from scenes.video.camera import PathCachingCamera
        from scenes.draw.scene import ClipScene

        sweep_media_folders()
        media = stack.enter_context(tempfile.TemporaryDirectory(prefix=f"{MEDIA_PREFIX}pid{os.getpid()}-"))  # Manim wants one
        cfg, _, self.fps = scene_config(opts, keys.theme, Path(media))
        stack.enter_context(tempconfig(cfg))
        self.scene = ClipScene(plan, checked.run.events, checked.index.source, keys.theme, aspect=opts.aspect,
                               captions=opts.captions, layout=keys.layout, camera_class=PathCachingCamera)
        self.segs, self.states, self.prefixes = keys.segs, keys.states, keys.pre
        self.fresh = opts.force  # --force: rebuild every state, trust nothing stored
        self.at = 0
        self.size, self.spec = keys.size, keys.theme.aspect(opts.aspect)
        self.poster = poster_frame(plan, keys.theme.timings.caption_fade, self.fps)
        self.pending: list[tuple[Any, int, Path]] = []  # segments drawn, still being encoded

    def digest_at(self, k: int) -> str:
        from scenes.video.digest import state_digest

        self.bring_to(k)
        return state_digest(self.scene, self.scene.state)

    def bring_to(self, k: int) -> None:
        """Make the scene show the start of segment k: load the nearest stored state at or before
        k (past where it is now), then apply the steps from there without drawing."""
        from scenes.video.digest import state_digest
        from scenes.video.player import run_step

        if self.at == k:
            return
        if not self.fresh:
            for j in range(k, self.at, -1):
                if self.states.has_state(self.prefixes[j]) and self.states.load_state(
                        self.prefixes[j], self.scene, lambda scene: state_digest(scene, scene.state)):
                    self.at = j
                    break
        for j in range(self.at, k):
            for st in self.segs[j].steps:
                run_step(self.scene, st, self.fps, None)
        self.at = k

    def draw(self, k: int, target: Path, size: tuple[int, int], encoder: dict[str, str]) -> None:
        """Draw and encode segment k (the scene is at its start) into ``target``, atomically."""
        from scenes.video.encoder import SegmentWriter
        from scenes.video.player import run_step

        self.bring_to(k)
        self.states.save_state(self.prefixes[k], self.scene)
        seg = self.segs[k]
        tmp = target.with_name(f".{target.stem}-pid{os.getpid()}.tmp")
        target.parent.mkdir(parents=True, exist_ok=True)
        writer = SegmentWriter(tmp, size[0], size[1], self.fps, encoder)
        self.pending.append((writer, k, target))
        local = self.poster - sum(s.frames for s in self.segs[:k])
        sink: Any = writer
        if 0 <= local < seg.frames:  # the poster's frame: where it draws the graph, for the thumbnail
            sink = poster_box.FrameWatch(writer, local, lambda: poster_box.save(target, local, self._graph_box()))
        for st in seg.steps:
            run_step(self.scene, st, self.fps, sink)
        self.at = k + 1
        self.finish(keep=1)

    def _graph_box(self) -> tuple[float, float, float, float] | None:
        """Where the frame now drawn shows the graph, in pixels (`scenes.render.fill.graph_box`
        of what ``render inspect`` would list)."""
        from scenes.draw.record import Frame, items
        from scenes.render.fill import graph_box

        w, h = self.size
        return graph_box(items(self.scene, Frame(w, h, self.spec.frame_width, self.spec.frame_height)))

    def finish(self, keep: int = 0) -> None:
        """Let x264 finish the oldest segments, leaving ``keep`` still encoding: the next beat is
        drawn while the last one's frames are still being encoded."""
        while len(self.pending) > keep:
            writer, k, target = self.pending[0]
            writer.close()
            if writer.frames != self.segs[k].frames:
                raise RuntimeError(f"segment {k + 1}: {writer.frames} frames drawn, {self.segs[k].frames} planned")
            os.replace(writer.path, target)
            self.pending.pop(0)

    def abort(self) -> None:
        """Stop every segment still being encoded and delete its half-written file."""
        for writer, _, _ in self.pending:
            writer.abort()
        self.pending.clear()


def draw_job(job_json: str) -> str:
    """A worker's task: render the beats of one ``BeatJob`` (as JSON), progress on stderr.
    Returns JSON text, the outcomes and the display ledger: what comes back from another process
    is data, read with ``json``, never objects."""
    job = BeatJob(**json.loads(job_json))
    outcomes, ledger, _ = render_range(job, lambda s: print(s, file=sys.stderr, flush=True))
    return json.dumps({"outcomes": [o.__dict__ for o in outcomes], "ledger": ledger})


def read_reply(reply: str) -> tuple[list[BeatOutcome], list[tuple[str, int | None]]]:
    """What :func:`draw_job` returned, back as outcomes and a ledger."""
    data = json.loads(reply)
    return [BeatOutcome(**o) for o in data["outcomes"]], [(t, s) for t, s in data["ledger"]]
