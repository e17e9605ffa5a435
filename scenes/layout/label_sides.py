"""Which side of its box a label goes (``v.grad = None``): where it stands by no other card.

Why its own module: a note nearer its own card than any other (`note_spots.astray`) may still
read as another's. missing_gradient's ``v.grad = None`` stood left of v's bucket, 5 px from it,
and 10 px under x's card, more than half of it within x's width: where a card's own words go
(its op name over it, AccumulateGrad under its bucket), so it read as x's (review 6 item 12). A
label stands over, under or beside no card but its own and its kin (a leaf's card and bucket)
nearer than its reach: on its box's far side from them. The clip's frame check reads the same
rule (`scenes.draw.label_reading`).
"""

from __future__ import annotations

import math

from scenes.layout.place import Box, Layout
from scenes.theme import Rect


def gap_between(a: Rect, b: Rect) -> float:
    """The distance between two rectangles (left, bottom, right, top): 0 when they meet.

    >>> gap_between((0, 0, 1, 1), (4, 5, 6, 6))
    5.0
    """
    dx = max(0.0, b[0] - a[2], a[0] - b[2])
    dy = max(0.0, b[1] - a[3], a[1] - b[3])
    return math.hypot(dx, dy)




BUCKET = "bucket:"
"""How a leaf's bucket's id starts (``bucket:ID``, `scenes.layout.place`)."""
LABEL_REACH = 2.0
"""How near another card a label (``v.grad = None``) may not stand over, under or beside it, in
its lines' heights (`faces_other`): 10 px under x's card read as x's at 16:9 (a line 14 px), 56
px over w's did not."""


def faces(label: Rect, card: Rect, reach: float) -> bool:
    """Whether a label stands over or under a card (half its width or more within the card's,
    nearer than ``reach``) or level beside it (half its height within the card's): where a
    card's own words go (its op name over it, AccumulateGrad under its bucket, a badge beside).

    >>> faces((0, 2, 4, 3), (1, 0, 6, 1.5), 1.0), faces((0, 2, 4, 3), (3, 0, 6, 1.5), 1.0)  # over; a corner
    (True, False)
    >>> faces((0, 0, 2, 1), (2.5, 0.2, 5, 2), 1.0), faces((0, 2, 4, 3), (1, 0, 6, 0.5), 1.0)  # beside; too far
    (True, False)
    """
    gap = facing_gap(label, card)
    return gap is not None and gap < reach


def kin(box_id: str, other: str) -> bool:
    """Whether ``other`` is ``box_id`` or its card or bucket: a leaf's card over its own bucket
    (``bucket:ID`` and ``ID``).

    >>> kin("bucket:v", "v"), kin("v", "bucket:v"), kin("v", "v"), kin("v", "note:v"), kin("v", "bucket:w")
    (True, True, True, False, False)
    """
    return other in (box_id, BUCKET + box_id) or box_id == BUCKET + other


def facing_gap(label: Rect, card: Rect) -> float | None:
    """How far a label stands over, under or beside a card (`faces`), None where it does not."""
    across = min(label[2], card[2]) - max(label[0], card[0])
    along = min(label[3], card[3]) - max(label[1], card[1])
    if across >= (label[2] - label[0]) / 2 and along <= 0:
        return -along
    if along >= (label[3] - label[1]) / 2 and across <= 0:
        return -across
    return None


def stands_by(label: Rect, mine: list[Rect], others: list[Rect], reach: float) -> Rect | None:
    """The first of ``others`` a label stands by (`faces`) nearer than ``reach``, and no more
    than a line (``reach`` / `LABEL_REACH`) further than it stands by one of ``mine``: level
    beside its own card, 5 px off, a label 30 px over the card under it reads as its own's
    (leaf_nodes' ``yh.grad = None``); 10 px under x, it read as x's. None: it reads as its own."""
    line = reach / LABEL_REACH
    own = min((g for g in (facing_gap(label, b) for b in mine) if g is not None), default=math.inf)
    return next((o for o in others if (g := facing_gap(label, o)) is not None and g < min(reach, own + line)), None)


def faces_other(lay: Layout, box: Box, label: Rect, reach: float) -> bool:
    """Whether a label of ``box``'s (``v.grad = None``) stands by another card or bucket than
    ``box`` and its kin (`stands_by`): it reads as that one's though it stands by its own too
    (review 6 item 12: left of v's bucket, 5 px from it, it stood 10 px under x's card).

    >>> from scenes.layout.detail import Detail
    >>> x, v = Box("x", "leaf", 0.0, 1.0, 2.0, 0.8), Box("bucket:v", "bucket", 2.0, 0.4, 0.8, 0.5)
    >>> lay = Layout("16:9", (-1.5, -0.6, 4.0, 1.6), "up", 1.0, Detail.FULL, {"x": x, "bucket:v": v}, (), (), {})
    >>> [faces_other(lay, v, (x - 0.7, 0.25, x + 0.7, 0.55), 0.4) for x in (0.9, 3.1)]  # under x; past v
    [True, False]
    """
    mine = [b.bounds for b in lay.boxes.values() if b.id == box.id or kin(box.id, b.id)]
    others = [b.bounds for b in lay.boxes.values() if b.id != box.id and not kin(box.id, b.id)]
    return stands_by(label, mine, others, reach) is not None
