"""Blinks: what `render inspect` shows, read across frames, for things that vanish and come back.

Why: each frame of a clip can be right while the clip flickers; a card gone for three frames
while its arrows turn, or a caption bar that goes at every caption change, is seen only between
frames. An item is known by its role and id (a card `t4`, the caption bar `caption`, a code line
`line 3`); it blinks when it is on screen, then not for less than ``BLINK`` seconds, then back.
Items with no id are not followed (a label of nothing in particular cannot be told from the next).
Not on screen is faded out, and for a shape also drawn to a stub: a lit path put out and drawn
again (``Create``) has full opacity from its first frame while it is still a dot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from scenes.storyboard.timings import BLINK

SEEN = 0.05
"""Opacity below which an item counts as gone."""
DRAWN = 0.25
"""Share of the longest side a shape has had, under which it counts as gone: a line or a ring
being drawn (or shrinking away) shows little of itself at full opacity."""


def seen_cards(items: Iterable[dict]) -> dict[str, list[float]]:
    """The boxes of an inspect sample's cards seen (opacity at least `SEEN`), by id: what a camera
    move carries, read by `scenes.render.pumps` (their widths) and `scenes.render.ramps` (their corners)."""
    return {it["id"]: it["bbox"] for it in items
            if it.get("role") == "card" and it.get("id") is not None and it.get("bbox") and it["opacity"] >= SEEN}


@dataclass(frozen=True)
class Blink:
    role: str
    id: str
    gone: float
    back: float

    def describe(self) -> str:
        return f"{self.role} {self.id} gone {self.gone:.2f}-{self.back:.2f} s"


def _sizes(items: Iterable[dict]) -> dict[tuple[str, str], float]:
    """The items with an id and an opacity of ``SEEN`` or more, by (role, id): the longest side of
    the largest box of the key's shapes in pixels, or infinity where one is a text (a text comes and
    goes by its opacity; its box changes with its words) or its box is not known."""
    out: dict[tuple[str, str], float] = {}
    for it in items:
        if it["id"] is None or it["opacity"] < SEEN:
            continue
        box = it.get("bbox")
        size = float("inf") if box is None or it.get("kind") != "shape" else max(box[2] - box[0], box[3] - box[1])
        key = (it["role"], it["id"])
        out[key] = max(out.get(key, 0.0), size)
    return out


def blinks(samples: Iterable[dict]) -> list[Blink]:
    """The blinks in consecutive inspect samples (one per frame, in time order). A shape drawn
    to under ``DRAWN`` of the longest side it has had is not on screen: a lit path put out and
    drawn again is dark between, though its items never fade.

    >>> card = {"role": "card", "id": "t4", "opacity": 1.0}
    >>> frames = [[card], [], [card]]
    >>> [b.describe() for b in blinks({"time": i / 15, "items": f} for i, f in enumerate(frames))]
    ['card t4 gone 0.07-0.13 s']

    A weight's lit line (a mark) faded out by one pass and drawn again by the next, a third of a
    second apart: a strobe, where each frame shows the line at some opacity.

    >>> def mark(drawn, opacity=1.0):
    ...     return {"role": "mark", "id": "t48", "kind": "shape", "opacity": opacity, "bbox": [0, 0, 120 * drawn, 4]}
    >>> one_pass = [[mark(1)], [mark(1, 0.5)], [mark(0.02)], [mark(0.1)], [mark(0.6)]]
    >>> [b.describe() for b in blinks({"time": i / 15, "items": f} for i, f in enumerate(one_pass * 2))]
    ['mark t48 gone 0.13-0.27 s', 'mark t48 gone 0.47-0.60 s']

    Kept lit while the next pass is drawn over it, it does not blink.

    >>> kept = [[mark(1)], [mark(1), mark(0.02)], [mark(1), mark(0.5)], [mark(1)]]
    >>> blinks({"time": i / 15, "items": f} for i, f in enumerate(kept * 3))
    []
    """
    biggest: dict[tuple[str, str], float] = {}
    was_on: set[tuple[str, str]] = set()
    gone_at: dict[tuple[str, str], float] = {}  # an item seen before -> when it was first missed
    out: list[Blink] = []
    for sample in samples:
        t = sample["time"]
        sizes = _sizes(sample["items"])
        for key, size in sizes.items():
            biggest[key] = max(biggest.get(key, 0.0), size)
        on = {key for key, size in sizes.items() if size >= DRAWN * biggest[key]}
        for key in on & gone_at.keys():
            if t - gone_at[key] < BLINK:
                out.append(Blink(key[0], key[1], gone_at[key], t))
            del gone_at[key]
        for key in was_on - on:
            gone_at[key] = t
        was_on = on
    return out


@dataclass(frozen=True)
class Jump:
    """An item that moved further than ``reach`` pixels between two consecutive frames."""

    role: str
    id: str
    time: float
    moved: float
    reach: float

    def describe(self) -> str:
        who = f"{self.role} {self.id}" if self.id else self.role
        return f"{who} jumps {self.moved:.0f} px (over {self.reach:.0f}) at {self.time:.2f} s"


LOOKED_AT_FPS = 10
"""The slowest rate a clip is rendered and looked at (a quick render, ``--fps 10``): a move is
judged by how far it goes in one frame there. The checks read 15 frames a second, where each step
of a move is two thirds as long: a camera move done in a third of its cue went 103 px a frame
there, under a card's width, and 170 px at 10 fps (leaf_nodes 16:9 at 29.3 s, review 6)."""
EDGED = frozenset({"pane"})
"""Roles followed by their box's edges, with no id: the code pane's backdrop, one a frame, which
opens and shuts by its foot (its centre moves half as far, its width is no card's)."""
TEXT_ONLY = frozenset({"console"})
"""Roles with no id followed by their text: a printed line under the code pane."""


def _centres(items: Iterable[dict]) -> dict[tuple[str, ...], tuple[float, float, float, float, float]]:
    """The visible items with an id, each by (role, id), or by (role, id, text) where several share
    a role and an id (a card's name, op name and grad_fn are all its ``label``s), and the items of
    `EDGED` and `TEXT_ONLY` roles, by role and by (role, text): key -> their box and opacity. A key still
    shared by two visible items is left out: which is which is not known."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for it in items:
        if it["opacity"] < SEEN:
            continue
        if it["id"] is not None:
            groups.setdefault((it["role"], it["id"]), []).append(it)
        elif it["role"] in EDGED:
            groups.setdefault((it["role"], ""), []).append(it)
        elif it["role"] in TEXT_ONLY and it.get("text") is not None:
            groups.setdefault((it["role"], str(it["text"])), []).append(it)
    out: dict[tuple[str, ...], tuple[float, float, float, float, float]] = {}
    shared: set[tuple[str, ...]] = set()
    for (role, iid), group in groups.items():
        for it in group:
            key: tuple[str, ...] = (role, iid) if len(group) == 1 else (role, iid, str(it.get("text")))
            if key in out:
                shared.add(key)
            x0, y0, x1, y1 = it["bbox"]
            out[key] = (x0, y0, x1, y1, float(it["opacity"]))
    return {k: v for k, v in out.items() if k not in shared}


def jumps(samples: Iterable[dict], card_px: float, fps: float = LOOKED_AT_FPS,
          moves: Iterable[tuple[float, float]] = ()) -> list[Jump]:
    """The jumps in consecutive inspect samples (one per frame, in time order): an item seen in two
    consecutive frames whose box's centre moved more than a card's width (``card_px``, the theme's
    card width in pixels at this frame size; the item's own width where that is larger) in a
    frame at ``fps`` (`LOOKED_AT_FPS`: samples closer in time count what they move at that pace).
    The code pane is followed by its edges (`EDGED`), against a card's width, and a printed line by its text:
    a pane that opens from one line to the whole program in a frame jumps, and the lines printed
    under it with it (dynamic_graph 16:9 at 84.5 s, review 6). What an animation carries moves a
    little each frame; a jump is a layout changed without an animation
    (a code pane turning a page by a cut, a card drawn anew elsewhere), or a move done in a part
    of the time it has. What a camera move (``moves``: its start and end times) carries out of
    view as it fades (fainter than the frame before) goes as fast as the move's edge does, and is
    not followed (as `drops` and the edge check let it go). A counter's value that
    changes keeps its id and place. What fades out, moves unseen and fades in is not followed
    here: gone for under ``BLINK`` seconds, it is a blink (`blinks`).

    >>> card = lambda x: {"role": "card", "id": "t4", "opacity": 1.0, "bbox": [x, 0, x + 100, 40]}
    >>> frames = [[card(0)], [card(30)], [card(300)], [], [card(0)]]
    >>> [j.describe() for j in jumps(({"time": i / 15, "items": f} for i, f in enumerate(frames)), 144)]
    ['card t4 jumps 405 px (over 144) at 0.13 s']

    At 15 frames a second, 100 px a frame is 150 px a frame at 10: a camera's glide done in a
    third of its time.

    >>> [j.describe() for j in jumps(({"time": i / 15, "items": [card(100 * i)]} for i in range(3)), 144)]
    ['card t4 jumps 150 px (over 144) at 0.07 s', 'card t4 jumps 150 px (over 144) at 0.13 s']

    The code pane opening by 200 px in a frame, and a printed line carried down under it.

    >>> def pane(foot, printed):
    ...     return [{"role": "pane", "id": None, "opacity": 0.9, "bbox": [28, 15, 394, foot]},
    ...             {"role": "console", "id": None, "opacity": 1.0, "text": "tensor(2.)", "bbox": [37, printed, 116, printed + 12]}]
    >>> [j.describe() for j in jumps(({"time": i / 10, "items": pane(f, f + 9)} for i, f in enumerate([49, 249, 329])), 144)]
    ['pane jumps 200 px (over 144) at 0.10 s', 'console tensor(2.) jumps 200 px (over 144) at 0.10 s']

    Carried out of view by a camera move as it fades, it is let go; at full strength, not.

    >>> fading = [[card(200 * i) | {"opacity": 1.0 - i / 3}] for i in range(3)]
    >>> [len(jumps(({"time": i / 10, "items": f} for i, f in enumerate(fading)), 144, moves=m)) for m in ([(0.0, 0.3)], [])]
    [0, 2]
    """
    out: list[Jump] = []
    spans = list(moves)
    before: dict[tuple[str, ...], tuple[float, float, float, float, float]] = {}
    was: float | None = None
    for sample in samples:
        now = _centres(sample["items"])
        t = sample["time"]
        pace = 1.0 if was is None or t - was <= 0 else max(1.0, 1.0 / (fps * (t - was)))
        moving = any(t0 - 1e-6 <= t <= t1 + 1e-6 for t0, t1 in spans)
        for key in (k for k in now if k in before):  # in the sample's order: the report's is fixed
            a, b = before[key], now[key]
            if moving and b[4] < a[4] - 1e-6:
                continue  # carried off as it fades
            if key[0] in EDGED:
                moved, reach = max(abs(p - q) for p, q in zip(a[:4], b[:4])), card_px
            else:
                dx, dy = (b[0] + b[2] - a[0] - a[2]) / 2, (b[1] + b[3] - a[1] - a[3]) / 2
                moved, reach = (dx * dx + dy * dy) ** 0.5, max(card_px, a[2] - a[0], b[2] - b[0])
            if moved * pace > reach:
                out.append(Jump(key[0], key[1], t, moved * pace, reach))
        before, was = now, t
    return out


@dataclass(frozen=True)
class Rename:
    """A card whose name changed: ``was`` until ``time``, ``now`` from then."""

    id: str
    time: float
    was: str
    now: str

    def describe(self) -> str:
        return f"card {self.id} renamed {self.was!r} -> {self.now!r} at {self.time:.2f} s"


def card_names(items: Iterable[dict]) -> dict[str, str]:
    """Each visible card's name, by its id: the top label drawn inside its box with its id (the
    name row is a card's first; its op name sits outside, its grad_fn under the name)."""
    items = [it for it in items if it["id"] is not None and it["opacity"] >= SEEN]
    cards = {it["id"]: it["bbox"] for it in items if it["role"] == "card"}
    names: dict[str, tuple[float, str]] = {}
    for it in items:
        box = cards.get(it["id"])
        if it["role"] != "label" or box is None or it.get("text") is None:
            continue
        x, y = (it["bbox"][0] + it["bbox"][2]) / 2, (it["bbox"][1] + it["bbox"][3]) / 2
        if box[0] <= x <= box[2] and box[1] <= y <= box[3] and (it["id"] not in names or it["bbox"][1] < names[it["id"]][0]):
            names[it["id"]] = (it["bbox"][1], it["text"])
    return {k: text for k, (_, text) in names.items()}


def renames(samples: Iterable[dict]) -> list[Rename]:
    """The cards whose name (`card_names`) changes through a clip (inspect samples in time order):
    a node keeps its name (``yh - y`` does not become ``sub`` when its card turns into its
    backward function). A card drawn without its name for a while keeps the one it had.

    >>> def card(name):
    ...     return [{"role": "card", "id": "t7", "opacity": 1.0, "bbox": [0, 0, 100, 40]},
    ...             {"role": "label", "id": "t7", "opacity": 1.0, "bbox": [30, 5, 70, 20], "text": name},
    ...             {"role": "label", "id": "t7", "opacity": 1.0, "bbox": [10, 25, 90, 35], "text": "SubBackward0"}]
    >>> frames = [card("yh - y"), [], card("yh - y"), card("sub")]
    >>> [r.describe() for r in renames({"time": i / 15, "items": f} for i, f in enumerate(frames))]
    ["card t7 renamed 'yh - y' -> 'sub' at 0.20 s"]
    """
    known: dict[str, str] = {}
    out: list[Rename] = []
    for sample in samples:
        for cid, name in card_names(sample["items"]).items():
            if cid in known and known[cid] != name:
                out.append(Rename(cid, sample["time"], known[cid], name))
            known[cid] = name
    return out


@dataclass(frozen=True)
class Loose:
    """An arrow drawn clear of both cards it joins: ``time`` it is first seen so, ``until`` the last."""

    id: str
    time: float
    until: float

    def describe(self) -> str:
        return f"arrow {self.id} touches neither of its cards {self.time:.2f}-{self.until:.2f} s"


def _near(a: list[float], b: list[float], reach: float) -> bool:
    """Whether boxes ``a`` and ``b`` ([x0, y0, x1, y1]) overlap or lie within ``reach`` of each other."""
    return a[0] - reach <= b[2] and b[0] - reach <= a[2] and a[1] - reach <= b[3] and b[1] - reach <= a[3]


def loose_arrows(samples: Iterable[dict], reach: float, card_px: float | None = None) -> list[Loose]:
    """The arrows that come loose in consecutive inspect samples: an arrow (role ``arrow``, id
    ``src->dst``) seen while the cards (or buckets) at both its ends are on screen, whose box
    lies more than ``reach`` pixels from both. With ``card_px`` (a card's height at scale 1),
    ``reach`` grows with the taller card it joins: a card drawn larger (a small graph's, or the
    walk's camera in close) ends its routes further off its border. An arrow joins its cards on every frame, also
    while it turns round or changes: one morphed point by point into its reverse shrinks from
    both ends into a hook between them (backward_graph's w2 -> yh, review 2) or into a tick;
    an arrow growing from its source touches that source from its first frame.

    >>> card = lambda i, y: {"role": "card", "id": i, "opacity": 1.0, "bbox": [0, y, 60, y + 30]}
    >>> arrow = lambda y0, y1: {"role": "arrow", "id": "a->b", "opacity": 1.0, "bbox": [28, y0, 32, y1]}
    >>> frames = [[card("a", 100), card("b", 0), arrow(32, 98)],  # whole: from a's top to b's bottom
    ...           [card("a", 100), card("b", 0), arrow(60, 70)],  # folded into its middle
    ...           [card("a", 100), card("b", 0), arrow(62, 68)],
    ...           [card("a", 100), card("b", 0), arrow(35, 98)]]  # growing back from a
    >>> [x.describe() for x in loose_arrows(({"time": i / 30, "items": f} for i, f in enumerate(frames)), 3)]
    ['arrow a->b touches neither of its cards 0.03-0.07 s']
    >>> zoomed = [[card("a", 100) | {"bbox": [0, 100, 120, 160]}, card("b", 0) | {"bbox": [0, -30, 120, 30]}, arrow(35, 95)]]
    >>> [len(loose_arrows([{"time": 0.0, "items": f} for f in zoomed], 3, card_px=k)) for k in (None, 30.0)]  # 5 px off both, cards twice as tall
    [1, 0]
    """
    open_: dict[str, list[float]] = {}
    out: list[Loose] = []
    for sample in samples:
        t = sample["time"]
        seen = [it for it in sample["items"] if it["id"] is not None and it["opacity"] >= SEEN]
        boxes: dict[str, list[list[float]]] = {}
        for it in seen:
            if it["role"] in ("card", "bucket"):
                boxes.setdefault(it["id"], []).append(it["bbox"])
        loose = set()
        for it in seen:
            ends = it["id"].split("->") if it["role"] == "arrow" else []
            if len(ends) != 2 or not all(e in boxes for e in ends):
                continue
            far = reach
            if card_px:
                tallest = max(b[3] - b[1] for e in ends for b in boxes[e])
                far = reach * max(1.0, tallest / card_px)
            if not any(_near(it["bbox"], box, far) for e in ends for box in boxes[e]):
                loose.add(it["id"])
        for aid in loose:
            open_.setdefault(aid, [t, t])[1] = t
        for aid in list(open_.keys() - loose):
            t0, t1 = open_.pop(aid)
            out.append(Loose(aid, t0, t1))
    out += [Loose(aid, t0, t1) for aid, (t0, t1) in open_.items()]
    return out
