"""The layered layout's first two steps: which layer each node is in, and the order of the
nodes within each layer (barycentre sweeps that reduce edge crossings).

Why apart from `place`: these read only the graph's structure (ids, edges, creation order),
never sizes; `place` then sizes the layers and puts the boxes in them.
"""

from __future__ import annotations

from collections.abc import Mapping

from scenes.layout.graph import GraphEdge, topological


def longest_path_layers(ids: list[str], edges: tuple[GraphEdge, ...], leaf_layer: str) -> dict[str, int]:
    """Longest path from the sources; with "consumer", sources move up to just before first use."""
    preds: dict[str, list[str]] = {v: [] for v in ids}
    succs: dict[str, list[str]] = {v: [] for v in ids}
    for e in edges:
        preds[e.dst].append(e.src)
        succs[e.src].append(e.dst)
    layer: dict[str, int] = {}
    for v in topological(ids, preds, succs):
        layer[v] = max((layer[p] + 1 for p in preds[v]), default=0)
    if leaf_layer == "consumer":
        for v in ids:
            if not preds[v] and succs[v]:
                layer[v] = min(layer[w] for w in succs[v]) - 1
    return layer


def _crossings(orders: list[list[str]], segs: list[tuple[str, str]], layer_of: Mapping[str, int]) -> int:
    pos = {v: i for o in orders for i, v in enumerate(o)}
    by_layer: dict[int, list[tuple[int, int]]] = {}
    for a, b in segs:
        by_layer.setdefault(layer_of[a], []).append((pos[a], pos[b]))
    total = 0
    for pairs in by_layer.values():
        for i, (a1, b1) in enumerate(pairs):
            for a2, b2 in pairs[i + 1 :]:
                total += (a1 - a2) * (b1 - b2) < 0
    return total


def order_layers(layer_of: Mapping[str, int], rank: Mapping[str, int], chains: list[list[str]], n: int, sweeps: int) -> list[list[str]]:
    """Barycentre sweeps (down, then up); ties keep creation order; the best order seen wins."""
    segs = [(a, b) for ch in chains for a, b in zip(ch, ch[1:])]
    up: dict[str, list[str]] = {v: [] for v in layer_of}
    down: dict[str, list[str]] = {v: [] for v in layer_of}
    for a, b in segs:
        down[a].append(b)
        up[b].append(a)
    orders = [sorted((v for v in layer_of if layer_of[v] == li), key=lambda v: rank[v]) for li in range(n)]
    best, best_x = [list(o) for o in orders], _crossings(orders, segs, layer_of)
    for _ in range(sweeps):
        for rng, nb in ((range(1, n), up), (range(n - 2, -1, -1), down)):
            for li in rng:
                adj = orders[li - 1] if nb is up else orders[li + 1]
                pos = {v: i for i, v in enumerate(adj)}
                cur = {v: i for i, v in enumerate(orders[li])}

                def key(v: str) -> tuple[float, int]:
                    ps = [pos[u] for u in nb[v]]
                    return (sum(ps) / len(ps) if ps else float(cur[v]), rank[v])

                orders[li].sort(key=key)
            x = _crossings(orders, segs, layer_of)
            if x < best_x:
                best, best_x = [list(o) for o in orders], x
    return best
