"""Where the clip's fixed extras go: the free frame, what to keep off, the colour legend.

Why a mixin: the legend and the checklist both take a corner of the frame that no card, arrow,
code or printout reaches, and a visit's note keeps off the code pane too; these helpers say
where that is, from the layout, the plan and the code pane, so ``scenes.draw.scene`` stays
one idea (mapping cues to drawers). Mixed into ``ClipScene``.
"""

from __future__ import annotations

import math
from typing import Any

from manim import FadeIn, Mobject, VGroup

from scenes.draw.state import CodeView, ConsoleView, GraphView
from scenes.draw.visuals import legend
from scenes.layout.label_spots import first_clear
from scenes.layout.place import Box, Layout
from scenes.layout.clip import printed_lines, printed_texts
from scenes.theme import Rect

Anims = list[Any]


class FrameSpots:
    """Free-frame helpers and the legend (mixed into ClipScene)."""

    theme: Any
    spec: Any
    plan: Any
    lay: Layout
    has_code: bool
    graph: GraphView
    code: CodeView
    console: ConsoleView

    @staticmethod
    def _bounds(mob: Mobject) -> Rect:
        """The rectangle (left, bottom, right, top) a shape covers, as label_spots takes them."""
        (x0, y0, _), (x1, y1, _) = mob.get_corner([-1, -1, 0]), mob.get_corner([1, 1, 0])
        return (x0, y0, x1, y1)

    def _frame_rect(self) -> Rect:
        """The frame inside its margin: where anything drawn stays."""
        s, m = self.spec, self.spec.margin
        return (-s.frame_width / 2 + m, -s.frame_height / 2 + m, s.frame_width / 2 - m, s.frame_height / 2 - m)

    def _free_rect(self) -> Rect:
        """The frame inside its margin, above the caption bar: where a note may go (clear of
        the code pane, see ``_pane_bounds``)."""
        left, _, right, top = self._frame_rect()
        return (left, self.spec.caption[3] + self.spec.margin, right, top)

    def _pane_bounds(self) -> list[Rect]:
        """The code pane's backdrop and the printed lines under it, as rectangles to keep off."""
        printed = None if self.code.aside else self.console.lines  # gone with the pane stepping aside
        mobs = [m for m in (self.code.pane.bg if self.code.pane is not None else None, printed) if m is not None]
        return [self._bounds(m) for m in mobs if len(m.get_family()) and m.width > 0]

    def _frame_marks(self) -> list[Rect]:
        """The legend and the checklist, as rectangles a note keeps off."""
        rows = list(self.state.checklist.rows)  # type: ignore[attr-defined]
        mobs = [m for m in [self.graph.legend, *rows] if m is not None and len(m.get_family()) and m.width > 0]
        return [self._bounds(m) for m in mobs]

    def _console_reach(self) -> list[Rect]:
        """Where the clip's printed lines will go under the code pane: a code line's height per
        row they take, each line wrapped at the pane's width (its characters at the code's
        advance, or the least readable size's), down to the caption at most."""
        n = printed_lines(self.plan)
        if not n or self.code.pane is None:
            return [self.spec.code] if n else []
        pane, t_ = self.code.pane, self.theme
        left, _, right, _ = self.spec.code
        adv = pane.adv * max(1.0, t_.font_sizes.min_readable / pane.font_size)
        per_row = max(1, int((right - left - 2 * t_.sizes.code_pad) / adv))
        rows = sum(max(1, math.ceil(len(text) / per_row)) for text in printed_texts(self.plan))
        top = self.code.foot if self.code.foot is not None else pane.bg.get_bottom()[1]
        floor = self.spec.caption[3] + self.spec.margin
        return [(left, max(floor, top - max(rows, n) * pane.row_height - t_.sizes.code_pad), right, top)]

    def _legend_in(self) -> Anims:
        """With the graph's first card, the legend of its colours, in the first corner of the
        free frame that no card, arrow, code or printout can reach (a column, else a row); none
        if no corner is free."""
        if self.graph.legend is not None or not self.lay.boxes:
            return []
        c, w = self.theme.colors, self.theme.labels
        kinds = {b.kind for b in self.lay.boxes.values()}
        entries = [(col, words) for kind, col, words in (
            ("leaf_grad", c.leaf_grad, w.legend_weight), ("leaf_nograd", c.leaf_nograd, w.legend_input),
            ("op", c.op, w.legend_result), ("loss", c.loss, w.legend_loss)) if kind in kinds]
        if any(k.kind in ("visit", "grad_fn_appear", "bucket_fill") for k in self.plan.cues):
            entries.append((c.grad, w.legend_grad))
        for across in (False, True):
            m = legend(entries, self.theme, across=across)
            if self._to_free_corner(m, only_free=True):
                self.graph.legend = m
                return [FadeIn(m)]
        self.graph.legend = VGroup()  # no room: the colours alone
        return []

    def _to_free_corner(self, mob: Mobject, only_free: bool = False) -> bool:
        """Move ``mob`` to the first corner of the free frame that no card, arrow, op name, code,
        printout or legend reaches; True if there was one (else, unless ``only_free``, the corner least
        in the way: the first)."""
        left, bottom, right, top = self._free_rect()
        keep_off = self._pane_bounds() + self._console_reach() + [self._bounds(m) for m in self.graph.tags.values()]
        gap = self.theme.spacing.item_gap
        nobody = Box("corner", "corner", 0.0, 0.0, 0.0, 0.0)
        w2, h2 = mob.width / 2 + gap, mob.height / 2 + gap
        spots = [(left + w2, bottom + h2), (right - w2, bottom + h2), (right - w2, top - h2), (left + w2, top - h2)]
        if self.graph.legend is not None and len(self.graph.legend):  # or just under the legend, or over it
            x0, y0, x1, y1 = self._bounds(self.graph.legend)
            keep_off.append((x0, y0, x1, y1))
            spots += [(x0 + mob.width / 2, y0 - gap - mob.height / 2), (x1 - mob.width / 2, y0 - gap - mob.height / 2),
                      (x0 + mob.width / 2, y1 + gap + mob.height / 2)]
        found = first_clear(self.lay, nobody, (mob.width + gap, mob.height + gap), spots, gap, keep_off,
                            within=(left - gap / 2, bottom - gap / 2, right + gap / 2, top + gap / 2))
        if found is None and only_free:
            return False
        mob.move_to([*spots[found or 0], 0])
        return found is not None

