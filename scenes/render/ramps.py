"""Ramps: what `render inspect` shows, read across frames, for a camera move that sets off or
stops at speed.

Why: each move of the walk's camera was timed to its pause and eased as a whole, yet a move in
two parts (shift, then scale) started its second part on the eased share when that share was
already going fast: backward_walk 16:9 at 34.27 s went from a creep of 1.5 px a frame to 19 px
in one frame at 1080p60 (review 7 item 5), and five of its eight moves did so. A camera move
carries every card on screen together, so its speed from frame to frame is read from the cards
it keeps (by id): the median of how far their boxes' corners move (a card that grows in, or
whose value changes width, is no camera). A move eases where no frame's speed differs from the
frame before's by more than ``RAMP`` of the move's fastest frame: from still, its first moving
frame is slow. Read at `EASE_FPS`: at the frame checks' 15 a second, a sine over a 0.4 s glide
already changes by half its peak from one frame to the next, the same as a start at speed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Iterable, Sequence

from scenes.render.continuity import seen_cards

EASE_FPS = 60
"""The frame rate a move's speed is read at: the one review 7 found the jumps at (1080p60),
where the shortest part of a way (a third of 0.6 s) spans a dozen frames or more."""
RAMP = 1.0 / 3.0
"""How much of a move's fastest frame its speed may change by from one frame to the next: a
sine over a dozen frames changes by a quarter of its peak at most; setting off at speed, by it
all."""
ROUNDING = 0.3
"""Pixels of a change of speed the records' rounding may make (boxes to 0.1 px: a corner's step
read off two boxes by up to 0.14 px, a change of two steps by twice that)."""


@dataclass(frozen=True)
class Jolt:
    move: tuple[float, float]  # the move's start and end (s)
    time: float  # the frame whose speed jumps
    speeds: tuple[float, float]  # px a frame: the frame before's, this one's
    peak: float

    def describe(self) -> str:
        (a, b), (v0, v1) = self.move, self.speeds
        how = "sets off" if v1 > v0 else "stops"
        return (f"camera move {a:.2f}-{b:.2f} s {how} at speed at {self.time:.3f} s: {v0:.1f} -> {v1:.1f} px a frame "
                f"(its fastest {self.peak:.1f})")


def speeds(samples: Iterable[dict], fps: float) -> dict[int, float]:
    """Frame number -> how far the camera carried the cards from the frame before (px): the
    median over the cards seen in both of the farther of their boxes' two corners' steps. Only
    for samples one frame apart (at ``fps``).

    >>> card = lambda k, x, w: {"role": "card", "id": k, "opacity": 1.0, "bbox": [x, 0, x + w, 10]}
    >>> frames = [[card("a", 0, 10), card("b", 50, 10)], [card("a", 3, 10), card("b", 53, 14)], [card("a", 3, 10)]]
    >>> speeds(({"time": i / 10, "items": f} for i, f in enumerate(frames)), 10)
    {1: 5.0, 2: 0.0}
    """
    out: dict[int, float] = {}
    before: dict[str, list[float]] | None = None
    then = -2
    for s in samples:
        k, now = round(s["time"] * fps), seen_cards(s["items"])
        if before is not None and k == then + 1:
            steps = [max(math.dist(now[c][:2], before[c][:2]), math.dist(now[c][2:], before[c][2:]))
                     for c in now.keys() & before.keys()]
            out[k] = median(steps) if steps else 0.0
        before, then = now, k
    return out


def jolts(samples: Iterable[dict], moves: Sequence[tuple[float, float]], fps: float = EASE_FPS) -> list[Jolt]:
    """The frames of the camera's ``moves`` (start and end, s) whose speed differs from the frame
    before's by more than `RAMP` of the move's fastest frame (and `ROUNDING`), in consecutive
    inspect samples at ``fps``: a move set off or stopped at speed.

    >>> card = lambda x: {"role": "card", "id": "t4", "opacity": 1.0, "bbox": [x, 0, x + 100, 40]}
    >>> def frames(steps): return ({"time": i / 10, "items": [card(x)]} for i, x in enumerate(steps))
    >>> [j.describe() for j in jolts(frames([0, 0, 1, 2, 12, 22, 30, 35, 37, 37]), [(0.1, 0.8)], 10)]
    ['camera move 0.10-0.80 s sets off at speed at 0.400 s: 1.0 -> 10.0 px a frame (its fastest 10.0)']
    >>> jolts(frames([0, 0, 1, 4, 9, 15, 21, 26, 29, 30, 30]), [(0.1, 0.9)], 10)
    []
    """
    speed = speeds(samples, fps)
    out = []
    for a, b in moves:
        frames = range(math.floor(a * fps), math.ceil(b * fps) + 2)  # from still before it to still after it
        v = [(k, speed[k]) for k in frames if k in speed]
        peak = max((x for _, x in v), default=0.0)
        for (_, v0), (k, v1) in zip(v, v[1:]):
            if abs(v1 - v0) > RAMP * peak + ROUNDING:
                out.append(Jolt((a, b), k / fps, (v0, v1), peak))
    return out
