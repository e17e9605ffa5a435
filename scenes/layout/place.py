"""Deterministic layered layout of the autograd graph, from event-log `node` and `tensor` events.

Why pure and structural: positions must not move when only numbers change (a new learning rate
must not reshuffle the picture, and a changed number should re-render only what it touches), so
the layout reads ids, names, inputs and edges, never values. No Manim here: tests run in
milliseconds and the scene only reads `Layout.boxes` and `Layout.routes`.

Method (Sugiyama-style): layers by longest path from the sources; edges longer than one layer get
dummy slots so they bend around cards instead of crossing them; barycentre sweeps with a stable
tie-break on creation order reduce crossings; sizes shrink uniformly (one `scale`) until the
densest layer fits; cross positions follow neighbours, clamped inside the region without overlap.
The dummy slots and the edges' routes between the placed cards are `scenes.layout.routes`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scenes.layout.detail import Detail
from scenes.layout.compact import (Dims, DimsAt, balanced_layers, compact_dims, compact_main_dims, dense_dims,
                                   dense_main_dims, token_scale, uniform_dims)
from scenes.layout.graph import Graph, Item, graph_from_events
from scenes.layout.ordering import longest_path_layers, order_layers
from scenes.layout.routes import Point, Route, bucket_route, dummy_chains, edge_routes
from scenes.layout.boxes import Box, Layout
from scenes.layout.lowered import lowered_top
from scenes.layout.tag_room import tag_reach
from scenes.theme import Rect, Theme


def layout_events(events: Iterable[Mapping[str, Any]], aspect: str, theme: Theme, region: Rect | None = None,
                  source: str | None = None, one_row: bool = True) -> Layout:
    """Convenience: `layout_graph(graph_from_events(events, source), aspect, theme, region, one_row)`."""
    return layout_graph(graph_from_events(events, source), aspect, theme, region, one_row)


def layout_graph(graph: Graph, aspect: str, theme: Theme, region: Rect | None = None, one_row: bool = True) -> Layout:
    """Place every item inside `region` (default: the aspect's graph region from the theme; a
    clip without a code pane may pass a larger one); see the module docstring.

    A graph too big for the theme's cards at a scale where their rows are readable
    (`layout.detail_full`) is laid out again with compact cards (`Detail.COMPACT`): each card
    and bucket just as large as its texts need at the minimum readable size (`compact_dims`),
    only the gaps shrinking with the scale. It is taken when its scale is at least
    `layout.compact_min`; else one-row cards (`dense_dims`, `Detail.DENSE`: name and value
    side by side, no grad_fn row) are tried the same way, for a graph too deep for two rows
    (unless ``one_row`` is false); else the uniform layout stands (a bigger graph: names only,
    unless `clip_layout` folds its chains, `collapse`).

    Flow "up" (the articles' orientation: the leaves at the bottom, the loss on top, so that the
    backward walk goes down) is the "down" layout mirrored top to bottom, with each weight's
    AccumulateGrad bucket under its leaf, the last node of the backward graph, and a route from
    the bucket to the leaf (drawn reversed: the gradient's arrow into the bucket).
    With "right" or "down" both of those are tried and the one that draws the graph larger wins
    (the theme's flow breaks a tie). The choice depends on the structure only, so positions
    still do not move when numbers change."""
    lay = _layout_oriented(graph, aspect, theme, region, uniform_dims)
    if lay.scale >= theme.layout.detail_full or not lay.boxes:
        return lay
    return _text_sized(graph, aspect, theme, region, one_row) or lay


def shows_values(lay: Layout) -> bool:
    """Whether every card of ``lay`` has a row for its value (not names only, not bare boxes)."""
    return lay.detail.shows_values


def _text_sized(graph: Graph, aspect: str, theme: Theme, region: Rect | None, one_row: bool) -> Layout | None:
    """The compact layout (`compact_dims`), else the one-row one (`dense_dims`, if ``one_row``),
    that draws at `layout.compact_min` or larger; None if neither does. Each is tried first
    with its names and values at `min_readable_main` (`compact_main_dims`), taken where its gaps
    stay at `layout.compact_main_min` or more (tighter, the op names between the cards have no
    room), then at the least readable size; a card draws its texts at the size it was made for."""
    for dims in (compact_main_dims, compact_dims, dense_main_dims, dense_dims) if one_row else (compact_main_dims, compact_dims):
        tries = [_layout_oriented(graph, aspect, theme, region, dims, extra) for extra in range(COMPACT_EXTRA + 1)]
        compact = max(tries, key=lambda t: t.scale)  # the first of the best: fewer layers on a tie
        least = theme.layout.compact_main_min if dims in (compact_main_dims, dense_main_dims) else theme.layout.compact_min
        if compact.scale >= max(least, theme.layout.compact_min):
            return compact
    return None


COMPACT_EXTRA = 3
"""A compact layout may take up to this many layers more than the graph's longest path, when
spreading the nodes over more layers lets it draw larger."""


def _layout_oriented(graph: Graph, aspect: str, theme: Theme, region: Rect | None, dims: DimsAt,
                     extra: int | None = None) -> Layout:
    """The layout in the aspect's flow (see `layout_graph`), with cards sized by `dims`;
    `extra`: layers balanced by width with this many more than the longest path (None: the
    theme's longest-path layering)."""
    preferred = theme.aspect(aspect).flow
    if preferred == "up":
        lay = _layout_flow(graph, aspect, theme, region, "down", dims, extra, sides=("main",))
        room = _top_tag_overshoot(_mirrored(lay, 0.0), theme)
        if room > 0:  # the op name over the top card would sit in the frame's margin: lower the top,
            left, bottom, right, top = lay.region  # unless that costs the cards a row of their texts
            lower = _layout_flow(graph, aspect, theme, (left, bottom, right, top - room), "down", dims, extra, sides=("main",))
            if lower.detail == lay.detail and (not lower.detail.text_sized or lower.scale >= theme.layout.compact_min):
                return _mirrored(lower, theme.spacing.edge_clearance * lower.scale)
        up = _mirrored(lay, theme.spacing.edge_clearance * lay.scale)
        if room > 0:  # else the top layer only, into the slack between the layers (`lowered_top`)

            return lowered_top(up, room, theme) or up
        return up
    other = "down" if preferred == "right" else "right"
    first = _layout_flow(graph, aspect, theme, region, preferred, dims, extra)
    second = _layout_flow(graph, aspect, theme, region, other, dims, extra)
    return second if second.scale > first.scale * 1.05 else first


def _top_tag_overshoot(lay: Layout, theme: Theme) -> float:
    """How far the op name over the highest result's card (``** 2`` over the loss) reaches into
    the frame's margin: a tag's height at the layout's scale (as `card_tag` sizes it) and its
    gap. Zero when it stays inside (a region under the code pane has room above it), or when
    the top card is a leaf (no op name)."""
    ops = [b for b in lay.boxes.values() if b.kind in ("op", "loss")]
    if not ops:
        return 0.0
    top = max(b.y + b.h / 2 for b in ops)
    spec = theme.aspect(lay.aspect)
    return max(0.0, top + tag_reach(theme, lay.scale) - theme.safe_rect(spec)[3])


def _mirrored(lay: Layout, clear: float) -> Layout:
    """The layout turned upside down inside its region, its flow "up", and a route from each
    bucket to its leaf added (bucket top to leaf bottom)."""
    left, bottom, right, top = lay.region
    flip = lambda p: (p[0], bottom + top - p[1])  # noqa: E731
    boxes = {k: Box(b.id, b.kind, b.x, bottom + top - b.y, b.w, b.h) for k, b in lay.boxes.items()}
    routes = [Route(r.src, r.dst, r.slot, r.needs_grad, tuple(flip(p) for p in r.points)) for r in lay.routes]
    for it in lay.items.values():
        if it.kind != "bucket" or it.attached_to not in boxes or it.id not in boxes:
            continue
        routes.append(bucket_route(it.id, it.attached_to, boxes[it.id], boxes[it.attached_to], clear))
    return Layout(lay.aspect, lay.region, "up", lay.scale, lay.detail, boxes, tuple(routes), lay.layers, lay.items)


def _layout_flow(graph: Graph, aspect: str, theme: Theme, region: Rect | None, flow: str, dims_at: DimsAt,
                 extra: int | None = None, sides: tuple[str, ...] = ("cross", "main")) -> Layout:
    spec = theme.aspect(aspect)
    items = {it.id: it for it in graph.items}
    bucket_of = {it.attached_to: it.id for it in graph.items if it.kind == "bucket" and it.attached_to}
    ids = [it.id for it in graph.items if it.kind != "bucket"]
    if not ids:
        return Layout(aspect, region or spec.graph, flow, theme.layout.max_scale, "full", {}, (), (), items)
    if extra is None:
        layer = longest_path_layers(ids, graph.edges, theme.layout.leaf_layer)
    else:
        unit = dims_at(items, theme, 1.0).cards
        across = {v: (unit[v][1] if flow == "right" else unit[v][0]) + theme.spacing.item_gap * theme.layout.compact_min
                  for v in ids}
        layer = balanced_layers(ids, graph.edges, across, extra)
    n_layers = max(layer.values(), default=0) + 1
    chains, dummies = dummy_chains(graph.edges, layer)  # long edges pass dummy slots
    layer_of = {**layer, **dummies}
    rank = {v: i for i, v in enumerate([*ids, *dummies])}
    orders = order_layers(layer_of, rank, chains, n_layers, theme.layout.sweeps)
    left, bottom, right, top = region or spec.graph
    avail_main, avail_cross = (right - left, top - bottom) if flow == "right" else (top - bottom, right - left)
    gap = theme.spacing.item_gap
    tagged = _tagged_gaps(orders, items, bucket_of, flow)

    def gaps1(dims: Dims) -> list[float]:
        """The least gap after each layer but the last, at scale 1: room for a tag where one goes."""
        low = theme.spacing.layer_gap_min
        return [max(low, dims.layer_gap or low) if t else low for t in tagged]

    def fit(side: str, dims: Dims) -> tuple[float, dict[str, tuple[float, float]], list[float]]:
        size1 = {v: _size(dims.cards.get(v), v in bucket_of, dims, theme, flow, side) for v in layer_of}  # (main, cross)
        need_cross = max((sum(size1[v][1] for v in o) + gap * (len(o) - 1) for o in orders), default=1.0)
        thick1 = [max((size1[v][0] for v in o), default=0.0) for o in orders]
        need_main = sum(thick1) + sum(gaps1(dims))
        return min(theme.layout.max_scale, avail_cross / need_cross, avail_main / need_main), size1, thick1

    def settled(side: str) -> tuple[float, Dims]:
        """The scale at which cards sized for it fit (a fixed point: sizes that do not shrink
        with the scale leave less room for the gaps that do)."""
        s = theme.layout.max_scale
        for _ in range(40):
            dims = dims_at(items, theme, s)
            got = fit(side, dims)[0]
            if abs(got - s) < 1e-6:
                break
            s = got
        return s, dims_at(items, theme, s)

    # a bucket sits beside its leaf across the flow, or before it along the flow: whichever is bigger
    side = max(sides, key=lambda sd: settled(sd)[0])
    s, dims = settled(side)
    s, size1, thick1 = fit(side, dims)
    size = {v: (m * s, c * s) for v, (m, c) in size1.items()}
    thick = [t * s for t in thick1]
    least = [g * s for g in gaps1(dims)]
    spare = (avail_main - sum(thick) - sum(least)) / (n_layers - 1) if n_layers > 1 else 0.0
    lgaps = [g + max(0.0, min(spare, theme.spacing.layer_gap_max * s - g)) for g in least] + [0.0]
    main_pos, cur = [], (avail_main - sum(thick) - sum(lgaps)) / 2
    for t, lg in zip(thick, lgaps):
        main_pos.append(cur + t / 2)
        cur += t + lg
    cross = _cross_positions(orders, chains, size, gap * s, avail_cross)
    boxes: dict[str, Box] = {}
    centre: dict[str, Point] = {}
    for li, o in enumerate(orders):
        for v in o:
            m, c = main_pos[li], cross[v]
            pt = (left + m, top - c) if flow == "right" else (left + c, top - m)
            centre[v] = pt
            if v.startswith("~"):
                continue
            boxes.update(_boxes_for(items[v], pt, bucket_of.get(v), dims, theme, s, flow, side))
    boxes, centre, k = _centred(boxes, centre, (left, bottom, right, top))
    s *= k
    badge = theme.sizes.badge_width * token_scale(s, theme) + theme.spacing.edge_clearance  # a token per edge, side by side
    routes = edge_routes(graph.edges, chains, boxes, centre, flow, theme.spacing.edge_clearance * s,
                         theme.proportions.port_spread, pitch=badge)
    detail = dims.detail or (Detail.FULL if s >= theme.layout.detail_full
                             else Detail.NAME if s >= theme.layout.detail_name else Detail.NONE)
    real_layers = tuple(tuple(v for v in o if not v.startswith("~")) for o in orders)
    return Layout(aspect, (left, bottom, right, top), flow, s, detail, boxes, routes, real_layers, items)


def _tagged_gaps(orders: list[list[str]], items: Mapping[str, Item], bucket_of: Mapping[str, str],
                 flow: str) -> list[bool]:
    """Per gap between layer i and i + 1: whether a tag goes into it. The scene writes a named
    result's op above its card, and AccumulateGrad under a leaf's bucket; the layout is made
    flowing down and then mirrored for "up", so above a card is towards the next layer and
    under a bucket towards the one before. Another flow: every gap."""
    if flow != "down":
        return [True] * max(len(orders) - 1, 0)
    named_op = [any(v in items and items[v].kind in ("op", "loss") and items[v].name for v in o) for o in orders]
    bucketed = [any(v in bucket_of for v in o) for o in orders]
    return [named_op[i] or bucketed[i + 1] for i in range(len(orders) - 1)]


def _centred(boxes: dict[str, Box], centre: dict[str, Point],
             region: tuple[float, float, float, float]) -> tuple[dict[str, Box], dict[str, Point], float]:
    """Move the drawing into the middle of the region, shrinking it (factor returned) in the rare
    case the packing overflowed: a small graph should not hug one edge of its space, and no graph
    may leave it."""
    if not boxes:
        return boxes, centre, 1.0
    # the boxes and the bend points of long edges (dummy slots) must all stay inside
    x0 = min([b.bounds[0] for b in boxes.values()] + [x for x, _ in centre.values()])
    y0 = min([b.bounds[1] for b in boxes.values()] + [y for _, y in centre.values()])
    x1 = max([b.bounds[2] for b in boxes.values()] + [x for x, _ in centre.values()])
    y1 = max([b.bounds[3] for b in boxes.values()] + [y for _, y in centre.values()])
    k = min(1.0, (region[2] - region[0]) / max(x1 - x0, 1e-9), (region[3] - region[1]) / max(y1 - y0, 1e-9))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx = _within((region[0] + region[2]) / 2 - cx, region[0] - (cx - k * (cx - x0)), region[2] - (cx + k * (x1 - cx)))
    dy = _within((region[1] + region[3]) / 2 - cy, region[1] - (cy - k * (cy - y0)), region[3] - (cy + k * (y1 - cy)))
    move = lambda x, y: (cx + k * (x - cx) + dx, cy + k * (y - cy) + dy)  # noqa: E731
    moved = {key: Box(b.id, b.kind, *move(b.x, b.y), b.w * k, b.h * k) for key, b in boxes.items()}
    return moved, {key: move(x, y) for key, (x, y) in centre.items()}, k


def _within(shift: float, lo: float, hi: float) -> float:
    """``shift`` limited so that what fitted still fits (no move at all if it did not fit)."""
    if lo > hi:
        return 0.0
    return min(max(shift, lo), hi)


def _size(card: tuple[float, float] | None, has_bucket: bool, dims: Dims, theme: Theme, flow: str,
          side: str) -> tuple[float, float]:
    """(main, cross) extent at scale 1 of a slot (`card`: its card's size, None for a dummy
    slot); a leaf's bucket adds to the `side` axis."""
    z = theme.sizes
    if card is None:  # a dummy slot
        return (0.0, z.dummy_width)
    w, h = card
    main, cross = (w, h) if flow == "right" else (h, w)
    if has_bucket:
        bw, bh = dims.bucket
        bm, bc = (bw, bh) if flow == "right" else (bh, bw)
        bc += dims.beside_bucket
        if side == "cross":
            main, cross = max(main, bm), cross + z.bucket_gap + bc
        else:
            main, cross = main + z.bucket_gap + bm, max(cross, bc)
    return (main, cross)


def _cross_positions(orders: list[list[str]], chains: list[list[str]], size: Mapping[str, tuple[float, float]], gap: float, span: float) -> dict[str, float]:
    """Cross coordinates (0 = top/left of region): pulled toward neighbours, order kept, no overlap."""
    nbrs: dict[str, list[str]] = {v: [] for o in orders for v in o}
    for ch in chains:
        for a, b in zip(ch, ch[1:]):
            nbrs[a].append(b)
            nbrs[b].append(a)
    pos: dict[str, float] = {}
    for o in orders:
        total = sum(size[v][1] for v in o) + gap * (len(o) - 1)
        cur = (span - total) / 2
        for v in o:
            pos[v] = cur + size[v][1] / 2
            cur += size[v][1] + gap
    for it in range(6):
        seq = list(range(len(orders))) if it % 2 == 0 else list(range(len(orders) - 1, -1, -1))
        for li in seq:
            o = orders[li]
            want = [sum(pos[u] for u in nbrs[v]) / len(nbrs[v]) if nbrs[v] else pos[v] for v in o]
            for v, p in zip(o, _pack(want, [size[v][1] for v in o], gap, span)):
                pos[v] = p
    lo = min((pos[v] - size[v][1] / 2 for v in pos), default=0.0)  # the pulls drift; recentre
    hi = max((pos[v] + size[v][1] / 2 for v in pos), default=0.0)
    shift = (span - (hi - lo)) / 2 - lo
    return {v: p + shift for v, p in pos.items()}


def _pack(want: list[float], sizes: list[float], gap: float, span: float) -> list[float]:
    """Closest positions to `want` keeping order and spacing, inside [0, span] (pool-adjacent)."""
    offs, cur = [], 0.0
    for i, sz in enumerate(sizes):
        if i:
            cur += sizes[i - 1] / 2 + gap + sz / 2
        offs.append(cur)
    total_lo, total_hi = sizes[0] / 2 if sizes else 0.0, span - (offs[-1] + sizes[-1] / 2 if sizes else 0.0)
    blocks: list[list[Any]] = []  # [start index, end index, sum of (want - off), count]
    for i, (w, off) in enumerate(zip(want, offs)):
        blocks.append([i, i, w - off, 1])
        while len(blocks) > 1 and blocks[-2][2] / blocks[-2][3] >= blocks[-1][2] / blocks[-1][3]:
            b = blocks.pop()
            blocks[-1][1], blocks[-1][2], blocks[-1][3] = b[1], blocks[-1][2] + b[2], blocks[-1][3] + b[3]
    out = [0.0] * len(want)
    for start, end, tot, cnt in blocks:
        base = min(max(tot / cnt, total_lo), max(total_lo, total_hi))
        for i in range(start, end + 1):
            out[i] = base + offs[i]
    return out


def _boxes_for(item: Item, pt: Point, bucket: str | None, dims: Dims, theme: Theme, s: float, flow: str,
               side: str) -> dict[str, Box]:
    """The card of one slot centred at `pt`, and its bucket: below/left (cross) or before it (main)."""
    z = theme.sizes
    w, h = dims.cards[item.id]
    w, h = w * s, h * s
    if bucket is None:
        return {item.id: Box(item.id, item.kind, pt[0], pt[1], w, h)}
    bw, bh, g = dims.bucket[0] * s, dims.bucket[1] * s, z.bucket_gap * s
    x, y = pt
    if (flow == "right") == (side == "cross"):  # stacked: bucket below (right flow) or above (down)
        total, sign = h + g + bh, 1 if flow == "right" else -1
        card = Box(item.id, item.kind, x, y + sign * (total / 2 - h / 2), w, h)
        bx = Box(bucket, "bucket", x, y - sign * (total / 2 - bh / 2), bw, bh)
    else:  # side by side: bucket on the left
        total = w + g + bw
        card = Box(item.id, item.kind, x + total / 2 - w / 2, y, w, h)
        bx = Box(bucket, "bucket", x - total / 2 + bw / 2, y, bw, bh)
    return {item.id: card, bucket: bx}
