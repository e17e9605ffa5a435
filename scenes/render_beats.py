"""Render a clip beat by beat, each beat to its own cached segment.

Why per beat: an author who changes one number re-renders only the beats whose picture changes.
A segment's key is a sha256 over exactly what its frames depend on:

* the clip's fixed part: frame size, frame rate, encoder settings, aspect, caption mode, the theme
  file, the sources of engine/ and scenes/, and the layout (every box and route);
* the picture its beat starts from and the scene's bookkeeping at that moment
  (``scenes.player.state_digest``), reached by applying the earlier beats' steps without drawing;
* its own steps: frames, and each action's kind, timing and every string and id it carries.

An edit in the last beat leaves the earlier beats' keys alone; an edit that changes what stays on
screen (a value on a card) changes the key of every beat that shows it, and of no other.

Segments live in ``OUT/.segments/KEY.mp4``, written beside their target and renamed into place.
To draw a beat, the scene is brought to the beat's start from the state stored when that beat was
last drawn (``scenes.beat_states``), or else by applying earlier steps without drawing; the
picture digests make sure both ways give the same picture. One process can render any contiguous
range of beats (``python -m scenes.render_beats``, used by ``render scene -j N``). The frames of a
beat do not depend on which process drew it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from scenes.clip_timeline import Segment

SEGMENTS = ".segments"


@dataclass(frozen=True)
class BeatJob:
    """What one process renders: segments ``first``..``last`` (inclusive) of a clip."""

    storyboard: str
    name: str
    options: dict[str, Any]
    first: int
    last: int


@dataclass
class BeatOutcome:
    index: int
    key: str
    frames: int
    rendered: bool
    seconds: float


def segment_description(seg: Segment, extras: Callable[[Any], Any]) -> str:
    """Everything a segment's own steps carry, as text (hashed into its key): each action's kind,
    timing and payload, and what its drawing reads besides (``extras``: a bucket fill's scale)."""
    from scenes.player import _canonical

    steps = [[st.frame - seg.first, st.hold, st.frames,
              [[a.kind, a.start, a.duration, a.order, _canonical(a.payload), _canonical(extras(a))]
               for a in st.actions]]
             for st in seg.steps]
    return json.dumps([seg.frames, steps], default=repr, separators=(",", ":"))


def clip_digest(scene: Any, size: tuple[int, int], fps: int, encoder: dict[str, str], code: str) -> str:
    """The part of every segment key that is the same for the whole clip: size, rate, encoder,
    aspect, caption mode, code, theme and layout."""
    from scenes.player import _canonical
    from scenes.render_pipeline import THEME_FILE

    h = hashlib.sha256()
    for part in (repr((size, fps, sorted(encoder.items()), scene.aspect, scene.captions_mode)), code,
                 hashlib.sha256(THEME_FILE.read_bytes()).hexdigest(),
                 repr(_canonical(scene.lay))):
        h.update(part.encode() + b"\0")
    return h.hexdigest()


def render_range(job: BeatJob, log: Callable[[str], None]) -> tuple[list[BeatOutcome], list[tuple[str, int | None]], Any]:
    """For each beat of ``job``: find its segment in the cache, or bring the scene to the beat's
    start (from a stored state, applying steps only past the nearest one) and draw it.
    Returns the outcomes, the strings drawn in this render (the display ledger), and the plan."""
    from scenes.render_pipeline import (RenderOptions, THEME_FILE, code_digest, encoder_options, scene_config,
                                        segment_path)
    from scenes.storyboard import default_timings, load, plan as make_plan

    opts = RenderOptions(**job.options)
    checked = load(job.storyboard, sets=list(opts.sets), name=job.name)
    p = make_plan(checked.run.events, checked.storyboard, default_timings(), checked.index.source)

    from manim import tempconfig

    from scenes.beat_states import BeatStates
    from scenes.camera import PathCachingCamera
    from scenes.clip_scene import ClipScene
    from scenes.player import state_digest
    from scenes.theme import load_theme

    theme = load_theme(THEME_FILE)
    media = tempfile.TemporaryDirectory(prefix="gradreel-media-")  # Manim wants one; nothing is kept
    cfg, size, fps = scene_config(opts, theme, Path(media.name))
    encoder = encoder_options(opts)
    out: list[BeatOutcome] = []
    with media, tempconfig(cfg):
        scene = ClipScene(p, checked.run.events, checked.index.source, theme,
                          aspect=opts.aspect, captions=opts.captions, camera_class=PathCachingCamera)
        segs = scene.segments(fps)
        descs = [segment_description(seg, scene.extras) for seg in segs]
        fixed = clip_digest(scene, size, fps, encoder, code_digest())
        prefixes = _prefixes(fixed, checked.run.jsonl, descs)
        states = BeatStates(Path(opts.out) / SEGMENTS)
        walk = _Walk(scene, segs, fps, states, prefixes, fresh=opts.force)
        for k in range(job.first, job.last + 1):
            t0 = time.monotonic()
            digest = None if opts.force else states.digest(prefixes[k])
            if digest is None:
                walk.bring_to(k)
                digest = state_digest(scene, walk.names)
                states.put_digest(prefixes[k], digest)
            key = hashlib.sha256((fixed + digest + descs[k]).encode()).hexdigest()
            target = segment_path(Path(opts.out), key)
            beat = p.beats[segs[k].beat].visual if segs[k].beat < len(p.beats) else ""
            if target.exists() and not opts.force:
                log(f"{job.name}: beat {k + 1}/{len(segs)} {beat} (cached)")
                os.utime(target)  # recently used: kept when the cache is trimmed
                out.append(BeatOutcome(k, key, segs[k].frames, False, time.monotonic() - t0))
                continue
            log(f"{job.name}: beat {k + 1}/{len(segs)} {beat}")
            walk.bring_to(k)
            states.save_state(prefixes[k], scene, walk.names)
            walk.draw(k, target, size, encoder)
            out.append(BeatOutcome(k, key, segs[k].frames, True, time.monotonic() - t0))
    return out, scene.ledger, p


def _prefixes(fixed: str, log_text: str, descs: list[str]) -> list[str]:
    """prefixes[k]: sha256 over everything the picture at the start of segment k follows from."""
    h = hashlib.sha256((fixed + hashlib.sha256(log_text.encode()).hexdigest()).encode())
    out = []
    for desc in descs:
        out.append(h.hexdigest())
        h.update(desc.encode() + b"\0")
    return out


class _Walk:
    """The scene moving forward through a clip's segments; ``at`` is the segment whose start it
    shows. It never goes back: segments are visited in order."""

    def __init__(self, scene: Any, segs: list[Segment], fps: int, states: Any, prefixes: list[str],
                 fresh: bool) -> None:
        self.scene, self.segs, self.fps, self.states, self.prefixes = scene, segs, fps, states, prefixes
        self.names = scene.state_names()
        self.fresh = fresh  # --force: rebuild every state, trust nothing stored
        self.at = 0

    def bring_to(self, k: int) -> None:
        """Make the scene show the start of segment k: load the nearest stored state at or before
        k (past where it is now), then apply the steps from there without drawing."""
        from scenes.player import run_step

        if self.at == k:
            return
        if not self.fresh:
            for j in range(k, self.at, -1):
                if self.states.has_state(self.prefixes[j]) and self.states.load_state(self.prefixes[j], self.scene):
                    self.at = j
                    break
        for j in range(self.at, k):
            for st in self.segs[j].steps:
                run_step(self.scene, st, self.fps, None)
        self.at = k

    def draw(self, k: int, target: Path, size: tuple[int, int], encoder: dict[str, str]) -> None:
        """Draw and encode segment k (the scene is at its start) into ``target``, atomically."""
        from scenes.encoder import SegmentWriter
        from scenes.player import run_step

        seg = self.segs[k]
        tmp = target.with_name(f".{target.stem}-pid{os.getpid()}.tmp")
        target.parent.mkdir(parents=True, exist_ok=True)
        writer = SegmentWriter(tmp, size[0], size[1], self.fps, encoder)
        try:
            for st in seg.steps:
                run_step(self.scene, st, self.fps, writer)
            writer.close()
        except BaseException:
            writer.abort()
            raise
        if writer.frames != seg.frames:
            raise RuntimeError(f"segment {k + 1}: {writer.frames} frames drawn, {seg.frames} planned")
        os.replace(tmp, target)
        self.at = k + 1


def main(argv: list[str] | None = None) -> int:
    """Worker entry: one JSON BeatJob on stdin; progress on stderr; on stdout one JSON line with
    the outcomes and the display ledger. Bad input was reported by the parent before any worker started."""
    job = BeatJob(**json.loads(sys.stdin.read()))
    try:
        outcomes, ledger, _ = render_range(job, lambda s: print(s, file=sys.stderr, flush=True))
    except KeyboardInterrupt:
        return 130
    print(json.dumps({"outcomes": [o.__dict__ for o in outcomes], "ledger": ledger}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
