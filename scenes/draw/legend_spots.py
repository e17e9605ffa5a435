"""The colour legend: where it goes with the first card, and how it moves as the frame changes.

Why a view of its own: where the legend stands depends on the aspect and on everything else the
frame holds (the code pane and what it prints, the checklist, the graph and the cards to come,
the walk's strip and camera, the whole graph's grow, the takeaway's board); `LegendRoom` says
where the frame is free, and this view, one of its kind, places the legend there and keeps it in
step with the pane, the camera and the board. It draws no cue kind; it writes the graph's legend.
"""

from __future__ import annotations

from itertools import chain
from typing import Callable

from manim import FadeIn, FadeOut, Mobject, ReplacementTransform, VGroup

from scenes.draw.collisions import BOX_ROUNDING, SHORT_SIDE, glyph_height
from scenes.draw.context import Anims
from scenes.draw.crossfade import PANE_CLEARED, PANE_LEAVES, after_the_pane, before_the_pane
from scenes.draw.frame_spots import NOBODY, bounds
from scenes.draw.glide import through
from scenes.draw.legend_room import LegendRoom
from scenes.draw.visuals import label, legend
from scenes.draw.visuals.legend import smaller_legends
from scenes.layout.clear_rects import meets
from scenes.layout.label_spots import first_clear
from scenes.storyboard.cues import Cue
from scenes.theme import Rect
from scenes.theme_model import KIND_MEANING


class LegendFrame(LegendRoom):
    """`FreeFrame` with the colour legend: with the first card (``legend_in``), in the walk's
    strip (``walk_legend``), out of the way of a close view, a grow or a board (``give_way``)."""

    def legend_in(self) -> Anims:
        """With the graph's first card, the legend of its colours, in the first corner of the
        free frame that no card, arrow, code or printout can reach (a column, else a row), else
        (a tall frame) beside the graph's top under the code pane (`under_the_pane`), between
        two rows of cards (`between_cards`, in a shorter or smaller shape too), else under the
        pane only as far as the console prints (`printed_reach`), each where the checklist to
        come still finds its place (`list_fits`), else (a
        wide frame) in a corner in a shorter or smaller shape (`smaller_legends`), off the
        checklist's (`corner_by_list`), one that gives way to the whole graph's grow (`give_way`),
        else in a corner of the graph's region the cards drawn before the walk leave
        (`graph_corner`); none if no corner is free. Each colour is named by its meaning: red is "loss"
        (``labels.legend_loss``), true of a loss backward() never ran from too (missing_gradient's L2)."""
        if self.graph.legend is not None or not self.ctx.layout.boxes:
            return []
        entries = self._legend_entries()
        for across in (False, True):
            m = legend(entries, self.theme, across=across)
            if self.to_free_corner(m, only_free=True):
                self.graph.legend = m
                return [FadeIn(m)]
        least = self._least_legend_size()
        if self.legend_goes_aside() and self.code.pane is not None:
            gap = self.theme.spacing.item_gap
            for size, clear in ((self.theme.font_sizes.card_flag, gap), (least, gap), (least, gap / 2)):
                m = legend(entries, self.theme, size=size)
                if self.under_the_pane(m, clear) and self.list_fits(m):
                    self.graph.legend, self.graph.legend_under = m, True
                    return [FadeIn(m)]
            first = self.before_the_walk()
            for size in (self.theme.font_sizes.card_flag, least) if first is not None else ():
                m = legend(entries, self.theme, size=size)
                if self.under_the_pane(m, gap, first) and self.list_fits(m):
                    self.graph.legend, self.graph.legend_under = m, True
                    return [FadeIn(m)]
            columns = (legend(entries, self.theme, size=s) for s in (self.theme.font_sizes.card_flag, least))
            for m in chain(columns, smaller_legends(entries, self.theme, least)):
                if self.between_cards(m, gap) and self.list_fits(m):
                    self.graph.legend, self.graph.legend_under = m, True
                    return [FadeIn(m)]
            for size in (self.theme.font_sizes.card_flag, least):  # as far under the pane as the console prints
                m = legend(entries, self.theme, size=size)
                if self.under_the_pane(m, gap, floor=True) and self.list_fits(m):
                    self.graph.legend, self.graph.legend_under = m, True
                    return [FadeIn(m)]
        spec = self.ctx.spec
        if spec.frame_width > spec.frame_height:  # beside the pane (16:9): a corner for a shorter or smaller
            # legend, off the corner the checklist to come takes (`corner_by_list`)
            for m in smaller_legends(entries, self.theme, least):
                if self.corner_by_list(m):
                    beside = bounds(m)[0] >= spec.code[2]  # in the graph's region: the walk's close view's too
                    self.graph.legend = m
                    self.graph.legend_yields = ("camera", "whole", "recap") if beside else ("whole", "recap")
                    return [FadeIn(m)]
            first = self.before_the_walk()
            shapes = chain([legend(entries, self.theme)], smaller_legends(entries, self.theme, least))
            for m in shapes if first is not None else ():
                if self.graph_corner(m, first):
                    self.graph.legend, self.graph.legend_yields = m, ("camera", "whole", "recap")
                    return [FadeIn(m)]
        self.graph.legend = VGroup()  # no room: the colours alone, until the walk frees the pane's
        return []

    def _legend_entries(self) -> list[tuple[str, str]]:
        """(colour, words) for each meaning the clip's graph draws: its cards' kinds, and the
        gradient where a walk, a grad_fn or a bucket shows one."""
        t, w = self.theme, self.theme.labels
        kinds = {b.kind for b in self.ctx.layout.boxes.values()}
        entries = [(t.colour(KIND_MEANING[kind]), words) for kind, words in (
            ("leaf_grad", w.legend_weight), ("leaf_nograd", w.legend_input), ("op", w.legend_result),
            ("loss", w.legend_loss)) if kind in kinds]
        if any(k.kind in ("visit", "grad_fn_appear", "bucket_fill") for k in self.ctx.plan.cues):
            entries.append((t.colour("gradient"), w.legend_grad))
        return entries

    def walk_legend(self) -> Anims:
        """Where the legend found no corner with the first card (a tall frame, whose code pane
        stands over the graph), it comes in when the pane steps aside for the backward walk
        (``CodeView.aside``): as backward() starts, where red first matters, in the
        strip the pane frees under its lit line (in two columns, short: the camera keeps off
        it), and goes when the whole pane comes back. Only in a tall frame (9:16), where the pane
        stands over the graph: beside it (16:9) the column it frees is where the walk's camera
        moves the graph (a legend there cut dynamic_graph's close-ups to 39 % of the frame); a
        square frame's strip is short, and its visits' notes need it (sigmoid_logloss 1:1), but
        where the frame keeps a column for a checklist (`list_column`): there the list and the
        visits' notes share the column, the legend has no corner, and comes into the strip for
        the walk, at the least readable size where the theme's does not fit (missing_gradient 1:1:
        two columns under the lit line, beside the printed ``None``). A legend beside the graph's
        top under the whole pane (`under_the_pane`) moves into that strip, as the walk's camera
        has the room it leaves, but where the whole graph's grow lifted it or the takeaway's board
        stands; it goes back there with the whole pane, where that is still clear (`_home_clear`).
        Not once the takeaway's board has taken the legend's room (``legend_away``).
        Called for every cue: it keeps the legend in step with the pane, and does nothing while
        they agree."""
        g = self.graph
        if g.legend_yields:
            return self._yielded_back()
        if g.walk_legend and not self.code.aside:
            gone, g.legend, g.walk_legend = g.legend, VGroup(), False
            back = self._list_back()
            home, g.legend_home = g.legend_home, None
            if home is not None and gone is not None and len(gone) and self._home_clear(home):
                g.legend, g.legend_under = home, True  # back beside the graph's top, under the whole pane
                return back + legend_move(gone, home, before_the_pane)
            return back + ([FadeOut(gone, rate_func=before_the_pane)] if gone is not None else [])
        was = g.legend if g.legend_under and g.legend is not None and len(g.legend) else None
        if g.walk_legend or not self.code.aside or g.legend is None or (len(g.legend) and was is None) \
                or self.code.pane is None:
            return []
        board = self.ctx.state.titles.recap
        if g.legend_away or (was is not None and (self.ctx.state.camera.whole is not None
                                                  or (board is not None and len(board)))):
            return []  # the takeaway's board took its room (`Recap._legend_away`), or the whole graph's grow moved it
        column = self.list_column()
        if not self.legend_goes_aside() and not column:
            return []  # beside the graph (16:9) the camera takes its column; a square frame's strip is the notes'
        spec = self.ctx.spec
        left, bottom, right, top = self.free_rect()
        gap = self.theme.spacing.item_gap
        panes = self.pane_bounds()  # under the lit line, else under the printed lines hanging there
        unders = sorted({float(self.code.pane.bg.get_bottom()[1]) - gap, min(r[1] for r in panes) - gap}, reverse=True)
        if was is not None:
            g.legend = VGroup()  # its place under the whole pane is none to keep off: it leaves it
        keep_off = panes + self.frame_marks() + [bounds(m) for m in self.graph.tags.values()]
        f = self.theme.font_sizes
        sizes = (f.card_flag, self._least_legend_size()) if column else (f.card_flag,)  # a square frame's strip is short
        for size, under, columns in ((s, u, c) for s in sizes for u in unders for c in (2, 1)):  # beside the
            m = legend(self._legend_entries(), self.theme, columns=columns, size=size)  # lines, else under them
            w2 = m.width / 2 + gap
            y = under - m.height / 2
            spots = [(left + w2, y), (right - w2, y), ((left + right) / 2, y)]
            found = first_clear(self.ctx.layout, NOBODY, (m.width + gap, m.height + gap), spots, gap, keep_off,
                                within=(left - gap / 2, bottom - gap / 2, right + gap / 2, top + gap / 2))
            if found is not None:
                m.move_to([*spots[found], 0])
                g.legend, g.walk_legend, g.legend_under = m, True, False
                g.legend_home = was.copy() if was is not None else g.legend_home  # (the move reshapes ``was``)
                come = legend_move(was, m, after_the_pane) if was is not None else [FadeIn(m, rate_func=after_the_pane)]
                return come + ([] if column else self._list_aside(m, keep_off))
        if was is not None:
            g.legend = was
        return []

    def give_way(self, cue: Cue, stays_home: Callable[[Cue], bool]) -> Anims:
        """A legend beside the graph's top under the whole pane (`under_the_pane`) goes as the
        walk's camera moves in before the pane steps aside (a ``camera`` cue with ids): the close
        view has the corner it took (backward_walk 9:16: its first view of L a third smaller
        beside it), and the walk's legend comes into the strip the pane frees (`walk_legend`),
        and goes back there with the whole pane where it is still clear; it stays where the
        camera stays home (``stays_home``: grad_accumulation 9:16's, between its cards, gone for
        nothing, was off screen 0.5-2.5 s before each walk's legend came). A legend that found a
        corner only shorter or smaller (``legend_yields``, 16:9: in the code's column under the
        printout) goes as the whole graph grows and for the takeaway's board, and one in the
        graph's region as the walk's camera moves in too: they take the room it stood in as they
        do where there is no legend (leaf_nodes 16:9: kept, it held the grown graph to 47 % of
        the frame, and the board's rows went side by side over the printed lines; missing_gradient
        16:9's, under its checklist, held the close views to 39 %); it comes back as the graph
        goes home (`_yielded_back`)."""
        g = self.graph
        if g.legend is None or not len(g.legend):
            return []
        if cue.kind in g.legend_yields and (cue.kind != "camera" or cue.ids):
            g.legend_away = g.legend_away or cue.kind == "recap"
            return self._step_out(back=True)
        if cue.kind == "node_appear" and any(meets(bounds(g.legend), self.ctx.layout.boxes[i].bounds)
                                             for i in cue.ids if i in self.ctx.layout.boxes):
            return self._step_out(back=False)  # a card comes where it stands (`before_the_walk`)
        if cue.kind == "camera" and cue.ids and g.legend_under and not stays_home(cue):
            return self._step_out(back=True)
        return []

    def _step_out(self, back: bool) -> Anims:
        """The legend fades out of its place, kept to come back there (``back``: `_yielded_back`,
        `walk_legend`) or not."""
        g = self.graph
        gone, g.legend, g.legend_under = g.legend, VGroup(), False
        g.legend_home = gone if back else None
        return [FadeOut(gone, rate_func=before_the_pane)]

    def _yielded_back(self) -> Anims:
        """A legend that gave way (`give_way`, ``legend_yields``) back at its place once the whole
        graph is back (and the camera home), where that is still clear (`_home_clear`); never after the
        takeaway's board took its room (``legend_away``)."""
        g, cam = self.graph, self.ctx.state.camera
        home = g.legend_home
        if home is None or g.legend_away or (g.legend is not None and len(g.legend)) or cam.zoom is not None \
                or cam.whole is not None or not self._home_clear(home):
            return []
        g.legend, g.legend_home = home, None
        return [FadeIn(home, rate_func=after_the_pane)]

    def _home_clear(self, home: Mobject) -> bool:
        """Whether the legend's place beside the graph's top (``home``, `under_the_pane`) is still
        clear as the whole pane comes back: of the pane and what it prints, the op names, the
        checklist, and the cards and arrows at home (the walk's camera is home by then). The
        arrows, where they were at its place, kept half a gap off at least, as `under_the_pane`
        may have kept them (leaf_nodes 9:16: held a gap off, it never came back)."""
        gap = self.theme.spacing.item_gap
        keep_off = (self.pane_bounds() + self.printed_reach() + [bounds(m) for m in self.graph.tags.values()]
                    + self.frame_marks())
        x0, y0, x1, y1 = bounds(home)
        return first_clear(self.ctx.layout, NOBODY, (x1 - x0 + gap, y1 - y0 + gap),
                           [((x0 + x1) / 2, (y0 + y1) / 2)], gap / 2, keep_off) is not None

    def _list_aside(self, legend: Mobject, keep_off: list[Rect]) -> Anims:
        """The checklist, where one is shown, moved with the walk's legend into the strip the pane
        frees, under the legend, where that is free (of ``keep_off`` but the list itself, and of
        the cards and arrows): beside the graph, where it stood, it takes the room a visit's note
        has beside its card (missing_gradient 9:16: the list right of z - 1 left mul's rule no room
        by z). It goes back with the legend (`_list_back`)."""
        st = self.ctx.state.checklist
        if not st.rows or st.aside is not None:
            return []
        block = VGroup(*st.rows)
        x0, y0, x1, y1 = bounds(block)
        lx0, ly0, lx1, _ = bounds(legend)
        gap = self.theme.spacing.item_gap
        w, h = x1 - x0, y1 - y0
        spots = [(lx0 + w / 2, ly0 - gap - h / 2), (lx1 - w / 2, ly0 - gap - h / 2)]
        mine = [bounds(r) for r in st.rows]
        left, bottom, right, top = self.free_rect()
        found = first_clear(self.ctx.layout, NOBODY, (w + gap, h + gap), spots,
                            gap, [r for r in keep_off if r not in mine] + [bounds(legend)],
                            within=(left - gap / 2, bottom - gap / 2, right + gap / 2, top + gap / 2))
        if found is None:
            return []
        d = (spots[found][0] - (x0 + x1) / 2, spots[found][1] - (y0 + y1) / 2)
        st.aside, st.lands = d, spots[found]
        if self._list_way_crosses():  # out as the pane slides up, in with the legend
            return [through(r, r.copy().shift([d[0], d[1], 0]), PANE_CLEARED, PANE_CLEARED) for r in st.rows]
        return [r.animate(rate_func=after_the_pane).shift([d[0], d[1], 0]) for r in st.rows]

    def _list_back(self) -> Anims:
        """The checklist back where it stood, as the walk's legend goes (`_list_aside`)."""
        st = self.ctx.state.checklist
        if st.aside is None:
            return []
        d, st.aside = st.aside, None
        x0, y0, x1, y1 = bounds(VGroup(*st.rows))
        st.lands = ((x0 + x1) / 2 - d[0], (y0 + y1) / 2 - d[1])
        if self._list_way_crosses():  # out with the legend, in as the pane comes back
            return [through(r, r.copy().shift([-d[0], -d[1], 0]), PANE_LEAVES, PANE_LEAVES) for r in st.rows]
        return [r.animate(rate_func=before_the_pane).shift([-d[0], -d[1], 0]) for r in st.rows]

    def _list_way_crosses(self) -> bool:
        """Whether the checklist's rows, slid straight to where they land (`list_sweep`), would
        pass over a card, an op name, a bucket or an arrow of the graph: then they fade out and
        in there instead, as the legend does, rather than be read over the graph mid-slide."""
        g = self.graph
        shapes = [*g.cards.values(), *g.tags.values(), *g.buckets.values(), *g.arrows.values()]
        marks = [bounds(m) for m in shapes if len(m.get_family()) and m.width > 0]
        return any(meets(way, m) for way in self.list_sweep() for m in marks)

    def _least_legend_size(self) -> float:
        """The least size the legend's words are set at: ``min_readable``, or more where an entry's
        box measures its glyphs under ``min_glyph_px`` there (`collisions.glyph_height`, as the
        too_small check reads it: "weight (requires_grad)", whose brackets reach below the line)."""
        t, spec = self.theme, self.ctx.spec
        f = t.font_sizes
        px = SHORT_SIDE / min(spec.frame_width, spec.frame_height)  # pixels a unit at 854x480
        short = 1.0
        for _, words in self._legend_entries():
            box = label(words, t.fonts.sans, f.min_readable, t.colors.text_muted).height * px - BOX_ROUNDING
            short = max(short, f.min_glyph_px / max(glyph_height({"bbox": [0.0, 0.0, 0.0, box], "text": words}), 1e-9))
        return f.min_readable * short


def legend_move(old: Mobject, new: Mobject, rate: Callable[[float], float]) -> Anims:
    """The legend ``old`` moved to ``new`` (its place and size) at ``rate`` where both have one
    shape (`same_shape`); else one fading out as the other fades in: a move morphed a wrapped
    entry into one line glyph by glyph, drawn over each other (grad_accumulation 9:16), and a
    column's rows sliding into two columns passed through each other (leaf_nodes 9:16)."""
    if same_shape(old, new):
        return [ReplacementTransform(old, new, rate_func=rate)]
    return [FadeOut(old, rate_func=rate), FadeIn(new, rate_func=rate)]


def same_shape(old: Mobject, new: Mobject) -> bool:
    """Whether the legends ``old`` and ``new`` are one arrangement, at any size: as many rows, each
    entry's words on as many lines, and each row beside, above or level with each other one in
    both alike (their starts and middles compared to within half a row's height), so that a move
    between them keeps each row apart from the others throughout."""
    if len(old) != len(new) or [type(r[1]) for r in old] != [type(r[1]) for r in new]:
        return False

    def sides(m: Mobject) -> list[tuple[int, int]]:
        tol = min(r.height for r in m) / 2
        at = [(float(r.get_left()[0]), float(r.get_y())) for r in m]
        return [(_side(a[0] - b[0], tol), _side(a[1] - b[1], tol)) for a in at for b in at]

    return sides(old) == sides(new)


def _side(d: float, tol: float) -> int:
    """-1, 0 or 1: which way ``d`` goes, 0 within ``tol``."""
    return 0 if abs(d) <= tol else 1 if d > 0 else -1
