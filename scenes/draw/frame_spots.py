"""Where the clip's fixed extras go: the free frame, what to keep off.

Why a view of its own: the legend and the checklist both take a corner of the frame that no
card, arrow, code or printout reaches, and a visit's note keeps off the code pane too; this view
says where that is, from the layout, the plan and the code pane, so ``scenes.draw.scene`` stays
one idea (mapping cues to drawers). It draws no cue kind; it reads the code pane's, the
console's, the graph's and the checklist's records; the legend's view (`scenes.draw.legend_spots`)
places the graph's legend with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from manim import Mobject

from scenes.draw.context import View
from scenes.draw.state import CodeView, ConsoleView, GraphView
from scenes.draw.visuals.bucket import STROKE_UNIT
from scenes.layout.label_spots import first_clear
from scenes.layout.note_spots import note_centre
from scenes.layout.place import Box
from scenes.layout.clip import printed_lines, printed_texts
from scenes.theme import Rect

SWEEP = 8
"""At how many points of its way a checklist's move is looked at (`FreeFrame.list_sweep`)."""
NOBODY = Box("corner", "corner", 0.0, 0.0, 0.0, 0.0)
"""The box a legend's search (`first_clear`) belongs to: no card, so every card is kept off."""


def bounds(mob: Mobject) -> Rect:
    """The rectangle (left, bottom, right, top) a shape covers, as label_spots takes them: Manim's
    lower-left and upper-right corners (the least and most of the points defining its boundary;
    (0, 0) for a shape without points), from one gathering of those points instead of one per
    corner (the walk's camera asks for every shape of the graph at each step)."""
    points = mob.get_points_defining_boundary()
    if len(points) == 0:
        return (0.0, 0.0, 0.0, 0.0)
    xs, ys = points[:, 0], points[:, 1]
    return (float(np.min(xs)), float(np.min(ys)), float(np.max(xs)), float(np.max(ys)))


def ink_bounds(mob: Mobject) -> Rect:
    """`bounds` grown by half the widest stroke of ``mob``'s family: where its ink reaches (a
    ring's outline is drawn on its points, half its width outside them)."""
    left, bottom, right, top = bounds(mob)
    half = max((m.get_stroke_width() for m in mob.get_family() if m.has_points()), default=0.0) * STROKE_UNIT / 2
    return (left - half, bottom - half, right + half, top + half)


class FreeFrame(View):
    """Where the frame is free (``free_rect``, ``to_free_corner``), and what a note keeps off
    (``pane_bounds``, ``console_reach``, ``frame_marks``); the legend's view builds on it
    (`scenes.draw.legend_spots.LegendFrame`)."""

    @property
    def graph(self) -> GraphView:
        return self.ctx.state.graph

    @property
    def code(self) -> CodeView:
        return self.ctx.state.code

    @property
    def console(self) -> ConsoleView:
        return self.ctx.state.console

    def free_rect(self) -> Rect:
        """The frame inside its margin, above the caption bar: where a note may go (clear of
        the code pane, see ``pane_bounds``)."""
        left, _, right, top = self.ctx.frame_rect()
        spec = self.ctx.spec
        return (left, spec.caption[3] + spec.margin, right, top)

    def pane_bounds(self) -> list[Rect]:
        """The code pane's backdrop and the printed lines under it, as rectangles to keep off."""
        pane, printed = self.code.pane, self.console.lines
        out = [bounds(pane.bg)] if pane is not None and len(pane.bg.get_family()) and pane.bg.width > 0 else []
        if printed is not None and len(printed.get_family()) and printed.width > 0 and not self.code.printed_away:
            # where they hang once the pane's move is over (under its lit line where it stands aside)
            dy = self.code.printed_shift(printed, self.theme.sizes.code_pad) if pane is not None else 0.0
            b = bounds(printed)
            out.append((b[0], b[1] + dy, b[2], b[3] + dy))
        return out

    def frame_marks(self, settled: bool = False) -> list[Rect]:
        """The legend and the checklist, as rectangles a note keeps off; ``settled``: the checklist
        where its move with the walk's legend lands (`_list_aside`), which the step it starts in
        plays only at its end (the camera's moves to come, `WalkCamera.stays`)."""
        out = [bounds(m) for m in [self.graph.legend] if m is not None and len(m.get_family()) and m.width > 0]
        way = self._list_on_way(1)
        return out + (way[-1] if settled else way[0])

    def list_sweep(self, steps: int = SWEEP) -> list[Rect]:
        """Where the checklist's rows pass on their move with the walk's legend, where one is under
        way (`_list_aside`: played at the end of the step it starts in): their rectangles at
        ``steps`` even points of the way, the landing too. A note written in that step keeps off
        them (missing_gradient 9:16: pow's rule above L1 lay on the way of "3. which loss?")."""
        return [r for rows in self._list_on_way(steps)[1:] for r in rows]

    def _list_on_way(self, steps: int) -> list[list[Rect]]:
        """The checklist's rows where they stand now, then at ``steps`` even points of the way to
        where their move lands (`ChecklistView.lands`); only the first where they stay."""
        st = self.ctx.state.checklist
        rows = [bounds(m) for m in st.rows if len(m.get_family()) and m.width > 0]
        d = (0.0, 0.0)
        if rows and st.lands is not None:
            mid = ((min(b[0] for b in rows) + max(b[2] for b in rows)) / 2,
                   (min(b[1] for b in rows) + max(b[3] for b in rows)) / 2)
            d = (st.lands[0] - mid[0], st.lands[1] - mid[1])
        if abs(d[0]) + abs(d[1]) < 1e-6:
            return [rows]
        return [[(b[0] + d[0] * k / steps, b[1] + d[1] * k / steps, b[2] + d[0] * k / steps, b[3] + d[1] * k / steps)
                 for b in rows] for k in range(steps + 1)]

    def console_reach(self) -> list[Rect]:
        """Where the clip's printed lines will go under the code pane: a code line's height per
        row they take, each line wrapped at the pane's width (its characters at the code's
        advance, or the least readable size's), down to the caption at most."""
        n, spec = printed_lines(self.ctx.plan), self.ctx.spec
        if not n or self.code.pane is None:
            return [spec.code] if n else []
        pane, t_ = self.code.pane, self.theme
        left, _, right, _ = spec.code
        adv = pane.adv * max(1.0, t_.font_sizes.min_readable / pane.font_size)
        per_row = max(1, int((right - left - 2 * t_.sizes.code_pad) / adv))
        rows = sum(max(1, math.ceil(len(text) / per_row)) for text in printed_texts(self.ctx.plan))
        top = self.code.foot if self.code.foot is not None else pane.bg.get_bottom()[1]
        floor = spec.caption[3] + spec.margin
        return [(left, max(floor, top - max(rows, n) * pane.row_height - t_.sizes.code_pad), right, top)]

    def legend_goes_aside(self) -> bool:
        """Whether the legend comes into the strip the code pane frees when it steps aside for the
        walk (`walk_legend`): in a tall frame, whose pane stands over the graph."""
        spec = self.ctx.spec
        return spec.code[1] >= spec.graph[3] and spec.frame_width < spec.frame_height

    def list_column(self) -> bool:
        """Whether the frame keeps a column at the graph's left for the checklist (``checklist:
        aside``, a square frame: `scenes.layout.clip.checklist_room`) and one is shown: the list
        stands in it under the level of the visited cards, whose notes take the rest of it."""
        return self.ctx.spec.checklist == "aside" and bool(self.ctx.state.checklist.rows)

    def to_free_corner(self, mob: Mobject, only_free: bool = False, avoid: Sequence[Rect] = ()) -> bool:
        """Move ``mob`` to the first corner of the free frame that no card, arrow, op name, code,
        printout, legend or rectangle of ``avoid`` reaches; True if there was one (else, unless
        ``only_free``, the corner least in the way: the first)."""
        left, bottom, right, top = self.free_rect()
        keep_off = (self.pane_bounds() + self.console_reach() + [bounds(m) for m in self.graph.tags.values()]
                    + list(avoid))
        gap = self.theme.spacing.item_gap
        w2, h2 = mob.width / 2 + gap, mob.height / 2 + gap
        spots = [(left + w2, bottom + h2), (right - w2, bottom + h2), (right - w2, top - h2), (left + w2, top - h2)]
        if self.graph.legend is not None and len(self.graph.legend):  # or just under the legend, or over it
            x0, y0, x1, y1 = bounds(self.graph.legend)
            keep_off.append((x0, y0, x1, y1))
            spots += [(x0 + mob.width / 2, y0 - gap - mob.height / 2), (x1 - mob.width / 2, y0 - gap - mob.height / 2),
                      (x0 + mob.width / 2, y1 + gap + mob.height / 2)]
        found = first_clear(self.ctx.layout, NOBODY, (mob.width + gap, mob.height + gap), spots, gap, keep_off,
                            within=(left - gap / 2, bottom - gap / 2, right + gap / 2, top + gap / 2))
        if found is None and only_free:
            return False
        mob.move_to([*spots[found or 0], 0])
        return found is not None

    def to_free_spot(self, block: Mobject, shown: Sequence[Rect]) -> None:
        """Where no corner is free (a tall or square frame): ``block`` goes to the spot nearest the
        frame's bottom left that no card, bucket, arrow, code, printout or rectangle of ``shown``
        (what the scene shows now) reaches, else to the one that covers least of the cards."""
        left, bottom, right, top = self.free_rect()
        gap = self.theme.spacing.item_gap
        corner = Box("corner", "corner", left, bottom, 0.0, 0.0)
        keep_off = (self.pane_bounds() + self.console_reach() + list(shown)
                    + [bounds(m) for m in self.graph.tags.values()])
        size = (block.width + gap, block.height + gap)
        x, y = note_centre(self.ctx.layout, corner, size, gap=gap, clear=gap / 2,
                           beside=0.0, within=(left, bottom, right, top), avoid=keep_off)
        block.move_to([x, y, 0])

