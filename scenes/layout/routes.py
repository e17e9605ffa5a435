"""Edge routing of the layered layout: the dummy slots that carry an edge longer than one layer,
the ports where arrows meeting at a card fan out, and each edge's `Route` polyline.

Why apart from `scenes.layout.place`: placing cards (layers, order, sizes, positions) and
drawing the edges between the placed cards are two steps; `place` runs this one last. Imports go
one way, `place` to here: routing reads a card only through `Placed`, which `place.Box` is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from scenes.layout.graph import GraphEdge

Point = tuple[float, float]


class Placed(Protocol):
    """What routing reads of a placed card (`place.Box`): its centre and size in scene units."""

    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def w(self) -> float: ...
    @property
    def h(self) -> float: ...


@dataclass(frozen=True)
class Route:
    """An edge's polyline in forward direction (reverse it for a backward arrow)."""

    src: str
    dst: str
    slot: int | None
    needs_grad: bool
    points: tuple[Point, ...]


def dummy_chains(edges: tuple[GraphEdge, ...], layer: Mapping[str, int]) -> tuple[list[list[str]], dict[str, int]]:
    """Per edge the slots it passes, src first and dst last, with a dummy slot ``~k.lv`` in each
    layer between (so a long edge bends around cards instead of crossing them); and the dummy
    slots' layers, in the order they were made."""
    chains: list[list[str]] = []
    dummies: dict[str, int] = {}
    for k, e in enumerate(edges):
        chain = [e.src]
        for lv in range(layer[e.src] + 1, layer[e.dst]):
            d = f"~{k}.{lv}"
            dummies[d] = lv
            chain.append(d)
        chain.append(e.dst)
        chains.append(chain)
    return chains, dummies


def edge_routes(edges: tuple[GraphEdge, ...], chains: list[list[str]], boxes: Mapping[str, Placed],
                centre: Mapping[str, Point], flow: str, clear: float, spread: float,
                pitch: float = 0.0) -> tuple[Route, ...]:
    """Every edge's route, `clear` off the cards, the ports spread over `spread` of a card's side,
    or wider (up to the whole side) so that neighbouring ports are at least `pitch` apart: two
    gradient tokens arriving side by side (w * w) do not cover each other."""
    ports = _ports(edges, chains, centre, boxes, flow, spread, pitch)
    return tuple(_route(e, ch, boxes, centre, flow, clear, ports[k]) for k, (e, ch) in enumerate(zip(edges, chains)))


def bucket_route(bucket: str, leaf: str, b: Placed, to: Placed, clear: float) -> Route:
    """Flow "up": from the top of a leaf's AccumulateGrad bucket to the bottom of the leaf."""
    return Route(bucket, leaf, None, True, ((b.x, b.y + b.h / 2 + clear), (to.x, to.y - to.h / 2 - clear)))


def _ports(edges: tuple[GraphEdge, ...], chains: list[list[str]], centre: Mapping[str, Point], boxes: Mapping[str, Placed],
           flow: str, spread: float, pitch: float = 0.0) -> list[tuple[float, float]]:
    """Cross offsets (out of src, into dst) per edge, so arrows meeting at a card fan out in order."""
    ax = 1 if flow == "right" else 0  # the cross axis of a point
    out = [[0.0, 0.0] for _ in edges]
    for end in (0, 1):
        groups: dict[str, list[int]] = {}
        for k, e in enumerate(edges):
            groups.setdefault(e.dst if end else e.src, []).append(k)
        for v, ks in groups.items():
            if len(ks) < 2:
                continue
            far = (lambda k: centre[chains[k][-2]][ax]) if end else (lambda k: centre[chains[k][1]][ax])
            ks.sort(key=lambda k: (far(k) if flow == "down" else -far(k), k))
            whole = boxes[v].h if flow == "right" else boxes[v].w
            side = min(max(whole * spread, pitch * (len(ks) - 1)), whole)
            for i, k in enumerate(ks):
                off = -side / 2 + side * i / (len(ks) - 1)
                out[k][end] = -off if flow == "right" else off
    return [(a, b) for a, b in out]


def _route(e: GraphEdge, chain: list[str], boxes: Mapping[str, Placed], centre: Mapping[str, Point], flow: str, clear: float, port: tuple[float, float]) -> Route:
    """From the downstream side of src, through dummy slots, to the upstream side of dst."""
    a, b = boxes[e.src], boxes[e.dst]
    via = [centre[d] for d in chain[1:-1]]
    if flow == "right":
        start, end = (a.x + a.w / 2 + clear, a.y + port[0]), (b.x - b.w / 2 - clear, b.y + port[1])
    else:
        start, end = (a.x + port[0], a.y - a.h / 2 - clear), (b.x + port[1], b.y + b.h / 2 + clear)
    return Route(e.src, e.dst, e.slot, e.needs_grad, (start, *via, end))
