"""The loop view of the clip scene: the pass a beat shows, marked beside the loop's ``for`` line.

Why beside the line: the code pane shows the loop as written, once, however many times it ran;
the count (``pass 2/3``) says which run the picture is of. A view of ``ClipScene``, owning the
pass mark's fields of ``state.code`` (the pane itself is the code pane's).
"""

from __future__ import annotations

from manim import FadeIn, FadeOut, VGroup, smooth

from scenes.draw.context import Anims, StepScratch, View
from scenes.draw.crossfade import first_half, second_half
from scenes.draw.drawers import draws
from scenes.draw.state import CodeView
from scenes.draw.visuals import pass_mark
from scenes.storyboard.cues import Cue

Z_MARK = -1  # above the pane and its bar, under the graph


class PassMark(View):
    """Draws loop_pass; moves the mark with a code pane that changed its window (``follow_pane``)."""

    @property
    def code(self) -> CodeView:
        return self.ctx.state.code

    @draws("loop_pass")
    def draw_loop_pass(self, cue: Cue, step: StepScratch) -> Anims:
        going = self.code.pass_mark is not None
        out = self._drop(step)
        count, total = cue.text("count"), cue.text("total")
        if self.code.pane is None or cue.line is None or count is None or total is None:
            return out
        self.ctx.record_all(cue.strings)
        mark = self._place(cue.line, self.theme.labels.pass_mark.format(count=count, total=total), step)
        return out + [FadeIn(mark, rate_func=second_half if going else smooth)]

    def follow_pane(self, step: StepScratch) -> Anims:
        """The code pane was made again (its window moved, or it stepped aside): the mark, if
        any, goes and comes back by the same line on the new pane, in the second half."""
        if self.code.pass_mark is None or self.code.pass_at is None:
            return []
        out = self._drop(step)
        out.append(FadeIn(self._place(*self.code.pass_at, step), rate_func=second_half))
        return out

    def _drop(self, step: StepScratch) -> Anims:
        """The pass mark goes, by half time ("pass 2/3" comes in the second half where "pass
        1/3" was); one brought in by this very step never shows (two animations must not
        drive one mark)."""
        mark, self.code.pass_mark = self.code.pass_mark, None
        if mark is None:
            return []
        if id(mark) in step.arriving:
            mark.set_opacity(0.0)
            return []
        return [FadeOut(mark, rate_func=first_half)]

    def _place(self, line: int, text: str, step: StepScratch) -> VGroup:
        """The pass mark of ``line`` on the pane as it is now, to be faded in by the caller. A
        window that moved puts the line on another row, so a mark left where it was would sit
        over other code."""
        assert self.code.pane is not None
        self.code.pass_mark = pass_mark(self.code.pane, line, text, self.theme).set_z_index(Z_MARK)
        self.code.pass_at = (line, text)
        step.arriving.add(id(self.code.pass_mark))
        return self.code.pass_mark
