"""The code pane view of the clip scene: the program shown beside the graph, its running line lit.

Why a view of its own: the pane follows every cue that names a program line (``bar_to``), and a
long program shows a window of its lines that moves to the lit one. A view of ``ClipScene``,
owning ``state.code`` but for the pass mark's fields (:mod:`scenes.draw.loops`).
"""

from __future__ import annotations

from collections.abc import Collection

from manim import FadeIn, FadeOut, Transform

from scenes.draw.context import Anims, DrawContext, Slide, StepScratch, View
from scenes.draw.crossfade import at_half, cut, first_half, second_half
from scenes.draw.scroll import pane_ease, reflow, scroll
from scenes.draw.drawers import draws
from scenes.draw.frame_spots import bounds
from scenes.draw.loops import PassMark
from scenes.draw.state import CodeView
from scenes.draw.visuals import CodePane
from scenes.layout.clip import code_rect
from scenes.layout.code_first import centred_rect, code_first_room, code_first_span, draws_only_code
from scenes.storyboard.cues import CONSOLE_KINDS, Cue, cue_kind
from scenes.theme import Rect

# Drawing order (Cairo sorts by z_index): the code pane's backdrop and the running-line bar
# are below everything else.
Z_PANE, Z_BAR = -3, -2


class CodePaneView(View):
    """Draws code_line; lights the line a cue names (``bar_to``), moving the pass mark
    (``marks``) with a pane made again. Reads the console's record: its lines step aside with
    the pane."""

    def __init__(self, ctx: DrawContext, marks: PassMark) -> None:
        super().__init__(ctx)
        self.marks = marks

    @property
    def code(self) -> CodeView:
        return self.ctx.state.code

    def bar_to(self, line: int, step: StepScratch, walk: bool = False, seconds: float | None = None) -> Anims:
        """Light the program line that caused what is shown now (``L.backward()`` during the walk).
        ``walk``: the backward walk starts here; where the aspect's graph lies under the pane
        (``walk_code: lit``) the pane steps aside, keeping only the lit line at its size, and the
        walk's notes get the rest of its room. The next line outside it brings the whole pane back.
        A clip whose pane shows only its lit line throughout (`Layout.code_lit`) moves that line,
        and so does a pane stepped aside to a line that prints (`_prints`): what it prints hangs
        under the lit line, where the walk's output already does, and the pane does not open to
        the whole program and shut again around one line (dynamic_graph 16:9's ``print(w.grad)``
        after each walk, review 6), unless lines other lines printed are on screen: each printed
        line stands with the line that printed it (`_owned`), so the pane opens to show them.
        ``seconds``: how long the cue lighting the line is; a pane that would open from its lit
        line in less than a code line's time (``timings.code_highlight_move``) opens at the next
        cue, lighting the line then (`give_way`): grad_accumulation 16:9's 0.15 s ``y = w * w``
        opened it by 181 px a frame."""
        if self.code.pane is None:
            return []
        keeps = (self.code.aside and not walk and not self.ctx.layout.code_lit and not self._tall()
                 and self._prints(line) and self._owned({line}))  # a tall frame's walk legend is under the lit line
        later = (self.code.aside and not walk and not keeps and not self.ctx.layout.code_lit and seconds is not None
                 and seconds < self.theme.timings.code_highlight_move - 1e-9)  # too short to open in: at the next cue
        pending = self.code.reopen and self.code.aside
        self.code.reopen = later or (pending and line == self.code.bar_line)
        lit = self.ctx.layout.code_lit or keeps or (walk and pending)  # a walk: the pane stays aside
        aside = walk and not lit and self.ctx.spec.walk_code == "lit" and not self.code.aside
        if line == self.code.bar_line and not aside:
            return []
        if later:  # the pane as it is for now (a line cut in and out again would blink), lit on opening
            self.code.bar_line = line
            return []
        was_lit, self.code.bar_line = self.code.bar_line, line
        if aside or lit or not self.code.pane.shows(line):  # a long program: the window moves to the line
            old, was_aside = self.code.pane, self.code.aside
            first = line if aside or lit else (1 if was_aside else old.window_for(line))
            self.code.aside = aside or (lit and not self.ctx.layout.code_lit)
            self.code.pane = (self._aside_pane(line, walk=True) if aside
                              else self._pane(first, line, max_rows=1 if lit else None))
            shown = range(self.code.pane.window[0], self.code.pane.window[1] + 1)
            slide = scroll(old, self.code.pane, self.marks.riders()) if not (lit or aside or was_aside) else None
            rode: Collection[int] | None = shown if slide else None
            if lit:
                swap = _next_line(old, self.code.pane)
            elif aside or was_aside:  # the pane changes size: the lines it keeps slide to their places
                swap = reflow(old, self.code.pane, was_lit, line, self.marks.riders())
                rode = set(range(old.window[0], old.window[1] + 1)) & set(shown)
            else:
                swap = slide or cut(old, self.code.pane)
            out = swap + self._printed_aside(self.code.aside, was_aside, step, walk=True)
            return out + self.marks.follow_pane(step, rode)  # the marks move with their lines
        return [Transform(self.code.pane.bar_slot, self.code.pane.bar(line).set_z_index(Z_BAR))]

    def _prints(self, line: int) -> bool:
        """Whether program line ``line`` is a ``print`` (an ``output_line`` of the plan shows what
        it printed; an update step's worked ``message`` is no print: the whole pane comes back
        for it)."""
        return any(c.kind == "output_line" and c.seqs and self.ctx.events[c.seqs[0]].line == line
                   for c in self.ctx.plan.cues)

    def step_aside(self, aside: bool, step: StepScratch) -> Anims:
        """The pane steps aside to its lit line alone (``aside``), as for the walk at
        ``walk_code: lit``, or comes back whole, its lines sliding (`reflow`) and its printed lines
        going or coming with it: for the whole graph grown into the frame it frees
        (`scenes.draw.whole`), at any aspect."""
        line = self.code.bar_line
        if self.code.pane is None or line is None or self.ctx.layout.code_lit or aside == self.code.aside:
            return []
        old, self.code.aside, self.code.reopen = self.code.pane, aside, False
        self.code.pane = self._aside_pane(line) if aside else self._pane(1, line)
        swap = reflow(old, self.code.pane, line, line, self.marks.riders())
        rode = set(range(old.window[0], old.window[1] + 1)) & set(range(self.code.pane.window[0],
                                                                         self.code.pane.window[1] + 1))
        return swap + self._printed_aside(aside, not aside, step) + self.marks.follow_pane(step, rode)

    def _printed_aside(self, aside: bool, was_aside: bool, step: StepScratch, walk: bool = False) -> Anims:
        """The printed lines stay on screen with the pane stepping aside, sliding up under its lit
        line (the room it freed; the takeaways quote them), and back down under the whole pane as
        it comes back (`CodeView.lines_foot`). They go with the pane and come back with it where
        the lit line alone did not print them all (`_owned`: a printed line without the line
        that printed it, leaf_nodes' ``None`` under ``L.backward()``), and for a tall frame's walk
        (``walk``, the pane over the graph): the strip under the lit line is the walk's legend's
        there (`LegendFrame.walk_legend`)."""
        lines = self.ctx.state.console.lines
        if lines is None or not len(lines) or (aside == was_aside and not aside and not self.code.printed_away):
            return []
        away = aside and ((walk and self._tall()) or (self.code.printed_away and was_aside and self._tall())
                          or not self._owned())
        if away != self.code.printed_away:
            self.code.printed_away = away
            if away:
                return [FadeOut(lines, rate_func=first_half)]
            lines.shift([0.0, self.code.printed_shift(lines, self.theme.sizes.code_pad), 0.0])  # unseen
            step.arriving.add(id(lines))
            return [FadeIn(lines, rate_func=second_half)]
        dy = 0.0 if away else self.code.printed_shift(lines, self.theme.sizes.code_pad)
        if abs(dy) < 1e-6:
            return []
        # with the pane's foot, at its pace (`reflow`): a row of code shows only above that foot,
        # so they are never over one, and they never leap the pane's height in a frame
        slide = Transform(lines, lines.copy().shift([0.0, dy, 0.0]), rate_func=pane_ease)
        step.sliding[id(lines)] = Slide(slide, dy)  # the lines printed in this step join it (`Console._print`)
        return [slide]

    def aside_bounds(self) -> list[Rect]:
        """Where the pane stepped aside to its lit line (`step_aside`) and the printed lines it
        keeps under it (`keeps_printed`) would stand, as `FreeFrame.pane_bounds` reads them once
        it has stepped: asked before the step (the whole graph moved up into the band it frees,
        :mod:`scenes.draw.whole_shift`); none where it would not step aside."""
        line, lines = self.code.bar_line, self.ctx.state.console.lines
        if self.code.pane is None or line is None or self.ctx.layout.code_lit or self.code.aside:
            return []
        bg = bounds(self._aside_pane(line).bg)
        if lines is None or not len(lines) or not self.keeps_printed():
            return [bg]
        dy = bg[1] - self.theme.sizes.code_pad - float(lines.get_top()[1])
        b = bounds(lines)
        return [bg, (b[0], b[1] + dy, b[2], b[3] + dy)]

    def keeps_printed(self) -> bool:
        """Whether printed lines on screen stay with the pane as it steps aside to its lit line
        (`_printed_aside`: the takeaways quote them, missing_gradient's ``None``), rather than
        going with it (leaf_nodes' ``None`` under ``L.backward()``)."""
        lines, line = self.ctx.state.console.lines, self.code.bar_line
        if lines is None or not len(lines) or line is None or self.code.printed_away:
            return False
        first, last = self._aside_pane(line).window
        return self._owned(range(first, last + 1))

    def _owned(self, lines: Collection[int] | None = None) -> bool:
        """Whether every printed line on screen was printed by a program line the pane shows
        (``lines``, where given: those), so none stands without the line that printed it."""
        pane = self.code.pane
        shown = (lambda n: n in lines) if lines is not None else (lambda n: pane is not None and pane.shows(n))
        return all(n is None or shown(n) for n in self.ctx.state.console.printers)

    def _aside_pane(self, line: int, walk: bool = False) -> CodePane:
        """The pane stepped aside to ``line``: that line alone, or with the lines just above it
        that printed what the console shows, where those are all the lines from the first of
        them down to ``line`` (missing_gradient's ``print(w.grad)`` over ``L1.backward()``, its
        ``None`` under them): the printed lines then stay, each with its line, and fill the
        column as before. Not for a tall frame's walk, whose printed lines go (`_printed_aside`)."""
        printed = {n for n in self.ctx.state.console.printers if n is not None} | {line}
        first = min(printed)
        if (walk and self._tall()) or printed != set(range(first, line + 1)):
            first = line
        for rows in range(line - first + 1, 2 * (line - first + 1) + 2):  # a wrapped line takes more rows
            pane = self._pane(first, line, max_rows=rows)
            if pane.window[0] == first and pane.window[1] == line:
                return pane
        return self._pane(line, line, max_rows=1)

    def _tall(self) -> bool:
        """A tall frame whose code pane stands over the graph (9:16)."""
        spec = self.ctx.spec
        return spec.code[1] >= spec.graph[3] and spec.frame_width < spec.frame_height

    def _pane(self, first: int, line: int, max_rows: int | None = None) -> CodePane:
        """The code pane from line ``first`` (all of it when it fits), ``line`` lit: from the
        window that shows ``line`` when the one from ``first`` does not. ``max_rows``: that many
        rows at most (`CodePane`); a whole pane, or the clip's pane of the lit line alone
        (`Layout.code_lit`), marks where printed lines go under it. A pane shown large before the
        first picture (``code.centred``, `_centred`) is drawn there, at its size."""
        source = self.ctx.source or ""
        rect, most = self.code.centred or (self._code_rect(), 1.0)
        pane = CodePane(source, rect, self.theme, first=first, max_rows=max_rows, most=most)
        if not pane.shows(line):
            pane = CodePane(source, rect, self.theme, first=pane.window_for(line), max_rows=max_rows, most=most)
        pane.bg.set_z_index(Z_PANE)
        pane.highlight(line).set_z_index(Z_BAR)
        if self.code.centred is not None:  # printed lines go under the column's pane, once it is there
            return pane
        if self.ctx.layout.code_lit:  # the strip it may fill: the same place whatever the lit line's rows
            self.code.foot = self._code_rect()[1]
        elif max_rows is None:
            self.code.foot = float(pane.bg.get_bottom()[1])
        return pane

    @draws("code_line")
    def draw_code_line(self, cue: Cue, step: StepScratch) -> Anims:
        if self.ctx.source is None or cue.line is None:
            return []
        self.ctx.record_all(cue.strings)
        if self.code.pane is None:
            lit = self.ctx.layout.code_lit
            self.code.pane = self._pane(cue.line if lit else 1, cue.line, max_rows=1 if lit else None)
            self.code.bar_line = cue.line
            self.code.centred = self._centred(self.code.pane, cue)
            if self.code.centred is not None:
                self.code.pane = self._pane(1, cue.line)
            return [FadeIn(self.code.pane)]
        return self.bar_to(cue.line, step, seconds=cue.duration)

    def _centred(self, pane: CodePane, cue: Cue) -> tuple[Rect, float] | None:
        """Where and how large ``pane`` (the column's) is drawn in the middle of the frame,
        above the caption bar, when the clip opens with its code alone for longer than the frame
        may stay empty (`scenes.layout.code_first`; ``layout.fill_empty_seconds``): its text as
        much larger as the room allows, at most ``layout.code_first_zoom`` (a program too long
        for the room keeps the column's size and shows the lines the room holds), the pane
        hugging it. The rectangle and the size (a share of the theme's ``code``)."""
        span = code_first_span(self.ctx.plan.cues)
        t = self.theme
        if (span is None or abs(span[0] - cue.start) > 1e-9 or span[1] - span[0] <= t.layout.fill_empty_seconds
                or self.ctx.layout.code_lit):
            return None
        room = code_first_room(self.ctx.frame_rect(), self.ctx.spec.caption[3], self.ctx.spec.margin)
        size = t.font_sizes.code
        probe = CodePane(self.ctx.source or "", room, t, first=pane.window[0],
                         most=t.layout.code_first_zoom * pane.font_size / size)
        pad = t.sizes.code_pad
        width = min(room[2] - room[0], probe.longest * probe.adv + 2 * pad)
        return centred_rect((width, float(probe.bg.height) + probe.row_height / 2), room), probe.font_size / size

    def give_way(self, cue: Cue, step: StepScratch) -> Anims:
        """A pane shown large and centred (`_centred`) moves to its column as the first cue that
        draws anything else comes, by half time (``step.going``: what the step brings starts
        then), its lines gliding and shrinking to their places (`reflow`): a cut would jump them
        across the frame (`scenes.render.continuity.jumps`). The bar goes to the line the cue
        lights."""
        if self.code.reopen:
            return self._reopen(cue, step)
        old = self.code.pane
        if self.code.centred is None or old is None or draws_only_code(cue):
            return []
        was_lit = self.code.bar_line
        line = was_lit or 1
        if cue_kind(cue.kind).follows_line and cue.seqs:
            line = self.ctx.events[cue.seqs[0]].line or line
        self.code.centred, self.code.bar_line = None, line
        self.code.pane = self._pane(old.window[0], line)
        moves = reflow(old, self.code.pane, was_lit, line, grow=True)
        for m in moves:
            m.rate_func = _by_half
        step.going.extend(moves)
        return moves

    def _reopen(self, cue: Cue, step: StepScratch) -> Anims:
        """The whole pane comes back, its lines sliding (`step_aside`), at the first cue after the
        code line too short for it (`bar_to`) that is long enough, in a step where no cue lights
        another line (that one's `bar_to` opens it); done by half time where the cue is twice
        that long. A line printed in the step joins the printed lines coming back."""
        pace = self.theme.timings.code_highlight_move
        if cue.duration < pace - 1e-9 or any(abs(c.start - cue.start) < 1e-6 and self._moves_bar(c) for c in self.ctx.plan.cues):
            return []
        moves = self.step_aside(False, step)
        if cue.duration >= 2 * pace:
            for m in moves:
                m.rate_func = (lambda f: lambda t: f(_by_half(t)))(m.rate_func)
        return moves

    def _moves_bar(self, cue: Cue) -> bool:
        """Whether ``cue`` lights another program line than the lit one (its `bar_to` moves the
        pane itself)."""
        if cue.kind == "code_line":
            return cue.line not in (None, self.code.bar_line)
        return (cue_kind(cue.kind).follows_line and bool(cue.seqs)
                and self.ctx.events[cue.seqs[0]].line not in (None, self.code.bar_line))

    def _code_rect(self) -> Rect:
        """The code pane's region (`code_rect`): the aspect's, less what printed lines need at its
        foot when the program prints and the column has no room below it before the caption
        (16:9), as a long program fills the column and its printout would go under the caption."""
        spec = self.ctx.spec
        left, bottom, right, top = code_rect(spec, self.theme, self.ctx.layout.code_lit, self.ctx.source)
        if any(c.kind in CONSOLE_KINDS for c in self.ctx.plan.cues):
            room = bottom - (spec.caption[3] + spec.margin)
            bottom = min(bottom + max(0.0, self.theme.sizes.console_reserve - room), top)
        return (left, bottom, right, top)


def _next_line(old: CodePane, new: CodePane) -> Anims:
    """A pane of the lit line alone moving to the next line: a cut at half time, the old pane
    out and the new one in on the same frame. Not a cross-fade: in a fast build that leaves the
    pane blank for a frame or two at every line. Its box and bar do not move, so the cut changes
    only the line's text."""
    return [FadeOut(old, rate_func=at_half), FadeIn(new, rate_func=at_half)]


def _by_half(t: float) -> float:
    """Done by half time, at the pace the animation's own rate sets (`reflow`'s are linear)."""
    return min(1.0, 2.0 * t)
