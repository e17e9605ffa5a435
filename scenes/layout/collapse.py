"""Chains of single-input nodes folded into one card: the layout's last resort before names only.

A graph too deep for one-row cards (`place.layout_graph`) is laid out again with every chain of
single-input nodes drawn as one card. A link of such a chain is an unnamed result ``v`` whose one
user ``w`` takes nothing but ``v``: ``(b + a).relu()`` is the sum and then its ReLU, ``1 - p``
and then its log, ``-(...)`` the negation of a sum, the ``ReciprocalBackward0`` inside
``10.0 / f`` and then the multiply. Both steps happen in one expression and the card of the last
one (its name, or its code) says what the chain computed; the folded results draw at that card
while they are made (their value first, then the last one's) and the walk visits them there.

A named result is never folded away: the narration, ``focus:`` and placeholders call it by its
name. Pure (no Manim): `render check` says what folds at which aspect (`folded_into`).

>>> from scenes.layout.graph import Graph, GraphEdge, Item
>>> items = (Item("t0", "leaf_grad", "t0", "n0", "a", None), Item("t1", "op", "t1", "n1", None, "AddBackward0", code="a + a"),
...          Item("t2", "loss", "t2", "n2", "r", "ReluBackward0"))
>>> g = collapse(Graph(items, (GraphEdge("t0", "t1", 0, True), GraphEdge("t0", "t1", 1, True), GraphEdge("t1", "t2", 0, True))))
>>> [it.id for it in g.graph.items], dict(g.merged), [(e.src, e.dst) for e in g.graph.edges]
(['t0', 't2'], {'t1': 't2'}, [('t0', 't2'), ('t0', 't2')])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from scenes.layout.graph import Graph, GraphEdge

RESULTS = ("op", "loss", "internal")
"""The kinds of item a chain is made of: results of an operation, never a leaf or a bucket."""


@dataclass(frozen=True)
class Collapsed:
    """A graph with its chains folded: ``merged`` maps each folded item to the card it draws at."""

    graph: Graph
    merged: Mapping[str, str]
    steps: frozenset[str] = frozenset()  # folded items on a chain of single-input nodes into their card


def chain_links(graph: Graph, expressions: bool = False) -> dict[str, str]:
    """Each unnamed result that folds into its one user (``v -> w``), where ``w`` takes nothing
    but ``v`` (``v * v`` counts: one tensor twice). ``expressions``: whatever else ``w`` takes,
    so that each named result's whole expression is one card (``c = c + 1 + c + (-a)``: the
    ``c + 1``, ``c + 1 + c`` and ``-a`` fold into ``c``)."""
    kinds = {it.id: it for it in graph.items}
    users: dict[str, set[str]] = {k: set() for k in kinds}
    inputs: dict[str, set[str]] = {k: set() for k in kinds}
    for e in graph.edges:
        users[e.src].add(e.dst)
        inputs[e.dst].add(e.src)
    links: dict[str, str] = {}
    for it in graph.items:
        if it.kind not in RESULTS or it.name or len(users[it.id]) != 1:
            continue
        (w,) = users[it.id]
        if kinds[w].kind in RESULTS and (expressions or inputs[w] == {it.id}):
            links[it.id] = w
    return links


def collapse(graph: Graph, expressions: bool = False) -> Collapsed:
    """``graph`` with every chain of `chain_links` drawn as its last item's card: the folded
    items go, the edges into a chain's first item go into its card, the edges inside it go.
    ``steps``: the folded items whose every link to their card is one of a chain (``b + a``
    then its ReLU): each is a step of what the card computes, shown there while it is made;
    another (``a * b`` beside ``b**3`` in ``d``) is a term of its own, which the card does not
    show. The card keeps its item and carries its steps' titles (``Item.folds``), so that the
    layout sizes it for the widest of what it shows."""
    links = chain_links(graph, expressions)

    def card(v: str) -> str:
        while v in links:
            v = links[v]
        return v

    merged = {v: card(v) for v in links}
    single = links if not expressions else chain_links(graph)

    def on_chain(v: str) -> bool:  # every link from v to its card is one of a chain
        while v in links:
            if single.get(v) != links[v]:
                return False
            v = links[v]
        return True

    steps = frozenset(v for v in merged if on_chain(v))
    titles: dict[str, list[str]] = {}
    for it in graph.items:
        if it.id in steps:
            titles.setdefault(merged[it.id], []).append(it.title)
    items = tuple(replace(it, folds=tuple(titles[it.id])) if it.id in titles else it
                  for it in graph.items if it.id not in merged)
    edges = tuple(GraphEdge(e.src, card(e.dst), e.slot, e.needs_grad) for e in graph.edges
                  if e.src not in merged)
    owner = {node: merged.get(item, item) for node, item in graph.node_owner.items()}
    return Collapsed(Graph(items, edges, owner), merged, steps)


def folded_into(graph: Graph, merged: Mapping[str, str]) -> list[tuple[str, tuple[str, ...]]]:
    """Each card that folded results are drawn in, by its title, with the titles of those
    results, first made first: what `render check` reports."""
    title = {it.id: it.title for it in graph.items}
    into: dict[str, list[str]] = {}
    for it in graph.items:
        if it.id in merged:
            into.setdefault(merged[it.id], []).append(title[it.id])
    return [(title[card], tuple(folded)) for card, folded in into.items()]
