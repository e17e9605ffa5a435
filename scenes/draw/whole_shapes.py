"""Where each shape of the graph goes with a move of the whole graph (:mod:`scenes.draw.whole`).

Why a module of its own: the whole graph's view is searched, and drawn, from these moves (each
shape with the card it goes with, an arrow along its route); and AccumulateGrad, set beside its
bucket at home where it had no room under it, is put back under it where the spread made room.
"""

from __future__ import annotations

from manim import Mobject

from scenes.draw.frame_spots import bounds
from scenes.draw.camera_shapes import graph_shapes, owners
from scenes.draw.context import DrawContext
from scenes.draw.record import tag_of
from scenes.draw.state import GraphView
from scenes.draw.whole_moves import Mapper, along, centre_of, moved_rect, named, nearest, on_card, to_centre
from scenes.layout.clear_rects import meets
from scenes.layout.place import Box, Layout
from scenes.layout.tag_room import tag_gap
from scenes.layout.whole import Stretch
from scenes.theme import Theme

_NO = type("NoTag", (), {"role": None})()  # what `tag_of` stands for where a shape has no tag


def mappers(ctx: DrawContext, lay: Layout, s: Stretch) -> list[tuple[Mobject, Mapper]]:
    """Each shape of the graph and how ``s`` moves its points from where ``lay`` has it: a
    card (or bucket) with its box, an arrow along its route (its ends with its cards),
    a walk's badge or token with the card it waits by (`owners`), anything else drawn on a
    card (an op name, a bucket's name, a glow) with the card it lies on."""
    g = ctx.state.graph
    boxes = lay.boxes
    own: dict[int, Box] = {id(m): boxes[k] for k, m in g.cards.items() if k in boxes}
    own.update({id(m): boxes[f"bucket:{k}"] for k, m in g.buckets.items() if f"bucket:{k}" in boxes})
    own.update({id(m): boxes[f"bucket:{k}"] for k, m in g.none_words.items() if f"bucket:{k}" in boxes})  # its words
    # a walk's badge or token goes with the card it waits by, not the nearest: leaf_nodes 16:9's
    # 1/2 over w1 * x, a hair nearer yh, went with yh, 31 px short, onto w1 * x's ``mul``
    w, by = ctx.state.walk, owners(ctx)
    marks = [*w.badges.values(), *(m for ms in w.tokens.values() for m in ms),
             *(m for ms in w.fill_tokens.values() for m in ms)]
    own.update({id(m): own[id(o[0])] for m in marks if (o := by.get(id(m))) and id(o[0]) in own})
    routes = {id(a): r for r, a in g.arrows.items()}
    out: list[tuple[Mobject, Mapper]] = []
    for m in graph_shapes(ctx.state):  # the camera's list of what the graph is
        r = routes.get(id(m))
        if r is not None and r.points:
            a, b = centre_of(boxes, r.src, r.points[0]), centre_of(boxes, r.dst, r.points[-1])
            out.append((m, along(s, a, b, r.points[0], r.points[-1])))
            continue
        box = own.get(id(m)) or named(boxes, m) or nearest(boxes, bounds(m))
        if box is not None:
            out.append((m, on_card(s, (box.x, box.y))))
    return under_buckets(g, ctx.theme, lay, s, out)


def under_buckets(g: GraphView, t: Theme, lay: Layout, s: Stretch,
                  out: list[tuple[Mobject, Mapper]]) -> list[tuple[Mobject, Mapper]]:
    """``out`` with each AccumulateGrad that had no room under its bucket at home (set level
    with it, `tag_centre`) put back under it where the spread made room: centred, or slid
    along the bucket's width, off every other box and tag (two tags side by side keeping a
    word space, ``tag_apart``). Beside its bucket it took the width of a tall frame's graph
    (backward_graph 9:16: the legend then found no room by L)."""
    # every label of the graph where it goes (an op name drawn in its card's group, too)
    rects = {id(m): [moved_rect(p, move) for p in m.get_family() if (tag_of(p) or _NO).role == "label"]
             for m, move in out}
    for n, (m, move) in enumerate(out):
        b = named(lay.boxes, m) if any(m is tag for tag in g.bucket_tags) else None
        x0, y0, x1, y1 = bounds(m)
        if b is None or b.kind != "bucket" or (y0 + y1) / 2 > b.y + b.h / 2 or abs((x0 + x1) / 2 - b.x) <= b.w / 2:
            continue  # (a bucket's name over it, AccumulateGrad under it already)
        w, h = (x1 - x0) * s.k, (y1 - y0) * s.k
        gap, apart = s.k * tag_gap(t, lay.scale), h * (1 + t.proportions.tag_apart)
        moved = s.box(b)
        others = ([s.box_bounds(o) for o in lay.boxes.values() if o.id != b.id]
                  + [r for k, rs in rects.items() if k != id(m) for r in rs])
        y = moved.bounds[1] - gap - h / 2
        step = w * t.proportions.tag_slide_step
        for x in [moved.x + k * step * sign for k in range(int(moved.w / 2 / step) + 1) for sign in (1, -1)]:
            spot = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
            if not any(meets((spot[0] - apart, spot[1] - gap, spot[2] + apart, spot[3] + gap), r) for r in others):
                out[n] = (m, to_centre(((x0 + x1) / 2, (y0 + y1) / 2), (x, y), s.k))
                rects[id(m)] = [spot]
                break
    return out
