"""Pumps: what `render inspect` shows, read across frames, for a camera that goes out and comes
back in (or in and back out) within a breath.

Why: each move of the walk's camera can be smooth while the clip still pumps: dynamic_graph
82.2-84.4 s drew back from the close-up on h to fill w's bucket small, and pushed in again 1 s
later (REVIEW6 item 11). A camera move scales every card on screen by one factor, so the
graph's scale from frame to frame is read from the cards it keeps (by id): the median of their
widths' ratios, where most of them agree (a card that grows in, or whose value changes width,
is no camera). A move is a run of frames whose scale changes; a pump is two moves one after
the other, each changing the scale by ``PUMP_LEAST`` times or more, in opposite directions, with
the view between them held under ``PUMP_HOLD`` seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Iterable

from scenes.render.continuity import seen_cards
from scenes.storyboard.timings import default_timings

PUMP_LEAST = 1.25
"""How many times larger (or smaller) a move must draw the graph to count as a move in or out."""
PUMP_HOLD = default_timings().camera_hold
"""How long (s) the view between a move and the one that undoes it must be held at least: the
theme's ``camera_hold``, which the walk's camera plan keeps (`scenes.render.camera_plan`)."""
STILL = 0.004
"""A frame's change of scale (as a logarithm) under which the camera counts as still."""
AGREE = 0.03
"""How far (as a share) a card's change of width may differ from the median and still move with it."""


@dataclass(frozen=True)
class Pump:
    first: tuple[float, float, float]  # start, end, factor
    then: tuple[float, float, float]

    def describe(self) -> str:
        (a0, a1, fa), (b0, b1, fb) = self.first, self.then
        return (f"camera x{fa:.2f} at {a0:.2f}-{a1:.2f} s, then x{fb:.2f} at {b0:.2f}-{b1:.2f} s "
                f"(held {b0 - a1:.2f} s)")


def _widths(items: Iterable[dict]) -> dict[str, float]:
    return {k: b[2] - b[0] for k, b in seen_cards(items).items()}


def scale_steps(samples: Iterable[dict]) -> list[tuple[float, float]]:
    """(time of the frame before, log of the graph's change of scale to this frame) for each frame
    after the first.

    >>> card = lambda k, w: {"role": "card", "id": k, "opacity": 1.0, "bbox": [0, 0, w, 10]}
    >>> frames = [[card("a", 100), card("b", 50)], [card("a", 110), card("b", 55)], [card("a", 120), card("b", 55)]]
    >>> [(t, round(math.exp(s), 2)) for t, s in scale_steps({"time": i, "items": f} for i, f in enumerate(frames))]
    [(0, 1.1), (1, 1.0)]
    """
    out: list[tuple[float, float]] = []
    before: dict[str, float] | None = None
    then = 0.0
    for s in samples:
        now = _widths(s["items"])
        if before is not None:
            ratios = [now[k] / before[k] for k in now.keys() & before.keys() if before[k] > 1 and now[k] > 1]
            step = 0.0
            if len(ratios) >= 2:
                m = median(ratios)
                if sum(abs(r / m - 1) <= AGREE for r in ratios) * 3 >= len(ratios) * 2:
                    step = math.log(m)
            out.append((then, step))
        before, then = now, s["time"]
    return out


def pumps(samples: Iterable[dict], least: float = PUMP_LEAST, hold: float = PUMP_HOLD) -> list[Pump]:
    """The pumps in consecutive inspect samples (one per frame, in time order).

    >>> card = lambda k, w: {"role": "card", "id": k, "opacity": 1.0, "bbox": [0, 0, w, 10]}
    >>> ws = [100] * 3 + [80, 60, 50] + [50] * 5 + [70, 100] + [100] * 3
    >>> [p.describe() for p in pumps({"time": i / 10, "items": [card("a", w), card("b", w / 2)]}
    ...                               for i, w in enumerate(ws))]
    ['camera x0.50 at 0.20-0.50 s, then x2.00 at 1.00-1.20 s (held 0.50 s)']
    >>> pumps({"time": i, "items": [card("a", w), card("b", w / 2)]} for i, w in enumerate(ws))
    []
    """
    moves: list[tuple[float, float, float]] = []  # start, end, log of the factor
    run: list[tuple[float, float]] = []
    for t, step in [*scale_steps(samples), (math.inf, 0.0)]:
        if abs(step) > STILL and (not run or (step > 0) == (run[-1][1] > 0)):
            run.append((t, step))
            continue
        if run:
            moves.append((run[0][0], t, sum(x for _, x in run)))  # to the frame this step starts at
        run = [(t, step)] if abs(step) > STILL else []
    big = [m for m in moves if abs(m[2]) >= math.log(least) - 1e-9]
    out = []
    for a, b in zip(big, big[1:]):
        if (a[2] > 0) != (b[2] > 0) and b[0] - a[1] < hold:
            out.append(Pump((a[0], a[1], math.exp(a[2])), (b[0], b[1], math.exp(b[2]))))
    return out
