"""Room over the top card for its op name, taken from the gaps between the layers.

Why: a graph flowing up puts the loss's card at the top of its region, and its op name (``** 2``)
over it. Where the region reaches the frame's margin there is no room above, and lowering the
whole region to make some shrinks every card, sometimes past the scale where their values are
drawn (leaf_nodes at 16:9: 0.754 to 0.717). The tag then went level with the card, right of
its value, where ``L = 1/16  ** 2`` read as 1/16 squared. The gaps between the layers are often
wider than an op name's room (`tag_reach`, the gap compact cards are laid out with): lowering the
top layer into that slack, and each layer under it a little less, keeps every card's size.
"""

from __future__ import annotations

from dataclasses import replace

from scenes.layout.boxes import Box, Layout
from scenes.layout.routes import Route
from scenes.layout.tag_room import tag_reach
from scenes.theme import Theme


def lowered_top(lay: Layout, room: float, theme: Theme) -> Layout | None:
    """``lay`` (flowing up) with its top layer ``room`` lower, each gap between two layers closed
    by its share of ``room`` (in proportion to how much wider it is than an op name's room,
    `tag_reach`, which it keeps: the gap compact cards are laid out with), each layer lowered by
    what the gaps under it closed; the boxes moved with their layer, the routes' points with the
    layers and gaps they lie in (a gap's points in proportion, so an arrow still meets its cards'
    edges). None if the gaps have not that much slack, or ``lay`` is not a layered graph
    flowing up."""
    if lay.flow != "up" or room <= 0.0 or not lay.boxes:
        return None
    ends = theme.spacing.edge_clearance * lay.scale  # an arrow stops this far from its card: it moves with it
    bands = _bands(lay, ends)
    if bands is None or len(bands) < 2:
        return None
    order = sorted(bands, key=lambda i: -bands[i][1])  # the top layer first
    gaps = [bands[upper][0] - bands[lower][1] for upper, lower in zip(order, order[1:])]
    least = tag_reach(theme, lay.scale) - 2 * ends
    slack = [max(0.0, g - least) for g in gaps]
    if min(gaps) < 0.0 or sum(slack) < room:
        return None
    shift, closed = [room], room
    for sl in slack:
        closed -= room * sl / sum(slack)
        shift.append(max(0.0, closed))
    marks = [(*bands[i], d) for i, d in zip(order, shift)]  # (bottom, top, shift), the top layer first

    def moved(y: float) -> float:
        return y - _shift_at(y, marks)

    boxes = {k: Box(b.id, b.kind, b.x, moved(b.y), b.w, b.h) for k, b in lay.boxes.items()}
    routes = tuple(Route(r.src, r.dst, r.slot, r.needs_grad, tuple((x, moved(y)) for x, y in r.points))
                   for r in lay.routes)
    return replace(lay, boxes=boxes, routes=routes)


def _bands(lay: Layout, grown: float) -> dict[int, tuple[float, float]] | None:
    """Per layer with a card, its (bottom, top) over its cards and their buckets, ``grown`` on
    either side; None if a box is in no layer."""
    layer_of = {v: i for i, o in enumerate(lay.layers) for v in o}
    for it in lay.items.values():
        if it.kind == "bucket" and it.attached_to in layer_of:
            layer_of[it.id] = layer_of[it.attached_to]
    bands: dict[int, tuple[float, float]] = {}
    for b in lay.boxes.values():
        if b.id not in layer_of:
            return None
        i, (_, bottom, _, top) = layer_of[b.id], b.bounds
        lo, hi = bands.get(i, (bottom, top))
        bands[i] = (min(lo, bottom - grown), max(hi, top + grown))
    return bands


def _shift_at(y: float, marks: list[tuple[float, float, float]]) -> float:
    """How far a point at height ``y`` moves down: its layer's shift inside a layer's band (or
    above the top one, below the bottom one), in a gap between two bands the two shifts mixed
    in proportion to where it lies."""
    if y >= marks[0][0]:
        return marks[0][2]
    for (bottom, _, upper), (low, top, lower) in zip(marks, marks[1:]):
        if y >= top:  # in the gap between the two bands
            return lower + (upper - lower) * (y - top) / max(bottom - top, 1e-9)
        if y >= low:
            return lower
    return marks[-1][2]
