"""One graph stays itself: a forward pass that records the same graph again takes the old one's place.

Why: ``y = w * w`` run three times records three graphs. Laid out together they would stand side
by side, and the one graph the viewer follows would be drawn in three places in turn, the new
pass growing beside the old one as it fades (a slide, not a graph freed and recorded again).
backward() freed the old graph before the new pass recorded its copy, and the scene fades a freed
graph's results before the new ones grow (scenes/draw/freed.py): so the new pass is drawn where
the old one was. A result "records the same graph" when it has the same title and backward
function and its inputs, slot by slot, do too, down to the same leaves (`signatures`); a rebound
input (``x = torch.tensor(-1.0)``) makes another graph, which keeps a place of its own. A freed
graph the storyboard faded (``dim``) gives its place up too: the fade shows it freed, and the new
pass grows where it was as it goes (issue 39: one graph stays itself); kept in a place of its own,
dynamic_graph's loop-once ``h = 1/9`` stood level with the three-pass walk's own.

`share_slots` says which result takes whose place; `reduced` is the graph laid out (one result per
place), and `expanded` gives each result its place back in that layout. Pure: no Manim.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from engine.records import Backward, Event, Node, Tensor
from scenes.layout.graph import Graph, GraphEdge
from scenes.layout.place import Box, Layout
from scenes.layout.routes import Route


def signatures(graph: Graph) -> dict[str, tuple]:
    """Each result's structure (buckets have none): a leaf is itself; a result its title, its
    backward function and its inputs' structures by slot."""
    items = {it.id: it for it in graph.items}
    into: dict[str, list[GraphEdge]] = {}
    for e in graph.edges:
        into.setdefault(e.dst, []).append(e)
    memo: dict[str, tuple] = {}

    def sig(v: str) -> tuple:
        if v not in memo:
            it = items[v]
            if it.kind.startswith("leaf"):
                memo[v] = ("leaf", v)
            else:
                ins = sorted((-1 if e.slot is None else e.slot, e.needs_grad, sig(e.src)) for e in into.get(v, []))
                memo[v] = (it.title, it.grad_fn, tuple(ins))
        return memo[v]

    return {it.id: sig(it.id) for it in graph.items if it.kind != "bucket"}


def share_slots(graph: Graph, events: Iterable[Event]) -> dict[str, str]:
    """Result -> the earlier result whose place it takes (only those that take one): the same
    structure (`signatures`), and the place's last holder freed by a backward() before this
    result was made (faded by a ``dim`` or not)."""
    events = list(events)
    seq = {e.id: e.seq for e in events if isinstance(e, (Tensor, Node))}
    preds: dict[str, list[str]] = {}
    for e in graph.edges:
        preds.setdefault(e.dst, []).append(e.src)
    freed: dict[str, int] = {}  # a result -> the first backward() after it whose graph held it
    for bw in sorted((e for e in events if isinstance(e, Backward) and not e.retain_graph), key=lambda e: e.seq):
        todo, seen = [bw.root], set()
        while todo:
            v = todo.pop()
            if v in seen:
                continue
            seen.add(v)
            if seq.get(v, bw.seq) < bw.seq:
                freed.setdefault(v, bw.seq)
            todo += preds.get(v, [])
    sig = signatures(graph)
    holder: dict[str, str] = {}  # a place (its first result) -> its last holder
    out: dict[str, str] = {}
    results = [it.id for it in graph.items if it.kind != "bucket" and not it.kind.startswith("leaf") and it.id in seq]
    for v in sorted(results, key=lambda r: seq[r]):
        place = next((p for p, h in holder.items() if sig[p] == sig[v]
                      and freed.get(h, seq[v]) < seq[v]), None)
        if place is None:
            holder[v] = v
        else:
            out[v], holder[place] = place, v
    return out


def reduced(graph: Graph, shared: Mapping[str, str]) -> Graph:
    """``graph`` with one result per place: the results that take another's place left out,
    their edges drawn as the place's (an edge from one of them, into a result of its own place,
    leaves the place's first holder)."""
    if not shared:
        return graph
    at = lambda v: shared.get(v, v)  # noqa: E731
    edges = dict.fromkeys(GraphEdge(at(e.src), at(e.dst), e.slot, e.needs_grad) for e in graph.edges)
    return Graph(tuple(it for it in graph.items if it.id not in shared), tuple(edges),
                 {n: at(o) for n, o in graph.node_owner.items()})


def expanded(lay: Layout, graph: Graph, shared: Mapping[str, str]) -> Layout:
    """``lay`` (of `reduced`) with every result of ``graph`` in its place's box, and each of its
    edges along its place's route."""
    if not shared:
        return lay
    at = lambda v: shared.get(v, v)  # noqa: E731
    items = {it.id: it for it in graph.items}
    boxes = dict(lay.boxes)
    for v, p in shared.items():
        if p in lay.boxes:
            b = lay.boxes[p]
            boxes[v] = Box(v, items[v].kind, b.x, b.y, b.w, b.h)
    by_edge = {(r.src, r.dst, r.slot): r for r in lay.routes}
    drawn = {(at(e.src), at(e.dst), e.slot) for e in graph.edges}
    routes = [r for r in lay.routes if (r.src, r.dst, r.slot) not in drawn]  # a bucket's, to its leaf
    for e in graph.edges:
        r = by_edge.get((at(e.src), at(e.dst), e.slot))
        if r is not None:
            routes.append(Route(e.src, e.dst, e.slot, e.needs_grad, r.points))
    members: dict[str, list[str]] = {}
    for v, p in shared.items():
        members.setdefault(p, []).append(v)
    layers = tuple(tuple(v for p in layer for v in [p, *members.get(p, [])]) for layer in lay.layers)
    users: dict[str, list[str]] = {}
    for e in graph.edges:
        users.setdefault(e.src, []).append(e.dst)

    def card_of(v: str, card: str) -> str:
        """The card ``v`` folds into: of the cards at ``card``'s place, the one its pass made from it."""
        seen, todo = set(), [v]
        while todo:
            u = todo.pop()
            if u not in seen:
                seen.add(u)
                todo += users.get(u, [])
        return next((c for c in members.get(card, []) if c in seen), card)

    merged = {**lay.merged, **{v: card_of(v, lay.merged[p]) for v, p in shared.items() if p in lay.merged}}
    steps = lay.steps | {v for v, p in shared.items() if p in lay.steps}
    return replace(lay, boxes=boxes, routes=tuple(routes), layers=layers, items=items, merged=merged, steps=steps)
