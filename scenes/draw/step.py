"""The training-step view of the clip scene: ``w -= lr * w.grad`` drawn as arithmetic on a weight.

Why not nodes: under ``torch.no_grad()`` the step records no graph; what a viewer must see is the
gradient, scaled by the learning rate, going into the weight and its value changing. So a token
with ``lr × grad`` sets off beside the weight's bucket (or from below its card) for the card,
stops beside it as the card's value changes, and the arithmetic (``w = 1/2 - 1/10 × (-8) = 13/10``) is written
under the code pane, where it stays readable beside the line that did it. A view of
``ClipScene``; it owns no record (the card, the bucket and the printed line are other views').
"""

from __future__ import annotations

from dataclasses import replace
from manim import FadeOut, Succession

from scenes.draw.console import Console
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.drawers import draws
from scenes.draw.forward import GraphCards
from scenes.draw.labels import CardLabels
from scenes.draw.onscreen import OnScreen
from scenes.storyboard.cues import Cue


def _bracketed(text: str) -> str:
    """A negative number inside arithmetic: ``(-8)``."""
    return f"({text})" if text.startswith("-") else text


class TrainingStep(View):
    """Draws update_step: a token (``labels``) on its way (``onscreen``), the weight's card
    (``graph``), the line printed (``console``)."""

    def __init__(self, ctx: DrawContext, labels: CardLabels, graph: GraphCards, onscreen: OnScreen,
                 console: Console) -> None:
        super().__init__(ctx)
        self.labels, self.graph, self.onscreen, self.console = labels, graph, onscreen, console

    @draws("update_step")
    def draw_update_step(self, cue: Cue, step: StepScratch) -> Anims:
        s = {x.role: x for x in cue.strings}
        after, before, op = s["after"], s["before"], s["op"]
        amount = (f"{s['factor'].text} × {_bracketed(s['grad'].text)}" if "factor" in s
                  else _bracketed(s["operand"].text))
        tid = cue.ids[0]
        name = f"{s['name'].text} = " if "name" in s else ""
        line = replace(after, text=f"{name}{before.text} {op.text} {amount} = {after.text}")
        # printed first: the column slides (the pane coming back) or scrolls as the token rides,
        # and the token keeps off where its lines end (`StepScratch.printed`), not only off where
        # they stand now (tanh_sgd_lists: it set off and waited on the lines sliding down to it)
        printed = self.console.print_line(line, self.theme.colors.code_text, step)
        out: Anims = []
        cards = self.ctx.state.graph
        card, box = cards.cards.get(tid), self.ctx.layout.boxes.get(tid)
        if card is not None and box is not None:
            tok = self.labels.token(amount)
            bucket = cards.buckets.get(tid)
            if bucket is not None:  # beside the bucket, not over the .grad it still shows
                gap = bucket.width / 2 + tok.width / 2 + self.theme.spacing.edge_clearance
                start = bucket.get_center() - [gap, 0.0, 0.0]
            else:
                start = [box.x, box.y - box.h, 0]
            tok.move_to(start)
            self.labels.keep_inside(tok)
            # towards the card, waiting at the nearest spot beside it that shows nothing (over
            # the card it would hide the value that changes), hidden where it can only pass behind
            # (where it sets off too: the printed lines may end there)
            out.append(Succession(self.onscreen.glide(tok, (box.x, box.y), [], step, settle=True, off=step.printed),
                                  FadeOut(tok)))
        shown = tuple(v for v in (s.get("name"), replace(after, role="value")) if v is not None)
        # over the network picture a weight is a line between units, not a card: a card drawn
        # for it now would land on the units (the graph's layout is not what is on screen)
        over_network = card is None and bool(self.ctx.state.network.units)
        on_card = [] if over_network else self.graph.update_value(replace(cue, strings=shown))
        out += on_card  # the card records its name and value rows; without a card the line does
        for x in cue.strings:
            if x.role not in ("after", "name") or not on_card:
                self.ctx.record(x)
        return out + printed
