"""The whole graph grown into the frame the code pane frees: drawn at a ``whole`` cue.

Why: once the program is typed and the graph built, the narration turns to the graph as a whole
(issue 39 item 4); the code pane steps aside to its lit line, as it does for the walk at
``walk_code: lit`` (`CodePaneView.step_aside`), and the graph glides, larger, into the frame it
frees, in one move: every card and what is drawn on it grows evenly, the cards spread apart, and
each arrow keeps its ends on its cards (:mod:`scenes.layout.whole`). The next ``whole`` cue takes
both back. Where it goes is read from what is on screen (the pane as it stepped aside, the
legend), as the walk's camera reads it (`FreeFrame`). While the graph is grown the scene reads
the layout as seen then, so that a light or a recap lands on the moved cards; the camera's record
(`CameraView.whole`) keeps the move, so a stored state restores it. At the takeaway, where the
graph grown beside the pane aside and the recap board stays small and nothing needs the pane
again, the pane goes instead and the board slides to the frame's side (`WholeGraph._pane_away`);
where that leaves it by nothing it names, it goes to a side of the frame where it does, the graph
growing round it (`WholeGraph._board_near`, :mod:`scenes.draw.whole_board`), and first shows there:
the recap keeps it back till then (`WholeGraph.takes_across`). Where no grow is found (a graph as
wide as a tall frame), the pane still steps aside and the graph moves up, not grown, into the band
it frees, the board coming in by what it names (`WholeGraph._up`, :mod:`scenes.draw.whole_shift`).
"""

from __future__ import annotations

from collections.abc import Callable

from manim import FadeIn, FadeOut, Transform, smooth

from scenes.draw.code import CodePaneView
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.drawers import draws
from scenes.draw.focus import CameraFocus
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.recap import FAR
from scenes.draw.record import opacity
from scenes.draw.whole_board import clear_of_marks, reads_as_its, side_spots, within_reach
from scenes.draw.whole_shift import rise, shift_up
from scenes.draw.whole_shapes import mappers
from scenes.draw.whole_moves import (BACK, during, first_part, grown, head_kept, moved_path, moved_rect, second_part,
                                      shifted, warp, widened)
from scenes.layout.clip import code_rect
from scenes.layout.place import Layout, tag_reach
from scenes.layout.tag_room import ring_reach, tag_height
from scenes.layout.camera import drawn_part
from scenes.layout.clear_rects import meets
from scenes.layout.whole import SIDES, Point, Stretch, Views, area, clear_view, extent, stretched
from scenes.storyboard.cues import Cue, needs_pane
from scenes.storyboard.timings import BLINK
from scenes.theme import Rect

class WholeGraph(View):
    """Draws ``whole``: asks ``code`` to step aside (or back), ``frame`` where the graph may go,
    and moves the shapes ``focus`` lists as the graph's."""

    def __init__(self, ctx: DrawContext, focus: CameraFocus, frame: FreeFrame, code: CodePaneView) -> None:
        super().__init__(ctx)
        self.focus, self.frame, self.code = focus, frame, code
        self.clip = ctx.layout  # the clip's layout: the graph at home
        # the whole views worked out so far of each part of it drawn (`clear_view`: asked again and again)
        self.seen: dict[frozenset[str], Views] = {}

    def restore(self) -> None:
        """The context's layout as the record says (after a stored state is loaded)."""
        rec = self.ctx.state.camera.whole
        if rec is not None:
            self.ctx.layout = stretched(self.clip, rec[0], rec[1])  # (the legend moved with its shape)

    @draws("whole_back")
    def draw_whole_back(self, cue: Cue, step: StepScratch) -> Anims:
        """The graph shrinks home first (and the legend with it goes back), then the pane comes
        back whole."""
        rec = self.ctx.state.camera
        if rec.whole is None:
            return []
        stretch, _, lift = rec.whole
        out = self._move(self.ctx.layout, stretch.inverse(), self.clip, first_part)
        out += self._lift(-lift, first_part)
        rec.whole = None
        return out + [during(a, 0.6, 1.0) for a in self.code.step_aside(False, step)]

    @draws("whole")
    def draw_whole(self, cue: Cue, step: StepScratch) -> Anims:
        rec = self.ctx.state.camera
        if rec.whole is not None or self.focus.home is not None or not self.clip.boxes:
            return self._board_in((0.0, 0.0))
        # where the pane of its lit line alone will stand (`code_rect`), and then where it does
        found = self._best([code_rect(self.ctx.spec, self.theme, True, self.ctx.source)])
        if found is None:
            up = self._up(cue)
            return self._moved_up(step, *up) if up is not None else self._board_in((0.0, 0.0))
        away = self._pane_away(cue, found)
        if away is not None:
            return self._without_pane(*away)
        out = self._board_in((0.0, 0.0))
        pane = self.code.step_aside(True, step)
        s, region, lift = self._best(self.frame.pane_bounds()) or found
        rec.whole = (s, region, lift)
        rate = second_part if pane else smooth  # with no pane to step aside first, over the whole cue
        out += [during(a, 0.0, 0.4) for a in pane] + self._lift(lift, rate)
        return out + self._move(self.clip, s, stretched(self.clip, s, region), rate)

    def takes_across(self, recap: Cue) -> bool:
        """Whether the graph's grow at the next ``whole`` cue after ``recap`` takes the recap board,
        as placed now, across the graph to what it names (`_pane_away`, `_board_near`): the board
        then first shows there, as the graph lands, not here a few seconds before (missing_gradient
        16:9: ``w.grad = 8`` stood by sub's card 55.8-59.5 s, faded, and came in by w's bucket at
        60.8 s, read first where it named nothing). Asked as the board is placed; the grow works
        it out again (`_board_in` shows a board the prediction kept back, whatever it finds)."""
        cue = min((c for c in self.ctx.plan.cues if c.kind == "whole" and c.start > recap.start),
                  key=lambda c: c.start, default=None)
        if cue is None or self.ctx.state.camera.whole is not None or self.focus.home is not None or not self.clip.boxes:
            return False
        found = self._best([code_rect(self.ctx.spec, self.theme, True, self.ctx.source)])
        if found is None:
            return self._up(cue) is not None
        away = self._pane_away(cue, found)
        return away is not None and away[3] and away[2] != (0.0, 0.0)

    def _board_in(self, d: Point, at: float = BACK) -> Anims:
        """The recap board kept back for this grow (``recap_waits``: `takes_across`) fading in
        moved by ``d``, from ``at`` of the cue (as the graph lands); none where no board waits."""
        titles = self.ctx.state.titles
        if not titles.recap_waits or titles.recap is None:
            return []
        titles.recap_waits = False
        there = titles.recap.copy().shift([d[0], d[1], 0.0]) if d != (0.0, 0.0) else titles.recap
        titles.recap = there
        return [during(FadeIn(there), at, 1.0)]

    def _best(self, pane: list[Rect]) -> tuple[Stretch, Rect, float] | None:
        """The largest of the whole graph's moves with the code pane at ``pane`` (`_view`): with
        the legend where it is, or lifted to just under the pane (a corner of the frame the
        graph has no card in, where beside the whole pane it stood in the graph's way); and how
        far up it goes. A recap board on screen keeps its place, as the legend does (it is what
        the caption reads out); where the graph beside it stays under ``layout.fill_graph`` of
        the frame, the graph may stand off the frame's middle, its cards passing beside the
        board (`clear_view`'s ``sides``: leaf_nodes 16:9 grew to 44 % of the frame beside the
        board at the frame's bottom left, 47 % with x's card beside it)."""
        recap = self.ctx.state.titles.recap
        board = [bounds(recap)] if recap is not None and len(recap) else []
        found = self._options(pane, board, 0)
        least = self.theme.layout.fill_graph * self.ctx.spec.frame_width * self.ctx.spec.frame_height
        if board and (not found or max(f[0] for f in found) < least):
            found = self._options(pane, board, SIDES) or found
        if not found:
            return None
        _, lift, (s, region) = max(found, key=lambda f: f[0])
        return s, region, lift

    def _pane_away(self, cue: Cue, aside: tuple[Stretch, Rect, float]) -> tuple[Stretch, Rect, Point, bool] | None:
        """The whole graph's move where the code pane goes instead of stepping aside, and the
        recap board slides along its row to a side of the free frame (else, where that leaves it
        by nothing it names, goes where it reads as its note: `_board_near`); and that move, and
        whether it goes across the graph. Only for
        the last grow, with the pane beside the graph (its column left of the graph's), where no
        later cue needs the pane and it shows no mark or printed line it would keep aside (a
        takeaway quotes those: missing_gradient's ``None``), where the graph
        grown beside the pane aside (``aside``) stays under ``layout.fill_graph`` of the frame and
        this move is larger; else None. Why: at the takeaway the board's numbers are what the
        caption reads, not the line last run; beside the lit line's pane and the board,
        leaf_nodes 16:9's graph, as tall as the free frame, spread to 47 % of it at most (its
        L against the pane), 50 % with the frame's width to spread in."""
        code, recap = self.code.code, self.ctx.state.titles.recap
        spec = self.ctx.spec
        if (code.pane is None or code.marks or recap is None or not len(recap) or spec.code[2] > spec.graph[0]
                or self.code.keeps_printed()):
            return None
        if not self._last(cue):
            return None
        had = area(extent(self.clip.boxes, aside[0]))
        if had >= self.theme.layout.fill_graph * spec.frame_width * spec.frame_height:
            return None
        b, gap = bounds(recap), self.theme.spacing.item_gap
        left, _, right, _ = self.frame.free_rect()
        options: list[tuple[float, tuple[Stretch, Rect], Point]] = []
        for dx in (left + gap - b[0], right - gap - b[2]):
            moved = (b[0] + dx, b[1], b[2] + dx, b[3])
            way = (min(b[0], moved[0]), b[1], max(b[2], moved[2]), b[3])
            if any(meets(way, c.bounds) for c in self.clip.boxes.values()):
                continue  # its slide, before the graph moves, keeps off the cards at home
            v = self._view([], self.frame.frame_marks() + [moved], SIDES)
            if v is not None:
                options.append((area(extent(self.clip.boxes, v[0])), v, (dx, 0.0)))
        best = max(options, key=lambda o: o[0], default=None)
        slide = (best[1][0], best[1][1], best[2], False) if best is not None and best[0] > had else None
        if slide is not None and self._reads_as_its(slide[0], shifted(b, slide[2]), within_reach):
            return slide
        # out of reach of all it names: to a side where it reads as its note, the graph grown round it
        near = self._board_near(b, had) if (BACK - 0.4) * cue.duration >= BLINK else None
        return near if near is not None else slide

    def _last(self, cue: Cue) -> bool:
        """Whether ``cue`` is the graph's last grow, and no later cue needs the whole pane."""
        return not any(c.start > cue.start and (needs_pane(c) or c.kind.startswith("whole")) for c in self.ctx.plan.cues)

    def _up(self, cue: Cue) -> tuple[float, Rect, Rect] | None:
        """Where no grow is found (a graph as wide as a tall frame), the graph's move up into the
        band the pane frees stepping aside over it, as little as sets the recap board, placed far
        from what it names, by it (`whole_shift.shift_up`): how far, the graph's region, the
        board's spot. Only for the last grow; else None. Where the pane stepped aside already
        (the recap's, to find the board room), the band is the one between it and the graph."""
        recap, spec, t = self.ctx.state.titles.recap, self.ctx.spec, self.theme
        aside, pane = self.code.aside_bounds(), self.frame.pane_bounds()
        stepped = not aside and self.code.code.aside  # aside already: the recap's room for the board
        if (recap is None or not len(recap) or not pane or not (aside or stepped) or spec.code[1] < spec.graph[3]
                or not self._last(cue) or self._reads_as_its(rise(0.0), bounds(recap), within_reach)):
            return None
        arrows, b = {id(a) for a in self.ctx.state.graph.arrows.values()}, bounds(recap)
        free, gap = self.frame.free_rect(), t.spacing.item_gap

        def shapes(dy: float) -> list[Rect]:
            return [moved_path(m, mv) if id(m) in arrows else moved_rect(m, mv)
                    for m, mv in mappers(self.ctx, self.clip, rise(dy)) if opacity(m) > 0] + [
                shifted(r, (0.0, dy)) for r in self.frame.frame_marks()]
        if stepped:  # the band it freed is between it and what stands under it
            aside = pane
            most = min(r[1] for r in pane) - gap - max(r[3] for r in shapes(0.0))
        else:
            most = min(r[1] for r in aside) - min(r[1] for r in pane)
        if most <= 0:
            return None
        room = (free[0], free[1], free[2], min(r[1] for r in aside) - gap)
        rows = [row for row in self.ctx.state.titles.recap_of if any(k in self.clip.boxes for k in row)]
        found = shift_up(room, (b[2] - b[0], b[3] - b[1]), most, shapes,
                         lambda dy: {k: rise(dy).box_bounds(bx) for k, bx in self._shown().boxes.items()},
                         rows, FAR * spec.frame_height, gap)
        return None if found is None else (found[0], shifted(self.clip.region, (0.0, found[0])), found[1])

    def _moved_up(self, step: StepScratch, dy: float, region: Rect, spot: Rect) -> Anims:
        """The pane steps aside (`_up`) in the cue's first 40 %, then the graph, the legend and
        the checklist move up by ``dy``, the graph into ``region``; the recap board comes in at
        ``spot`` as they land (faded from where it stood, if shown). The board takes the room
        freed: no legend comes into the strip under the lit line (`LegendFrame.walk_legend`)."""
        s, titles, b = rise(dy), self.ctx.state.titles, bounds(self.ctx.state.titles.recap)
        out = [during(a, 0.0, 0.4) for a in self.code.step_aside(True, step)]
        out += [Transform(r, r.copy().shift([0.0, dy, 0.0]), rate_func=second_part)
                for r in self.ctx.state.checklist.rows]
        if not titles.recap_waits:  # shown already: it goes, and comes in there
            out, titles.recap_waits = out + [during(FadeOut(titles.recap), 0.0, 0.4)], True
        out += self._board_in((spot[0] - b[0], spot[1] - b[1])) + self._lift(dy, second_part)
        self.ctx.state.camera.whole, self.ctx.state.graph.legend_away = (s, region, dy), True
        return out + self._move(self.clip, s, stretched(self.clip, s, region), second_part)

    def _reads_as_its(self, s: Stretch, board: Rect,
                      test: Callable[[Rect, dict[str, Rect], list[list[str]], float], bool] = reads_as_its) -> bool:
        """Whether the recap board at ``board`` reads as the note of what one of its rows names
        once the graph has grown by ``s`` (``test``: `whole_board.reads_as_its`, within ``FAR``
        of the frame's height, else as `whole_board.within_reach` has it); True where the rows
        name nothing drawn (nothing to stand by)."""
        rows = [row for row in self.ctx.state.titles.recap_of if any(k in self.clip.boxes for k in row)]
        if not rows:
            return True
        boxes = {k: s.box_bounds(bx) for k, bx in self._shown().boxes.items()}
        return test(board, boxes, rows, FAR * self.ctx.spec.frame_height)

    def _board_near(self, b: Rect, had: float) -> tuple[Stretch, Rect, Point, bool] | None:
        """The largest whole graph's move (over ``had``) with the recap board, now at ``b``, at a
        spot along a side of the free frame (`side_spots`) where it reads as the note of what it
        names (`_reads_as_its`), the graph grown round it, and the board's move there; None
        where no spot does. The board goes across the graph: it fades and fades in there
        (`_without_pane`), only where the cue is long enough for it to be gone a blink's length
        (``BLINK``) between (a shorter absence reads as a flicker)."""
        t, spec = self.theme, self.ctx.spec
        safe, free = t.safe_rect(spec), self.frame.free_rect()
        room = (max(free[0], safe[0]), max(free[1], safe[1]), min(free[2], safe[2]), min(free[3], safe[3]))
        marks = self.frame.frame_marks()
        found: list[tuple[float, tuple[Stretch, Rect], Rect]] = []
        for spot in side_spots(room, (b[2] - b[0], b[3] - b[1])):
            if not clear_of_marks(spot, marks, t.spacing.item_gap / 2):
                continue
            v = self._view([], marks + [spot], SIDES)
            if v is None:
                continue
            size = area(extent(self.clip.boxes, v[0]))
            if size > had and self._reads_as_its(v[0], spot):
                found.append((size, v, spot))
        if not found:
            return None
        _, (s, region), spot = max(found, key=lambda f: f[0])
        return s, region, (spot[0] - b[0], spot[1] - b[1]), True

    def _without_pane(self, s: Stretch, region: Rect, d: Point, across: bool) -> Anims:
        """The code pane (and its printed lines, where on screen) fades and the recap board slides
        by ``d`` in the cue's first 40 %, then the graph grows by ``s`` into ``region``
        (`_pane_away`): the board is at its place before a card comes near it. ``across``: the
        board goes across the graph to what it names (`_board_near`): it fades with the pane and
        fades in by ``d`` as the graph lands (from ``BACK`` of the cue)."""
        code, lines, recap = self.code.code, self.ctx.state.console.lines, self.ctx.state.titles.recap
        out: Anims = []
        if code.pane is not None:
            out.append(during(FadeOut(code.pane), 0.0, 0.4))
        if lines is not None and len(lines) and not code.printed_away:
            out.append(during(FadeOut(lines), 0.0, 0.4))
        code.pane, code.printed_away = None, True
        if self.ctx.state.titles.recap_waits:  # not shown yet: it first comes in there
            out += self._board_in(d)
        elif recap is not None and d != (0.0, 0.0) and across:
            there = recap.copy().shift([d[0], d[1], 0.0])
            out += [during(FadeOut(recap), 0.0, 0.4), during(FadeIn(there), BACK, 1.0)]
            self.ctx.state.titles.recap = there
        elif recap is not None and d != (0.0, 0.0):
            out.append(during(Transform(recap, recap.copy().shift([d[0], d[1], 0.0])), 0.0, 0.4))
        self.ctx.state.camera.whole = (s, region, 0.0)
        return out + self._move(self.clip, s, stretched(self.clip, s, region), second_part)

    def _options(self, pane: list[Rect], board: list[Rect], sides: int) -> list[tuple[float, float, tuple[Stretch, Rect]]]:
        """`_best`'s moves (the legend where it is, or lifted), each with its cards' area and the
        legend's lift, kept off the recap board at ``board`` (`clear_view`'s ``sides``)."""
        marks = self.frame.frame_marks() + board
        options = [(0.0, self._view(pane, marks, sides))]
        legend = self.ctx.state.graph.legend
        if legend is not None and len(legend) and pane:
            b, gap = bounds(legend), self.theme.spacing.item_gap
            lift = min(r[1] for r in pane) - gap - b[3]
            if lift > 0:
                moved = (b[0], b[1] + lift, b[2], b[3] + lift)
                options.append((lift, self._view(pane, [m for m in marks if m != b] + [moved], sides)))
        shown = self._shown().boxes
        return [(area(extent(shown, v[0])), lift, v) for lift, v in options if v is not None]

    def _lift(self, dy: float, rate: Callable[[float], float]) -> Anims:
        """The legend moved up by ``dy`` (down, where negative), at ``rate``."""
        legend = self.ctx.state.graph.legend
        if not dy or legend is None or not len(legend):
            return []
        return [Transform(legend, legend.copy().shift([0.0, dy, 0.0]), rate_func=rate)]

    def _view(self, pane: list[Rect], marks: list[Rect], sides: int = 0) -> tuple[Stretch, Rect] | None:
        """The whole graph's move and region with the code pane at ``pane`` and the legend and
        checklist at ``marks`` (`_view_apart`): what reaches past the cards a word space off
        them and the caption's box (two tags side by side keep as much: L's ``** 2`` touched the
        printed line at 9:16), else touching at most, where a graph at home already reaches
        that near the caption (16:9's AccumulateGrad)."""
        word = self.theme.proportions.tag_apart * tag_height(self.theme, self.clip.scale)
        return self._view_apart(pane, marks, word, sides) or self._view_apart(pane, marks, 0.0, sides)

    def _view_apart(self, pane: list[Rect], marks: list[Rect], gap: float,
                    sides: int = 0) -> tuple[Stretch, Rect] | None:
        """The whole graph's move and region (`clear_view`): inside the safe frame above the
        caption, clear of ``pane`` and ``marks``; what reaches past its card inside the frame's
        sides and ``gap`` off them and the caption's box."""
        t = self.theme
        safe, free = t.safe_rect(self.ctx.spec), self.frame.free_rect()
        room = (max(free[0], safe[0]), max(free[1], safe[1]), min(free[2], safe[2]), min(free[3], safe[3]))
        inner, keep = room, pane + marks
        # a bucket's name under it may reach into the margin over the caption's box, not to the box
        bounds_of = (room[0], self.ctx.spec.caption[3] + gap, room[2], room[3])
        part = self._shown()
        seen = self.seen.setdefault(frozenset(part.boxes), {})
        for _ in range(8):  # what reaches past its card (a bucket's name, a walk's note) keeps inside
            # the frame's side too, and off the pane, the legend and a board
            found = clear_view(part, inner, keep, tag_reach(t, self.clip.scale),
                               t.layout.whole_zoom, t.layout.whole_stretch, seen, sides)
            if found is None:
                return None
            # the box of every shape of the graph once moved (a bucket's name, a walk's note reach
            # past their cards' boxes); its moves, worked out once for every rectangle it keeps off
            # (those on screen: a freed graph's cards, gone, may be moved off the frame)
            moves = [(m, move) for m, move in mappers(self.ctx, self.clip, found[0]) if opacity(m) > 0]
            arrows = {id(a) for a in self.ctx.state.graph.arrows.values()}
            shapes = [moved_path(m, move) if id(m) in arrows else moved_rect(m, move) for m, move in moves]
            # and the ring a card gets where a caption lights it, or at a visit (backward_graph 9:16's
            # skipped y, ringed by the takeaway at the frame's side, reached 3 px into the margin at 1080p)
            boxed = {id(m) for m in [*self.ctx.state.graph.cards.values(), *self.ctx.state.graph.buckets.values()]}
            ring = ring_reach(t, self.clip.scale * found[0].k)
            ringed = [(b[0] - ring, b[1] - ring, b[2] + ring, b[3] + ring)
                      for (m, _), b in zip(moves, shapes) if id(m) in boxed]
            r = (min(b[0] for b in shapes + ringed), min(b[1] for b in shapes + ringed),
                 max(b[2] for b in shapes + ringed), max(b[3] for b in shapes + ringed))
            # past any side: AccumulateGrad under the lowest bucket ran into the caption's box,
            # L's ``** 2`` over the top card against the printed line (9:16, review 6 item 6)
            over = (max(0.0, bounds_of[0] - r[0]), max(0.0, bounds_of[1] - r[1]), max(0.0, r[2] - bounds_of[2]),
                    max(0.0, r[3] - bounds_of[3]))
            # (against what is there, not the ``keep`` widened so far; an arrow's box is loose: its cards keep off)
            hit = [(i, b) for i, k in enumerate(pane + marks) for (m, _), b in zip(moves, shapes)
                   if id(m) not in arrows and meets(b, grown(k, gap))]
            if max(over) <= 1e-3 and not hit:
                return found
            inner = (inner[0] + over[0], inner[1] + over[1], inner[2] - over[2], inner[3] - over[3])
            keep = list(keep)
            for i, b in hit:  # the cards keep as much further off it as the shape reached into it
                keep[i] = widened(keep[i], b, gap, against=(pane + marks)[i])
        return None

    def _shown(self) -> Layout:
        """The clip's layout with only the cards and buckets on screen now (`drawn_part`): the
        view is framed on them, as the walk's way out is (`scenes.draw.camera.WalkCamera`). The
        clip's layout places every card the clip will draw; framed on a freed graph gone from
        the screen too, a later graph grew taller only, its cards no larger."""
        g = self.ctx.state.graph

        def shows(key: str) -> bool:
            m = g.buckets.get(key[len("bucket:"):]) if key.startswith("bucket:") else g.cards.get(key)
            return m is not None and opacity(m) > 0

        keys = [k for k in self.clip.boxes if shows(k)]
        return drawn_part(self.clip, keys) if keys else self.clip

    def _move(self, lay: Layout, s: Stretch, to: Layout, rate: Callable[[float], float]) -> Anims:
        """Every shape of the graph moved by ``s`` from where ``lay`` has it (`mappers`), at
        ``rate``; then the layout the cues read is ``to``, its arrows filed under its routes."""
        out: Anims = []
        for m, move in mappers(self.ctx, lay, s):
            target = m.copy()
            warp(target, move)
            head_kept(target, m, s.k)
            out.append(Transform(m, target, rate_func=rate))
        g = self.ctx.state.graph
        to_routes = dict(zip(lay.routes, to.routes))
        g.arrows = {to_routes.get(r, r): a for r, a in g.arrows.items()}
        self.ctx.layout = to
        return out
