"""The graph view of the clip scene: cards growing as the lines are typed, their arrows, a value
changing in place, and the emphasis and dim cues on them. What goes when a new graph starts is
:mod:`scenes.draw.freed`. A view of ``ClipScene``, on its record ``state.graph`` (the backward
walk, the buckets and the focus views write that record too: ``View``).
"""

from __future__ import annotations

from manim import (Create, FadeIn, FadeOut, Mobject, ReplacementTransform, Succession, Transform, VGroup, smooth,
                   there_and_back)

from scenes.draw.console import Console
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.crossfade import at_end, first_half, within
from scenes.draw.drawers import draws
from scenes.draw.focus import CameraFocus
from scenes.draw.legend_spots import LegendFrame
from scenes.draw.freed import FreedGraphs
from scenes.draw.grow_in import GrowIn
from scenes.draw.labels import CardLabels
from scenes.draw.state import GraphView
from scenes.draw.visuals import edge_arrow, node_card
from scenes.layout.clip import printed_value
from scenes.storyboard.cues import Cue


class GraphCards(View):
    """Draws node_appear, edge_grow, value_update, emphasis and dim; makes a tensor's card
    (``card``) and records its rows (``record_card``) for the walk's grad_fn cards too."""

    def __init__(self, ctx: DrawContext, focus: CameraFocus, frame: LegendFrame, labels: CardLabels,
                 console: Console) -> None:
        super().__init__(ctx)
        self.focus, self.frame, self.labels, self.console = focus, frame, labels, console
        self.freed = FreedGraphs(ctx)

    @property
    def graph(self) -> GraphView:
        return self.ctx.state.graph

    def card(self, tid: str, name: str | None, value: str | None, grad_fn: str | None) -> VGroup | None:
        """Tensor ``tid``'s card, in the box of the item that stands for it (`DrawContext.item`: a result
        folded into a chain's card shows there while it is made)."""
        item = self.ctx.item(tid)
        if item not in self.ctx.layout.boxes:
            return None
        ev = self.ctx.tensor_events.get(tid)
        return self.focus.drawn_at_home(lambda lay: node_card(
            lay.boxes[item], self.theme, name=name, value=value, grad_fn=grad_fn,
            requires_grad=bool(ev and ev.requires_grad), detail=lay.detail, scale=lay.scale))

    def record_card(self, card: VGroup, cue: Cue, roles: dict[str, str]) -> None:
        """Ledger entries for the card rows that were really drawn (a row can be dropped when
        its text would be unreadably small)."""
        for s in cue.strings:
            row = roles.get(s.role)
            if row and getattr(card, row, None) is not None:
                self.ctx.record(s)

    @draws("node_appear")
    def draw_node_appear(self, cue: Cue, step: StepScratch) -> Anims:
        """A card grows (`_node_appear`); the first of a new forward pass takes the buckets'
        ``w.grad = None`` away: their buckets wait for the walk again (docs/visual-grammar.md)."""
        graph = self.ctx.state.graph
        gone: Anims = [FadeOut(m, rate_func=first_half) for m in graph.none_words.values()]  # gone as the card grows
        graph.none_words.clear()
        return gone + self._node_appear(cue, step)

    def _node_appear(self, cue: Cue, step: StepScratch) -> Anims:
        tid = cue.ids[0]
        item = self.ctx.item(tid)  # a chain's card: its folded results show there first
        if item != tid and tid not in self.ctx.layout.steps:
            return self.freed.retire_walked(tid) + self._waiting_card(item)
        name, op = cue.text("name"), cue.text("op")
        card = self.card(tid, name if name is not None else op, cue.text("value"), cue.text("grad_fn"))
        if card is None:
            return []
        out: Anims = []
        old = self.graph.cards.pop(item, None)  # replaced below: gone before the new card grows
        waited = item in self.graph.waiting
        self.graph.waiting.discard(item)
        freed, share = self.freed.retire_place(item, cue.duration)  # first: its card goes before this one grows there
        out += freed + self.freed.retire_rebound(tid, name) + self.freed.retire_walked(tid)
        self.graph.cards[item] = card
        self.record_card(card, cue, {"name": "name", "value": "value", "grad_fn": "sub"} if name is not None
                          else {"op": "name", "value": "value", "grad_fn": "sub"})
        if name is not None and op is not None:
            tag = self.labels.op_tag(self._op_words(cue, op), self.ctx.layout.boxes[item])
            self.graph.tags[item] = tag
            for s in cue.strings:
                if s.role in ("op", "operand_before", "operand_after"):
                    self.ctx.record(s)
            card.add(tag)
        out += self.frame.legend_in()
        value = next((s for s in cue.strings if s.role == "value"), None)
        if value is not None and card.value is None:  # a printout wider than any card, named as the card is
            out += self.console.print_values([value], self.theme.colors.code_text, step, text=printed_value(cue))
        if waited and old is not None:  # the outline that waited: the card comes into it, then it goes
            return out + [FadeIn(card), FadeOut(old, rate_func=at_end)]
        if freed:
            return out + [GrowIn(card, rate_func=within(share * cue.duration, (1.0 - share) * cue.duration,
                                                       cue.duration, smooth))]
        return out + [Succession(FadeOut(old), GrowIn(card)) if old is not None else GrowIn(card)]

    def _waiting_card(self, item: str) -> Anims:
        """A result folded into ``item``'s card as a term of its expression (not a step of a
        chain, `Layout.steps`): the card's outline grows as the first such term is made, so
        that the arrows into it have something to meet, and waits, empty, for the card. Why
        empty: a name alone sits in the middle and moves aside for the value, and two names on
        one spot, or a name sliding, read as two things."""
        if item in self.graph.cards:
            return []
        card = self.card(item, None, None, None)
        if card is None:
            return []
        outline = VGroup(card.frame)
        outline.frame, outline.name, outline.value, outline.sub = card.frame, None, None, None
        self.graph.cards[item] = outline
        self.graph.waiting.add(item)
        return [GrowIn(outline)]

    def _op_words(self, cue: Cue, op: str) -> str:
        """An op's tag: its name (``mul``), or with a constant operand its symbol and the number
        (``× 2`` for ``s * 2``, ``1 −`` for ``1 - z``), so a node made by a constant says which."""
        symbol = self.theme.labels.op_symbols.get(op)
        after, before = cue.text("operand_after"), cue.text("operand_before")
        if symbol is None or (after is None and before is None):
            return op
        return f"{symbol} {after}" if after is not None else f"{before} {symbol}"

    @draws("edge_grow")
    def draw_edge_grow(self, cue: Cue, step: StepScratch) -> Anims:
        src, dst = (self.ctx.item(i) for i in cue.ids[:2])
        flipped = cue.ids[0].startswith("n")  # node ids: a backward-graph edge, drawn flipped
        if flipped:  # the route still runs forward
            src, dst = dst, src
        # every route between the pair: ``w * w`` is one cue but two edges (two next_functions)
        lay = self.ctx.layout
        routes = [r for r in lay.routes if {r.src, r.dst} == {src, dst} and r not in self.graph.arrows]
        out: Anims = []  # a forward pass after a backward draws a new graph: forward arrows
        for r in routes:
            arrow = edge_arrow(r, self.theme, backward=flipped, scale=lay.scale, zoom=lay.zoom,
                               dimmed=flipped and not r.needs_grad)
            self.graph.arrows[r] = arrow
            out.append(Create(arrow))
        return out

    @draws("value_update")
    def draw_value_update(self, cue: Cue, step: StepScratch) -> Anims:
        return self.update_value(cue)

    def update_value(self, cue: Cue) -> Anims:
        """The card of the cue's tensor shows the cue's name and value (none without a card)."""
        tid = cue.ids[0]
        old = self.graph.cards.get(tid)
        ev = self.ctx.tensor_events.get(tid)
        card = self.card(tid, cue.text("name"), cue.text("value"), ev.grad_fn if ev else None)
        if card is None:
            return []
        self.record_card(card, cue, {"name": "name", "value": "value"})
        self.graph.cards[tid] = card
        # the old card leaves the scene as the new one takes its place: a Transform would leave
        # the old mobject on screen, morphed once, under every later update's new card
        return [ReplacementTransform(old, card)] if old is not None else [FadeIn(card)]

    # ----- emphasis ---------------------------------------------------------------------------
    def _targets(self, ids: tuple[str, ...]) -> list[Mobject]:
        seen, out = set(), []
        for i in ids:
            item = self.ctx.item(i)
            for m in (self.graph.cards.get(item), self.graph.buckets.get(item) if i.startswith("n") else None):
                if m is not None and id(m) not in seen:
                    seen.add(id(m))
                    out.append(m)
        return out

    @draws("emphasis")
    def draw_emphasis(self, cue: Cue, step: StepScratch) -> Anims:
        """Cards' outlines pulse in the wavefront colour (buckets are left alone: a fill may be
        changing them in the same instant, and two animations must not drive one mobject). The
        outline only: recolouring the whole card (Manim's Indicate) paints its name and value in
        the colour of the glow behind them, where they cannot be read."""
        cards = {id(c) for c in self.graph.cards.values()}
        out: Anims = []
        for m in self._targets(cue.ids):
            if id(m) in cards:  # the whole card is driven: the player draws a moving part above still ones
                pulse = m.copy()
                # its outline thickens to the wavefront's weight (to scale) and the card keeps its
                # size: grown at all, it reaches over the badge beside it or the op name above it
                s = self.theme.strokes
                pulse.frame.set_stroke(self.theme.colour("now"), width=m.frame.get_stroke_width() * s.wavefront / s.card)
                out.append(Transform(m, pulse, rate_func=there_and_back))
        return out

    @draws("dim")
    def draw_dim(self, cue: Cue, step: StepScratch) -> Anims:
        """Fade the items' cards and the arrows touching them (a graph the walk went through is
        freed: its arrows to w go, `FreedGraphs.cut_freed`); they stay faded when the walk
        turns those arrows round later (``dimmed``, read by ``_flip_edges``). An arrow a visit
        of this step turns round (``step.turning``) is faded where it ends up."""
        items = {self.ctx.item(i) for i in cue.ids}
        self.graph.dimmed |= items
        cut = self.freed.cut_freed()  # a walked graph faded is freed: cut from w as it fades
        k = self.theme.opacity.dimmed
        arrows = [a for r, a in self.graph.arrows.items() if r.src in items or r.dst in items]
        for a in arrows:
            if id(a) in step.turning:  # turned round in this step: fade where it ends up
                step.turning[id(a)].fade(k)
        mobs = self._targets(cue.ids) + [a for a in arrows if id(a) not in step.turning]
        kept = self.freed.freed()
        freed = {id(self.graph.cards[c]) for c in kept if c in self.graph.cards}
        freed |= {id(a) for r, a in self.graph.arrows.items() if r.src in kept and r.dst in kept}  # no orange left
        return cut + [Transform(m, self.freed.unrooted(m).fade(k)) if id(m) in freed else m.animate.fade(k)
                      for m in mobs]
