"""What a clip's segment keys are made of, computed without Manim.

Why Manim-free: when every beat's starting picture is already known (``scenes.beat_states``) and
every segment is in the cache, a render only joins files: it should not pay a second for
importing Manim. The plan, the layout and these descriptions are pure; only the picture digests
need Manim, and those are stored.

>>> clip_frame_region(has_code=False, spec=type("S", (), {"margin": 0.5, "frame_width": 16.0,
...     "frame_height": 9.0, "caption": (-8.0, -4.5, 8.0, -3.0), "graph": None})())
(-7.5, -2.5, 7.5, 4.0)
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

from scenes.clip_timeline import Action, Segment


def quantized(values: Any) -> bytes:
    """Numbers to a millionth: a token moved along its path ends 1e-15 away from one put at the
    end directly, which no pixel shows (a pixel is 4e-3 scene units even at 4K)."""
    return np.round(np.asarray(values, dtype=float) * 1e6).astype(np.int64).tobytes()


def canonical(value: Any, depth: int = 0) -> Any:
    """A repr-able, deterministic stand-in for a value: containers item by item, arrays and
    mobjects by digest (a mobject by ``scenes.player.picture_digest``, which imports Manim only
    when a mobject is met)."""
    if depth > 24:
        return "..."
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return sorted((repr(k), canonical(v, depth + 1)) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [canonical(v, depth + 1) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, np.ndarray):
        return hashlib.sha256(quantized(value)).hexdigest()
    if hasattr(value, "get_family") and type(value).__module__.startswith(("manim", "scenes")):
        from scenes.player import picture_digest

        return "mob:" + picture_digest([value])
    if callable(value):
        return type(value).__name__
    if hasattr(value, "__dict__"):
        return [type(value).__name__, canonical(vars(value), depth + 1)]
    return repr(value)


def clip_frame_region(has_code: bool, spec: Any) -> tuple[float, float, float, float]:
    """Where the graph is laid out: the theme's graph region beside the code pane; the whole
    frame above the caption when the clip shows no code."""
    if has_code:
        return spec.graph
    m = spec.margin
    return (-spec.frame_width / 2 + m, spec.caption[3] + m, spec.frame_width / 2 - m, spec.frame_height / 2 - m)


def level(text: str | None) -> float:
    """A number shown as '8/3', '-4', '0.4444', 'tensor(0.5000)' or 'None', as a float (None -> 0).

    Why PyTorch's text too: a storyboard with ``numbers: torch`` fills its buckets from it."""
    from fractions import Fraction

    if text and text.startswith("tensor(") and text.endswith(")"):
        text = text[len("tensor("):-1].split(",")[0].rstrip(".") or "0"
    try:
        return float(Fraction(text)) if text not in (None, "None") else 0.0
    except (ValueError, ZeroDivisionError):
        return 0.0


def shows_code(plan: Any, source: str | None) -> bool:
    """Whether the clip has a code pane: a program, and a beat that shows its lines."""
    return bool(source) and any(c.kind == "code_line" for c in plan.cues)


def fill_scales(plan: Any) -> dict[str, float]:
    """Per leaf, the largest |.grad| the clip reaches: its bucket is full at that value."""
    top: dict[str, float] = {}
    for c in plan.cues:
        if c.kind == "bucket_fill" and len(c.ids) > 1:
            top[c.ids[1]] = max(top.get(c.ids[1], 0.0), abs(level(c.text("after"))))
    return top


def action_extras(action: Action, fill_max: dict[str, float]) -> Any:
    """What drawing ``action`` reads beyond its cue and the scene's state: a bucket fill's level
    is its value over the leaf's largest |.grad|, which a later beat may set."""
    cue = action.payload
    if action.kind == "cue" and cue.kind == "bucket_fill" and len(cue.ids) > 1:
        return fill_max.get(cue.ids[1])
    return None


def segment_description(seg: Segment, fill_max: dict[str, float]) -> str:
    """Everything a segment's own steps carry, as text (hashed into its key): each action's kind,
    timing and payload, and what its drawing reads besides. Not an action's ``order`` (a caption's
    counts every cue of the plan): the order within a step is the order listed."""
    steps = [[st.frame - seg.first, st.hold, st.frames,
              [[a.kind, a.start, a.duration, canonical(a.payload), canonical(action_extras(a, fill_max))]
               for a in st.actions]]
             for st in seg.steps]
    return json.dumps([seg.frames, steps], default=repr, separators=(",", ":"))


def clip_digest(layout: Any, aspect: str, captions: str, size: tuple[int, int], fps: int,
                encoder: dict[str, str], code: str, theme_bytes: bytes, log_text: str) -> str:
    """The part of every segment key that is the same for the whole clip: size, rate, encoder,
    aspect, caption mode, code, theme, layout, and the event log (its header holds the program
    text the code pane shows; the scene reads lines, names and flags from its events)."""
    h = hashlib.sha256()
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
