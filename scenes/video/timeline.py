"""Frame-exact scheduling of a plan's cues and captions (pure; no Manim).

Why frames and not seconds: Manim turns a ``play(run_time)`` into ``ceil(run_time * fps)`` frames
and a frozen ``wait(t)`` into ``int(t * fps)`` frames, so summing float seconds drifts by a frame
here and there. Snapping every start to a frame index and handing Manim half-frame-padded times
makes the clip exactly ``round(plan.duration * fps)`` frames long, which the tests check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass
class Action:
    """Something that starts at ``start`` seconds and animates for ``duration`` seconds.

    ``payload`` is what the scene draws: a plan Cue, or a caption-in / caption-out marker.
    ``carried``: an action that joined the step playing as it starts (`schedule`: a caption
    fade while a cue plays, a cue while a fade plays), to be played at its own time in it."""

    start: float
    duration: float
    kind: str
    payload: Any
    beat: int
    order: int = 0
    carried: bool = False


@dataclass
class Step:
    """One ``play`` call: the actions that start on ``frame``, drawn for ``frames`` frames, after a
    hold of ``hold`` frames in which nothing moves."""

    frame: int
    hold: int
    frames: int
    actions: list[Action] = field(default_factory=list)


def frame_at(t: float, fps: int) -> int:
    """The frame a time ``t`` (seconds) starts on: the nearest, a half rounded down (not to even,
    as ``round`` does), so a time and the same time moved by whole frames land as many frames
    apart; a beat moved later by a narration edit before it is drawn as before. Down: a cue
    never ends later than its plan says (the truth check reads the plan's times).

    >>> frame_at(53.7, 5), frame_at(54.3, 5), frame_at(0.29, 10)
    (268, 271, 3)
    """
    return math.ceil(round(t * fps, 6) - 0.5)


def schedule(actions: list[Action], duration: float, fps: int) -> tuple[list[Step], int]:
    """Group actions by start frame; each group plays until the next group starts (or until its
    last action ends, whichever is sooner). Returns the steps and the closing hold in frames.

    An action starting while a step plays joins it (``Action.carried``; the scene plays it at
    its own time and length in it: ``ClipScene.step_animations``), and the step lasts until it is
    done too; only a cue starting while one of the step's cues plays starts a step of its own (the
    plan does not make two cues overlap). A step of its own would cut the step playing short: the
    rest of its animations came in one frame. So a caption fade starting while a cue plays rides
    in the cue's step (mlp's unit_appear played 3 of its 6 frames at 10 fps, reverse_mode's
    jvp_fill 5 of 8), and a cue starting while a caption fades in or out rides in the fade's step:
    a clip's first node 0.15 s after its first caption came in halved the 0.3 s fade (at 10 fps,
    1 frame of 3: the caption popped in), a camera move cut a clear 2 frames short.

    >>> cue = Action(1.0, 1.0, "cue", None, 0)
    >>> st, tail = schedule([cue, Action(1.5, 0.3, "caption_in", None, 0), Action(3.0, 0.5, "cue", None, 0)], 4.0, 10)
    >>> [(s.frame, s.frames, len(s.actions)) for s in st]
    [(10, 10, 2), (30, 5, 1)]
    >>> st, tail = schedule([cue, Action(1.9, 0.3, "caption_clear", None, 0)], 4.0, 10)  # outlasts the cue
    >>> [(s.frame, s.frames, len(s.actions)) for s in st], tail
    ([(10, 12, 2)], 18)
    >>> st, tail = schedule([Action(1.0, 0.3, "caption_in", None, 0), Action(1.1, 0.5, "cue", None, 0)], 4.0, 10)
    >>> [(s.frame, s.frames, [a.carried for a in s.actions]) for s in st]  # the cue rides in the fade's step
    [(10, 6, [False, True])]
    """
    total = max(1, round(duration * fps))
    groups: dict[int, list[Action]] = {}
    ends: dict[int, int] = {}  # group's frame -> the frame its last action ends on
    cues: dict[int, list[tuple[int, int]]] = {}  # group's frame -> its cues' first and end frames
    last = -1  # the frame of the last group: the step playing as an action starts
    for a in sorted(actions, key=lambda a: (a.start, a.order)):
        f = min(max(0, frame_at(a.start, fps)), total - 1)
        end = f + max(1, round(a.duration * fps))
        cue = a.kind == "cue"
        if 0 <= last < f < ends[last] and not (cue and any(s < f < e for s, e in cues.get(last, []))):
            groups[last].append(replace(a, carried=True))
            ends[last] = max(ends[last], end)
        else:
            last = f
            groups.setdefault(f, []).append(a)
            ends[f] = max(ends.get(f, end), end)
        if cue:  # its frames, for a cue starting while it plays
            cues.setdefault(last, []).append((f, end))
    frames = sorted(groups)
    steps: list[Step] = []
    cur = 0
    for i, f in enumerate(frames):
        nxt = frames[i + 1] if i + 1 < len(frames) else total
        n = max(1, min(ends[f] - f, nxt - f))
        steps.append(Step(f, f - cur, n, groups[f]))
        cur = f + n
    return steps, total - cur


def play_seconds(frames: int, fps: int) -> float:
    """A ``play`` run_time that Manim renders as exactly ``frames`` frames (ceil of time*fps)."""
    return (frames - 0.5) / fps


def hold_seconds(frames: int, fps: int) -> float:
    """A frozen ``wait`` time that Manim renders as exactly ``frames`` frames (int of time*fps)."""
    return (frames + 0.5) / fps


@dataclass
class Segment:
    """The frames ``[first, first + frames)`` of one beat (or of several beats that start on the
    same frame), as steps; a step with no actions is a plain hold. Each segment is rendered to its
    own file and cached on its own, so a play never crosses from one segment into the next."""

    beat: int
    first: int
    frames: int
    steps: list[Step] = field(default_factory=list)


def segments(steps: list[Step], tail: int, beat_starts: list[float], fps: int) -> list[Segment]:
    """Cut the scheduled steps at the first frame of each beat.

    A hold that spans a cut is split in two; a play that would span one (a cue outlasting its
    beat, which the plan does not make) moves the cut to the play's end, so no animation is ever
    cut short. Segments are never empty and cover every frame exactly once.

    >>> st, tail = schedule([Action(0.0, 1.0, "cue", None, 0), Action(2.0, 1.0, "cue", None, 1)], 4.0, 10)
    >>> [(s.beat, s.first, s.frames) for s in segments(st, tail, [0.0, 1.5], 10)]
    [(0, 0, 15), (1, 15, 25)]
    """
    total = (steps[-1].frame + steps[-1].frames if steps else 0) + tail
    first = {}
    for i, t in enumerate(beat_starts):
        first.setdefault(min(max(0, frame_at(t, fps)), total), i)
    for st in steps:  # a cut inside a play moves to the play's end
        for c in [c for c in first if st.frame < c < st.frame + st.frames]:
            first.setdefault(st.frame + st.frames, first.pop(c))
    out: list[Segment] = []

    def at(frame: int) -> Segment:
        """The segment that frame ``frame`` belongs to, opening a new one at a cut."""
        if not out or (frame in first and out[-1].frames):
            out.append(Segment(first.get(frame, 0), frame, 0))
        return out[-1]

    def hold(frame: int, n: int) -> None:
        while n > 0:
            nxt = min([c for c in first if c > frame] + [frame + n])
            seg = at(frame)
            seg.steps.append(Step(nxt, nxt - frame, 0))
            seg.frames += nxt - frame
            n -= nxt - frame
            frame = nxt

    cur = 0
    for st in steps:
        hold(cur, st.hold)
        seg = at(st.frame)
        seg.steps.append(Step(st.frame, 0, st.frames, st.actions))
        seg.frames += st.frames
        cur = st.frame + st.frames
    hold(cur, tail)
    return out


BAR_KEPT = 0.5
"""Seconds: a caption followed by the next sooner than this keeps the bar up until the next
comes in (its words are swapped in place); only a longer gap, or the clip's end, takes it out.
Something gone for less than half a second and back reads as a blink."""


BAR_HELD = 3.0
"""Seconds: a gap before the next caption shorter than this (between two beats, say) takes the
words out and leaves the empty bar up: a fifth of the frame that went and came back every few
seconds would flicker. Only a longer pause, or the clip's end, takes the bar out."""


def clip_actions(plan: Any, captions: str, caption_fade: float) -> list[Action]:
    """The plan's cues, plus caption in/out markers when captions are burned in: ``caption_in``,
    then ``caption_clear`` (the words go, the bar stays) or ``caption_out`` (both go)."""
    acts = [Action(c.start, c.duration, "cue", c, c.beat, i) for i, c in enumerate(plan.cues)]
    if captions == "burn":
        n = len(acts)
        caps = plan.captions
        for j, cap in enumerate(caps):
            acts.append(Action(cap.start, caption_fade, "caption_in", cap, cap.beat, n + 2 * j))
            gap = caps[j + 1].start - cap.end if j + 1 < len(caps) else None
            if gap is not None and gap < BAR_KEPT - 1e-6:  # times are to the ms
                continue  # the next caption_in swaps the words; the bar stays
            kind = "caption_clear" if gap is not None and gap < BAR_HELD else "caption_out"
            acts.append(Action(max(cap.start, cap.end - caption_fade), caption_fade, kind,
                               cap, cap.beat, n + 2 * j + 1))
    return acts


def clip_segments(plan: Any, captions: str, caption_fade: float, fps: int) -> list[Segment]:
    """A clip's frames, one segment per beat (pure: the parent process plans work with it)."""
    steps, tail = schedule(clip_actions(plan, captions, caption_fade), plan.duration, fps)
    return segments(steps, tail, [b.start for b in plan.beats], fps)
