"""The recap cue of the clip scene: the takeaway's numbers, side by side, over the closing picture.

Why: the takeaway names the clip's result ("w1.grad is 8/3 and w2.grad is 4/9"); said over a
picture where those numbers sit far apart, or not at all (a value PyTorch prints as
``tensor(2.6667)`` that the graph writes as 8/3), it asks the viewer to trust the words. The
recap writes each quantity the takeaway names on one row, ``w1.grad = 8/3 = tensor(2.6667)``, in
a free corner of the frame (else the free spot nearest its bottom left, as the checklist goes),
its numbers at the cards' value size as drawn at least: where no spot is free for that, the code
pane steps aside to its lit line, else the legend gives way, and only then is it set smaller
(review 4 item 9); where even the least readable size finds no spot, the code pane goes and the
board takes the band it held (1:1's backward_walk). Set far from what it names, the legend gives
way, else the checklist changes places with it; where a later grow of the whole graph takes it
across to what it names, it first shows there (`WholeGraph.takes_across`). It adds to the
picture: nothing the walk left (a badge, a bucket's value) is taken away, and nothing on screen
is covered. A view of ``ClipScene``, owning ``state.titles.recap``.
"""

from __future__ import annotations

import math
from typing import Callable

from manim import DOWN, LEFT, RIGHT, FadeIn, FadeOut, Mobject, RoundedRectangle, VGroup, smooth

from scenes.draw.code import CodePaneView

from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.crossfade import first_half, second_half
from scenes.draw.drawers import draws
from scenes.draw.collisions import MIN_OPACITY
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.recap_named import rows_named, rulers
from scenes.draw.record import opacity, tag
from scenes.draw.visuals import label
from scenes.draw.visuals.baseline import baseline, on_baseline
from scenes.draw.visuals.glyphs import word_space
from scenes.layout.detour import clear_of, nearest_free
from scenes.layout.label_spots import rect_around
from scenes.layout.readable import value_size
from scenes.storyboard.cues import Cue
from scenes.storyboard.placeholders import Shown
from scenes.storyboard.recap import NAME, recap_rows
from scenes.theme import Rect

Z_RECAP = 3  # above the cards and arrows it may pass near, as the checklist is
ROLE = "recap"
FAR = 0.25
"""A board amid the picture farther than this share of the frame's height from what it names
reads as another card's note (`Recap._nearer`)."""
"""The inspect role of a recap row (docs/inspect.md)."""


class Recap(View):
    """Draws recap. Asks ``frame`` for a free corner or spot, and ``shown_rects`` (the scene's)
    where every visible text, card and bucket is now."""

    def __init__(self, ctx: DrawContext, frame: FreeFrame, shown_rects: Callable[..., list[Rect]],
                 code: CodePaneView, across: Callable[[Cue], bool] = lambda cue: False) -> None:
        super().__init__(ctx)
        self.frame, self.shown_rects, self.code = frame, shown_rects, code
        # whether a later grow of the whole graph takes the board, as placed, across it (`WholeGraph.takes_across`)
        self.across = across
        self._gone: list[Mobject] = []
        self._before: tuple = (None, False, None, False)
        self._near: tuple[float, float] | None = None  # where what the board's first row names is drawn
        self._amid = False  # the board last placed stands at a free spot amid the picture, not in a corner

    def _row(self, name: str, texts: list[str], size: float, value_size: float | None = None) -> VGroup:
        """``name = text = text``: the name muted, its values in the text colour (at
        ``value_size``, else ``size``), in the code's font (they are what the program holds),
        tagged as one recap item. Its ``values`` part (from the first ``=``) is what the board
        lines up in one column."""
        t = self.theme
        parts = []
        big = size if value_size is None else value_size
        for text in texts:
            parts += [label("=", t.fonts.mono, size, t.colors.text_muted), label(text, t.fonts.mono, big, t.colors.text)]
        # a word space each side of every =, as the code writes it: at a gap of a pad, ``grad=-0.0754``
        # read as one operator and ``2 =12`` as one word (REVIEW7 11)
        space = word_space(t.fonts.mono, size)
        values = VGroup(*parts).arrange(buff=space)
        said = label(name, t.fonts.mono, size, t.colors.text_muted)
        row = VGroup(said, values).arrange(buff=space)
        # one line: every text on the values' baseline, each = at mid x-height of the names' size
        # (centred on their ink, a name smaller than its numbers stood above their foot: review 5,
        # grad_accumulation's `w.grad after call 2 =` beside its large 12)
        foot = baseline(parts[1])
        for m in [said, *parts[1::2]]:
            on_baseline(m, foot)
        middle = foot + label("x", t.fonts.mono, size, t.colors.text_muted).height / 2
        for sign in parts[0::2]:
            sign.set_y(middle)
        row.values = values
        return tag(row, ROLE, text=" = ".join([name, *texts]), id=ROLE)

    def _board(self, rows: list[tuple[str, list[str]]], size: float, across: bool,
               value_size: float | None = None) -> VGroup:
        """The rows at font ``size`` (their values at ``value_size``) on a backdrop: one under
        another, their values in one column, or (``across``) side by side in one line, for a wide
        and low free band."""
        t = self.theme
        lines = [self._row(name, texts, size, value_size) for name, texts in rows]
        if across:
            block = VGroup(*lines).arrange(RIGHT, buff=t.spacing.item_gap * 2)
        else:
            block = VGroup(*lines).arrange(DOWN, aligned_edge=LEFT, buff=t.sizes.token_pad * 2)
            column = max(r.values.get_left()[0] for r in lines)  # the values in one column, after the widest name
            for r in lines:
                r.values.shift([column - r.values.get_left()[0], 0, 0])
        pad = t.sizes.caption_pad
        bg = RoundedRectangle(width=block.width + 2 * pad, height=block.height + 2 * pad, corner_radius=t.radii.caption,
                              stroke_width=0, fill_color=t.colors.code_bg, fill_opacity=t.opacity.code_bg)
        bg.move_to(block.get_center())
        return VGroup(bg, block).set_z_index(Z_RECAP)

    def _placed(self, board: VGroup, shown: list[Rect], room: bool, prints_to_come: bool = True,
                band: bool = False, near: float | None = None) -> bool:
        """``board`` moved to a free corner, else to the free spot nearest the frame's bottom left
        that no card, bucket, text, code, printout, legend or checklist reaches; False where there
        is none (it never covers what the picture shows). ``room``: it also keeps a neighbours'
        gap (``item_gap``) from every card, as a corner does, not half of it (half a gap above a
        card reads as touching it, the more once the takeaway lights it: review 2, backward_graph's
        board against x's card). ``prints_to_come``: the program prints after the recap, and the
        board keeps off where those lines go; else only the lines printed (in ``shown``) count
        (review 3: at 9:16 grad_accumulation's board found no room beside two printed lines).
        ``band``: the code pane has gone (`_pane_away`) and the board may take the top band it
        held, centred under the frame's top margin (the grid of the nearest free spot may miss a
        band barely taller than the board). ``near``: only a free spot this near what the board
        names (`rows_named`: its first row's), the nearest to it."""
        shown = shown + rulers(self.ctx)
        self._amid = False
        if near is None and self.frame.to_free_corner(board, only_free=True, avoid=shown):
            return True
        left, bottom, right, top = self.frame.free_rect()
        gap = self.theme.spacing.item_gap
        size = (board.width, board.height)
        cards = [rect_around(float(c.get_x()), float(c.get_y()), (c.width, c.height), gap / 2)
                 for c in self.ctx.state.graph.cards.values() if room and opacity(c) >= MIN_OPACITY]
        keep_off = shown + cards + self.frame.pane_bounds() + (self.frame.console_reach() if prints_to_come else [])
        top_middle = ((left + right) / 2, top - size[1] / 2)
        if band and size[0] <= right - left and clear_of(top_middle, size, keep_off, gap / 2):
            board.move_to([top_middle[0], top_middle[1], 0])
            return True
        start = (left + size[0] / 2 + gap, bottom + size[1] / 2 + gap)
        if near is not None and self._near is not None:
            start = self._near
        # (near what it names, the grid has the lines flush against what it keeps off too: a room
        # beside the named card barely wider than the board, narrower than the grid's pitch, was
        # missed wherever the pitch fell: graph_build 9:16's L, its graph grown a little wider)
        spot = nearest_free(start, size, keep_off, within=(left, bottom, right, top),
                            step=size[1] * self.theme.proportions.ride_grid, clear=gap / 2, flush=near is not None)
        if not clear_of(spot, size, keep_off, gap / 2) or (near is not None and math.dist(spot, start) > near):
            return False
        board.move_to([spot[0], spot[1], 0])
        self._amid = True
        return True

    def _nearer(self, board: VGroup, rows: list[tuple[str, list[str]]], later: bool,
                value: float) -> tuple[VGroup, Anims]:
        """A board set amid the picture far from what it names (farther than ``FAR`` of the
        frame's height) reads as the note of the cards beside it: the legend gives way, if that
        lets the board stand near what it names (review 5: at 9:16 graph_build's ``L = 4/9 /
        L.grad_fn = PowBackward0`` stood between w2 and z, 350 px from L, the legend beside L).
        Else it stays where it was found, the legend too."""
        left, bottom, right, top = self.ctx.frame_rect()
        far = FAR * (top - bottom)
        if self._near is None or math.dist((float(board.get_x()), float(board.get_y())), self._near) <= far:
            return board, []
        before = list(self._gone)  # the code pane's, where it stepped aside for the board
        out = self._legend_away()
        if not out:
            return self._list_gives_way(board, rows, later, value, far)
        shown = self._on_screen(before + self._gone) + self.frame.frame_marks() + self.frame.pane_bounds()
        nearer = self._fit(rows, shown, later, least=value, near=far) or self._fit(rows, shown, later, near=far)
        if nearer is None:
            self.ctx.state.graph.legend, self._gone = self._gone[0], before
            self.ctx.state.graph.legend_away = False
            return board, []
        return nearer, out

    def _list_gives_way(self, board: VGroup, rows: list[tuple[str, list[str]]], later: bool, value: float,
                        far: float) -> tuple[VGroup, Anims]:
        """Where no legend gives way: the checklist, if the board stands near what it names in its
        room, changes places with it, the list dissolving to where the board was found (the list
        names no card: it reads anywhere). Else the board stays where it was found. Why: at 1:1
        missing_gradient's ``w.grad = 8`` stood over z's note, 0.26 of the frame's height from
        w's bucket, the list of checks beside w, and no spot nearer w was free."""
        st = self.ctx.state.checklist
        marks = [m for m in st.rows if len(m.get_family()) and m.width > 0 and opacity(m) >= MIN_OPACITY]
        if not marks:
            return board, []
        block = VGroup(*marks)
        x0, y0, x1, y1 = bounds(block)
        pad = self.theme.spacing.item_gap / 4  # what lies in the list's box is the list's

        def not_list(r: Rect) -> bool:
            return not (r[0] >= x0 - pad and r[1] >= y0 - pad and r[2] <= x1 + pad and r[3] <= y1 + pad)
        shown = [r for r in self._on_screen(self._gone) + self.frame.frame_marks() + self.frame.pane_bounds()
                 if not_list(r)]
        nearer = self._fit(rows, shown, later, least=value, near=far)
        if nearer is None:
            return board, []
        gap = self.theme.spacing.item_gap
        size, spot = (x1 - x0, y1 - y0), (float(board.get_x()), float(board.get_y()))
        keep_off = shown + [bounds(nearer)] + (self.frame.console_reach() if later else [])
        left, bottom, right, top = self.frame.free_rect()
        to = nearest_free(spot, size, keep_off, within=(left, bottom, right, top),
                          step=size[1] * self.theme.proportions.ride_grid, clear=gap / 2)
        if not clear_of(to, size, keep_off, gap / 2):
            return board, []
        moved = [m.copy().shift([to[0] - (x0 + x1) / 2, to[1] - (y0 + y1) / 2, 0.0]) for m in marks]
        # it dissolves there, never gone, off the board's spot before the board fades in (`second_half`):
        # a glide there crossed the notes between (1:1: z's ``z.grad = None``)
        there = {id(m): t for m, t in zip(marks, moved)}
        st.rows = [there.get(id(m), m) for m in st.rows]
        return nearer, [FadeOut(m, rate_func=first_half) for m in marks] + [FadeIn(m) for m in moved]

    @draws("recap")
    def draw_recap(self, cue: Cue, step: StepScratch) -> Anims:
        """The board fading in where nothing on screen is, at the card value's size (its rows one
        under another, else side by side) or, where no place is free for it, smaller, down to the
        least readable size: with a gap's room from the cards where any size has it, else closer;
        none where nothing is free even then (the takeaway check then names what the picture does not show)."""
        t = self.theme
        rows = recap_rows(cue.strings)
        if not rows:
            return []
        named = rows_named(self.ctx, cue)  # the first row's first: the centre the board stands near
        first = named[0][0][1] if named and named[0] else None
        self._near = None if first is None else (float(first.get_x()), float(first.get_y()))
        self.ctx.state.titles.recap_of = [[k for k, _ in row] for row in named]
        shown = self._on_screen() + self.frame.frame_marks()
        later = any(c.kind == "output_line" and c.start >= cue.start for c in self.ctx.plan.cues)
        lay = self.ctx.layout  # the cards' values as drawn, never under the least readable size (cards
        # of names only at a 1:1 scale of 0.48 gave 12.4: backward_graph's board at 8 px)
        value = max(value_size(lay.detail, lay.scale, t) or t.font_sizes.card_value * lay.scale,
                    t.font_sizes.min_readable)
        # the numbers at the cards' value size at least: the whole board, else its names smaller,
        # else with the code pane stepped aside to its lit line (its room is the board's); only
        # then all of it smaller (review 4: at 9:16 the takeaway's 12 and 6 were the smallest
        # text on screen, ~10 px under 30 px cards)
        board = (self._fit(rows, shown, later, least=value) or self._fit(rows, shown, later, value_size=value))
        out: Anims = []
        if board is None:
            out = self._pane_aside(step)
            if out:
                # (the printed lines stay, under the lit line: `pane_bounds` has them where they go)
                board = self._fit(rows, self._on_screen(self._gone) + self.frame.frame_marks()
                                  + self.frame.pane_bounds(), later, value_size=value)
                if board is None:
                    self._pane_back()
                    out = []
        if board is None:
            out = self._legend_away()
            if out:
                board = self._fit(rows, self._on_screen(self._gone) + self.frame.frame_marks(), later,
                                  value_size=value)
                if board is None:
                    self.ctx.state.graph.legend, self.ctx.state.graph.legend_away = self._gone[0], False
                    out = []
        if board is None:
            board = self._fit(rows, shown, later, rooms=(True, False))
        if board is not None and self._amid:
            board, more = self._nearer(board, rows, later, value)
            out += more
        if board is None:
            out = self._pane_away()
            if out:
                shown = self._on_screen(self._gone) + self.frame.frame_marks()
                board = self._fit(rows, shown, later, least=value, band=True)
                if board is None:
                    self._pane_back()
                    out = []
        if board is None:
            self._shown_elsewhere(cue)
            return []
        self.ctx.record_all(cue.strings)
        self.ctx.state.titles.recap = board
        if self.across(cue):  # it first shows where that grow takes it, by what it names
            self.ctx.state.titles.recap_waits = True
            return out
        lines = self.ctx.state.console.lines
        risen = bool(out) and self.code.code.aside and lines is not None and len(lines) > 0
        return out + [FadeIn(board, rate_func=_after_lines if risen else second_half if out else smooth)]

    def _fit(self, rows: list[tuple[str, list[str]]], shown: list[Rect], later: bool, least: float = 0.0,
             value_size: float | None = None, rooms: tuple[bool, ...] = (True,), band: bool = False,
             near: float | None = None) -> VGroup | None:
        """The board placed where nothing on screen is, its font from the card value's size down
        to ``least`` (at least the least readable size), with a gap's room from the cards at any
        size, else closer; its values at ``value_size`` if given. None where it finds no place.
        ``rooms``: a gap's room round it only (a larger board set closer to the cards than a
        smaller one with room reads as one of them), or that, then close by. ``band``, ``near``:
        see `_placed`. Names set smaller than their values keep a name's least size
        (``min_glyph_main_px``, issue 39 item 4: grad_accumulation's ``w.grad after call 2`` was
        ~8 px beside a 12 of 40 px)."""
        t = self.theme
        least = max(least, t.font_sizes.min_readable)
        if value_size is not None:
            least = min(max(least, t.font_sizes.min_glyph_main_px / t.font_sizes.glyph_cap), value_size)
        for room in rooms:  # with room round it at any readable size, else close by
            size = max(t.font_sizes.card_value, least)
            while True:
                for across in (False, True)[:len(rows)]:
                    board = self._board(rows, size, across, value_size)
                    if self._placed(board, shown, room, later, band, near):
                        return board
                if size <= least:
                    break
                size = max(size * t.proportions.caption_shrink_step, least)
        return None

    def _pane_aside(self, step: StepScratch) -> Anims:
        """The code pane steps aside to its lit line (its printed lines rise under it) to give the
        board its room; what it was is kept (``_gone``, ``_before``) to be put back if even then
        the board finds none."""
        code = self.code.code
        pane, lines = code.pane, self.ctx.state.console.lines
        self._before = (pane, code.aside, code.foot, code.printed_away)
        self._gone = [m for m in (pane, lines) if m is not None]
        return self.code.step_aside(True, step)

    def _on_screen(self, exclude: list[Mobject] | None = None) -> list[Rect]:
        """`shown_rects` but ``exclude`` and a legend fading out for the board (one that gives way,
        ``legend_yields``: `LegendFrame.give_way`): the board may take its room, as it would with no
        legend (leaf_nodes 16:9: kept off it, the board's rows went side by side over the printed lines)."""
        g = self.ctx.state.graph
        fading = [g.legend_home] if g.legend_yields and g.legend_away and g.legend_home is not None else []
        return self.shown_rects(exclude=(exclude or []) + fading)

    def _legend_away(self) -> Anims:
        """The legend fades and gives the board its room (a tall frame whose pane stands aside
        already, backward_walk at 9:16): at the takeaway the numbers it names matter more than
        the colours' key, on screen through the whole walk. Kept (``_gone``) to be put back if
        even then the board finds none."""
        g = self.ctx.state.graph
        if g.legend is None or not len(g.legend):
            return []
        self._gone, g.legend, g.legend_away = [g.legend], VGroup(), True
        return [FadeOut(self._gone[0], rate_func=first_half)]

    def _pane_away(self) -> Anims:
        """The code pane goes, lit line and all, and the board may take its place: the last
        resort, where no spot is free for the board even at the least readable size (1:1's
        backward_walk: its graph fills the square under the one lit line, `L.backward()`, and
        the takeaway's `tensor(2.6667)` was shown nowhere). At the takeaway the numbers it names
        matter more than the line that ran; a pane with printed lines or marks beside its lines
        stays (the takeaways quote them). Kept (``_gone``, ``_before``) to be put back if even
        then the board finds no room."""
        code, lines = self.code.code, self.ctx.state.console.lines
        if code.pane is None or (lines is not None and len(lines)) or code.marks:
            return []
        self._before = (code.pane, code.aside, code.foot, code.printed_away)
        self._gone = [code.pane]
        code.pane = None
        return [FadeOut(self._gone[0], rate_func=first_half)]

    def _pane_back(self) -> None:
        code = self.code.code
        code.pane, code.aside, code.foot, code.printed_away = self._before

    def _shown_elsewhere(self, cue: Cue) -> None:
        """No room for the board: a row whose every value the picture drew already (a card's
        grad_fn, a bucket's number, the same logged text) is not lost and is recorded as shown;
        a row with a value drawn nowhere is left out of the ledger, where the render's checks
        find it (the takeaway check names what the picture does not show)."""
        drawn = set(self.ctx.ledger)
        row: list[Shown] = []
        for s in [*cue.strings, None]:
            if s is None or s.role == NAME:
                if row and all((v.text, v.seq) in drawn for v in row[1:]):
                    self.ctx.record_all(row)
                row = [s] if s is not None else []
            elif row:
                row.append(s)


def _after_lines(t: float) -> float:
    """The board's fade where the printed lines rise under the lit line in its step (they rise
    in its second half, `CodePaneView._printed_aside`, through where the board may stand): from
    when they are most of the way up."""
    return smooth(max(0.0, (t - 0.8) / 0.2))
