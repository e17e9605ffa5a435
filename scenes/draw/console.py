"""Console cues of the clip scene: what the program prints, errors and warnings.

Why stacked lines: a program may print ``None``, then PyTorch's warning, then
``None`` again; each line must stay readable next to the code that made it, so lines pile up under
the code pane (oldest dropped when the column is full, and counted in its bottom right corner:
"4 earlier lines not shown", so that none leaves in silence) instead of replacing each other. A long
message (PyTorch's non-leaf ``.grad`` warning) shows its first sentence, the one that says what
happened, wrapped at the code's size: the whole text on one line would shrink past reading, and
wrapped whole it would fill the column. A view of ``ClipScene``, owning ``state.console``.
"""

from __future__ import annotations

import numpy as np
from manim import DOWN, LEFT, FadeIn, FadeOut, Transform, VGroup

from scenes.draw.context import Anims, DrawContext, Slide, StepScratch, View
from scenes.draw.crossfade import phase
from scenes.draw.drawers import draws
from scenes.draw.frame_spots import bounds
from scenes.draw.record import tag, tag_of
from scenes.draw.state import ConsoleView
from scenes.draw.visuals import card_tag, label
from scenes.draw.visuals.caption import wrap_words
from scenes.draw.visuals.glyphs import shrink_to_fit
from scenes.layout.clip import earlier_words, message_line, shows_code
from scenes.storyboard.cues import Cue
from scenes.storyboard.placeholders import Shown
from scenes.theme import Rect


_ASTRAY = 1e-3
"""How far (scene units, a twentieth of a pixel at 854x480) the count may stand off the column's
floor before it is put back there: more than the rounding of the shifts the column takes."""


class Console(View):
    """Draws output_line and message; prints a line for the views that show one
    there (``print_line``, ``print_values``: the training step's arithmetic, a value too wide for
    any card)."""

    def __init__(self, ctx: DrawContext) -> None:
        super().__init__(ctx)
        self.has_code = shows_code(ctx.plan, ctx.source)

    @property
    def console(self) -> ConsoleView:
        return self.ctx.state.console

    def print_line(self, line: Shown, colour: str, step: StepScratch) -> Anims:
        """``line`` printed under the code pane, not recorded (its parts are)."""
        return self._print([line], colour, step, record=False)

    def print_values(self, strings: list[Shown], colour: str, step: StepScratch, text: str | None = None) -> Anims:
        """``strings`` printed under the code pane (as ``text`` when given: ``w = tensor(0.5000,
        requires_grad=True)``), and recorded."""
        return self._print(strings, colour, step, text=text)

    def _print(self, strings: list[Shown], colour: str, step: StepScratch, size: float | None = None,
               record: bool = True, text: str | None = None, meaning: str | None = None,
               printer: int | None = None, least: float | None = None) -> Anims:
        """Append a line (wrapped when long) under the code pane, or atop the graph region; never
        larger than the code above it (a long program's pane has shrunk its font). ``record``:
        False when the caller composed the line and records the strings it was made of; ``text``:
        what to show when it is not the strings joined (a message's first sentence); ``printer``:
        the program line that printed it (`ConsoleView.printers`: the pane keeps it shown); ``least``:
        the least size it is set at, over the code's where that is smaller (None: ``min_readable``)."""
        t, code, spec = self.theme, self.ctx.state.code, self.ctx.spec
        pane = code.pane
        code_size = min(t.font_sizes.code, pane.font_size) if pane is not None else t.font_sizes.code
        least = t.font_sizes.min_readable if least is None else least
        size = max(min(size or code_size, code_size), least)  # wrapped, never smaller
        text = "  ".join(s.text for s in strings) if text is None else text
        left, bottom, right, top = spec.code if self.has_code else self.ctx.graph_region()
        width = right - left - 2 * t.sizes.code_pad
        lines = wrap_words(text, t.fonts.mono, size, width)
        m = tag(label("\n".join(lines), t.fonts.mono, size, colour), "console", meaning=meaning)
        wrap = width  # the words' measured widths sum a little under the line drawn (missing_gradient
        while m.width > width and len(lines) < len(text.split()):  # 9:16's warning 7 px past its column):
            wrap *= 0.95  # wrapped narrower, where it may not shrink to fit (at ``least`` already)
            lines = wrap_words(text, t.fonts.mono, size, wrap)
            m = tag(label("\n".join(lines), t.fonts.mono, size, colour), "console", meaning=meaning)
        shrink_to_fit(m, width, (top - bottom) / 2, least=least / size)
        for s in strings if record else []:
            self.ctx.record(s)
        gap = t.sizes.code_pad
        floor = spec.caption[3] + spec.margin
        graph_top = self.ctx.graph_region()[3]
        if self.has_code and graph_top <= spec.code[1]:  # the graph is under the code: stop above it
            floor = max(floor, graph_top + self._tag_room())
        floor = max(floor, self._legend_top(left, right, top) + gap)
        if pane is not None and code.aside and not code.printed_away and code.foot is not None:  # hanging under the lit line, the
            floor += (code.lines_foot() or code.foot) - code.foot  # column holds what the whole pane's does: its floor
            # rises as far as the lines did (`CodeView.printed_shift`), and the count with them
        self.console.printers.append(printer)
        if self.console.lines is None:
            foot = code.lines_foot() if pane is not None else None  # under the lit line where the pane stands aside
            y_top = (foot - gap) if foot is not None else top
            self.console.lines = VGroup()
            anchor = [left + t.sizes.code_pad, y_top, 0]
            m.move_to(anchor, aligned_edge=[-1, 1, 0])
            self.console.lines.add(m)
            step.printed = [bounds(m)]
            return [FadeIn(self.console.lines)]
        column = self.console.lines
        slide = step.sliding.get(id(column))
        was = slide_home(column, slide) if slide is not None else {}
        more = self.console.more  # the count of lines scrolled away: first in the column
        shown = list(column.submobjects[1:] if more is not None else column.submobjects)
        m.next_to(shown[-1], DOWN, buff=gap / 2, aligned_edge=LEFT)
        edge = left + t.sizes.code_pad + width  # the lines' right edge

        def scroll(foot: float) -> tuple[list[VGroup], float]:
            """The oldest lines that leave for the new one to fit above ``floor``, ``foot`` higher
            (the count's own row under the lines), and how far the rest rise."""
            out: list[VGroup] = []
            rise = 0.0
            while len(out) < len(shown) and m.get_bottom()[1] + rise < floor + foot:
                out.append(shown[len(out)])  # the column is full: the oldest line leaves
                rise += out[-1].height + gap / 2
            return out, rise

        def clear(count: VGroup, leaving: list[VGroup], rise: float) -> bool:
            """Whether the count, in the column's bottom right corner, is beside no line that stays
            or comes (each as high as it will be): a line that ends short of it leaves it room."""
            x0, y1 = edge - count.width - gap, floor + count.height
            return all(line.get_right()[0] <= x0 or line.get_bottom()[1] + rise >= y1
                       for line in [*shown[len(leaving):], m])

        # the count's place: the column's bottom right corner, beside the last line or in a row of
        # its own under the lines. Lines rise out of its row and never into it: only a new line
        # comes there, and it leaves the count room or goes above the count's row. So the count
        # changes in place, never gone and back (issue 39), whatever the column holds (a two-row
        # warning in a three-row column under the code at 9:16, where a count atop the lines had
        # to change rows as the warning rose through them)
        leaving, rise = scroll(0.0)
        if leaving or more is not None:
            probe = self._earlier(self.console.earlier + len(leaving))
            if not clear(probe, leaving, rise):
                leaving, rise = scroll(probe.height + gap / 2)
        # a count standing elsewhere than the corner (the floor moved since it was placed: the
        # column's bottom while the pane stood aside) goes there, as when lines leave: the test
        # above keeps the corner clear, not where the count stood (the last line ran over it)
        astray = more is not None and abs(float(more.get_bottom()[1]) - floor) > _ASTRAY
        if not leaving and not astray:
            column.add(m)
            if slide is None:
                step.printed = _parts(column)
                return [] if id(column) in step.arriving else [FadeIn(m)]
            if more is None:
                return _slid(step, slide, join_slide(column, slide.move, was, []))
            count = self._earlier(self.console.earlier).move_to(more)  # anew: see `join_slide`
            column.remove(more)
            column.add_to_back(count)
            self.console.more = count
            return _slid(step, slide, join_slide(column, slide.move, was, [more]))
        staying = shown[len(leaving):]
        self.console.earlier += len(leaving)
        count = self._earlier(self.console.earlier)
        up = np.array([0.0, rise, 0.0])
        m.shift(up)
        count.move_to([edge, floor, 0], aligned_edge=[1, -1, 0])
        for old in leaving:
            column.remove(old)
        del self.console.printers[:len(leaving)]
        column.add(m)
        moves = more is not None and (slide is not None or astray or abs(more.get_top()[1] - count.get_top()[1]) > 1e-6)
        if more is None or moves:
            self.console.more = count
            column.add_to_back(count)
        if more is not None and moves:
            column.remove(more)
        if slide is not None:  # one move with the pane: the lines rise as they slide
            for line in staying:
                line.shift(up)
            return _slid(step, slide, join_slide(column, slide.move, was, [*leaving, *([more] if more is not None else [])]))
        if id(column) in step.arriving:
            # the column comes back with the code pane in this step (`_printed_aside`): the new
            # line joins it where it will be, and the column's one fade brings it in
            for line in staying:
                line.shift(up)
            if more is not None and not moves:
                words = tag_of(count)
                more.become(count)
                tag(more, "console", text=words.text if words is not None else None, id="earlier")
            step.printed = _parts(column)
            return []
        # the oldest lines fade where they are, then the column slides up as one, then the new
        # line fades in: a line fading as it rose crossed the code above, one fading in place of
        # the last line was drawn over it, one rising from below crossed the graph. The count
        # is one thing that changes (issue 39): its number turns in place as the lines slide,
        # never gone and back; the first count fades in with the new line, and so does one
        # whose corner moved (the column's floor did: gone while the lines slide)
        if more is None:
            counted: Anims = [FadeIn(count, rate_func=phase(2, 3))]
        elif moves:
            counted = [FadeOut(more, rate_func=phase(0, 3)), FadeIn(count, rate_func=phase(2, 3))]
        else:
            counted = [Transform(more, count, rate_func=phase(1, 3))]
        step.printed = [_shifted(bounds(line), rise) for line in staying] + [bounds(m), bounds(count)]
        return ([FadeOut(old, rate_func=phase(0, 3)) for old in leaving]
                + [line.animate(rate_func=phase(1, 3)).shift(up) for line in staying]
                + counted + [FadeIn(m, rate_func=phase(2, 3))])

    def _earlier(self, n: int) -> VGroup:
        """The words that say how many of the console's oldest lines have scrolled away
        (``labels.console_earlier``), muted: in the column's bottom right corner, beside its
        last line or in a row of its own under it (`_print`). Why: a
        line that left the column unread would be dropped in silence; the count says the
        program printed more than is shown (issue 40)."""
        t = self.theme
        words = earlier_words(n, t.labels)
        return tag(label(words, t.fonts.sans, t.font_sizes.card_flag, t.colors.text_muted), "console", id="earlier")

    def _legend_top(self, left: float, right: float, top: float) -> float:
        """The top of the graph's legend where it lies in the console's column, under its first
        row (``top``), else -inf. Why: the legend is placed with the graph's first card, in a
        corner no printout is expected to reach (`LegendFrame.legend_in`), but lines the plan
        cannot foretell (a value its card had no room for, a training step's arithmetic) may
        follow: they scroll sooner rather than run over the legend's words."""
        legend = self.ctx.state.graph.legend
        if legend is None or not len(legend.get_family()) or legend.width <= 0:
            return -np.inf
        x0, _, x1, y1 = bounds(legend)
        return y1 if x0 < right and x1 > left and y1 < top else -np.inf

    def _tag_room(self) -> float:
        """How far an op name above the top card reaches past the graph's region (``** 2``
        over the loss): a tag's height at its size, and its gap."""
        t = self.theme
        lay = self.ctx.layout
        tops = [b for b in lay.boxes.values()]
        if not tops:
            return 0.0
        m = card_tag("mul", max(tops, key=lambda b: b.y + b.h / 2), t, scale=lay.scale)
        return m.height + 2 * t.spacing.edge_clearance

    @draws("output_line")
    def draw_output_line(self, cue: Cue, step: StepScratch) -> Anims:
        return self._print(list(cue.strings), self.theme.colors.code_text, step, printer=self._line(cue))

    @draws("message")
    def draw_message(self, cue: Cue, step: StepScratch) -> Anims:
        """An error or warning as Python prints it (``UserWarning: ...``), its first sentence
        wrapped at the small card size (or the code's, if smaller), never under a value's size
        (``min_readable_main``: 11 px glyphs): it is what the caption speaks of, and at the
        code's size (missing_gradient's warning, 10.3 px at 16:9) it read smaller than a value."""
        f = self.theme.font_sizes
        return self._print(list(cue.strings), self.theme.colour("error"), step, size=f.card_fn,
                           text=message_line(cue), meaning="error", printer=self._line(cue),
                           least=f.min_readable_main)

    def _line(self, cue: Cue) -> int | None:
        """The program line that printed what ``cue`` shows."""
        return self.ctx.events[cue.seqs[0]].line if cue.seqs else None


def _parts(column: VGroup) -> list[Rect]:
    """Where each part of the console's ``column`` (a line, the count) stands now."""
    return [bounds(p) for p in column.submobjects if p.width > 0]


def _shifted(box: Rect, dy: float) -> Rect:
    """``box`` moved ``dy`` up."""
    return (box[0], box[1] + dy, box[2], box[3] + dy)


def _slid(step: StepScratch, slide: Slide, anims: Anims) -> Anims:
    """``anims`` (`join_slide`'s), with where the column's parts end the slide kept as this step's
    ``printed``: the slide's target, the column as it ends (`join_slide` set it)."""
    step.printed = _parts(slide.move.target_mobject)
    return anims


def slide_home(column: VGroup, slide: Slide) -> dict[int, np.ndarray]:
    """The column moved now to where the code pane's slide of this step takes it, so that a
    line printed in the same step is placed (and the column scrolled) as it will stand; the
    centres it slides from, by part (``slide.was``, kept for the step). Why: the pane coming back
    for an update step slides the column down in the step that prints the step's line; placed
    beside the lines where they stood, the line stayed over the pane, and Manim's Transform of
    the column to a copy without it morphed the lines into each other (tanh_sgd_lists, under
    9 px for a frame). A line printed earlier in the step (`join_slide` left it faded where it
    ends) stays there and shows again: shifted with the rest, it ended a slide too far."""
    if not slide.was:
        slide.was.update({id(p): p.get_center().copy() for p in column.submobjects})
    for part in column.submobjects:
        if id(part) in slide.was:
            part.move_to(slide.was[id(part)] + np.array([0.0, slide.dy, 0.0]))
        else:
            part.set_opacity(1.0)
    return slide.was


def join_slide(column: VGroup, slide: Transform, was: dict[int, np.ndarray], gone: list[VGroup]) -> Anims:
    """The column as it now ends (where it slides to, with the new line and count) made the
    target of the pane's slide, and put back where the slide starts: the parts that were
    there at their centres (``was``), what is new faded, to come in with the slide; one animation
    drives the column. What leaves it (``gone``: its oldest lines, the count) fades where it
    stood, in the first third: sliding, the oldest lines ran into the lines that rise less
    far, and the count, in the column's foot, across the new line waiting at its place; a part
    that came in the same step and leaves again was never seen, and goes unseen."""
    slide.target_mobject = column.copy()
    for part in column.submobjects:
        if id(part) in was:
            part.move_to(was[id(part)])
        else:
            part.set_opacity(0.0)
    seen = [old for old in gone if id(old) in was]
    for old in seen:
        old.move_to(was[id(old)])
    return [FadeOut(old, rate_func=phase(0, 3)) for old in seen]
