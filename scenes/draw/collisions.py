"""Collisions in one inspected frame: a pure function over ``render inspect``'s items.

What counts (docs/inspect.md): two texts that overlap (a badge over an op name, a label over a
value inside a card); a text on a card or a bucket it does not belong to (its ``id`` differs from
the card's); two cards or buckets over each other; and anything reaching out of the frame. Only
what is visible counts: an item fainter than ``MIN_OPACITY`` (one fading in from nothing, a
bucket's empty liquid, a card under the loss curve's opaque panel) cannot hide anything. Boxes touching within ``TOUCH`` pixels are not an
overlap: a glyph's box is taken from its outline's control points, a little outside its ink.

>>> a = {"kind": "text", "role": "label", "text": "pow", "bbox": [10, 10, 30, 20], "opacity": 1.0, "id": "t8"}
>>> b = {"kind": "text", "role": "badge", "text": "4/3", "bbox": [25, 12, 45, 22], "opacity": 1.0, "id": None}
>>> [c.what for c in collisions([a, b], (854, 480))]
['texts overlap']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from scenes.draw.shown_numbers import MIN_SHOWN

MIN_OPACITY = 0.1
"""Items fainter than this are not visible enough to collide."""
TOUCH = 0.5
"""Pixels two boxes may share (or an item may pass the frame's edge) without colliding."""
CONTAINERS = frozenset({"card", "bucket"})
"""Shape roles that hold texts of their own: a text on one must be one of its own."""
RING = "ring"
"""The role of the backward walk's ring round the card it visits (its box the ring's outline):
a text beside the card must keep off it, as off another card (`_on_ring`)."""
PANEL = "panel"
"""The role of an opaque backdrop drawn over part of the picture: what lies wholly under it is
hidden by as much as it is opaque (`visible`)."""

Item = dict[str, Any]


@dataclass(frozen=True)
class Collision:
    """``what`` collided: ``a`` and ``b`` (``b`` is None for an item leaving the frame)."""

    what: str
    a: Item
    b: Item | None = None

    def describe(self) -> str:
        """One line naming the items: ``texts overlap: label 'pow' (t8) [..] / badge '4/3' [..]``."""
        parts = [_name(self.a)] + ([_name(self.b)] if self.b is not None else [])
        return f"{self.what}: " + " / ".join(parts)


def _name(item: Item) -> str:
    text = f" {item['text']!r}" if item.get("text") is not None else ""
    who = f" ({item['id']})" if item.get("id") is not None else ""
    return f"{item['role']}{text}{who} {item['bbox']}"


def _overlap(a: Item, b: Item) -> bool:
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a["bbox"], b["bbox"]
    return min(ax1, bx1) - max(ax0, bx0) > TOUCH and min(ay1, by1) - max(ay0, by0) > TOUCH


def _outside(item: Item, width: float, height: float) -> bool:
    x0, y0, x1, y1 = item["bbox"]
    return x0 < -TOUCH or y0 < -TOUCH or x1 > width + TOUCH or y1 > height + TOUCH


TALL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789bdfhiklt()[]{}/|!?%&#$@")
"""Glyphs that reach the cap height (capitals, digits, ascenders, brackets)."""
LOW = frozenset("gjpqy(),;[]{}|_")
"""Glyphs that reach below the baseline."""
X_TO_CAP = 1.4
"""A cap height over an x-height: a text of short lowercase letters only (``mul``) is measured by
its x-height, so it counts as that much taller."""
CAP_TO_LOW = 1.25
"""How much taller than the cap height a box is that reaches below the baseline too."""
GROWING = 1.0
"""A text box less tall than this many pixels is a text growing from a point (or shrinking to
one) in its first or last frame, not a text drawn small."""
SHORT_SIDE = 480
"""The frame side the minimum is given for: 854x480 (and 480x854, 480x480); 1080p needs 2.25x."""
BOX_ROUNDING = 0.2
"""Pixels a text's box may read shorter in the record than it is drawn: `record.Frame.box`
rounds each edge to 0.1 px (a text at the least size must still measure its glyphs there)."""


def glyph_height(item: Item) -> float:
    """A text's glyph height in pixels, from its box (docs/inspect.md): the box's height is the
    cap height when the text has a capital, digit or tall letter and nothing below the baseline;
    less the descender (``/ CAP_TO_LOW``) when something reaches below it; a text of short
    lowercase letters only is its x-height, taken to a cap height (``* X_TO_CAP``). A badge's box
    is its pill's: its number is measured in the same way (the pill's pad makes it generous)."""
    x0, y0, x1, y1 = item["bbox"]
    text = item.get("text") or ""
    h = y1 - y0
    if any(c in LOW for c in text):
        h /= CAP_TO_LOW
    if not any(c in TALL for c in text):
        h *= X_TO_CAP
    return h


MAIN_ROLES = frozenset({"value"})
"""Text roles that are a value (a card's, a bucket's, a unit's): they keep the larger floor
(`too_small`'s ``main_px``). A badge (a gradient riding an edge) keeps the 9 px floor still: 11 px
badges space a 1:1 graph's layers otherwise and put a tag beside the wrong card (not done)."""


def is_main(item: Item, items: Iterable[Item]) -> bool:
    """Whether a text is a value or a name: one of `MAIN_ROLES`, or the top label inside a card
    of its own id (the card's name; its grad_fn row under it, an op name or AccumulateGrad beside
    it are secondary)."""
    if item["role"] in MAIN_ROLES:
        return True
    if item["role"] != "label" or item.get("id") is None:
        return False
    items = list(items)
    cards = [c["bbox"] for c in items if c["role"] == "card" and c.get("id") == item["id"]]

    def inside(t: Item) -> bool:
        x0, y0, x1, y1 = t["bbox"]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        return any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in cards)

    own = [t for t in items if t["role"] == "label" and t.get("id") == item["id"] and inside(t)]
    return item in own and min(t["bbox"][1] for t in own) >= item["bbox"][1] - TOUCH


def too_small(items: Iterable[Item], frame: tuple[float, float] | list[float], min_px: float,
              main_px: float | None = None) -> list[Collision]:
    """Every visible text of one frame whose glyph height (`glyph_height`) is under ``min_px``
    pixels at an 854x480 frame, scaled with the frame's short side (a 1080p frame needs 2.25x);
    with ``main_px``, values and names (`is_main`) need that many instead (the theme's
    ``font_sizes.min_glyph_main_px``). A box under ``GROWING`` pixels tall is a text growing
    from a point and is not measured, nor is a mark with no letter or digit (a card's ``=``
    between its name and value): its glyph is low by design, at its row's size.

    >>> t = {"kind": "text", "role": "label", "text": "AccumulateGrad", "bbox": [0, 0, 60, 5.7], "opacity": 1.0, "id": None}
    >>> [c.what for c in too_small([t], (854, 480), 9)], too_small([t], (854, 480), 5)
    (['text under 9 px'], [])
    >>> v = {"kind": "text", "role": "value", "text": "4/9", "bbox": [0, 0, 20, 10], "opacity": 1.0, "id": "t1"}
    >>> too_small([v], (854, 480), 9), [c.what for c in too_small([v], (854, 480), 9, 11)]
    ([], ['text under 11 px'])
    >>> too_small([{**t, "text": "="}], (854, 480), 9)
    []
    """
    seen = visible(items)
    out = []
    for i in seen:
        if i["kind"] != "text" or not i.get("text") or i["bbox"][3] - i["bbox"][1] < GROWING:
            continue
        if not any(c.isalnum() for c in i["text"]):
            continue
        px = main_px if main_px is not None and is_main(i, seen) else min_px
        if glyph_height(i) < px * min(frame) / SHORT_SIDE:
            out.append(Collision(f"text under {px:g} px", i))
    return out


def _inside(a: Item, b: Item) -> bool:
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a["bbox"], b["bbox"]
    return ax0 >= bx0 - TOUCH and ay0 >= by0 - TOUCH and ax1 <= bx1 + TOUCH and ay1 <= by1 + TOUCH


def visible(items: Iterable[Item]) -> list[Item]:
    """The items that show: at least ``MIN_OPACITY`` opaque once every ``panel`` drawn after
    one and wholly over it has let through what it lets through (an opaque backdrop, the loss
    curve's, hides the cards under it; one fading in lets them through less and less).

    >>> card = {"kind": "shape", "role": "card", "text": None, "bbox": [10, 10, 30, 20], "opacity": 1.0, "id": "t1"}
    >>> panel = {"kind": "shape", "role": "panel", "text": None, "bbox": [0, 0, 100, 50], "opacity": 0.95, "id": None}
    >>> [i["role"] for i in visible([card, panel])], [i["role"] for i in visible([panel, card])]
    (['panel'], ['panel', 'card'])
    """
    items = list(items)
    panels = [(n, b) for n, b in enumerate(items) if b["role"] == PANEL]
    out = []
    for n, a in enumerate(items):
        shown = a["opacity"]
        for k, b in panels:
            if k > n and _inside(a, b):
                shown *= 1.0 - b["opacity"]
        if shown >= MIN_OPACITY:
            out.append(a)
    return out


def _copies(a: Item, b: Item) -> bool:
    """Whether two badges are one number and its copy: a gradient token setting off from the
    product it carries away (the same arrow's id and the same number), which stays in its note;
    or one number on its ways to one node (``SRC->...``), or becoming that node's badge (id
    ``SRC``). Over each other they read as the one number.

    >>> pill = {"kind": "text", "role": "badge", "text": "4/3", "bbox": [0, 0, 20, 10], "opacity": 1.0, "id": "t7->t8"}
    >>> _copies(pill, dict(pill, bbox=[5, 0, 25, 10])), _copies(pill, dict(pill, text="8/3")), _copies(pill, dict(pill, id=None))
    (True, False, False)
    >>> _copies(pill, dict(pill, id="t7")), _copies(pill, dict(pill, id="t7->t9")), _copies(pill, dict(pill, id="t8"))
    (True, True, False)
    """
    if a["role"] != "badge" or b["role"] != "badge" or a.get("text") != b.get("text"):
        return False
    ends = [(i or "").split("->")[0] for i in (a.get("id"), b.get("id"))]  # the node each rides to, or is of
    return a.get("id") is not None and (a.get("id") == b.get("id") or (ends[0] == ends[1] != ""))


def _leaving(a: Item, b: Item) -> bool:
    """Whether one of two items is a gradient token riding over what its way may cross (a badge
    of the arrow ``SRC->DST``): the card DST it leaves, that card's texts and its visit's note
    (from its product in the note beside the node, its way crosses the node, drawn over it, on
    to the edge; the note's other products and the tokens setting off from them), or a dimmed
    card's (out of the walk, under `MIN_SHOWN`: one standing between a note and its node); and
    a token riding a bucket's arrow (``bucket:X->X``) over that bucket, in whose mouth it waits.

    >>> tok = {"kind": "text", "role": "badge", "text": "4/3", "bbox": [0, 0, 20, 10], "opacity": 1.0, "id": "t7->t8"}
    >>> card = {"kind": "shape", "role": "card", "text": None, "bbox": [0, 0, 60, 30], "opacity": 1.0, "id": "t8"}
    >>> _leaving(tok, card), _leaving(card, tok), _leaving(tok, dict(card, id="t7")), _leaving(tok, dict(card, id="t3", opacity=0.2))
    (True, True, False, True)
    >>> _leaving(tok, dict(tok, id="t2->t8")), _leaving(tok, dict(tok, id="t8->t9")), _leaving(tok, dict(card, id="note:t8"))
    (True, False, True)
    >>> drop = dict(tok, id="bucket:t8->t8")  # riding the bucket's arrow into its mouth
    >>> _leaving(drop, dict(card, role="bucket", id="bucket:t8")), _leaving(drop, dict(card, role="bucket", id="bucket:t9"))
    (True, False)
    """
    def rides_over(t: Item, c: Item) -> bool:
        ident, other = t.get("id") or "", c.get("id")
        if t["role"] != "badge" or "->" not in ident or other is None:
            return False
        into, node = ident.split("->")[0], ident.split("->")[-1]
        return (other in (node, f"note:{node}") or (c["role"] == "badge" and other.endswith(f"->{node}"))
                or (other == into and into.startswith("bucket:"))  # into the bucket it rides to: its mouth
                or (c["opacity"] < MIN_SHOWN and "->" not in other))

    return rides_over(a, b) or rides_over(b, a)


def collisions(items: Iterable[Item], frame: tuple[float, float] | list[float]) -> list[Collision]:
    """Every collision among the visible ``items`` (`visible`) of one frame of size ``frame`` (w, h)."""
    width, height = frame
    seen = visible(items)
    texts = [i for i in seen if i["kind"] == "text"]
    boxes = [i for i in seen if i["kind"] == "shape" and i["role"] in CONTAINERS]
    out = [Collision("leaves the frame", i) for i in seen if _outside(i, width, height)]
    for n, a in enumerate(texts):
        out += [Collision("texts overlap", a, b) for b in texts[n + 1:]
                if _overlap(a, b) and not _copies(a, b) and not _leaving(a, b)]
    for t in texts:
        out += [Collision(f"text on a {c['role']} not its own", t, c) for c in boxes
                if (t.get("id") is None or t.get("id") != c.get("id")) and _overlap(t, c) and not _leaving(t, c)]
    for n, a in enumerate(boxes):
        out += [Collision(f"{a['role']} on a {b['role']}", a, b) for b in boxes[n + 1:]
                if a.get("id") != b.get("id") and _overlap(a, b)]
    rings = [i for i in seen if i["kind"] == "shape" and i["role"] == RING]
    out += [Collision("text on a ring", t, r) for r in rings for t in texts if _on_ring(t, r, boxes)]
    return out


def _on_ring(text: Item, ring: Item, boxes: list[Item]) -> bool:
    """Whether ``text`` lies on the walk's ``ring`` round a card: over the ring's box and not
    inside the card (or bucket) it rings, whose own texts are; a token riding away from that
    card crosses it (`_leaving`), and a bucket's own token drops over it into its mouth. A rule
    beside the card starting under the ring reads with its first letters hidden (issue 39:
    leaf_nodes' ``w1: 1/2 × 2 =`` beside ``w1 * x``).

    >>> ring = {"kind": "shape", "role": "ring", "text": None, "bbox": [96, 96, 204, 164], "opacity": 1.0, "id": "t4"}
    >>> card = {"kind": "shape", "role": "card", "text": None, "bbox": [100, 100, 200, 160], "opacity": 1.0, "id": "t4"}
    >>> note = {"kind": "text", "role": "note", "text": "w1: 1/2 × 2 =", "bbox": [200.2, 120, 300, 135], "opacity": 1.0, "id": "note:t4"}
    >>> _on_ring(note, ring, [card]), _on_ring(dict(note, bbox=[206, 120, 300, 135]), ring, [card])
    (True, False)
    >>> name = {"kind": "text", "role": "label", "text": "w1 * x", "bbox": [110, 105, 180, 130], "opacity": 1.0, "id": "t4"}
    >>> _on_ring(name, ring, [card])
    False
    >>> drop = {"kind": "text", "role": "badge", "text": "1", "bbox": [200, 98, 210, 110], "opacity": 1.0, "id": "bucket:t2"}
    >>> _on_ring(drop, dict(ring, id="bucket:t2"), [dict(card, role="bucket", id="bucket:t2")])
    False
    """
    if not _overlap(text, ring) or _leaving(text, ring):
        return False
    if text["role"] == "badge" and text.get("id") == ring.get("id") and (ring.get("id") or "").startswith("bucket:"):
        return False  # the bucket's gradient falling in
    return not any(c.get("id") == ring.get("id") and _inside(text, c) for c in boxes)
