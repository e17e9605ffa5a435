"""Flights: what `render inspect` shows of a gradient token between frames, as it rides its edge.

Why: each frame of a walk can be right while the token's way is wrong. A token that leaves its
product in a visit's note, goes up over the loss card, vanishes, and pops in beside the edge it
was meant to ride (issue 39's backward_walk 4/3), or dives past x and w1 on its way to w2, reads
as a gradient flowing the wrong way; a product slot left empty while its number travels reads
``1 × 2 × 2/3 =``. Only the frames in sequence show it.

A riding token is a ``badge`` whose ``id`` is its arrow's (``SRC->DST``, forward direction: it
leaves DST, the node visited, for SRC); the product pill it leaves carries the same id and text.
A token is followed from frame to frame by its id and text (the nearest of its kind where two
share them: ``w * w`` sends one number on two edges). A flight is a run of frames in which it
moves, from where it stood before (its start) to where it stops (its landing). In a flight:

- it never vanishes (``hidden``): it is drawn at every frame of it, but where it still lies
  over the product it is a copy of, which is drawn over it (it comes out from under it faint),
  or level with it just past it, where the two would read as one number (``8/3 8/3``);
- it keeps to its way (``astray``): its centre stays within ``reach`` pixels of the hull of its
  start, its landing, the card it leaves and its arrow (the lead to the edge may cut the corner), or of the
  card it reaches and that card's bucket (boxes, so a curved edge's bend counts as on the way);
- it never backs away (``backs away``): its distance to its landing never grows by more than
  ``slack`` pixels over the nearest it has been;
- the product it left keeps its number (``slot empty``): a badge of the same id and text that
  stood at the start the frame before the flight stays drawn there through it;
- it passes over no card's value (``value``), nor, riding on from a leaf's card to its bucket
  (``bucket:X->X``), level with that card's value just past its end (`_run`): a number riding
  over another reads as one with it, or hides it (leaf_nodes' 1/2 leaving yh over its ``5/4``),
  and one crossing the card by the value's end reads as more of it (backward_walk 9:16's
  ``4/9`` going on from w2's card down its right end to the bucket's badge: ``w2 = 2 4/9``);
  the value of the card it lands on (its bucket's, as it drops in) is where it arrives;
- it leaves from a product of its own (``shared``): two tokens of one id and text setting off
  in one frame start from two places (``w * w``'s rule row has a product per input slot, and
  both tokens leaving the lower 3 read as one number sent twice).

A camera move (the walk's camera, a beat's ``focus:``) carries the whole graph, its badges with
it, and may fade a badge whose card leaves the view: frames within such a move (``carried``) are
no flight; the token stands where the move leaves it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from collections.abc import Iterable, Set as AbstractSet

from scenes.draw.reading import READS_ON
from scenes.layout.clear_rects import meets

SEEN = 0.05
"""Opacity below which an item counts as not drawn (as `continuity.SEEN`)."""
STILL = 0.5
"""Pixels a token may shift between frames and still count as standing."""


@dataclass(frozen=True)
class Astray:
    """A flight gone wrong: ``what`` happened to the token ``text`` riding ``id`` at ``time``."""

    id: str
    text: str
    time: float
    what: str

    def describe(self) -> str:
        return f"token {self.text!r} ({self.id}) {self.what} at {self.time:.2f} s"


Box = tuple[float, float, float, float]
Point = tuple[float, float]


def _centre(box: list[float] | Box) -> Point:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _to_box(p: Point, box: Box) -> float:
    """How far ``p`` is from ``box`` (0 inside)."""
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return math.hypot(dx, dy)


def _to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n < 1e-12 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _corners(box: Box) -> list[Point]:
    return [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]


def _hull(points: list[Point]) -> list[Point]:
    """The convex hull of ``points``, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    upper: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _to_polygon(p: Point, poly: list[Point]) -> float:
    """How far ``p`` is from the convex polygon ``poly`` (counter-clockwise; 0 inside)."""
    if len(poly) == 1:
        return math.dist(p, poly[0])
    edges = list(zip(poly, poly[1:] + poly[:1]))
    if len(poly) >= 3 and all((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0 for a, b in edges):
        return 0.0
    return min(_to_segment(p, a, b) for a, b in edges)


@dataclass
class _Track:
    """One token followed through the frames: where it is and how opaque, per frame it is listed."""

    id: str
    text: str
    seen: list[tuple[int, Point, float]]  # (sample index, centre, opacity)
    first: int  # the sample it is first listed in
    boxes: list[Box] = field(default_factory=list)  # its box at each of ``seen``


def _tracks(frames: list[list[dict]]) -> list[_Track]:
    """Every badge with an id followed from frame to frame: matched to the nearest listed the
    frame before with the same id and text, as it goes on (`_ahead`: two copies of ``w * w``'s
    3 whose ways cross are not swapped), of two as near the one as opaque (a copy setting off
    unseen from under its product is not the product); one not matched starts a track of its
    own."""
    done: list[_Track] = []
    live: list[_Track] = []
    for k, items in enumerate(frames):
        badges = [i for i in items if i["role"] == "badge" and i.get("id")]
        now = [(i["id"], i.get("text") or "", _centre(i["bbox"]), float(i["opacity"])) for i in badges]
        pairs = sorted(((math.dist(_ahead(tr), c), abs(tr.seen[-1][2] - o), n, t)
                        for n, (iid, text, c, o) in enumerate(now)
                        for t, tr in enumerate(live) if (tr.id, tr.text) == (iid, text)), key=lambda x: x[:2])
        taken_now, taken_live, matched = set(), set(), []
        for _, _, n, t in pairs:
            if n in taken_now or t in taken_live:
                continue
            taken_now.add(n)
            taken_live.add(t)
            matched.append((t, n))
        nxt = []
        for t, n in _untangled(matched, live, [c for _, _, c, _ in now]):
            live[t].seen.append((k, now[n][2], now[n][3]))
            live[t].boxes.append(_box(badges[n]))
            nxt.append(live[t])
        done += [tr for t, tr in enumerate(live) if t not in taken_live]
        nxt += [_Track(iid, text, [(k, c, o)], k, [_box(badges[n])])
                for n, (iid, text, c, o) in enumerate(now) if n not in taken_now]
        live = nxt
    return done + live


def _untangled(matched: list[tuple[int, int]], live: list[_Track], at: list[Point]) -> list[tuple[int, int]]:
    """``matched`` (track, badge) pairs with any two tracks of one id and number swapped where
    that brings both, together, nearer where they were going (`_ahead`) by more than `STILL`:
    two copies passing each other in one frame, which nearest-first matched each to the other."""
    out = list(matched)

    def cost(t: int, n: int) -> float:
        return math.dist(_ahead(live[t]), at[n])

    changed = True
    while changed:
        changed = False
        for a in range(len(out)):
            for b in range(a + 1, len(out)):
                (ta, na), (tb, nb) = out[a], out[b]
                if (live[ta].id, live[ta].text) != (live[tb].id, live[tb].text):
                    continue
                if cost(ta, nb) + cost(tb, na) < cost(ta, na) + cost(tb, nb) - STILL:
                    out[a], out[b], changed = (ta, nb), (tb, na), True
    return out


def _ahead(track: _Track) -> Point:
    """Where ``track`` would be next, going on as it moved from its last frame but one."""
    (*_, (_, (x1, y1), _)) = track.seen
    if len(track.seen) < 2:
        return (x1, y1)
    _, (x0, y0), _ = track.seen[-2]
    return (2 * x1 - x0, 2 * y1 - y0)


def _way(track: _Track, frame_items: list[dict]) -> list[Box]:
    """The boxes of what the token's way passes (the card it leaves, its arrow, the card it
    reaches and its bucket, where it drops in) as listed at its start; a token of no arrow (a gradient passed within a card) has
    its own card's."""
    ends = {k for end in track.id.split("->") for k in (end, f"bucket:{end}")}  # a leaf's bucket is its end too
    return [_box(i) for i in frame_items if (i["role"] == "arrow" and i.get("id") == track.id)
            or (i["role"] in ("card", "bucket") and i.get("id") in ends)]


def _leaves(track: _Track, frame_items: list[dict]) -> list[Box]:
    """The boxes a token sets off toward from its start: the card it leaves (and the badge it
    wears beside it, which the way goes round too), its arrow, and the rows of the visit's note
    it sets off from (from a product boxed in among them, its way goes round their ends, as
    `scenes.layout.detour.ride_path` takes it round what it may cross: backward_walk's ``8/3``
    from the middle row of yh's rule). Its lead from a note's product to the edge lies in their
    hull with the start (it may cut the corner to the edge), not toward the card it reaches
    across the graph."""
    left = track.id.split("->")[-1]
    return [_box(i) for i in frame_items if (i["role"] == "arrow" and i.get("id") == track.id)
            or (i["role"] in ("card", "bucket", "badge") and i.get("id") == left)
            or (i["role"] == "note" and i.get("id") == f"note:{left}")]


def _values_under(track: _Track, box: Box, frame_items: list[dict]) -> dict | None:
    """The first value drawn under the token's ``box`` (more than touching), or, for a token
    riding a bucket's arrow (``bucket:X->X``: from the card X, which it crosses, to the bucket it
    lands on), X's value with the token level with it just past its end (`_run`); but the one
    of the card or bucket it lands on (``SRC`` of its ``SRC->DST``, its bucket's too)."""
    src, to = track.id.split("->")[0], track.id.split("->")[-1]
    lands = {src, f"bucket:{src}"}
    left = to if src == f"bucket:{to}" else None
    for i in frame_items:
        if i["role"] != "value" or i.get("id") in lands or float(i["opacity"]) < SEEN:
            continue
        if meets(box, _run(_box(i)) if i.get("id") == left else _box(i)):
            return i
    return None


def _run(box: Box) -> Box:
    """``box`` and the run right of it where a number level with it reads as more of it
    (`scenes.draw.reading.READS_ON` of its heights): a copy setting off from its product is
    not drawn there yet, where the two would read as one number (``8/3 8/3``)."""
    return (box[0], box[1], box[2] + READS_ON * (box[3] - box[1]), box[3])


def _box(item: dict) -> Box:
    x0, y0, x1, y1 = item["bbox"]
    return (float(x0), float(y0), float(x1), float(y1))


def flights(samples: Iterable[dict], reach: float, slack: float,
            carried: Iterable[tuple[float, float]] = ()) -> list[Astray]:
    """The flights gone wrong in consecutive inspect samples (one per frame, in time order):
    a token hidden on its way, off its way by more than ``reach`` pixels, backing away from
    its landing by more than ``slack`` pixels, or leaving its product's slot empty.
    ``carried``: the spans (start, end seconds) of the camera's moves, whose frames are no flight.

    >>> card = lambda i, x, y: {"role": "card", "id": i, "bbox": [x, y, x + 60, y + 30], "opacity": 1.0}
    >>> arrow = {"role": "arrow", "id": "t1->t2", "bbox": [28, 42, 32, 88], "opacity": 1.0}
    >>> graph = [card("t2", 0, 10), arrow, card("t1", 0, 90)]
    >>> tok = lambda x, y, o=1.0: {"role": "badge", "id": "t1->t2", "text": "4/3", "bbox": [x - 9, y - 6, x + 9, y + 6], "opacity": o}
    >>> slot = lambda o: tok(-40, 20, o)
    >>> good = [[slot(1)], [slot(1), tok(-40, 20)], [slot(1), tok(-20, 45)], [slot(1), tok(30, 60)], [slot(1), tok(30, 75)], [slot(1), tok(30, 75)]]
    >>> run = lambda frames: [a.describe() for a in flights(({"time": k / 10, "items": graph + f} for k, f in enumerate(frames)), 20, 10)]
    >>> run(good)
    []
    >>> five = {"role": "value", "id": "t2", "text": "5/4", "bbox": [20, 55, 40, 65], "opacity": 1.0}
    >>> [a.describe() for a in flights(({"time": k / 10, "items": graph + [five] + f} for k, f in enumerate(good)), 20, 10)]
    ["token '4/3' (t1->t2) passes over the value '5/4' (t2) at 0.30 s"]
    >>> drop = lambda x, y: dict(tok(x, y), id="bucket:t2->t2")  # on from t2's card down to its bucket
    >>> down = [[drop(30, 10)], [drop(30, 10)], [drop(25, 35)], [drop(20, 60)], [drop(20, 80)], [drop(20, 80)]]
    >>> beside = dict(five, bbox=[-10, 55, 10, 65])  # it passes 1 px past the value's end, level with it
    >>> [a.describe() for a in flights(({"time": k / 10, "items": graph + [beside] + f}
    ...                                 for k, f in enumerate(down)), 20, 10)]
    ["token '4/3' (bucket:t2->t2) passes level with the value '5/4' (t2) at 0.30 s"]
    >>> [a.describe() for a in flights(({"time": k / 10, "items": graph + [dict(beside, id="t3")] + f}
    ...                                 for k, f in enumerate(down)), 20, 10)]  # another card's: it passes by
    []
    >>> emerging = [[slot(1)], [tok(-40, 20, 0.0), slot(1)], [tok(-36, 21, 0.02), slot(1)], [slot(1), tok(-20, 45)], [slot(1), tok(30, 75)], [slot(1), tok(30, 75)]]
    >>> run(emerging)  # a copy comes out from under its product (listed first: drawn under it), faint while over it
    []
    >>> row = {"role": "note", "id": "note:t2", "text": "w2: 4/3 × 1/3 =", "bbox": [-100, 28, -45, 44], "opacity": 1.0}
    >>> round_row = [[slot(1)], [slot(1), tok(-40, 20)], [slot(1), tok(-60, 50)], [slot(1), tok(10, 78)], [slot(1), tok(30, 75)], [slot(1), tok(30, 75)]]
    >>> [a.describe() for a in flights(({"time": k / 10, "items": graph + [row] + f} for k, f in enumerate(round_row)), 20, 10)]
    []
    >>> run(round_row)  # round a row of a note of no card it leaves: off its way
    ["token '4/3' (t1->t2) is 35 px off its way at 0.20 s"]
    >>> twice = lambda y: [[slot(1), tok(-40, y)] + f for f in ([], [tok(-40, 20), tok(-40, y)], [tok(-20, 40), tok(-10, 50)],
    ...                                                   [tok(30, 60), tok(30, 70)], [tok(30, 75), tok(30, 75)])]
    >>> run(twice(40))  # w * w: two products, one token from each
    []
    >>> run(twice(20))  # both from one
    ["token '4/3' (t1->t2) sets off from the product another token leaves at 0.10 s"]
    >>> bad = [[slot(1)], [slot(0), tok(-40, 20)], [slot(0), tok(-40, -30)], [slot(1), tok(-30, -30, 0.0)], [slot(1), tok(30, 75)], [slot(1), tok(30, 75)]]
    >>> for line in run(bad): print(line)
    token '4/3' (t1->t2) leaves its slot empty at 0.10 s
    token '4/3' (t1->t2) backs away 37 px from its landing at 0.20 s
    token '4/3' (t1->t2) is 49 px off its way at 0.20 s
    token '4/3' (t1->t2) vanishes on its way at 0.30 s

    A badge waiting by its card as the camera moves in (far, and fading as its card leaves the view):
    >>> moved = [[tok(30, 75)], [tok(130, 175, 0.5)], [tok(230, 275, 0.0)], [tok(230, 275, 0.0)]]
    >>> for line in run(moved): print(line)
    token '4/3' (t1->t2) vanishes on its way at 0.20 s
    >>> [a.describe() for a in flights(({"time": k / 10, "items": graph + f} for k, f in enumerate(moved)), 20, 10, [(0.0, 0.2)])]
    []
    """
    samples = list(samples)
    frames = [s["items"] for s in samples]
    times = [float(s["time"]) for s in samples]
    spans = list(carried)
    moved = {k for k in range(1, len(times))  # a move's first frame may be drawn as the frame before it ends
             if any(t0 < 2 * times[k] - times[k - 1] + 1e-6 and times[k - 1] < t1 - 1e-6 for t0, t1 in spans)}
    tracks = _tracks(frames)
    out: list[Astray] = []
    for tr in tracks:
        out += _check(tr, tracks, frames, times, reach, slack, moved)
    out += _shared(tracks, times, moved)
    return sorted(out, key=lambda a: (a.time, a.id, a.text))


def _shared(tracks: list[_Track], times: list[float], carried: AbstractSet[int]) -> list[Astray]:
    """The flights that set off in one frame from where another of the same id and text sets
    off (within ``STILL``): two copies of one product, where each should leave its own."""
    starts: dict[tuple[str, str, int], list[Point]] = {}
    out: list[Astray] = []
    for tr in tracks:
        for a, _ in _runs(tr, carried):
            f, at, _ = tr.seen[a]
            same = starts.setdefault((tr.id, tr.text, f), [])
            if any(math.dist(at, p) <= STILL for p in same):
                out.append(Astray(tr.id, tr.text, times[f], "sets off from the product another token leaves"))
            same.append(at)
    return out


def _runs(tr: _Track, carried: AbstractSet[int] = frozenset()) -> list[tuple[int, int]]:
    """The flights of one track, as (index of the frame it starts from, index of its landing)
    into ``tr.seen``: runs of frames in which it moves, with the frame before; a move into a
    frame of ``carried`` (sample indices in a camera move) is the camera's, not the token's."""
    def moves(k: int) -> bool:
        return tr.seen[k][0] not in carried and math.dist(tr.seen[k][1], tr.seen[k - 1][1]) > STILL

    out: list[tuple[int, int]] = []
    k = 1
    while k < len(tr.seen):
        if not moves(k):
            k += 1
            continue
        start = k - 1
        while k < len(tr.seen) and moves(k):
            k += 1
        out.append((start, k - 1))
    return out


def _check(tr: _Track, tracks: list[_Track], frames: list[list[dict]], times: list[float],
           reach: float, slack: float, carried: set[int]) -> list[Astray]:
    """What goes wrong in each flight of ``tr`` (each kind once a flight, at its first frame)."""
    out: list[Astray] = []
    for a, b in _runs(tr, carried):
        said: set[str] = set()

        def add(k: int, kind: str, what: str) -> None:
            if kind not in said:
                said.add(kind)
                out.append(Astray(tr.id, tr.text, times[tr.seen[k][0]], what))

        f0, start, _ = tr.seen[a]
        landing = tr.seen[b][1]
        way = _way(tr, frames[f0])
        lead = _hull([start, landing, *(c for w in _leaves(tr, frames[f0]) for c in _corners(w))])
        # its product: another of its id and number standing where it sets off, where one was
        # drawn the frame before (which of two pills on one spot is the copy shows only once one moves)
        kin = [o for o in tracks if (o.id, o.text) == (tr.id, tr.text)]
        shown_before = any(f == f0 - 1 and math.dist(c, start) <= STILL and op >= SEEN for o in kin for f, c, op in o.seen)
        slot = [o for o in kin if o is not tr and shown_before
                and any(f == f0 and math.dist(c, start) <= STILL for f, c, _ in o.seen)]
        nearest = math.dist(start, landing)
        for k in range(a, b + 1):
            f, at, op = tr.seen[k]
            if op < SEEN and not (slot and meets(tr.boxes[k], _run(tr.boxes[a]))):  # not out of its product's run yet
                add(k, "hidden", "vanishes on its way")
            d = math.dist(at, landing)
            if d > nearest + slack:
                add(k, "back", f"backs away {d - nearest:.0f} px from its landing")
            nearest = min(nearest, d)
            off = min([_to_box(at, w) for w in way] + [_to_polygon(at, lead)])
            if off > reach:
                add(k, "astray", f"is {off:.0f} px off its way")
            crossed = _values_under(tr, tr.boxes[k], frames[f])
            if crossed is not None:
                how = "over" if meets(tr.boxes[k], _box(crossed)) else "level with"
                add(k, "value", f"passes {how} the value {crossed['text']!r} ({crossed.get('id')})")
            if slot and not any(any(g == f and math.dist(c, start) <= STILL and o >= SEEN for g, c, o in s.seen)
                                for s in slot):
                add(k, "slot", "leaves its slot empty")
    return out
