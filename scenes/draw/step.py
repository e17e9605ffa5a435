"""Training-step cues of the clip scene: ``w -= lr * w.grad`` drawn as arithmetic on a weight.

Why not nodes: under ``torch.no_grad()`` the step records no graph; what a viewer must see is the
gradient, scaled by the learning rate, going into the weight and its value changing. So a token
with ``lr × grad`` sets off beside the weight's bucket (or from below its card) for the card,
stops beside it as the card's value changes, and the arithmetic (``w = 1/2 - 1/10 × (-8) = 13/10``) is written
under the code pane, where it stays readable beside the line that did it. A mixin of ``ClipScene``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from manim import FadeOut, Succession

from scenes.draw.drawers import draws

Anims = list[Any]


def _bracketed(text: str) -> str:
    """A negative number inside arithmetic: ``(-8)``."""
    return f"({text})" if text.startswith("-") else text


class StepCues:
    """The handler for update_step (mixed into ClipScene)."""

    theme: Any
    graph: Any
    lay: Any

    @draws("update_step")
    def _cue_update_step(self, cue: Any) -> Anims:
        s = {x.role: x for x in cue.strings}
        after, before, op = s["after"], s["before"], s["op"]
        amount = (f"{s['factor'].text} × {_bracketed(s['grad'].text)}" if "factor" in s
                  else _bracketed(s["operand"].text))
        tid = cue.ids[0]
        out: Anims = []
        card, box = self.graph.cards.get(tid), self.lay.boxes.get(tid)
        if card is not None and box is not None:
            tok = self._token(amount)  # type: ignore[attr-defined]
            bucket = self.graph.buckets.get(tid)
            if bucket is not None:  # beside the bucket, not over the .grad it still shows
                gap = bucket.width / 2 + tok.width / 2 + self.theme.spacing.edge_clearance
                start = bucket.get_center() - [gap, 0.0, 0.0]
            else:
                start = [box.x, box.y - box.h, 0]
            tok.move_to(start)
            self._keep_inside(tok)  # type: ignore[attr-defined]
            # towards the card, waiting at the nearest spot beside it that shows nothing (over
            # the card it would hide the value that changes), hidden where it can only pass behind
            out.append(Succession(self._glide(tok, (box.x, box.y), [], settle=True), FadeOut(tok)))  # type: ignore[attr-defined]
        shown = tuple(v for v in (s.get("name"), replace(after, role="value")) if v is not None)
        on_card = self._cue_value_update(replace(cue, strings=shown))  # type: ignore[attr-defined]
        out += on_card  # the card records its name and value rows; without a card the line does
        name = f"{s['name'].text} = " if "name" in s else ""
        line = replace(after, text=f"{name}{before.text} {op.text} {amount} = {after.text}")
        for x in cue.strings:
            if x.role not in ("after", "name") or not on_card:
                self._record(x)  # type: ignore[attr-defined]
        return out + self._console([line], self.theme.colors.code_text, record=False)  # type: ignore[attr-defined]
