"""Frame-exact scheduling of a plan's cues and captions (pure; no Manim).

Why frames and not seconds: Manim turns a ``play(run_time)`` into ``ceil(run_time * fps)`` frames
and a frozen ``wait(t)`` into ``int(t * fps)`` frames, so summing float seconds drifts by a frame
here and there. Snapping every start to a frame index and handing Manim half-frame-padded times
makes the clip exactly ``round(plan.duration * fps)`` frames long, which the tests check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class Action:
    """Something that starts at ``start`` seconds and animates for ``duration`` seconds.

    ``payload`` is what the scene draws: a plan Cue, or a caption-in / caption-out marker."""

    start: float
    duration: float
    kind: str
    payload: Any
    beat: int
    order: int = 0


@dataclass
class Step:
    """One ``play`` call: the actions that start on ``frame``, drawn for ``frames`` frames, after a
    hold of ``hold`` frames in which nothing moves."""

    frame: int
    hold: int
    frames: int
    actions: list[Action] = field(default_factory=list)


def schedule(actions: list[Action], duration: float, fps: int) -> tuple[list[Step], int]:
    """Group actions by start frame; each group plays until the next group starts (or for its
    longest action, whichever is shorter). Returns the steps and the closing hold in frames."""
    total = max(1, round(duration * fps))
    groups: dict[int, list[Action]] = {}
    for a in sorted(actions, key=lambda a: (a.start, a.order)):
        f = min(max(0, round(a.start * fps)), total - 1)
        groups.setdefault(f, []).append(a)
    frames = sorted(groups)
    steps: list[Step] = []
    cur = 0
    for i, f in enumerate(frames):
        nxt = frames[i + 1] if i + 1 < len(frames) else total
        want = max(1, round(max(a.duration for a in groups[f]) * fps))
        n = max(1, min(want, nxt - f))
        steps.append(Step(f, f - cur, n, groups[f]))
        cur = f + n
    return steps, total - cur


def play_seconds(frames: int, fps: int) -> float:
    """A ``play`` run_time that Manim renders as exactly ``frames`` frames (ceil of time*fps)."""
    return (frames - 0.5) / fps


def hold_seconds(frames: int, fps: int) -> float:
    """A frozen ``wait`` time that Manim renders as exactly ``frames`` frames (int of time*fps)."""
    return (frames + 0.5) / fps


ProgressFn = Callable[[int, int, str], None]
"""Called as progress(beat_index, beat_count, visual) when the render enters a new beat."""
