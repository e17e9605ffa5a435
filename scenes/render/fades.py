"""Fades that are not: opacity read across frames for what comes in or goes out in one frame.

Why: a camera move that shows the rest of a graph at once, or takes a card out of view by
switching it off, reads as a cut, though each frame is right. Read from `render inspect`
samples, one per frame, in time order (`scenes.render.continuity` follows what blinks, jumps,
is renamed or comes loose; this module, opacity steps).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


POP_RISE = 0.5
"""Opacity a card gains from one frame to the next that no fade of the clips' pace gives it: a
fade-in over 0.3 s at 15 frames a second (the frame checks' rate) eased by ``smooth`` adds at
most about 0.42 a frame."""
POP_LEAST = 3
"""Cards that must come in at once for a pop: one card cut in is a card drawn, several are a
picture that changed without an animation bringing them."""


@dataclass(frozen=True)
class Pop:
    """Several cards that came in within one frame, at ``time``."""

    time: float
    ids: tuple[str, ...]

    def describe(self) -> str:
        return f"{len(self.ids)} cards pop in at {self.time:.2f} s: {', '.join(self.ids)}"


def pops(samples: Iterable[dict], least: int = POP_LEAST, rise: float = POP_RISE) -> list[Pop]:
    """The frames (inspect samples, one per frame, in time order) at which ``least`` cards or more
    each gained ``rise`` opacity or more since the frame before: the rest of a graph shown at once
    after a camera's glide, rather than coming in over it. The first sample has no frame before.

    >>> card = lambda i, o: {"role": "card", "id": i, "opacity": o}
    >>> def clip(*frames):
    ...     return [{"time": k / 15, "items": [card(i, o) for i, o in f]} for k, f in enumerate(frames)]
    >>> [p.describe() for p in pops(clip([("a", 1)], [("a", 1), ("b", 0.1), ("c", 0)], [("a", 1), ("b", 1), ("c", 1), ("d", 1)]))]
    ['3 cards pop in at 0.13 s: b, c, d']

    The same cards faded in over five frames do not pop.

    >>> pops(clip(*[[(i, k / 4) for i in "bcd"] for k in range(5)]))
    []
    """
    out: list[Pop] = []
    before: dict[str, float] | None = None
    for sample in samples:
        now: dict[str, float] = {}
        for it in sample["items"]:
            if it["role"] == "card" and it["id"] is not None:
                now[it["id"]] = max(now.get(it["id"], 0.0), it["opacity"])
        if before is not None:
            up = tuple(sorted(k for k, o in now.items() if o - before.get(k, 0.0) >= rise))
            if len(up) >= least:
                out.append(Pop(sample["time"], up))
        before = now
    return out


@dataclass(frozen=True)
class Drop:
    """A card inside the frame that lost ``fall`` of its opacity in the frame up to ``time``."""

    time: float
    id: str
    fall: float

    def describe(self) -> str:
        return f"card {self.id} drops {self.fall:.2f} of its opacity in one frame at {self.time:.2f} s, inside the frame"


def drops(samples: Iterable[dict], moves: Iterable[tuple[float, float]], fall: float = POP_RISE) -> list[Drop]:
    """The cards that, during a camera move (``moves``: its start and end times), lost ``fall``
    opacity or more from one frame (inspect samples, in time order) to the next while wholly inside
    the frame in both: what a move takes out of view fades with the move, as `pops` wants what it
    brings in to; it does not blink out (issue 39: L's card went from 1.0 to 0.15 in one frame).

    >>> card = lambda o, y=10: {"role": "card", "id": "t8", "opacity": o, "bbox": [10, y, 50, y + 20]}
    >>> def clip(*cards):
    ...     return [{"time": k / 15, "frame": [854, 480], "items": [c]} for k, c in enumerate(cards)]
    >>> [d.describe() for d in drops(clip(card(1.0), card(1.0), card(0.15), card(0.0)), [(0.05, 0.3)])]
    ['card t8 drops 0.85 of its opacity in one frame at 0.13 s, inside the frame']

    Faded over five frames, or carried past the frame's edge as it goes, it does not drop.

    >>> drops(clip(*[card(1 - k / 4) for k in range(5)]), [(0.0, 0.3)]), drops(clip(card(1.0, 0), card(0.1, -5)), [(0.0, 0.3)])
    ([], [])
    """
    spans = list(moves)
    out: list[Drop] = []
    before: dict[str, tuple[float, list[float]]] = {}
    for sample in samples:
        t, (w, h) = sample["time"], sample["frame"]
        now: dict[str, tuple[float, list[float]]] = {}
        for it in sample["items"]:
            if it["role"] == "card" and it["id"] is not None and it.get("bbox") is not None:
                if it["id"] not in now or it["opacity"] > now[it["id"]][0]:
                    now[it["id"]] = (it["opacity"], it["bbox"])
        if any(t0 - 1e-6 <= t <= t1 + 1e-6 for t0, t1 in spans):
            for k in now.keys() & before.keys():
                (o0, b0), (o1, b1) = before[k], now[k]
                inside = all(b[0] >= 0 and b[1] >= 0 and b[2] <= w and b[3] <= h for b in (b0, b1))
                if inside and o0 - o1 >= fall:
                    out.append(Drop(t, k, o0 - o1))
        before = now
    return out
