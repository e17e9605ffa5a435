"""Loop cues of the clip scene: the pass a beat shows, marked beside the loop's ``for`` line.

Why beside the line: the code pane shows the loop as written, once, however many times it ran;
the count (``pass 2/3``) says which run the picture is of. A mixin of ``ClipScene``.
"""

from __future__ import annotations

from typing import Any

from manim import FadeIn, FadeOut, VGroup, smooth

from scenes.draw.crossfade import first_half, second_half
from scenes.draw.drawers import draws
from scenes.draw.state import CodeView
from scenes.draw.visuals import pass_mark

Anims = list[Any]
Z_MARK = -1  # above the pane and its bar, under the graph


class LoopCues:
    """The handler for loop_pass (mixed into ClipScene)."""

    theme: Any
    code: CodeView
    _arriving: set[int]  # ClipScene's, for one step

    @draws("loop_pass")
    def _cue_loop_pass(self, cue: Any) -> Anims:
        going = self.code.pass_mark is not None
        out = self._drop_pass_mark()
        count, total = cue.text("count"), cue.text("total")
        if self.code.pane is None or cue.line is None or count is None or total is None:
            return out
        for s in cue.strings:
            self._record(s)  # type: ignore[attr-defined]
        mark = self._place_pass_mark(cue.line, self.theme.labels.pass_mark.format(count=count, total=total))
        return out + [FadeIn(mark, rate_func=second_half if going else smooth)]

    def _drop_pass_mark(self) -> Anims:
        """The pass mark goes, by half time ("pass 2/3" comes in the second half where "pass
        1/3" was); one brought in by this very step never shows (two animations must not
        drive one mark)."""
        mark, self.code.pass_mark = self.code.pass_mark, None
        if mark is None:
            return []
        if id(mark) in self._arriving:
            mark.set_opacity(0.0)
            return []
        return [FadeOut(mark, rate_func=first_half)]

    def _place_pass_mark(self, line: int, text: str) -> VGroup:
        """The pass mark of ``line`` on the pane as it is now, to be faded in by the caller. A
        window that moved puts the line on another row, so a mark left where it was would sit
        over other code."""
        self.code.pass_mark = pass_mark(self.code.pane, line, text, self.theme).set_z_index(Z_MARK)
        self.code.pass_at = (line, text)
        self._arriving.add(id(self.code.pass_mark))
        return self.code.pass_mark
