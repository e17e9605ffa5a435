"""A gradient dropped into its bucket: the token glides from where it waits into the bucket's
mouth, above its number, and fades there as the level rises and the new ``.grad`` shows.

Why one motion: a token that fades beside its bucket, and a level that rises after it on its
own, read as two events; the learner is to see the number go into ``w.grad`` (REVIEW2 item 10).
The bucket's refill (:mod:`scenes.draw.refill`) takes its times from the same `DropTiming`: the
level rises as the token lands, and the value the bucket held gives way to the new one once it
has, with no moment without a number (a blink). The token lands above the number, so the two
are never over each other (`scenes.draw.bucket_mouth.BucketMouths.mouth`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from dataclasses import dataclass

import numpy as np
from manim import Animation, Mobject, smooth
from manim.utils.rate_functions import linear


@dataclass(frozen=True)
class DropTiming:
    """The parts of a bucket_fill cue (fractions of its run time) that a drop keeps to."""

    appear: float  # a token not shown yet fades in where it waits, by then (one waiting: none)
    arrive: float  # the token is in the bucket's mouth; the level starts to rise, the old value to fade
    gone: float  # the token has faded out there
    swap: float  # the old value has faded out, and the new one starts to fade in (never a gap: a blink)

    def window(self, t: float, lo: float, hi: float) -> float:
        """How far ``t`` is through [lo, hi], from 0 to 1."""
        return min(1.0, max(0.0, (t - lo) / max(hi - lo, 1e-9)))


DROP = DropTiming(appear=0.15, arrive=0.45, gone=0.6, swap=0.72)
"""At 0.8 s a fill: the token moves for about 0.35 s and is gone by 0.5 s; the level rises from
0.35 s; the value the bucket held gives way to the new one at about 0.6 s."""
SINK = DropTiming(appear=DROP.appear, arrive=DROP.arrive, gone=DROP.swap, swap=DROP.swap)
"""Tokens already in the bucket's mouth (what met there, `BucketMouths.meet_in_mouth`) stay, and
fade as the level rises until the new value shows: never an empty bucket between."""
COLUMN = DropTiming(appear=DROP.appear, arrive=0.6, gone=DROP.swap, swap=DROP.swap)
"""Terms shown one over another over their leaf's card (no room beside its bucket,
`scenes.draw.buckets.Buckets._terms_over_mouth`): shown, they go down into the mouth at one
pace (``steady``) for most of the fill, and are gone as the new value shows."""
FADE_LEAD = 0.1
"""The token starts fading this much (of the cue) before it arrives: still drawn while it moves,
as `scenes.render.flight` wants, and half gone as it stops."""


class DropIn(Animation):
    """``token`` moves to ``to`` by ``timing.arrive`` (to its height in the first half) (after fading in by
    ``timing.appear`` where ``fade_in``), then fades out there by ``timing.gone`` (not shrunk: a badge's
    number is never drawn under the least readable size, `scenes.draw.collisions.too_small`);
    removed at the end. Placed from where it started at every frame (as `RideBehind`), so a beat
    taken to its end without drawing leaves it where drawing does. ``steady``: across, then down,
    at one pace all the way to ``timing.arrive`` (terms one over another over the leaf's card,
    `COLUMN`: none stands still on the bucket's arrowhead, nor sits on another before it lands; one
    stepped out of the column's line over a label beside the bucket, `scenes.layout.term_column`,
    steps back in above it first)."""

    def __init__(self, token: Mobject, to: Sequence[float], timing: DropTiming = DROP, *,
                 fade_in: bool = False, steady: bool = False, **kwargs: Any) -> None:
        self.to = np.array([float(to[0]), float(to[1]), 0.0])
        self.timing, self.fade_in, self.steady = timing, fade_in, steady
        super().__init__(token, rate_func=linear, remover=True, **kwargs)

    def begin(self) -> None:
        self._alphas = [(m, [(name, getattr(m, name)[:, 3].copy()) for name in ("fill_rgbas", "stroke_rgbas")
                             if len(getattr(m, name, ()))]) for m in self.mobject.get_family()]
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        tm = self.timing
        start = self.starting_mobject.get_center()
        off = tm.appear if self.fade_in else 0.0
        # up or down to the mouth's height first, then across: from a row level with the leaf's
        # card it goes under the card's corner, not across it
        moved = np.array([smooth(tm.window(alpha, off, tm.arrive)),
                          smooth(tm.window(alpha, off, (off + tm.arrive) / 2)), 0.0])
        if self.steady:  # across, then down, at one pace along the way (straight down where it is over it)
            moved = along_l(self.to - start, smooth(tm.window(alpha, off, tm.arrive)))
        fading = tm.window(alpha, tm.arrive - FADE_LEAD, tm.gone)
        shown = (tm.window(alpha, 0.0, tm.appear) if self.fade_in else 1.0) * (1.0 - fading)
        shift = (self.to - start) * moved
        for m, s in zip(self.mobject.get_family(), self.starting_mobject.get_family(), strict=True):
            m.points = s.points + shift
        for m, arrays in self._alphas:
            for name, first in arrays:
                getattr(m, name)[:, 3] = first * shown


def along_l(way: np.ndarray, s: float) -> np.ndarray:
    """How far across and down (each 0 to 1) a drop ``way`` (x, y) is, ``s`` of the way along it
    at one pace, across first: straight down where it has no way across.

    >>> [along_l(np.array([1.0, -3.0, 0.0]), s)[:2].tolist() for s in (0.25, 0.5, 1.0)]
    [[1.0, 0.0], [1.0, 0.3333333333333333], [1.0, 1.0]]
    >>> along_l(np.array([0.0, -2.0, 0.0]), 0.5)[:2].tolist()
    [1.0, 0.5]
    """
    across, down = abs(float(way[0])), abs(float(way[1]))
    share = across / (across + down) if across + down > 1e-12 else 1.0
    return np.array([min(1.0, s / share) if share > 0 else 1.0,
                     max(0.0, (s - share) / (1.0 - share)) if share < 1.0 else 1.0, 0.0])
