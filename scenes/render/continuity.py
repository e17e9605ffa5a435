"""Blinks: what `render inspect` shows, read across frames, for things that vanish and come back.

Why: each frame of a clip can be right while the clip flickers; a card gone for three frames
while its arrows turn, or a caption bar that goes at every caption change, is seen only between
frames. An item is known by its role and id (a card `t4`, the caption bar `caption`, a code line
`line 3`); it blinks when it is on screen, then not for less than ``BLINK`` seconds, then back.
Items with no id are not followed (a label of nothing in particular cannot be told from the next).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

BLINK = 0.5
"""Seconds: gone for less than this and back reads as a blink, not as a change."""
SEEN = 0.05
"""Opacity below which an item counts as gone."""


@dataclass(frozen=True)
class Blink:
    role: str
    id: str
    gone: float
    back: float

    def describe(self) -> str:
        return f"{self.role} {self.id} gone {self.gone:.2f}-{self.back:.2f} s"


def blinks(samples: Iterable[dict]) -> list[Blink]:
    """The blinks in consecutive inspect samples (one per frame, in time order).

    >>> card = {"role": "card", "id": "t4", "opacity": 1.0}
    >>> frames = [[card], [], [card]]
    >>> [b.describe() for b in blinks({"time": i / 15, "items": f} for i, f in enumerate(frames))]
    ['card t4 gone 0.07-0.13 s']
    """
    was_on: set[tuple[str, str]] = set()
    gone_at: dict[tuple[str, str], float] = {}  # an item seen before -> when it was first missed
    out: list[Blink] = []
    for sample in samples:
        t = sample["time"]
        on = {(it["role"], it["id"]) for it in sample["items"] if it["id"] is not None and it["opacity"] >= SEEN}
        for key in on & gone_at.keys():
            if t - gone_at[key] < BLINK:
                out.append(Blink(key[0], key[1], gone_at[key], t))
            del gone_at[key]
        for key in was_on - on:
            gone_at[key] = t
        was_on = on
    return out
