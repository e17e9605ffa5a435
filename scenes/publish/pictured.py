"""The numbers a beat's picture shows besides its walk's arithmetic, as short lines for a page.

What: a card's value as it appears (``z = 1/3``), a bucket's fill (``w.grad: 6 + 6 = 12``, or
``w.grad = 3 + 3 = 6`` where paths meet at an empty bucket), a reset (``w.grad = None``), a
training step's new value, a result's ``.grad`` that stays None (``yh.grad = None``). Why from the plan's cues: they hold the strings the scene draws, in the
storyboard's number style, so the page writes every number of the picture as the picture does.
(What a line prints is the narration's and the "prints" section's; a walk's visits are
:mod:`.arithmetic`'s.)
"""

from __future__ import annotations

from scenes.storyboard.cues import Cue
from scenes.storyboard.plan import Plan


def _line(cue: Cue) -> str | None:
    name = cue.text("name")
    if cue.kind in ("node_appear", "value_update") and name and cue.text("value") is not None:
        return f"{name} = {cue.text('value')}"
    if cue.kind == "bucket_fill" and name:
        parts = [s.text for s in cue.strings if s.role == "part"]
        before, add, after = cue.text("before"), cue.text("add"), cue.text("after")
        if before is not None:
            return f"{name}.grad: {before} + {add} = {after}"
        return f"{name}.grad = {' + '.join(parts)} = {after}" if len(parts) > 1 else f"{name}.grad = {after}"
    if cue.kind == "grad_none" and name:  # a result's .grad, which backward never fills
        return f"{name}.grad = {cue.text('after')}"
    if cue.kind == "bucket_reset" and name:
        return f"{name}.grad = {cue.text('after')}"
    if cue.kind == "update_step" and name and cue.text("after") is not None:
        return f"{name}: {cue.text('before')} → {cue.text('after')}"
    return None


def beat_values(p: Plan) -> list[list[str]]:
    """Per beat of the plan, the lines of the numbers its picture shows, in the plan's order,
    each once (a card drawn again in a later pass shows the same line)."""
    per: list[list[str]] = [[] for _ in p.beats]
    for cue in p.cues:
        line = _line(cue)
        if line is not None and 0 <= cue.beat < len(per) and line not in per[cue.beat]:
            per[cue.beat].append(line)
    return per
