"""Sizes of the layout's cards, and the layering of a big graph that is laid out compact.

Why apart from `place`: the layered layout places boxes of any size; this module says how big
they are. The theme's cards shrink with the layout's scale, texts with them, which keeps a small
graph's look; a graph too big for that (20 to 40 nodes) gets compact cards instead, each as
large as its texts need at the minimum readable size, and layers balanced by width, so that the
widest layer of a longest-path layering (every node as early as it can be) does not set the
scale of the whole picture. Pure: no Manim; widths are estimated from character counts with the
theme's glyph advances (`layout.glyph_advance_*`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from scenes.layout.detail import Detail
from scenes.layout.graph import GraphEdge, Item, topological
from scenes.layout.tag_room import tag_gap
from scenes.theme import Theme


@dataclass(frozen=True)
class Dims:
    """Card sizes (w, h) at scale 1 by item id, and the buckets' size at scale 1."""

    cards: Mapping[str, tuple[float, float]]
    bucket: tuple[float, float]
    detail: Detail | None  # the detail these sizes make room for; None: from the scale
    beside_bucket: float = 0.0  # room kept across the flow beside a bucket, at scale 1 (its badge's)
    layer_gap: float | None = None  # the least gap between layers at scale 1; None: the theme's


DimsAt = Callable[[Mapping[str, Item], Theme, float], Dims]
"""The sizes to lay out with, at a candidate scale."""


def uniform_dims(items: Mapping[str, Item], theme: Theme, s: float) -> Dims:
    """The theme's cards, every one alike: they shrink with the scale, texts with them."""
    z = theme.sizes
    cards = {k: (z.internal_width, z.internal_height) if it.kind == "internal" else (z.card_width, z.card_height)
             for k, it in items.items()}
    return Dims(cards, (z.bucket_width, z.bucket_height), None)


def compact_text_scale(s: float, theme: Theme) -> float:
    """How much larger than the minimum a compact card's texts are at layout scale `s`: 1 up
    to `layout.detail_full`, then growing with the scale as the theme's cards do (a compact
    layout with room to spare draws larger cards, not wider gaps). Its names are a little
    larger again (`layout.name_over`), so that every name measures as large as a digit."""
    return max(1.0, s / theme.layout.detail_full)


def floored(s: float, least: float, zoom: float = 1.0) -> float:
    """Layout scale ``s`` kept at ``least`` or more where the camera draws the layout at home:
    seen ``zoom`` times larger (`Layout.zoom`), a size is floored at home and then drawn that
    much larger, so that the shape a close view draws is the one seen once it is back out (a
    token floored at the close view's scale would shrink under the least readable size).

    >>> floored(0.3, 0.5), floored(0.6, 0.5, zoom=2.0), floored(1.2, 0.5, zoom=2.0)
    (0.5, 1.0, 1.2)
    """
    return zoom * max(s / zoom, least)


def token_scale(s: float, theme: Theme, zoom: float = 1.0) -> float:
    """How large a gradient badge is drawn at layout scale `s`, relative to the theme's: with the
    layout, but never under `proportions.min_token_scale`, nor so small that its number would be
    under the least readable size (a badge is placed and made room for at this size too); seen
    ``zoom`` times larger by a camera, the home's size times that (`floored`)."""
    return floored(s, max(theme.proportions.min_token_scale, theme.font_sizes.min_readable / theme.font_sizes.token),
                   zoom)


def compact_dims(items: Mapping[str, Item], theme: Theme, s: float) -> Dims:
    """Cards and buckets as large as their texts at the minimum readable size, whatever the
    scale (so at scale `s` their size at scale 1 is that over `s`): a leaf's name over its
    value, a result's name and value over its grad_fn. See `_text_dims`."""
    return _text_dims(items, theme, s, one_row=False, least=theme.font_sizes.min_readable)


def dense_dims(items: Mapping[str, Item], theme: Theme, s: float) -> Dims:
    """Compact cards of one row, for a graph too deep for two (`compact_dims`): every card its
    name (an unnamed result: its code, else its op) and its value side by side, no grad_fn
    row; the op of a named result is still the tag above its card, so no card loses what it
    computes."""
    return _text_dims(items, theme, s, one_row=True, least=theme.font_sizes.min_readable)


def compact_main_dims(items: Mapping[str, Item], theme: Theme, s: float) -> Dims:
    """`compact_dims` with its texts at the size values and names keep where there is room
    (`min_readable_main`, 11 px): tried first; a graph too big for them keeps 9 px ones."""
    return _text_dims(items, theme, s, one_row=False, least=theme.font_sizes.min_readable_main)


def dense_main_dims(items: Mapping[str, Item], theme: Theme, s: float) -> Dims:
    """`dense_dims` at `min_readable_main`, as `compact_main_dims` is to `compact_dims`."""
    return _text_dims(items, theme, s, one_row=True, least=theme.font_sizes.min_readable_main)


def _text_dims(items: Mapping[str, Item], theme: Theme, s: float, *, one_row: bool, least: float) -> Dims:
    """Card sizes from their texts at the font size ``least``. The widths are estimated
    from the names and grad_fn names (structure, not values: a value is planned
    `layout.value_chars` wide), so the layout still does not move when a number changes."""
    e, z, q = theme.layout, theme.sizes, theme.proportions
    k = compact_text_scale(s, theme)
    floor = least * k
    sans, mono = e.glyph_advance_sans * floor, e.glyph_advance_mono * floor
    name = sans * e.name_over  # a name's advance (`node_card` draws it name_over larger)
    row = e.glyph_height * floor / q.label_fill  # a name's brackets stay in it at name_over
    gap, pad = 2 * z.token_pad * k, 2 * z.card_pad * s  # the card pads itself by card_pad at its scale
    value = e.value_chars * mono
    cards: dict[str, tuple[float, float]] = {}
    for key, it in items.items():
        title = max((it.title, *it.folds), key=len)  # a folded result shows at this card while it is made
        if it.kind == "internal":  # its grad_fn is its name
            w, rows = len(it.grad_fn or "") * name, 1
        elif one_row:
            w, rows = len(title) * name + gap + value, 1
        elif it.kind.startswith("leaf"):  # name over value: a leaf has no grad_fn row
            w, rows = max(len(it.name or "") * name, value), 2
        else:
            w, rows = max(len(title) * name + gap + value, len(it.grad_fn or "") * sans), 2
        cards[key] = ((w / q.label_fill + pad) / s, (rows * row + pad) / s)
    bucket = (value / q.bucket_label_width / s, e.glyph_height * floor / q.bucket_label_height / s)
    badge = z.badge_width * token_scale(s, theme) / s  # a bucket's badge waits beside it (`nominal_token_size`)
    tag = e.glyph_height * theme.font_sizes.min_readable  # an op name between two layers (its halo lets an arrow tip under it)
    layer_gap = (tag + tag_gap(theme, s) + theme.spacing.edge_clearance) / s
    return Dims(cards, bucket, Detail.DENSE if one_row else Detail.COMPACT, badge, max(layer_gap, theme.spacing.layer_gap_min))


def balanced_layers(ids: list[str], edges: tuple[GraphEdge, ...], width: Mapping[str, float],
                    extra: int) -> dict[str, int]:
    """Layers (0 = the sources) with `extra` more than the longest path, each node placed
    within its slack (after its inputs, before its users) where the layers are least wide:
    in creation order, each to the least loaded layer it may take (the latest on a tie, so a
    leaf sits just before its use), then moved while a move makes its layers' widths more even.
    `width`: each node's extent across the flow, gap included."""
    preds: dict[str, list[str]] = {v: [] for v in ids}
    succs: dict[str, list[str]] = {v: [] for v in ids}
    for e in edges:
        preds[e.dst].append(e.src)
        succs[e.src].append(e.dst)
    order = topological(ids, preds, succs)
    below: dict[str, int] = {}  # longest path down to a sink
    for v in reversed(order):
        below[v] = max((below[w] + 1 for w in succs[v]), default=0)
    depth = max(below.values(), default=0) + 1 + extra
    latest = {v: depth - 1 - below[v] for v in ids}
    layer: dict[str, int] = {}
    load = [0.0] * depth
    for v in order:
        lo = max((layer[p] + 1 for p in preds[v]), default=0)
        best = min(range(lo, latest[v] + 1), key=lambda li: (load[li], -li))
        layer[v] = best
        load[best] += width[v]
    for _ in range(4 * len(ids)):
        moved = False
        for v in order:
            lo = max((layer[p] + 1 for p in preds[v]), default=0)
            hi = min((layer[w] - 1 for w in succs[v]), default=depth - 1)
            cur = layer[v]
            to = min(range(lo, hi + 1), key=lambda li: (load[li] + (0.0 if li == cur else width[v]), li != cur))
            if to != cur and load[to] + width[v] < load[cur] - 1e-9:
                load[cur] -= width[v]
                load[to] += width[v]
                layer[v] = to
                moved = True
        if not moved:
            break
    return layer
