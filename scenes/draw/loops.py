"""Marks beside code lines: the pass a beat shows by the loop's ``for`` line, and what an ``if``
test gave by the if line.

Why beside the line: the code pane shows the loop as written, once, however many times it ran;
the count (``pass 2/3``) says which run the picture is of. A test's result is the program's
own state, not something it printed, so it sits by its line rather than in the console. A view
of ``ClipScene``, owning the marks' fields of ``state.code`` (the pane itself is the code pane's).
"""

from __future__ import annotations

from collections.abc import Collection

from manim import FadeIn, FadeOut, VGroup, smooth

from scenes.draw.context import Anims, StepScratch, View
from scenes.draw.crossfade import at_end, first_half, second_half
from scenes.draw.drawers import draws
from scenes.draw.state import CodeView
from scenes.draw.visuals import pass_mark
from scenes.storyboard.cues import Cue

Z_MARK = -1  # above the pane and its bar, under the graph


class PassMark(View):
    """Draws loop_pass and branch_test as marks beside their code lines (one of each kind at a
    time); moves them with a code pane that changed its window (``follow_pane``)."""

    @property
    def code(self) -> CodeView:
        return self.ctx.state.code

    @draws("loop_pass")
    def draw_loop_pass(self, cue: Cue, step: StepScratch) -> Anims:
        count, total = cue.text("count"), cue.text("total")
        text = None if count is None or total is None else self.theme.labels.pass_mark.format(count=count, total=total)
        return self._mark("pass", cue, text, list(cue.strings), step)

    @draws("branch_test")
    def draw_branch_test(self, cue: Cue, step: StepScratch) -> Anims:
        """What an if's test gave, beside the if line (``→ True``): the code shows the test,
        and the program printed nothing, so it is not a console line."""
        taken = cue.text("taken")
        text = None if taken is None else self.theme.labels.branch_mark.format(taken=taken)
        return self._mark("branch", cue, text, list(cue.strings), step)  # the test: on its line

    def _mark(self, kind: str, cue: Cue, text: str | None, shown: list, step: StepScratch) -> Anims:
        going = kind in self.code.marks
        out = self._drop(kind, step)
        if self.code.pane is None or cue.line is None or text is None:
            return out
        self.ctx.record_all(shown)
        mark = self._place(kind, cue.line, text, step)
        return out + [FadeIn(mark, rate_func=second_half if going else smooth)]

    def riders(self) -> list[tuple[VGroup, int]]:
        """The marks on screen, each with the line it marks: they ride a pane that scrolls or
        changes size (`scroll.scroll`, `scroll.reflow`)."""
        return [(self.code.marks[k], at[0]) for k, at in self.code.marks_at.items() if k in self.code.marks]

    def follow_pane(self, step: StepScratch, rode: Collection[int] | None = None) -> Anims:
        """The code pane was made again (its window moved, or it stepped aside): each mark goes
        and comes back by the same line on the new pane, in the second half. ``rode``: the
        lines the marks rode with, where the pane scrolled or changed size and carried them
        (`riders`): one whose line is among them stays where it slid; another faded with the
        row it sat by, and is placed anew once the lines are still. A mark with no place on the
        new pane (`_belongs`) stays off until a pane shows its line again."""
        out: Anims = []
        for kind, at in list(self.code.marks_at.items()):
            if kind not in self.code.marks:  # off while its line was not shown: back once the lines are still,
                if self._belongs(kind, at[0]):  # where they slide (none slides over it: dynamic_graph 16:9 67.4 s)
                    out.append(FadeIn(self._place(kind, *at, step), rate_func=second_half if rode is None else at_end))
                continue
            if rode is not None and at[0] in rode:
                continue
            if rode is not None:  # faded with its row and taken off by the scroll
                self.code.marks.pop(kind)
            else:
                out += self._drop(kind, step, keep_line=True)
            if not self._belongs(kind, at[0]):
                continue
            # after a scroll, once the lines are still: none slides under it
            out.append(FadeIn(self._place(kind, *at, step), rate_func=second_half if rode is None else at_end))
        return out

    def _belongs(self, kind: str, line: int) -> bool:
        """Whether the mark of ``line`` has a place on the pane as it is now: its line shows; or,
        for a loop's pass count, the pane shows a window of the program (the count goes on its
        nearest row). A test's result by another line would read as that line's, and the lit
        line alone (the pane stepped aside) shows no loop."""
        pane = self.code.pane
        if pane is None:
            return False
        return pane.shows(line) or (kind == "pass" and not self.code.aside)

    def _drop(self, kind: str, step: StepScratch, keep_line: bool = False) -> Anims:
        """The mark of ``kind`` goes, by half time ("pass 2/3" comes in the second half where
        "pass 1/3" was); one brought in by this very step never shows (two animations must not
        drive one mark). ``keep_line``: its line and text stay known, to place it again."""
        mark = self.code.marks.pop(kind, None)
        if not keep_line:
            self.code.marks_at.pop(kind, None)
        if mark is None:
            return []
        if id(mark) in step.arriving:
            mark.set_opacity(0.0)
            return []
        return [FadeOut(mark, rate_func=first_half)]

    def _place(self, kind: str, line: int, text: str, step: StepScratch) -> VGroup:
        """The mark of ``line`` on the pane as it is now, to be faded in by the caller. A
        window that moved puts the line on another row, so a mark left where it was would sit
        over other code."""
        assert self.code.pane is not None
        mark = self.code.marks[kind] = pass_mark(self.code.pane, line, text, self.theme).set_z_index(Z_MARK)
        self.code.marks_at[kind] = (line, text)
        step.arriving.add(id(mark))
        return mark
