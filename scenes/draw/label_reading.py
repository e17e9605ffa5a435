"""Whose a ``.grad = None`` label reads as, in one inspected frame: a pure function over
``render inspect``'s items, beside `scenes.draw.reading.notes_astray`.

Why its own check: a note may lie nearer its own card than any other and still read as
another's. missing_gradient's ``v.grad = None`` stood left of v's bucket, 5 px from it, and 10 px
under x's card, half of it within x's width: where a card's own words go (its op name over it,
AccumulateGrad under its bucket), so it read as x's (review 6 item 12). A label is placed to
stand by no card but its own (`scenes.layout.label_spots.faces_other`); this sees the frame.
"""

from __future__ import annotations

from collections.abc import Iterable

from scenes.draw.collisions import Collision, Item
from scenes.draw.reading import notes_on
from scenes.layout.label_sides import LABEL_REACH, gap_between, kin, stands_by

NONE = repr(None)
"""What a label of a ``.grad`` that is None ends with (the log's words, ``v.grad = None``)."""


def labels_astray(items: Iterable[Item]) -> list[Collision]:
    """Every visible ``.grad = None`` label (a note, its rows and the shapes drawn in it together)
    that stands by a card or bucket not its owner's nor its kin's (a leaf's card and its bucket,
    `label_sides.kin`): over, under or beside it nearer than `LABEL_REACH` of its lines' heights
    and than a line further than by its own (`label_sides.stands_by`); or that lies nearer such
    a one than its own. ``a`` is the label's first
    row, ``b`` the card it reads as.

    >>> card = lambda i, x, y: {"kind": "shape", "role": "card", "text": None, "bbox": [x, y, x + 60, y + 20], "opacity": 1.0, "id": i}
    >>> bucket = dict(card("bucket:v", 130, 30), role="bucket", bbox=[130, 30, 160, 45])
    >>> label = lambda x: {"kind": "text", "role": "note", "text": "v.grad = None", "bbox": [x, 34, x + 50, 44], "opacity": 1.0, "id": "note:bucket:v"}
    >>> [(c.what, c.b["id"]) for c in labels_astray([card("x", 40, 0), card("v", 120, 0), bucket, label(72)])]  # under x, nearer v's bucket
    [('a None label reads as another card', 'x')]
    >>> labels_astray([card("x", 0, 0), card("v", 120, 0), bucket, label(72)])  # clear of x: v's
    []
    """
    boxes, notes = notes_on(items)
    out = []
    for nid, rows in notes.items():
        if not any((r.get("text") or "").rstrip().endswith(NONE) for r in rows):
            continue
        owner = nid.split(":", 1)[1]
        parts = rows + [b for b in boxes if b.get("id") == nid]  # its own small empty bucket too
        box = (min(r["bbox"][0] for r in parts), min(r["bbox"][1] for r in parts),
               max(r["bbox"][2] for r in parts), max(r["bbox"][3] for r in parts))
        mine = [b for b in boxes if b.get("id") != nid and kin(owner, b.get("id") or "")]
        if not mine:
            continue
        own = min(gap_between(box, tuple(b["bbox"])) for b in mine)
        reach = LABEL_REACH * max(r["bbox"][3] - r["bbox"][1] for r in rows if r["kind"] == "text")
        others = [b for b in boxes if b not in mine and b.get("id") != nid]
        by = stands_by(box, [tuple(b["bbox"]) for b in mine], [tuple(b["bbox"]) for b in others], reach)
        near = next((b for b in others if tuple(b["bbox"]) == by or gap_between(box, tuple(b["bbox"])) < own), None)
        if near is not None:
            out.append(Collision("a None label reads as another card", rows[0], near))
    return out
