"""Reading checks over one inspected frame (or two in a row): what is drawn apart yet reads wrong.

A badge waiting on an arrowhead or an op name hides which way the gradient flows or which rule
ran (`waits_on_heads`); a number waiting level with a value just past its end reads as more of it
(`reads_with`, `waits_reading_on`); a note drawn nearer another card than its owner reads as the
other's (`notes_astray`). Pure functions over ``render inspect``'s items, as
`scenes.draw.collisions` is (whose `visible`, boxes and tolerances they use).
"""

from __future__ import annotations

from typing import Iterable

from scenes.draw.collisions import CONTAINERS, TOUCH, Collision, Item, _copies, _overlap, visible
from scenes.layout.label_sides import gap_between, kin
from scenes.theme import Rect


HEAD = "arrowhead"
"""The role of an arrow's head (an item of its own, inside its arrow's)."""
RESTS_OFF = {HEAD: "an arrowhead", "label": "a label"}
"""What a waiting badge keeps off, by role: an arrowhead (it says which way the gradient flows)
and a label (an op name beside its card or on an edge, ``mul``, ``** 2``; a card's name), which
`collisions` lets a token riding away from that card cross, and so lets it rest on."""


def waits_on_heads(before: Iterable[Item], items: Iterable[Item]) -> list[Collision]:
    """Every visible badge of a frame that stands exactly where it stood in the frame ``before``
    (waiting, not riding: a token may pass over a head or a tag on its way) and covers a
    visible arrowhead or label (`RESTS_OFF`) standing where it stood too (a head turning round
    with its edge may pass under a badge on its way): the head says which way the gradient
    flows, and a number waiting on it hides that (issue 39: at the end of a short edge, every
    waiting token covered it); a number waiting on an op name (L's ``** 2`` drawn below L, on
    the edge where the token from L waits) hides which rule ran.

    >>> head = {"kind": "shape", "role": "arrowhead", "text": None, "bbox": [10, 10, 16, 16], "opacity": 1.0, "id": "t1->t2"}
    >>> badge = {"kind": "text", "role": "badge", "text": "4/3", "bbox": [8, 8, 30, 20], "opacity": 1.0, "id": None}
    >>> [c.what for c in waits_on_heads([badge, head], [head, badge])], waits_on_heads([head], [head, badge])
    (['badge waits on an arrowhead'], [])
    >>> turning = dict(head, bbox=[12, 12, 18, 18])
    >>> waits_on_heads([badge, head], [turning, badge])
    []
    >>> tag = {"kind": "text", "role": "label", "text": "** 2", "bbox": [20, 12, 40, 18], "opacity": 1.0, "id": "t8"}
    >>> [c.what for c in waits_on_heads([badge, tag], [tag, badge])]
    ['badge waits on a label']
    """
    before = list(before)
    still = {(b["text"], tuple(b["bbox"])) for b in before if b["role"] == "badge"}
    set_marks = {(h["role"], h["id"], tuple(h["bbox"])) for h in before if h["role"] in RESTS_OFF}
    seen = visible(items)
    marks = [i for i in seen if i["role"] in RESTS_OFF and (i["role"], i["id"], tuple(i["bbox"])) in set_marks]
    return [Collision(f"badge waits on {RESTS_OFF[h['role']]}", b, h) for b in seen
            if b["role"] == "badge" and (b["text"], tuple(b["bbox"])) in still for h in marks if _overlap(b, h)]


READS_ON = 4.0
"""How many of a value's heights past its end a number waiting level with it reads as more of
it: L1's ``= 4`` and the gradient ``1`` waiting beside the card read ``= 4 1`` (issue 39, as
``z - 1 2`` did)."""


def reads_with(value: Item, badge: Item) -> bool:
    """Whether ``badge`` lies level with ``value`` (sharing a third of its height or more) and
    starts past its end within `READS_ON` of its heights: the two read as one number.

    >>> four = {"kind": "text", "role": "value", "text": "4", "bbox": [708, 110, 720, 127], "opacity": 1.0, "id": "t5"}
    >>> one = {"kind": "text", "role": "badge", "text": "1", "bbox": [771, 118, 786, 140], "opacity": 1.0, "id": "t5"}
    >>> reads_with(four, one), reads_with(four, dict(one, bbox=[771, 80, 786, 102]))  # off the corner: apart
    (True, False)
    """
    (vx0, vy0, vx1, vy1), (bx0, by0, _, by1) = value["bbox"], badge["bbox"]
    h = vy1 - vy0
    return min(vy1, by1) - max(vy0, by0) >= h / 3 and vx1 - TOUCH <= bx0 <= vx1 + READS_ON * h


def waits_reading_on(before: Iterable[Item], items: Iterable[Item]) -> list[Collision]:
    """Every visible badge standing where it stood in the frame ``before`` (waiting, as
    `waits_on_heads` tells) that reads as more of a visible value (`reads_with`), or of a rule's
    result: the product pill ending a note's row ``... =`` (REVIEW5: the seed ``1`` beside
    ``1 × 2 × 2 = 4`` read ``= 4 1``), standing where it stood too: a token riding off from its
    product, passing the end of the next row a moment, is on its way, not that row's result
    (weighted_sum4 1:1: the ``1`` leaving t12's first row, past the second's ``1 × 1 = 1``).

    >>> four = {"kind": "text", "role": "value", "text": "4", "bbox": [708, 110, 720, 127], "opacity": 1.0, "id": "t5"}
    >>> one = {"kind": "text", "role": "badge", "text": "1", "bbox": [771, 118, 786, 140], "opacity": 1.0, "id": "t5"}
    >>> [c.what for c in waits_reading_on([one], [four, one])], waits_reading_on([], [four, one])
    (['badge reads as more of a value'], [])
    >>> row = {"kind": "text", "role": "note", "text": "1 × 2 × 2 =", "bbox": [416, 142, 557, 159], "opacity": 1.0, "id": "note:t5"}
    >>> pill = dict(four, role="badge", bbox=[562, 137, 584, 164], id="t4->t5")
    >>> seed = dict(one, bbox=[586, 122, 606, 149])
    >>> [c.what for c in waits_reading_on([seed, pill], [row, pill, seed])]
    ["badge reads as more of a rule's result"]
    >>> waits_reading_on([seed], [row, pill, seed])  # the pill riding past the row's end
    []
    """
    still = {(b["text"], tuple(b["bbox"])) for b in before if b["role"] == "badge"}
    seen = visible(items)
    rows = [n for n in seen if n["role"] == NOTE and (n.get("text") or "").rstrip().endswith("=")]
    results = [p for p in seen if p["role"] == "badge" and (p["text"], tuple(p["bbox"])) in still
               and any(reads_with(n, p) for n in rows)]
    values = [(v, "value") for v in seen if v["role"] == "value"] + [(p, "rule's result") for p in results]
    return [Collision(f"badge reads as more of a {what}", b, v) for b in seen
            if b["role"] == "badge" and (b["text"], tuple(b["bbox"])) in still
            for v, what in values if v is not b and not _copies(v, b) and reads_with(v, b)]


NOTE = "note"
"""The role of a row of a visit's or a bucket's note; its id is ``note:OWNER`` (and a shape drawn in
the note, such as the empty bucket of ``yh.grad = None``, has that id too)."""


def notes_on(items: Iterable[Item]) -> tuple[list[Item], dict[str, list[Item]]]:
    """The visible cards and buckets of ``items``, and the visible notes' rows by note id."""
    seen = visible(items)
    boxes = [i for i in seen if i["kind"] == "shape" and i["role"] in CONTAINERS]
    notes: dict[str, list[Item]] = {}
    for i in seen:
        if i["role"] == NOTE and i.get("id"):
            notes.setdefault(i["id"], []).append(i)
    return boxes, notes


def _gap(a: list[float], b: list[float]) -> float:
    return gap_between((a[0], a[1], a[2], a[3]), (b[0], b[1], b[2], b[3]))


def notes_astray(items: Iterable[Item]) -> list[Collision]:
    """Every visible note (its rows' boxes together) that lies nearer another card or bucket
    than its owner's: it reads as the other's (issue 39: yh's rule drawn level with s and z).
    ``a`` is the note's first row, ``b`` the card it lies nearer.

    >>> card = lambda i, x: {"kind": "shape", "role": "card", "text": None, "bbox": [x, 0, x + 40, 20], "opacity": 1.0, "id": i}
    >>> note = {"kind": "text", "role": "note", "text": "mul: x", "bbox": [45, 0, 80, 10], "opacity": 1.0, "id": "note:t1"}
    >>> notes_astray([card("t1", 0), card("t2", 200), note])
    []
    >>> [(c.what, c.b["id"]) for c in notes_astray([card("t1", 200), card("t2", 0), note])]
    [('a note nearer another card than its own', 't2')]
    >>> mark = dict(card("note:t1", 82), role="bucket")  # the note's own empty bucket (`yh.grad = None`)
    >>> notes_astray([card("t1", 0), card("t2", 200), note, mark])
    []
    """
    boxes, notes = notes_on(items)
    out = []
    for nid, rows in notes.items():
        owner = nid.split(":", 1)[1]
        parts = rows + [b for b in boxes if b.get("id") == nid]  # a shape drawn in the note is part of it
        box = [min(r["bbox"][0] for r in parts), min(r["bbox"][1] for r in parts),
               max(r["bbox"][2] for r in parts), max(r["bbox"][3] for r in parts)]
        mine = [b for b in boxes if kin(owner, b.get("id") or "")]  # a bucket's note reads as its leaf's too
        own = [_gap(box, b["bbox"]) for b in mine]
        if not own:
            continue
        near = min((b for b in boxes if b not in mine and b.get("id") != nid), key=lambda b: _gap(box, b["bbox"]),
                   default=None)
        if near is not None and _gap(box, near["bbox"]) < min(own):
            out.append(Collision("a note nearer another card than its own", rows[0], near))
    return out


def reading_run(box: Rect) -> Rect:
    """``box`` (a value, a product pill) and the run right of it where another number level with
    it reads as more of it, `READS_ON` of its heights (`reading.reads_with`)."""
    left, bottom, right, top = box
    return (left, bottom, right + READS_ON * (top - bottom), top)


def reading_over(box: Rect) -> Rect:
    """``box`` (a written line: a fill's sum, ``... = 138.83``) and `STACKS_ON` of its heights over
    and under it: a number standing there reads as one of the line's, a term or its result
    (micrograd_readme 16:9: b's ``-27.77``, waiting for its bucket's fill, stood 6 px over the end
    of a's sum as it was written; moved off a band of a height, 12 px over, it still read so, and
    moved off the end only, it stood over a's own ``-27.77``).

    >>> reading_over((0.0, 10.0, 100.0, 15.0))
    (0.0, 0.0, 100.0, 25.0)
    """
    left, bottom, right, top = box
    h = top - bottom
    return (left, bottom - STACKS_ON * h, right, top + STACKS_ON * h)


STACKS_ON = 2.0
"""How many of a line's heights over or under it a number reads as stacked on it (`reading_over`)."""


def reading_back(box: Rect) -> Rect:
    """``box`` (a badge waiting) and the run left of it where a number ending there, level with it,
    reads it as more of that number, `READS_ON` of its heights (`reading.reads_with`, the other
    way round from `reading_run`).

    >>> reading_back((10.0, 0.0, 20.0, 5.0))
    (-10.0, 0.0, 20.0, 5.0)
    """
    left, bottom, right, top = box
    return (left - READS_ON * (top - bottom), bottom, right, top)
