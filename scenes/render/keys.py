"""What a clip's segment keys are made of, computed without Manim.

Why Manim-free: when every beat's starting picture is already known (``scenes.render.states``) and
every segment is in the cache, a render only joins files: it should not pay a second for
importing Manim. The plan, the layout and these descriptions are pure; only the picture digests
need Manim, and those are stored.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Any

from scenes.storyboard.caption_events import CaptionSpan
from scenes.storyboard.cues import Cue, cue_kind
from scenes.video.digest import canonical
from scenes.video.timeline import Action, Segment


def action_extras(action: Action, fill_max: dict[str, float]) -> Any:
    """What drawing ``action`` reads beyond its cue and the scene's state: a bucket fill's level
    is its value over the leaf's largest |.grad|, which a later beat may set (the cue kinds that
    read it say ``reads_fill_scale``)."""
    cue = action.payload
    if action.kind == "cue" and cue_kind(cue.kind).reads_fill_scale and len(cue.ids) > 1:
        return fill_max.get(cue.ids[1])
    return None


def relative(payload: Any, t0: float) -> Any:
    """A cue or caption as its segment sees it: its times from ``t0`` (the segment's first frame),
    a caption without its place in the clip's list. What a beat draws depends on its own timing,
    not on when it comes (the scene compares cue starts only with each other); so a beat that a
    narration edit before it moves later in the clip keeps its key."""
    if isinstance(payload, Cue):
        return replace(payload, start=round(payload.start - t0, 6))
    if isinstance(payload, CaptionSpan):
        return replace(payload, index=0, start=round(payload.start - t0, 6), end=round(payload.end - t0, 6))
    return payload


def segment_description(seg: Segment, fill_max: dict[str, float], fps: int) -> str:
    """Everything a segment's own steps carry, as text (hashed into its key): each action's kind,
    timing and payload, and what its drawing reads besides. Times count from the segment's first
    frame (:func:`relative`). Not an action's ``order`` (a caption's counts every cue of the
    plan): the order within a step is the order listed."""
    t0 = seg.first / fps
    steps = [[st.frame - seg.first, st.hold, st.frames,
              [[a.kind, round(a.start - t0, 6), a.duration, canonical(relative(a.payload, t0)),
                canonical(action_extras(a, fill_max))]
               for a in st.actions]]
             for st in seg.steps]
    return json.dumps([seg.frames, steps], default=repr, separators=(",", ":"))


def segment_shape(seg: Segment, fill_max: dict[str, float]) -> str:
    """What a segment's cues draw, without when: each cue as its description has it but with
    its times at 0, captions left out. A narration edit changes a beat's captions and times, not
    its shape; the picture a beat ends on follows from its start and (nearly always) its shape,
    which lets the parent guess, before anything is drawn, which later beats an edit leaves
    in the cache (:meth:`scenes.render.clip_keys.ClipKeys.stale`). Never part of a key."""
    cues = [[a.kind, canonical(replace(a.payload, start=0.0, duration=0.0)), canonical(action_extras(a, fill_max))]
            for st in seg.steps for a in st.actions if isinstance(a.payload, Cue)]
    return json.dumps(cues, default=repr, separators=(",", ":"))


def ends_on(fixed: str, digest: str, shape: str) -> str:
    """The name the picture is stored under that a segment of ``shape`` (:func:`segment_shape`),
    started from the picture ``digest``, last ended on."""
    return hashlib.sha256(f"ends:{fixed}:{digest}:{shape}".encode()).hexdigest()


def clip_digest(layout: Any, aspect: str, captions: str, size: tuple[int, int], fps: int,
                encoder: dict[str, str], code: str, theme_bytes: bytes, log_text: str, voice: str = "off") -> str:
    """The part of every segment key that is the same for the whole clip: size, rate, encoder,
    aspect, caption mode, code, theme, layout, and the event log (its header holds the program
    text the code pane shows; the scene reads lines, names and flags from its events), and the
    voice's key (its phrases time the beats), left out for a silent clip (``off``), whose keys
    stay those of the clips made before clips had sound."""
    h = hashlib.sha256()
    if voice != "off":
        h.update(f"voice:{voice}".encode() + b"\0")
    for part in (repr((tuple(size), fps, sorted(encoder.items()), aspect, captions)), code,
                 hashlib.sha256(theme_bytes).hexdigest(), repr(canonical(layout)),
                 hashlib.sha256(log_text.encode()).hexdigest()):
        h.update(part.encode() + b"\0")
    return h.hexdigest()


def prefixes(fixed: str, log_text: str, descs: list[str]) -> list[str]:
    """prefixes[k]: sha256 over everything the picture at the start of segment k follows from:
    the clip's fixed part, its event log, and the descriptions of the segments before k."""
    h = hashlib.sha256((fixed + hashlib.sha256(log_text.encode()).hexdigest()).encode())
    out = []
    for desc in descs:
        out.append(h.hexdigest())
        h.update(desc.encode() + b"\0")
    return out


def segment_key(fixed: str, digest: str, desc: str) -> str:
    return hashlib.sha256((fixed + digest + desc).encode()).hexdigest()
