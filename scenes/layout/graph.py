"""The autograd graph as drawable items, read from event-log `node` and `tensor` events.

Separate from the layout because it is the one place that interprets the log's structure (which
tensors become cards, which nodes stay internal, which edges need no grad); the layout then only
places what this module hands it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.records import Backward, Event, Node, Tensor, Update
from scenes.storyboard.views.graph import expression_text, unrecorded


@dataclass(frozen=True)
class Item:
    """A drawable thing in the graph: a tensor card, an internal node, or a leaf's bucket."""

    id: str  # tensor id ("t3"), internal node id ("n7"), or "bucket:<tensor id>"
    kind: str  # leaf_grad | leaf_nograd | op | loss | internal | bucket
    tensor: str | None
    node: str | None
    name: str | None
    grad_fn: str | None
    attached_to: str | None = None  # a bucket's leaf item
    code: str | None = None  # an unnamed result's card title: its expression's source text (`yh - y`)
    folds: tuple[str, ...] = ()  # the titles of the results folded into this card that it shows while made (`collapse`)

    @property
    def title(self) -> str:
        """What its card is called: its name, an unnamed result's code, else its op (as `node_card`
        titles it)."""
        return self.name or self.code or (self.grad_fn or "").replace("Backward0", "").lower()


@dataclass(frozen=True)
class GraphEdge:
    """Forward-direction edge src -> dst; `slot` is the index in dst's next_functions."""

    src: str
    dst: str
    slot: int | None
    needs_grad: bool


@dataclass(frozen=True)
class Graph:
    items: tuple[Item, ...]
    edges: tuple[GraphEdge, ...]
    node_owner: Mapping[str, str] = field(default_factory=dict)  # node id -> item id


def graph_from_events(events: Iterable[Event], source: str | None = None) -> Graph:
    """Extract the forward graph: tensors (except `.grad` reads), internal nodes, buckets.
    ``source``: the program, so that an unnamed result knows the code its card is called by."""
    events = list(events)
    lines = source.splitlines() if source else []
    arithmetic = update_operands(events)
    tensors = [e for e in events if isinstance(e, Tensor) and e.op != "grad" and e.id not in arithmetic]
    nodes: dict[str, Node] = {e.id: e for e in events if isinstance(e, Node)}
    for t in tensors:  # logs without node events still carry node, grad_fn and edges on tensors
        if t.node and t.node not in nodes:
            nodes[t.node] = Node(t.seq, t.line, t.node, t.grad_fn or "AccumulateGrad", t.id, t.edges or [], None)
    roots = {e.root for e in events if isinstance(e, Backward)}
    consumed = {i for t in tensors for i in t.inputs or [] if isinstance(i, str)}
    sinks = [t.id for t in tensors if t.requires_grad and not t.is_leaf and t.id not in consumed]
    # a loss is what backward() ran from; beside one, a result needing grad that nothing uses is a
    # loss too, never differentiated: the viewer must see both losses to ask which one ran
    roots = roots | set(sinks) if roots else set(sinks[-1:])
    owner: dict[str, str] = {}
    order: list[tuple[int, Item]] = []
    by_id = {t.id: t for t in tensors}
    for e in events:
        if isinstance(e, Node) and e.tensor is None:
            order.append((e.seq, Item(e.id, "internal", None, e.id, None, e.grad_fn)))
            owner[e.id] = e.id
    for t in tensors:
        leaf = bool(t.is_leaf)
        kind = ("leaf_grad" if t.requires_grad else "leaf_nograd") if leaf else "op"
        if t.id in roots:
            kind = "loss"
        code = None if t.name else expression_text(t, lines, by_id)
        order.append((t.seq, Item(t.id, kind, t.id, t.node, t.name, t.grad_fn, code=code)))
        if t.node:
            owner[t.node] = t.id
    order.sort(key=lambda p: p[0])
    items = [it for _, it in order]
    for t in tensors:
        if t.is_leaf and t.requires_grad and t.node:
            items.append(Item(f"bucket:{t.id}", "bucket", t.id, t.node, t.name, "AccumulateGrad", t.id))
    known = {it.id for it in items}
    edges: list[GraphEdge] = []
    inputs_of = {t.id: [i for i in t.inputs or [] if isinstance(i, str) and i in known]
                 for t in tensors if not unrecorded(t, by_id)}
    for it in items:
        if it.kind == "bucket":
            continue
        node = nodes.get(it.node) if it.node else None
        node_edges = list(node.edges or []) if node and node.grad_fn != "AccumulateGrad" else []
        covered: list[str] = []
        null_slots: list[int] = []
        for slot, e in enumerate(node_edges):
            if e is None or e not in owner:
                null_slots.append(slot)
                continue
            edges.append(GraphEdge(owner[e], it.id, slot, True))
            covered.extend(_through_internal(owner[e], nodes, owner, items))
        pending = list(inputs_of.get(it.id, []))
        for c in covered:
            if c in pending:
                pending.remove(c)
        for src in pending:
            slot = null_slots.pop(0) if null_slots else None
            edges.append(GraphEdge(src, it.id, slot, False))
    return Graph(tuple(items), tuple(edges), owner)


def update_operands(events: list[Event]) -> set[str]:
    """Tensors made only to be put into another in place with autograd off: the ``lr * w.grad``
    of ``w -= lr * w.grad`` under ``torch.no_grad()``. They are the step's arithmetic, which the
    update visual writes out, not nodes of any graph; a tensor that anything else uses stays."""
    tensors = {e.id: e for e in events if isinstance(e, Tensor)}
    users: dict[str, set[str]] = {}
    for t in tensors.values():
        for i in t.inputs or []:
            if isinstance(i, str):
                users.setdefault(i, set()).add(t.id)
    found: set[str] = set()
    for e in events:
        if not isinstance(e, Update) or e.grad_fn is not None:
            continue
        for i in (e.inputs or [])[1:]:
            t = tensors.get(i) if isinstance(i, str) else None
            if t is not None and not t.requires_grad and t.op not in (None, "tensor") \
                    and not users.get(i):
                found.add(i)
    return found


def _through_internal(item_id: str, nodes: Mapping[str, Node], owner: Mapping[str, str], items: list[Item]) -> list[str]:
    """The item itself, plus what an internal node reaches (those inputs are already drawn)."""
    out, stack = [], [item_id]
    kinds = {it.id: it.kind for it in items}
    while stack:
        cur = stack.pop()
        out.append(cur)
        if kinds.get(cur) == "internal":
            stack.extend(owner[e] for e in nodes[cur].edges or [] if e in owner)
    return out


def topological(ids: list[str], preds: Mapping[str, list[str]], succs: Mapping[str, list[str]]) -> list[str]:
    """The ids in an order where every input comes before its users; creation order breaks ties."""
    indeg = {v: len(set(preds[v])) for v in ids}
    ready = [v for v in ids if indeg[v] == 0]
    out: list[str] = []
    while ready:
        v = ready.pop(0)
        out.append(v)
        for w in dict.fromkeys(succs[v]):
            indeg[w] -= 1
            if indeg[w] == 0:
                ready.append(w)
    if len(out) != len(ids):
        raise ValueError("the graph has a cycle; an event log never should")
    return out
