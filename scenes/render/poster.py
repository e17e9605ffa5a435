"""Which frame of a clip is its poster: a late moment of the finished picture whose caption, if
any, is fully shown and whole.

Why not simply "just after the last cue": that instant often falls in a caption's fade, or on
a piece of a narration cut into several events ("the graph follows the code that ran."), which
read out of context on a gallery page. Pure (no Manim, no video): it reads the plan's cues and
caption spans only, so a test checks it against the plan's caption events.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

LATE = 0.5  # seconds after the last cue: the picture has settled
EPS = 1e-6  # seconds: a frame on a fade's boundary counts as fading


def poster_time(plan: Any, fade: float, fps: int) -> float:
    """The poster's time, on a frame (``k / fps``): the first moment from just after the last
    cue that is not a closing title (the finished picture) where a whole caption is fully shown
    or none is; failing that, the latest such moment before; failing that, just after the last
    cue. ``fade``: how long a caption takes to come in and to go."""
    cues = [c for c in plan.cues if c.kind != "title"] or list(plan.cues)
    settled = max((c.start + c.duration for c in cues), default=0.0) + LATE
    last = max(0, round(plan.duration * fps) - 1)
    frames = calm_frames(plan, fade, fps)
    after = [k for k in frames if k / fps >= settled]
    before = [k for k in frames if k / fps < settled]
    if after:
        return after[0] / fps
    if before:
        return before[-1] / fps
    return min(round(settled * fps), last) / fps


def poster_frame(plan: Any, fade: float, fps: int) -> int:
    """The poster's frame number (`poster_time`, counted from the clip's first frame)."""
    return round(poster_time(plan, fade, fps) * fps)


def calm_frames(plan: Any, fade: float, fps: int) -> list[int]:
    """The frames, in order, at which no caption is fading and any caption shown is whole (the
    only event of its beat's narration or takeaway, not a piece of a cut one)."""
    pieces = Counter((c.beat, c.style) for c in plan.captions)
    n = max(0, round(plan.duration * fps))
    ok = [True] * n
    for c in plan.captions:
        whole = pieces[(c.beat, c.style)] == 1
        for k in range(max(0, int(c.start * fps) - 1), min(n, int(c.end * fps) + 2)):
            t = k / fps
            if not c.start <= t <= c.end:
                continue
            if not whole or t < c.start + fade + EPS or t > c.end - fade - EPS:  # a boundary counts as fading
                ok[k] = False
    return [k for k in range(n) if ok[k]]
