"""What backward() freeing a graph takes off the picture when the next forward pass starts one.

Why one pure function: the clip (:mod:`scenes.draw.freed`) and the article's figures
(:mod:`scenes.publish.figures`) must show the same graph at every step, so both ask this module
which cards go, which freed graph stays faded beside the new one (a ``dim`` the storyboard
asked for), and which inputs go with their graph, from the log alone. No Manim.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from engine.records import Tensor


@dataclass(frozen=True)
class Freeing:
    """What one new graph's first result frees: the cards that go (in the order they fade: the
    graph kept last time, then the walked results not kept, then their spent inputs), the freed
    graph kept beside the new one (the new ghost, cut loose from the cards it does not keep),
    and the faded items after the old ghost's fade is spent."""

    going: tuple[str, ...]
    kept: frozenset[str]
    dimmed: frozenset[str]

    def cut(self, src: str, dst: str) -> bool:
        """Whether the arrow ``src`` -> ``dst`` goes: it joins the kept graph to a card outside
        it (the weight ``w``): no gradient can come from a freed graph again, and a weight drawn
        with arrows from every graph it ever fed would read as summing them all."""
        return (src in self.kept) != (dst in self.kept)


def inputs_of(events: Mapping[str, Tensor], tid: str) -> list[str]:
    """The tensors ``tid`` was made from, as its event lists them."""
    ev = events.get(tid)
    return [i for i in (ev.inputs if ev else None) or [] if isinstance(i, str)]


def ancestors(events: Mapping[str, Tensor], tid: str) -> set[str]:
    """Tensors ``tid`` was computed from: ``s = s * 2`` keeps the old ``s`` (same graph), while
    ``x = torch.tensor(-1.0)`` in the next step does not build on the old ``x``."""
    seen: set[str] = set()
    todo = inputs_of(events, tid)
    while todo:
        t = todo.pop()
        if t not in seen:
            seen.add(t)
            todo += inputs_of(events, t)
    return seen


def kept_of(events: Mapping[str, Tensor], cards: Collection[str], walked: Collection[str],
            dimmed: Collection[str]) -> set[str]:
    """The walked graph's cards the storyboard faded (``dim``): its results and the faded inputs
    they were computed from, which stay beside the next graph."""
    kept = {c for c in walked if c in dimmed and c in cards}
    return kept | {a for c in kept for a in ancestors(events, c) if a in dimmed and a in cards}


def freeing(events: Mapping[str, Tensor], tid: str, cards: Collection[str], walked: Collection[str],
            dimmed: Collection[str], ghost: Collection[str]) -> Freeing | None:
    """What the new tensor ``tid`` frees, with ``cards`` on screen, ``walked`` the results the
    last walk visited, ``dimmed`` the faded items and ``ghost`` the freed graph kept last time;
    None when ``tid`` starts no new graph (made from nothing, no walk yet, or it builds on the
    walked one).

    The walked results go, unless faded (``kept_of``); the graph kept last time goes now; and
    the inputs needing no gradient (``x``) of the results going, which neither ``tid`` nor any
    tensor after it reads, go with them. A weight stays (its bucket holds its gradient).
    """
    made = events.get(tid)
    if made is None or not made.inputs or not walked or ancestors(events, tid) & set(walked):
        return None  # ``torch.tensor(-1.0)`` has an input, its value: it starts the next graph
    shown = set(cards)
    going = (set(ghost) | set(walked)) - kept_of(events, shown, walked, dimmed)
    order = sorted(g for g in ghost if g in shown)
    shown -= set(order)
    dimmed_now = set(dimmed) - set(ghost)
    kept = kept_of(events, shown, walked, dimmed_now)
    results = sorted(w for w in set(walked) - kept if w in shown)
    shown -= set(results)
    seq = made.seq
    later = {i for e in events.values() if e.seq >= seq for i in e.inputs or [] if isinstance(i, str)}
    feeds = {a for c in going for a in ancestors(events, c)}
    spent = sorted(a for a in feeds - later - ancestors(events, tid) - kept
                   if a in shown and a in events and events[a].is_leaf and not events[a].requires_grad)
    return Freeing(tuple(order + results + spent), frozenset(kept), frozenset(dimmed_now))
