"""What goes when a new forward pass starts a new graph: backward() freed the old one.

A rebound name's old result fades (``retire_rebound``); a graph the walk went through fades when
an unrelated tensor starts the next one (``retire_walked``), unless the storyboard faded it
(``dim``), in which case it stays beside the new graph at the theme's ``kept`` fade, cut loose
from the weights it used, while the new one is recorded, so the two graphs the same code
recorded can be compared; it goes as backward() starts on the new one (``retire_ghost``), so a
freed graph never stays through another walk. Part of the graph view (:mod:`scenes.draw.forward`),
on its record ``state.graph``.
"""

from __future__ import annotations

from manim import FadeOut, Mobject, smooth

from scenes.draw.context import Anims, View
from scenes.draw.crossfade import first_half, within
from scenes.draw.record import tag, tag_of
from scenes.draw.state import GraphView
from scenes.layout.freeing import Freeing, ancestors, freeing, inputs_of, kept_of


class FreedGraphs(View):
    """Retires the cards and arrows of freed graphs: ``retire_rebound``, ``retire_walked``."""

    @property
    def graph(self) -> GraphView:
        return self.ctx.state.graph

    def retire_rebound(self, tid: str, name: str | None) -> Anims:
        """A new forward pass rebinds a name (``y = w * w`` again): the old graph was freed, so the
        old result's card and its arrows fade out of the way; a card the storyboard faded (``dim``)
        stays with the freed graph it belongs to (``retire_walked``)."""
        if name is None:
            return []
        out: Anims = []
        feeds, freed = self._ancestors(tid), self._freed()
        for other in list(self.graph.cards):
            ev = self.ctx.tensor_events.get(other)
            if other != tid and ev is not None and ev.name == name and other not in feeds \
                    and other not in freed | self.graph.ghost and not self._feeds_live(other):
                out += self._retire(other)
        return out

    def retire_place(self, item: str, play: float) -> tuple[Anims, float]:
        """The cards on screen in ``item``'s box (the layout gives a pass that records the same
        graph again the freed one's place, scenes/layout/passes.py) are seen freed, then go: in
        the first ``graph_freed`` seconds of the ``play`` (the plan lengthens such a node_appear
        by that much, scenes/storyboard/views/graph.py) their arrows fade out and the cards dim
        to the ``dimmed`` fade, stay so a moment, then fade out, so that the new card grows where
        nothing is left. Returns the animations and the share of the play they take (the new
        card's grow starts there); a play not lengthened frees in its first half, as before."""
        box = self.ctx.layout.boxes.get(item)
        if box is None:
            return [], 0.0
        there = [c for c in list(self.graph.cards) if c != item and (b := self.ctx.layout.boxes.get(c)) is not None
                 and (b.x, b.y) == (box.x, box.y)]
        if not there:
            return [], 0.0
        freeing = self.theme.timings.graph_freed
        if play <= freeing:  # not lengthened: out in the first half
            quick = [m for c in there for m in self._retire(c)]
            for m in quick:
                m.rate_func = first_half
            return quick, 0.5
        k = self.theme.opacity.dimmed
        dim = within(0.0, 0.4 * freeing, play, smooth)
        gone = within(0.75 * freeing, 0.25 * freeing, play, smooth)
        out: Anims = []
        for c in there:
            card, *arrows = self._retire(c)
            card.rate_func = lambda t, dim=dim, gone=gone: k * dim(t) + (1.0 - k) * gone(t)
            for a in arrows:  # the arrows go as the card dims: a freed graph is cut from its inputs
                a.rate_func = dim
            out += [card, *arrows]
        return out, freeing / play

    def _feeds_live(self, tid: str) -> bool:
        """Whether a card on screen that no walk went through was computed from ``tid``: the
        name moved on, but the tensor is still part of a graph (``h.append(act.relu())`` before
        ``act = torch.tensor(0.0)`` starts the next unit keeps the old ``act``)."""
        return any(tid in self._inputs(u) for u in self.graph.cards if u not in self.graph.walked)

    def cut_freed(self) -> Anims:
        """The storyboard fades (``dim``) a graph the walk went through as the caption says it
        is freed: its arrows to the weights it used (w) go then, with the fade, not when the
        next graph starts. No gradient can come from a freed graph again, and w drawn wired to
        it through "w.grad is 2" and the reset would read as still fed by it."""
        kept = self._freed()
        loose = [r for r in self.graph.arrows if (r.src in kept) != (r.dst in kept)]
        return [FadeOut(self.graph.arrows.pop(r)) for r in loose]

    def retire_walked(self, tid: str) -> Anims:
        """A new tensor made from inputs (an operation, or ``torch.tensor(-1.0)`` from its value)
        that does not build on a graph the walk went through starts a new graph: the walked one
        was freed by backward(), so its results fade (its leaves stay). `retire_rebound` alone
        misses a loop that rebinds another name than an earlier step bound, whose result would
        stay on screen through the loop. A freed graph the storyboard faded (``dim``) stays,
        faded, beside the new one, so the viewer compares the two graphs the same code
        recorded; it goes when the graph after that one starts."""
        f = freeing(self.ctx.tensor_events, tid, self.graph.cards, self.graph.walked, self.graph.dimmed,
                    self.graph.ghost)
        if f is None:
            return []
        out = [m for item in f.going for m in self._retire(item)]
        self.graph.dimmed.intersection_update(f.dimmed)  # the old ghost's fade is spent
        self.graph.ghost, self.graph.walked = set(f.kept), set()
        return out + self._cut_loose(f) + self._fade_kept(set(f.kept))

    def retire_ghost(self) -> Anims:
        """backward() starts on the new graph: it is complete, and the freed graph kept beside it
        for comparison (``ghost``) goes, cards and arrows. Why: kept to the clip's end, freed
        graphs piled up beside the live one (dynamic_graph's loop-once ``h = 1/9`` as large as the
        three-pass walk's own ``h = 1/9`` in its close-up), and a freed graph reads as alive."""
        ghost, self.graph.ghost = self.graph.ghost, set()
        self.graph.dimmed -= ghost
        return [m for item in sorted(ghost) if item in self.graph.cards for m in self._retire(item)]

    def _cut_loose(self, f: Freeing) -> Anims:
        """A freed graph kept beside the next one loses its arrows to what it does not keep
        (`Freeing.cut`)."""
        loose = [r for r in self.graph.arrows if f.cut(r.src, r.dst)]
        return [FadeOut(self.graph.arrows.pop(r)) for r in loose]

    def _fade_kept(self, kept: set[str]) -> Anims:
        """A freed graph kept beside the next one comes back from the ``dim`` fade to the
        theme's ``kept`` fade: still the past, but its numbers readable beside the new ones."""
        o = self.theme.opacity
        darkness = 1.0 - (1.0 - o.kept) / (1.0 - o.dimmed)  # fade() scales opacity by 1 - darkness
        mobs = [self.graph.cards[c] for c in sorted(kept) if c in self.graph.cards]
        mobs += [a for r, a in self.graph.arrows.items() if {r.src, r.dst} & kept]
        return [m.animate.fade(darkness) for m in mobs]

    def _freed(self) -> set[str]:
        """The walked graph's cards the storyboard faded (`kept_of`)."""
        return kept_of(self.ctx.tensor_events, self.graph.cards, self.graph.walked, self.graph.dimmed)

    def freed(self) -> set[str]:
        """The cards of the graph the storyboard has just faded as freed (`_freed`)."""
        return self._freed()

    def unrooted(self, card: Mobject) -> Mobject:
        """A copy of a freed graph's ``card`` (or arrow) with no part left in the loss's or the
        gradient's colour: red says where backward() starts (docs/visual-grammar.md), orange that
        a gradient flows, and neither happens in a freed graph again, so the outline and name of
        the card it started from and the arrows its walk turned round take the ``skipped`` grey
        (an inactive node's) while the values stay readable. Other cards keep their colours."""
        out = card.copy()
        grey = self.theme.colour("skipped")
        for m in out.get_family():
            t = tag_of(m)
            if t is not None and t.meaning == "loss":
                m.set_stroke(grey) if t.role == "card" else m.set_color(grey)
            elif t is not None and t.meaning == "gradient" and t.role in ("arrow", "arrowhead"):
                m.set_color(grey)
                tag(m, t.role, meaning="skipped")
        return out

    def _retire(self, item: str) -> Anims:
        """Fade one result's card (its op name goes with it) and every arrow touching it."""
        out: Anims = [FadeOut(self.graph.cards.pop(item))]
        self.graph.tags.pop(item, None)
        for r in [r for r in self.graph.arrows if item in (r.src, r.dst)]:
            out.append(FadeOut(self.graph.arrows.pop(r)))
        return out

    def _ancestors(self, tid: str) -> set[str]:
        return ancestors(self.ctx.tensor_events, tid)

    def _inputs(self, tid: str) -> list[str]:
        return inputs_of(self.ctx.tensor_events, tid)
