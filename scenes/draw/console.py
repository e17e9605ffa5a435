"""Console cues of the clip scene: what the program prints, branch tests, errors and warnings.

Why stacked lines: a program may print ``None``, then PyTorch's warning, then
``None`` again; each line must stay readable next to the code that made it, so lines pile up under
the code pane (oldest dropped when the column is full) instead of replacing each other. A long
message (PyTorch's non-leaf ``.grad`` warning) shows its first sentence, the one that says what
happened, wrapped at the code's size: in full on one line it had shrunk to 3 px at 854x480, and
in full wrapped it would fill the column. A mixin of ``ClipScene``, like :mod:`scenes.draw.backward`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from manim import DOWN, LEFT, FadeIn, FadeOut, VGroup

from scenes.draw.crossfade import phase
from scenes.draw.drawers import draws
from scenes.draw.record import tag
from scenes.draw.state import CodeView, ConsoleView
from scenes.draw.visuals import card_tag, label
from scenes.draw.visuals.caption import wrap_words
from scenes.draw.visuals.glyphs import shrink_to_fit
from scenes.layout.clip import message_line

Anims = list[Any]


class ConsoleCues:
    """Handlers for output_line, branch_test and message (mixed into ClipScene)."""

    theme: Any
    spec: Any
    has_code: bool
    code: CodeView
    console: ConsoleView

    def _console_line(self, cue: Any, colour: str) -> Anims:
        return self._console(list(cue.strings), colour)

    def _console(self, strings: list[Any], colour: str, size: float | None = None, record: bool = True,
                 text: str | None = None) -> Anims:
        """Append a line (wrapped when long) under the code pane, or atop the graph region; never
        larger than the code above it (a long program's pane has shrunk its font). ``record``:
        False when the caller composed the line and records the strings it was made of; ``text``:
        what to show when it is not the strings joined (a message's first sentence)."""
        t, pane = self.theme, self.code.pane
        code_size = min(t.font_sizes.code, pane.font_size) if pane is not None else t.font_sizes.code
        size = max(min(size or code_size, code_size), t.font_sizes.min_readable)  # wrapped, never smaller
        text = "  ".join(s.text for s in strings) if text is None else text
        left, bottom, right, top = self.spec.code if self.has_code else self._graph_region()  # type: ignore[attr-defined]
        width = right - left - 2 * t.sizes.code_pad
        lines = wrap_words(text, t.fonts.mono, size, width)
        m = tag(label("\n".join(lines), t.fonts.mono, size, colour), "console")
        shrink_to_fit(m, width, (top - bottom) / 2, least=t.font_sizes.min_readable / size)
        for s in strings if record else []:
            self._record(s)  # type: ignore[attr-defined]
        gap = t.sizes.code_pad
        floor = self.spec.caption[3] + self.spec.margin
        graph_top = self._graph_region()[3]  # type: ignore[attr-defined]
        if self.has_code and graph_top <= self.spec.code[1]:  # the graph is under the code: stop above it
            floor = max(floor, graph_top + self._tag_room())
        if self.console.lines is None:
            y_top = (self.code.foot - gap) if pane is not None and self.code.foot is not None else top
            self.console.lines = VGroup()
            anchor = [left + t.sizes.code_pad, y_top, 0]
            m.move_to(anchor, aligned_edge=[-1, 1, 0])
            self.console.lines.add(m)
            return [FadeIn(self.console.lines)]
        column = self.console.lines
        last = column.submobjects[-1]
        m.next_to(last, DOWN, buff=gap / 2, aligned_edge=LEFT)
        leaving, rise = [], 0.0
        while len(leaving) < len(column.submobjects) and m.get_bottom()[1] + rise < floor:
            old = column.submobjects[len(leaving)]  # the column is full: the oldest line leaves
            leaving.append(old)
            rise += old.height + gap / 2
        if id(column) in self._arriving:  # type: ignore[attr-defined]
            # the column comes back with the code pane in this step (`_printed_aside`): the new
            # line joins it where it will be, and the column's one fade brings it in
            for old in leaving:
                column.remove(old)
            column.shift([0.0, rise, 0.0]).add(m.shift([0.0, rise, 0.0]))
            return []
        # the oldest lines fade where they are, then the column slides up as one, then the new
        # line fades in below it: a line fading as it rose crossed the code above, one fading
        # in place of the last line was drawn over it, one rising from below crossed the graph
        up = np.array([0.0, rise, 0.0])
        for old in leaving:
            column.remove(old)
        m.shift(up)
        column.add(m)
        if not rise:
            return [FadeIn(m)]
        return ([FadeOut(old, rate_func=phase(0, 3)) for old in leaving]
                + [line.animate(rate_func=phase(1, 3)).shift(up) for line in column.submobjects[:-1]]
                + [FadeIn(m, rate_func=phase(2, 3))])

    def _tag_room(self) -> float:
        """How far an op name above the top card reaches past the graph's region (``** 2``
        over the loss): a tag's height at its size, and its gap."""
        t = self.theme
        lay = self.lay  # type: ignore[attr-defined]
        tops = [b for b in lay.boxes.values()]
        if not tops:
            return 0.0
        m = card_tag("mul", max(tops, key=lambda b: b.y + b.h / 2), t, scale=lay.scale)
        return m.height + 2 * t.spacing.edge_clearance

    @draws("output_line")
    def _cue_output_line(self, cue: Any) -> Anims:
        return self._console_line(cue, self.theme.colors.code_text)

    @draws("branch_test")
    def _cue_branch_test(self, cue: Any) -> Anims:
        return self._console_line(cue, self.theme.colors.code_span)

    @draws("message")
    def _cue_message(self, cue: Any) -> Anims:
        """An error or warning as Python prints it (``UserWarning: ...``), its first sentence
        wrapped at the small card size (or the code's, if smaller)."""
        text = message_line(cue)
        return self._console(list(cue.strings), self.theme.colors.error, size=self.theme.font_sizes.card_fn,
                             text=text)

