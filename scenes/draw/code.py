"""Code-pane cues of the clip scene: the program shown beside the graph, its running line lit.

Why a mixin of its own: the pane follows every cue that names a program line (``_bar_to``),
and a long program shows a window of its lines that moves to the lit one. A mixin of ``ClipScene``.
"""

from __future__ import annotations

from typing import Any

from manim import FadeIn, Transform

from scenes.draw.crossfade import crossfade, second_half
from scenes.draw.drawers import draws
from scenes.draw.visuals import CodePane
from scenes.storyboard.cues import CONSOLE_KINDS
from scenes.theme import Rect

Anims = list[Any]

# Drawing order (Cairo sorts by z_index): the code pane's backdrop and the running-line bar
# are below everything else.
Z_PANE, Z_BAR = -3, -2


class CodeCues:
    """The pane's handlers (mixed into ClipScene): code_line, and the bar following a cue's line."""

    def _bar_to(self, line: int) -> Anims:
        """Light the program line that caused what is shown now (``L.backward()`` during the walk)."""
        if self.code.pane is None or line == self.code.bar_line:
            return []
        self.code.bar_line = line
        if not self.code.pane.shows(line):  # a long program: the window moves to the line
            old = self.code.pane
            self.code.pane = self._pane(old.window_for(line), line)
            out = [crossfade(old, self.code.pane)]
            if self.code.pass_mark is not None and self.code.pass_at is not None:  # the mark moves with it
                out += self._drop_pass_mark()  # type: ignore[attr-defined]
                out.append(FadeIn(self._place_pass_mark(*self.code.pass_at), rate_func=second_half))  # type: ignore[attr-defined]
            return out
        return [Transform(self.code.pane.bar_slot, self.code.pane.bar(line).set_z_index(Z_BAR))]

    def _pane(self, first: int, line: int) -> CodePane:
        """The code pane from line ``first`` (all of it when it fits), ``line`` lit: from the
        window that shows ``line`` when the one from ``first`` does not."""
        pane = CodePane(self.source or "", self._code_rect(), self.theme, first=first)
        if not pane.shows(line):
            pane = CodePane(self.source or "", self._code_rect(), self.theme, first=pane.window_for(line))
        pane.bg.set_z_index(Z_PANE)
        pane.highlight(line).set_z_index(Z_BAR)
        return pane

    @draws("code_line")
    def _cue_code_line(self, cue: Any) -> Anims:
        if self.source is None or cue.line is None:
            return []
        for s in cue.strings:
            self._record(s)
        if self.code.pane is None:
            self.code.pane = self._pane(1, cue.line)
            self.code.bar_line = cue.line
            return [FadeIn(self.code.pane)]
        return self._bar_to(cue.line)

    def _code_rect(self) -> Rect:
        """The code pane's region: the aspect's, less what printed lines need at its foot when the
        program prints and the column has no room below it before the caption (16:9). Why: a
        long program (two dozen lines) fills the column, and its first printout would go
        under the caption bar."""
        left, bottom, right, top = self.spec.code
        if any(c.kind in CONSOLE_KINDS for c in self.plan.cues):
            room = bottom - (self.spec.caption[3] + self.spec.margin)
            bottom = min(bottom + max(0.0, self.theme.sizes.console_reserve - room), top)
        return (left, bottom, right, top)
