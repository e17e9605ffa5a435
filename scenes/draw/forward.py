"""Forward-pass cues of the clip scene: cards growing as the lines are typed, their arrows, and
a value changing in place. What goes when a new graph starts is :mod:`scenes.draw.freed`.
A mixin of ``ClipScene``.
"""

from __future__ import annotations

from typing import Any

from manim import Create, FadeIn, FadeOut, Succession, Transform, VGroup

from scenes.draw.grow_in import GrowIn
from scenes.draw.onscreen import at_end
from scenes.draw.drawers import draws
from scenes.draw.visuals import edge_arrow, node_card

Anims = list[Any]


class ForwardCues:
    """The handlers for node_appear, edge_grow and value_update (mixed into ClipScene)."""

    def _card(self, tid: str, name: str | None, value: str | None, grad_fn: str | None) -> VGroup | None:
        """Tensor ``tid``'s card, in the box of the item that stands for it (`_item`: a result
        folded into a chain's card shows there while it is made)."""
        item = self._item(tid)
        if item not in self.lay.boxes:
            return None
        ev = self.tensor_events.get(tid)
        return self._drawn_at_home(lambda lay: node_card(
            lay.boxes[item], self.theme, name=name, value=value, grad_fn=grad_fn,
            requires_grad=bool(ev and ev.requires_grad), detail=lay.detail, scale=lay.scale))

    def _record_card(self, card: VGroup, cue: Any, roles: dict[str, str]) -> None:
        """Ledger entries for the card rows that were really drawn (a row can be dropped when
        its text would be unreadably small)."""
        for s in cue.strings:
            row = roles.get(s.role)
            if row and getattr(card, row, None) is not None:
                self._record(s)

    @draws("node_appear")
    def _cue_node_appear(self, cue: Any) -> Anims:
        tid = cue.ids[0]
        item = self._item(tid)  # a chain's card: its folded results show there first
        if item != tid and tid not in self.lay.steps:
            return self._retire_walked(tid) + self._waiting_card(item)
        name, op = cue.text("name"), cue.text("op")
        card = self._card(tid, name if name is not None else op, cue.text("value"), cue.text("grad_fn"))
        if card is None:
            return []
        out: Anims = []
        old = self.graph.cards.pop(item, None)  # replaced below: gone before the new card grows
        waited = item in self.graph.waiting
        self.graph.waiting.discard(item)
        out += self._retire_rebound(tid, name) + self._retire_walked(tid)
        self.graph.cards[item] = card
        self._record_card(card, cue, {"name": "name", "value": "value", "grad_fn": "sub"} if name is not None
                          else {"op": "name", "value": "value", "grad_fn": "sub"})
        if name is not None and op is not None:
            tag = self._tag(self._op_words(cue, op), self.lay.boxes[item])
            self.graph.tags[item] = tag
            for s in cue.strings:
                if s.role in ("op", "operand_before", "operand_after"):
                    self._record(s)
            card.add(tag)
        out += self._legend_in()
        value = next((s for s in cue.strings if s.role == "value"), None)
        if value is not None and card.value is None:  # a printout wider than any card
            out += self._console([value], self.theme.colors.code_text)
        if waited and old is not None:  # the outline that waited: the card comes into it, then it goes
            return out + [FadeIn(card), FadeOut(old, rate_func=at_end)]
        return out + [Succession(FadeOut(old), GrowIn(card)) if old is not None else GrowIn(card)]

    def _waiting_card(self, item: str) -> Anims:
        """A result folded into ``item``'s card as a term of its expression (not a step of a
        chain, `Layout.steps`): the card's outline grows as the first such term is made, so
        that the arrows into it have something to meet, and waits, empty, for the card. Why
        empty: a name alone sits in the middle and moves aside for the value, and two names on
        one spot, or a name sliding, read as two things."""
        if item in self.graph.cards:
            return []
        card = self._card(item, None, None, None)
        if card is None:
            return []
        outline = VGroup(card.frame)
        outline.frame, outline.name, outline.value, outline.sub = card.frame, None, None, None
        self.graph.cards[item] = outline
        self.graph.waiting.add(item)
        return [GrowIn(outline)]

    def _op_words(self, cue: Any, op: str) -> str:
        """An op's tag: its name (``mul``), or with a constant operand its symbol and the number
        (``× 2`` for ``s * 2``, ``1 −`` for ``1 - z``), so a node made by a constant says which."""
        symbol = self.theme.labels.op_symbols.get(op)
        after, before = cue.text("operand_after"), cue.text("operand_before")
        if symbol is None or (after is None and before is None):
            return op
        return f"{symbol} {after}" if after is not None else f"{before} {symbol}"

    @draws("edge_grow")
    def _cue_edge_grow(self, cue: Any) -> Anims:
        src, dst = (self._item(i) for i in cue.ids[:2])
        flipped = cue.ids[0].startswith("n")  # node ids: a backward-graph edge, drawn flipped
        if flipped:  # the route still runs forward
            src, dst = dst, src
        # every route between the pair: ``w * w`` is one cue but two edges (two next_functions)
        routes = [r for r in self.lay.routes if {r.src, r.dst} == {src, dst} and r not in self.graph.arrows]
        out: Anims = []  # a forward pass after a backward draws a new graph: forward arrows
        for r in routes:
            arrow = edge_arrow(r, self.theme, backward=flipped, scale=self.lay.scale,
                               dimmed=flipped and not r.needs_grad)
            self.graph.arrows[r] = arrow
            out.append(Create(arrow))
        return out

    @draws("value_update")
    def _cue_value_update(self, cue: Any) -> Anims:
        tid = cue.ids[0]
        old = self.graph.cards.get(tid)
        ev = self.tensor_events.get(tid)
        card = self._card(tid, cue.text("name"), cue.text("value"), ev.grad_fn if ev else None)
        if card is None:
            return []
        self._record_card(card, cue, {"name": "name", "value": "value"})
        self.graph.cards[tid] = card
        return [Transform(old, card)] if old is not None else [FadeIn(card)]
