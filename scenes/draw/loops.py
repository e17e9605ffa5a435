"""Loop cues of the clip scene: the pass a beat shows, marked beside the loop's ``for`` line.

Why beside the line: the code pane shows the loop as written, once, however many times it ran;
the count (``pass 2/3``) says which run the picture is of. A mixin of ``ClipScene``.
"""

from __future__ import annotations

from typing import Any

from manim import FadeIn, FadeOut

from scenes.draw.drawers import draws
from scenes.draw.state import CodeView
from scenes.draw.visuals import pass_mark

Anims = list[Any]
Z_MARK = -1  # above the pane and its bar, under the graph


class LoopCues:
    """The handler for loop_pass (mixed into ClipScene)."""

    theme: Any
    code: CodeView

    @draws("loop_pass")
    def _cue_loop_pass(self, cue: Any) -> Anims:
        out: Anims = []
        if self.code.pass_mark is not None:
            out.append(FadeOut(self.code.pass_mark))
            self.code.pass_mark = None
        count, total = cue.text("count"), cue.text("total")
        if self.code.pane is None or cue.line is None or count is None or total is None:
            return out
        for s in cue.strings:
            self._record(s)  # type: ignore[attr-defined]
        self.code.pass_mark = pass_mark(self.code.pane, cue.line, self.theme.labels.pass_mark.format(count=count, total=total), self.theme)
        self.code.pass_mark.set_z_index(Z_MARK)
        return out + [FadeIn(self.code.pass_mark)]
