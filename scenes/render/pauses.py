"""Pauses in a clip's plan, and which one a move goes in: the walk's camera moves
(`scenes.render.camera_plan`) and the whole graph's move (`scenes.render.whole_plan`) take no time
of their own and go where no cue animates.

>>> pauses([(0.0, 1.0), (0.5, 2.0), (3.0, 4.0)], 0.0, 5.0)
[(2.0, 3.0), (4.0, 5.0)]
>>> pick([(2.0, 3.0), (4.0, 5.0), (5.5, 6.0)], 1.5, 0.6), pick([(0.0, 2.0), (3.0, 4.6), (5.0, 5.5)], 1.5, 0.6)
((4.0, 5.0), (3.0, 4.6))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scenes.storyboard.plan import Plan

Span = tuple[float, float]


def pauses(busy: Iterable[Span], lo: float, hi: float) -> list[Span]:
    """The stretches of ``[lo, hi]`` that none of the ``busy`` spans covers, in order."""
    out, at = [], lo
    for s, e in sorted(busy):
        if e <= at or s >= hi:
            continue
        if s > at:
            out.append((at, min(s, hi)))
        at = max(at, e)
    if at < hi:
        out.append((at, hi))
    return out


def pick(found: Sequence[Span], most: float, least: float) -> Span | None:
    """The pause a move goes in: the last at least ``most`` long, else the longest (the later
    of equals) at least ``least`` long, else None."""
    full = [p for p in found if p[1] - p[0] >= most - 1e-9]
    if full:
        return full[-1]
    fit = [p for p in found if p[1] - p[0] >= least - 1e-9]
    return max(reversed(fit), key=lambda p: p[1] - p[0]) if fit else None


def beat_at(p: Plan, t: float) -> int:
    """The beat whose span holds time ``t``."""
    return max((b.index for b in p.beats if b.start <= t + 1e-9), default=0)
