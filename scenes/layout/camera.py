"""Where the walk's camera looks: in on the node being visited where the graph is dense, out
on the whole graph otherwise (moved aside, no closer, where a visit's note has no room by its
card: `pans_only`).

Why: in the backward walk the code pane keeps only its lit line (``walk_code: lit``), and the
column it leaves is free; a graph laid out beside the whole pane stays small in its region while
the notes and badges of one visit are what the viewer reads. The camera moves the graph layer
only (captions, code, legend and titles stay), so a visit's node, the node its gradient came
from and the nodes it sends to fill the free frame, larger, with room for the visit's note at
their left. Pure: rectangles and `Zoom` maps (:mod:`scenes.layout.focus`), no Manim; the scene's
`CameraFocus` applies them to the shapes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import is_dataclass, replace
from typing import Any

from scenes.layout.clear_rects import clear_rect, meets, seen_in
from scenes.layout.clip import code_rect, shows_code
from scenes.layout.focus import Zoom
from scenes.layout.place import Layout
from scenes.layout.readable import value_px

Rect = tuple[float, float, float, float]
WHOLE = Zoom(1.0, (0.0, 0.0), (0.0, 0.0))
"""The camera at home: the whole graph as laid out."""


def graph_bounds(lay: Layout) -> Rect:
    """The box around every card and bucket of ``lay``."""
    bs = [b.bounds for b in lay.boxes.values()]
    return (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))


def drawn_part(lay: Layout, drawn: Iterable[str]) -> Layout:
    """``lay`` with only the boxes of ``drawn`` (the cards and buckets on screen now) and the
    routes between them: what the walk's camera frames as it moves out. The clip's layout places every card the
    clip will ever draw (a freed graph, a loop's later multiplies); a view framed on those shows
    the cards drawn now small in a corner of an empty frame (issue 39 item 4: dynamic_graph's w
    and h at 82-93 s).

    >>> from scenes.layout.place import Box
    >>> from scenes.layout.routes import Route
    >>> boxes = {k: Box(k, "op", 0.0, 0.0, 1.0, 1.0) for k in ("a", "b", "c")}
    >>> lay = type("L", (), {"boxes": boxes, "routes": (Route("a", "b", None, True, ()), Route("a", "c", None, True, ()))})()
    >>> part = drawn_part(lay, ["a", "b"])
    >>> sorted(part.boxes), [(r.src, r.dst) for r in part.routes]
    (['a', 'b'], [('a', 'b')])
    """
    keep = set(drawn)
    boxes = {k: b for k, b in lay.boxes.items() if k in keep}
    routes = tuple(r for r in lay.routes if r.src in boxes and r.dst in boxes)
    if is_dataclass(lay) and not isinstance(lay, type):
        return replace(lay, boxes=boxes, routes=routes)
    return type("L", (), {"boxes": boxes, "routes": routes})()  # a stand-in (the doctests')


def dense(lay: Layout, region: Rect, text_px: float | None, least_px: float, least_share: float) -> bool:
    """Whether the camera moves in during the walk: the whole graph's card values are under
    ``least_px`` pixels high at 480p (``text_px``; None: cards without values), or its box takes
    under ``least_share`` of the walk's ``region``, which it could fill.

    >>> from scenes.layout.place import Box
    >>> lay = type("L", (), {"boxes": {"a": Box("a", "op", 0.0, 0.0, 2.0, 1.0)}})()
    >>> dense(lay, (-5.0, -5.0, 5.0, 5.0), 12.0, 14.0, 0.5), dense(lay, (-1.0, -1.0, 1.0, 1.0), 20.0, 14.0, 0.5)
    (True, False)
    """
    if not lay.boxes:
        return False
    x0, y0, x1, y1 = graph_bounds(lay)
    share = (x1 - x0) * (y1 - y0) / max((region[2] - region[0]) * (region[3] - region[1]), 1e-9)
    return (text_px is not None and text_px < least_px) or share < least_share


def around(lay: Layout, item: str) -> list[str]:
    """The cards a visit of ``item`` shows: its own (and its bucket), the ones its gradient
    came from (the results it feeds), the ones it sends to (its inputs)."""
    near = {item}
    for r in lay.routes:
        if r.src == item:
            near.add(r.dst)
        if r.dst == item:
            near.add(r.src)
    return [k for k, b in lay.boxes.items() if k in near or (k.startswith("bucket:") and k[7:] == item)]


def held(lay: Layout, item: str) -> list[str]:
    """The cards a close view of ``item``'s visit holds: those it shows (`around`), and every
    input of each card it sends its gradient to (its own inputs): a card drawn with some of its
    inputs and not the others reads as made from those alone (review 4: the loss's visit showed
    `yh - y` beside y and not yh, for "d is yh - y"). Only the visit's own cards: the rest of the
    view may show a card without its inputs (a wider rule kept most close-ups at home).

    >>> from scenes.layout.place import Box
    >>> from scenes.layout.routes import Route
    >>> boxes = {k: Box(k, "op", 0.0, 0.0, 1.0, 1.0) for k in ("a", "b", "c", "d", "e", "f", "bucket:a")}
    >>> edges = [("a", "c"), ("b", "c"), ("c", "d"), ("e", "d"), ("f", "a"), ("bucket:a", "a")]
    >>> lay = type("L", (), {"boxes": boxes, "routes": [Route(a, b, None, True, ()) for a, b in edges]})()
    >>> held(lay, "d"), held(lay, "c"), held(lay, "a")
    (['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', 'd', 'f'], ['a', 'c', 'f', 'bucket:a'])
    """
    made_of: dict[str, set[str]] = {}
    for r in lay.routes:
        if r.src in lay.boxes and r.dst in lay.boxes and not r.src.startswith("bucket:"):
            made_of.setdefault(r.dst, set()).add(r.src)
    near = set(around(lay, item)).union(*(made_of.get(k, set()) for k in made_of.get(item, set())))
    return [k for k in lay.boxes if k in near]


def visit_view(lay: Layout, items: Iterable[str], note: tuple[float, float], region: Rect, most: float,
               gap: float, beside: Iterable[str] = (), note_room: tuple[Rect, Sequence[Rect]] | None = None,
               past: float = 0.0, least: tuple[float, float] | None = None, aside: Rect | None = None,
               drawn: Iterable[str] | None = None) -> Zoom:
    """The camera on the boxes of ``items``: as large as fits ``region`` with ``note`` (width,
    height: the visit's note, drawn as much larger) at their left, at most ``most`` times larger;
    placed so that the rest of the graph covers as much of the region as it can (no empty margin
    beside a card at the graph's edge). The note stands where the walk writes it (`note_spots`'
    first spot): level with the visited card of ``beside``, left of it and of any card of
    ``items`` on its level (`_note_slot`), inside ``note_room`` (the room the note will have when
    it is written, where the cards' room is smaller until then: a rectangle less what it keeps
    off, `seen_in`; None: ``region``), where no other
    card stands once the graph is drawn larger: the closer of that and (or with no ``beside``
    only) the note left of them all, level with some of them. `WHOLE`
    when that is no closer, or when the rest of the graph, drawn larger, leaves the note no room
    at their left (a dense graph whose other cards stand beside the visit's: the note would
    cover them, `_room_left`).

    >>> from scenes.layout.place import Box
    >>> boxes = {k: Box(k, "op", 0.0, y, 2.0, 1.0) for k, y in (("a", 0.0), ("b", 2.0), ("c", 4.0))}
    >>> lay = type("L", (), {"boxes": boxes})()
    >>> z = visit_view(lay, ["a", "b"], (2.0, 1.0), (-6.0, -2.0, 6.0, 4.0), 2.0, 0.5)
    >>> z.factor, z.point((0.0, 0.0)), z.point((0.0, 4.5))
    (2.0, (0.5, -1.0), (0.5, 8.0))

    A visited card at the top of a wide focus: its note needs room only left of that card.

    >>> boxes = {"top": Box("top", "op", 0.0, 2.0, 1.0, 1.0), "l": Box("l", "op", -1.0, 0.0, 1.0, 1.0),
    ...          "r": Box("r", "op", 1.0, 0.0, 1.0, 1.0)}
    >>> lay = type("L", (), {"boxes": boxes})()
    >>> [visit_view(lay, boxes, (2.0, 1.0), (-3.0, -2.0, 3.0, 4.0), 3.0, 0.0, b).factor for b in ([], ["top"])]
    [1.2, 1.5]
    """
    wanted = set(items)
    boxes = {k: b.bounds for k, b in lay.boxes.items() if k in wanted}
    if not boxes:
        return WHOLE
    fits = []
    for side in (None, past) if note[0] > 0 else ():
        slot = _note_slot(boxes, [k for k in beside if k in boxes], note, gap, side)
        fit = _fit(lay, wanted, list(boxes.values()), slot, region, note_room, most, gap) if slot else None
        fits += [fit] if fit is not None else []
    z = _left_of_all(lay, wanted, list(boxes.values()), note, region, most, gap)
    fit = max(fits, key=lambda f: f.factor, default=None)  # where the note is written, unless much less close
    z = fit if fit is not None and fit.factor >= SLOT_SHARE * z.factor else z
    if z.factor > 1.0 or note[0] <= 0 or not beside:
        return z
    now = None if drawn is None else set(drawn)
    others = [b.bounds for k, b in lay.boxes.items() if k not in wanted and (now is None or k in now)]
    return _pan(boxes, [k for k in beside if k in boxes], others, (note, least or note), region, aside or region,
                note_room, gap, past)


def _pan(boxes: dict[str, Rect], beside: Sequence[str], others: Sequence[Rect],
         notes: tuple[tuple[float, float], tuple[float, float]], region: Rect, aside: Rect,
         note_room: tuple[Rect, Sequence[Rect]] | None, gap: float, past: float) -> Zoom:
    """`visit_view` where no closer view leaves the note room (a tall frame, the visit's cards as
    wide as the graph): `WHOLE` where the note, at its size or (``notes``' second) at the least
    readable one, has a slot beside its visited card at home; else the graph moved sideways, not
    larger, as little as gives it one (right of the card past a badge or next to it, or left of
    it), the cards kept in ``region`` and the note in ``aside`` (and its room), off ``others`` (the
    cards drawn now), so that the note is written beside its own card and not by another's
    (REVIEW6 item 1); `WHOLE` where none does."""
    slots = [s for n in notes for side in (past, -gap, None) if (s := _note_slot(boxes, beside, n, gap, side))]
    room, keep_off = (aside, ()) if note_room is None else note_room
    room = (max(room[0], aside[0]), max(room[1], aside[1]), min(room[2], aside[2]), min(room[3], aside[3]))
    free = [s for s in slots if not any(meets((s[0] - gap, s[1] - gap, s[2] + gap, s[3] + gap), r) for r in others)]
    xs = (min(b[0] for b in boxes.values()), max(b[2] for b in boxes.values()))
    for s in free:
        if seen_in(s, room, keep_off):
            return WHOLE  # the note has room at home
    for s in free:
        lo, hi = max(region[0] - xs[0], room[0] - s[0]), min(region[2] - xs[1], room[2] - s[2])
        dx = min(max(0.0, lo), hi)  # as little as gives the note its slot
        if lo <= hi and seen_in((s[0] + dx, s[1], s[2] + dx, s[3]), room, keep_off):
            return Zoom(1.0, (0.0, 0.0), (dx, 0.0))
    return WHOLE


SLOT_SHARE = 0.9
"""A view with the note's slot beside the visited card (`_note_slot`, where the walk writes it) is
taken if it is at least this share as close as one with the note left of all the visit's cards."""


def _left_of_all(lay: Layout, wanted: set[str], boxes: Sequence[Rect], note: tuple[float, float], region: Rect,
                 most: float, gap: float) -> Zoom:
    """`visit_view` with the note left of all the ``boxes``, level with some of them."""
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    left, bottom, right, top = region
    k = min(most, (right - left - gap) / max(x1 - x0 + note[0], 1e-9), (top - bottom) / max(y1 - y0, note[1], 1e-9))
    if k <= 1.0:
        return WHOLE
    # the boxes and the note at their left (drawn as much larger), centred in the region
    span = k * (x1 - x0 + note[0]) + gap
    cx = left + (right - left - span) / 2 + k * note[0] + gap + k * (x1 - x0) / 2
    cy = (bottom + top) / 2
    g = graph_bounds(lay)
    about = ((x0 + x1) / 2, (y0 + y1) / 2)
    cx = _cover(cx, about[0], k, (g[0], g[2]), (left, right), (cx - k * (x1 - x0) / 2 - k * note[0] - gap,
                                                                 cx + k * (x1 - x0) / 2))
    cy = _cover(cy, about[1], k, (g[1], g[3]), (bottom, top), (cy - k * (y1 - y0) / 2, cy + k * (y1 - y0) / 2))
    z = Zoom(k, about, (cx, cy))
    others = [b.bounds for key, b in lay.boxes.items() if key not in wanted]
    if note[0] > 0 and not _room_left(z, (x0, y0, x1, y1), (k * note[0], k * note[1]), gap, others):
        return WHOLE  # the rest of the graph, drawn larger, would stand where the note goes
    return z


def _note_slot(boxes: dict[str, Rect], beside: Sequence[str], note: tuple[float, float], gap: float,
               past: float | None = None) -> Rect | None:
    """Where the visit's note stands among the focus ``boxes`` (at home): level with each visited
    card of ``beside``, ``gap`` left of it and of any focus box on its level, or (``past``: the
    width of the badge that waits there) right of them (the box around the notes of several
    visits); None with no visited card.

    >>> boxes = {"a": (0.0, 0.0, 1.0, 1.0), "b": (-2.0, 0.2, -1.0, 0.8)}
    >>> _note_slot(boxes, ["a"], (1.0, 0.5), 0.5), _note_slot(boxes, ["a"], (1.0, 0.5), 0.5, 0.25)
    ((-3.5, 0.25, -2.5, 0.75), (2.25, 0.25, 3.25, 0.75))
    """
    slots = []
    for k in beside:
        mid = (boxes[k][1] + boxes[k][3]) / 2
        lo, hi = mid - note[1] / 2, mid + note[1] / 2
        level = [b for b in boxes.values() if b[1] < hi and lo < b[3]]
        if past is None:
            edge = min(b[0] for b in level)
            slots.append((edge - gap - note[0], lo, edge - gap, hi))
        else:
            edge = max(b[2] for b in level) + gap + past + gap
            slots.append((edge, lo, edge + note[0], hi))
    if not slots:
        return None
    return (min(r[0] for r in slots), min(r[1] for r in slots), max(r[2] for r in slots), max(r[3] for r in slots))


def _fit(lay: Layout, wanted: set[str], boxes: Sequence[Rect], slot: Rect, region: Rect,
         note_room: tuple[Rect, Sequence[Rect]] | None, most: float, gap: float) -> Zoom | None:
    """`visit_view`'s camera on ``boxes`` with the note at ``slot`` (at home, drawn as much larger):
    the boxes (and the note, where its room is the region) as large as fit ``region`` (``gap`` to
    spare across it), centred, then moved so that the rest of the graph covers the region
    (`_cover`), and a step less close (`FIT_STEP`) until the note lies inside its room with no
    other card, drawn larger, in its slot; None when none of that is closer than home."""
    own = note_room is None
    room, keep_off = (region, ()) if note_room is None else note_room
    bx0, by0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    bx1, by1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    x0, y0 = min(slot[0], bx0) if own else bx0, min(slot[1], by0) if own else by0
    x1, y1 = max(slot[2], bx1) if own else bx1, max(slot[3], by1) if own else by1
    left, bottom, right, top = region
    k = min(most, (right - left - gap) / max(x1 - x0, 1e-9), (top - bottom) / max(y1 - y0, 1e-9),
            (room[2] - room[0] - gap) / max(max(slot[2], bx1) - min(slot[0], bx0), 1e-9))
    about = ((bx0 + bx1) / 2, (by0 + by1) / 2)
    g = graph_bounds(lay)
    others = [b.bounds for key, b in lay.boxes.items() if key not in wanted]
    while k > 1.0:
        cx = (left + right) / 2 + k * (about[0] - (x0 + x1) / 2)
        cy = (bottom + top) / 2 + k * (about[1] - (y0 + y1) / 2)
        cx = _cover(cx, about[0], k, (g[0], g[2]), (left, right), (cx + k * (x0 - about[0]), cx + k * (x1 - about[0])))
        cy = _cover(cy, about[1], k, (g[1], g[3]), (bottom, top), (cy + k * (y0 - about[1]), cy + k * (y1 - about[1])))
        # lower or higher, where the note's slot meets what its room keeps off (a lit line's pane)
        lo, hi = bottom - k * (y0 - about[1]), top - k * (y1 - about[1])
        for y in sorted((min(max(cy + d * (top - bottom) / 8, lo), hi) for d in range(-8, 9)), key=lambda y: abs(y - cy)):
            z = Zoom(k, about, (cx, y))
            moved = z.point((slot[0], slot[1])) + z.point((slot[2], slot[3]))
            clear = (moved[0] - gap, moved[1] - gap, moved[2] + gap, moved[3] + gap)  # the walk keeps a note that far off
            if (seen_in(moved, room, ()) and not any(meets(clear, r) for r in keep_off)
                    and not any(meets(clear, z.point((b[0], b[1])) + z.point((b[2], b[3]))) for b in others)):
                return z
        k *= FIT_STEP
    return None


FIT_STEP = 0.96
"""How much less close `_fit` looks again where the note does not fit its room."""


def _room_left(z: Zoom, focus: Rect, note: tuple[float, float], gap: float, others: Sequence[Rect]) -> bool:
    """Whether, with the camera's move ``z``, a note of size ``note`` (as drawn close) finds a
    slot at the left of the ``focus`` boxes (``gap`` from them, level with some of them) that no
    box of ``others`` meets.

    >>> z = Zoom(2.0, (0.0, 0.0), (0.0, 0.0))
    >>> _room_left(z, (0.0, 0.0, 1.0, 1.0), (1.0, 1.0), 0.1, []), _room_left(z, (0.0, 0.0, 1.0, 1.0), (1.0, 1.0), 0.1, [(-1.0, 0.0, -0.5, 1.0)])
    (True, False)
    """
    (fx0, fy0), (_, fy1) = z.point((focus[0], focus[1])), z.point((focus[2], focus[3]))
    x0, x1 = fx0 - gap - note[0], fx0 - gap
    lo, hi = fy0 - note[1] / 2, fy1 + note[1] / 2  # the slot's middle is level with the boxes
    blocked = sorted((max(lo, b[1]), min(hi, b[3])) for b in (z.point((r[0], r[1])) + z.point((r[2], r[3]))
                                                                    for r in others)
                     if b[0] < x1 and x0 < b[2] and b[1] < hi and lo < b[3])
    at = lo
    for b0, b1 in blocked:
        if b0 - at >= note[1] - 1e-9:
            return True
        at = max(at, b1)
    return hi - at >= note[1] - 1e-9


def _cover(at: float, about: float, k: float, graph: tuple[float, float], room: tuple[float, float],
           kept: tuple[float, float]) -> float:
    """Along one axis, ``at`` (where the focus's centre goes) moved so that the zoomed graph
    covers ``room`` where it is long enough (else lies in its middle), while the focus (``kept``,
    at ``at``) stays inside ``room``."""
    g0, g1 = (graph[0] - about) * k + at, (graph[1] - about) * k + at
    if g1 - g0 <= room[1] - room[0]:
        shift = (room[0] + room[1]) / 2 - (g0 + g1) / 2
    else:
        shift = max(0.0, room[1] - g1) + min(0.0, room[0] - g0)
    lo, hi = room[0] - kept[0], room[1] - kept[1]  # the shifts that keep the focus inside
    return at + min(max(shift, lo), hi)


def walk_region(plan: Any, source: str | None, spec: Any, theme: Any) -> Rect:
    """The frame the walk's graph may use, as the plan sees it: inside the safe edge, above the
    caption, clear of a code pane of the lit line alone (the scene's `WalkCamera` finds it
    again from what is on screen, the legend and the checklist too)."""
    safe = theme.safe_rect(spec)
    free = (safe[0], spec.caption[3] + spec.margin, safe[2], safe[3])
    return clear_rect(free, [code_rect(spec, theme, True, source)] if shows_code(plan, source) else [])


def pans_only(plan: Any, home: Layout, source: str | None, spec: Any, theme: Any) -> bool:
    """Whether the walk's camera at the aspect of ``spec`` only moves the graph aside for a
    visit's note (`_pan`), never closer: the whole graph, laid out as ``home``, reads well in the
    `walk_region` already (not `dense`). Where a visited card stands at the frame's side, another
    beside it, its note has no room of its own there at home (missing_gradient 9:16: z 79 px from
    the left edge, L2 17 px right of it; mul's rule went over the checklist, by L1)."""
    t = theme.layout
    return not dense(home, walk_region(plan, source, spec, theme), value_px(home.detail, home.scale, theme),
                     t.camera_text_px, t.camera_share)


def camera_visits(plan: Any, home: Layout, source: str | None, spec: Any, theme: Any,
                  asked: str = "visits") -> frozenset[int]:
    """The seqs of the visits of ``plan`` (one planned without camera moves) the walk's camera
    moves on at the aspect of ``spec``, where the clip is laid out as ``home``: every visit, in
    where the graph is `dense` in the `walk_region`, elsewhere only aside for a note with no
    room at home (`pans_only`; the scene finds which: most visits stay home); none where the
    storyboard asks for none (``asked``, its ``camera:``, is ``home``) or the aspect has none
    (its ``walk_camera`` is ``home``): the one place the camera is gated. The camera's moves
    take no time of their own: `scenes.render.camera_plan` lays them into the plan's pauses."""
    seqs = frozenset(c.seqs[0] for c in plan.cues if c.kind == "visit" and c.seqs)
    if asked != "visits" or spec.walk_camera != "visits" or not seqs or not home.boxes:
        return frozenset()
    return seqs
