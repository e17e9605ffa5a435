"""Where the colour legend may stand: the spots `LegendFrame` tries for it, in order.

Why a module of its own: which spots a frame leaves the legend (a corner off the checklist's, a
corner of the graph's region the first graph leaves, beside the graph's top under the pane, between
two rows of cards) is a question of the frame's room alone, asked as the legend comes and again as
it goes back; how the legend comes, moves with the pane and gives way is `LegendFrame`'s.
"""

from __future__ import annotations

from dataclasses import replace

from manim import Mobject

from scenes.draw.frame_spots import NOBODY, FreeFrame, bounds
from scenes.draw.visuals.checklist import unticked_list
from scenes.layout.boxes import Layout
from scenes.layout.label_spots import first_clear
from scenes.layout.tag_room import tag_reach
from scenes.theme import Rect


class LegendRoom(FreeFrame):
    """`FreeFrame` with the legend's spots: each moves the legend it is given there and says
    whether it found one clear."""

    def corner_by_list(self, mob: Mobject) -> bool:
        """`to_free_corner` for the legend ``mob`` (True if found), off the corner the clip's
        checklist will take (its first ``check`` cue's items, placed as the list's view places
        them, the op names over the cards, `tag_reach`, drawn by then kept off), or just under or
        over the list: the list has the corner it has without a legend (missing_gradient 16:9:
        under a legend in its corner, it held the walk's close views to 39 % of the frame)."""
        block, names = self.list_to_come()
        if block is None:
            return self.to_free_corner(mob, only_free=True)
        if not self.to_free_corner(block, only_free=True, avoid=names):
            return self.to_free_corner(mob, only_free=True)
        was, self.graph.legend = self.graph.legend, block  # as the list does beside the legend
        try:
            return self.to_free_corner(mob, only_free=True)
        finally:
            self.graph.legend = was

    def list_to_come(self) -> tuple[Mobject | None, list[Rect]]:
        """The clip's checklist as it comes (its first ``check`` cue's items, none ticked; None
        where none comes), and the op names over the cards (`tag_reach`), drawn by then."""
        cue = next((c for c in self.ctx.plan.cues if c.kind == "check"), None)
        block = unticked_list([s.text for s in cue.strings if s.role == "item"] if cue is not None else [], self.theme)
        reach = tag_reach(self.theme, self.ctx.layout.scale)
        return block, [(b[0], b[3], b[2], b[3] + reach) for b in (box.bounds for box in self.ctx.layout.boxes.values())]

    def list_fits(self, mob: Mobject) -> bool:
        """Whether the clip's checklist to come (`list_to_come`) finds a corner, or the spot
        under or over the legend at ``mob`` (`to_free_corner`, as the list's view places it),
        clear of the op names too; yes where none comes. Why: the list, which the captions read
        item by item, goes before the legend (missing_gradient 9:16: where it found no such
        place, it went among the arrows between z, L2 and x)."""
        block, names = self.list_to_come()
        if block is None:
            return True
        was, self.graph.legend = self.graph.legend, mob
        try:
            return self.to_free_corner(block, only_free=True, avoid=names)
        finally:
            self.graph.legend = was

    def graph_corner(self, mob: Mobject, lay: Layout | None) -> bool:
        """Move ``mob`` to the first corner of the graph's region (top left, top right, bottom
        left, bottom right) that no card or arrow of ``lay``, op name over its cards (`tag_reach`),
        code or printout reaches; True if one is clear. For a wide frame whose graphs, all laid
        out at once, leave no corner of the frame (dynamic_graph 16:9): ``lay`` holds the cards
        drawn before the walk (`before_the_walk`), and a card drawn later where the legend
        stands takes its place (`LegendFrame.give_way`)."""
        if lay is None:
            return False
        left, bottom, right, top = self.free_rect()
        g0, g1, g2, g3 = self.ctx.spec.graph
        gap = self.theme.spacing.item_gap
        reach = tag_reach(self.theme, lay.scale)
        keep_off = (self.pane_bounds() + self.console_reach() + [bounds(m) for m in self.graph.tags.values()]
                    + [(b[0], b[3], b[2], b[3] + reach) for b in (box.bounds for box in lay.boxes.values())])
        w2, h2 = mob.width / 2 + gap / 2, mob.height / 2 + gap / 2
        spots = [(g0 + w2, g3 - h2), (g2 - w2, g3 - h2), (g0 + w2, g1 + h2), (g2 - w2, g1 + h2)]
        found = first_clear(lay, NOBODY, (mob.width + gap, mob.height + gap), spots, gap, keep_off,
                            within=(left - gap / 2, bottom - gap / 2, right + gap / 2, top + gap / 2))
        if found is None:
            return False
        mob.move_to([*spots[found], 0])
        return True

    def before_the_walk(self) -> Layout | None:
        """The clip's layout with only the cards drawn before the walk starts (the walk's first
        close view, else backward()), their buckets and the arrows between them; None where no
        card is left out. Why: dynamic_graph records a graph per step side by side, and the layout holds
        them all, so no corner is free of them, but the first graph's leaves one under the pane
        until its walk, where the captions read its red (`LegendFrame.legend_in`); the legend there goes with
        the walk's close view (`LegendFrame.give_way`) and comes back only where the whole layout leaves it
        room (`LegendFrame._home_clear`)."""
        cues, lay = self.ctx.plan.cues, self.ctx.layout
        walk = min((c.start for c in cues if c.kind == "backward_start" or (c.kind == "camera" and c.ids)), default=None)
        if walk is None:
            return None
        first: dict[str, float] = {}
        for c in cues:
            for i in c.ids if c.kind == "node_appear" else ():
                first.setdefault(i, c.start)
        drawn = {i for i, t in first.items() if t <= walk}
        drawn |= {f"bucket:{i}" for i in drawn}
        boxes = {k: b for k, b in lay.boxes.items() if k in drawn}
        if len(boxes) == len(lay.boxes):
            return None
        return replace(lay, boxes=boxes, routes=tuple(r for r in lay.routes if r.src in drawn and r.dst in drawn))

    def under_the_pane(self, mob: Mobject, clear: float, lay: Layout | None = None, floor: bool = False) -> bool:
        """Move ``mob`` to the graph region's top corner, right then left, just under the code
        pane and what it will print (`console_reach`), where no card, arrow or op name over a
        card (`tag_reach` over its whole top: drawn or to come, a name slides along it) reaches;
        True if one is clear. Why: in a tall frame the frame's own top corners are the pane's,
        and the graph spans the frame's width at its foot, but a graph narrower at its top (the
        loss alone on its top layer) leaves a corner beside it, where the legend stays while the
        graph is built and read (graph_build 9:16 had it for 0.4 s, as the whole graph grew).
        In a clip with a checklist, only where the list still finds its place (`list_fits`,
        asked by `LegendFrame.legend_in`). ``clear``: how far it keeps off the
        arrows, past its gap: a gap, else half of one at the least size (leaf_nodes 9:16: the
        arrow from yh up to yh - y clipped the corner of that margin, two gaps off its words).
        ``lay``: the cards and arrows kept off (default: the clip's layout, all of them);
        ``floor``: the printout kept off only as far as the console lets it run (`printed_reach`)."""
        lay = self.ctx.layout if lay is None else lay
        left, _, right, _ = self.free_rect()
        under = self.pane_foot(floor)
        w2, h2 = mob.width / 2, mob.height / 2
        return self.clear_spot(mob, [(right - w2, under - h2), (left + w2, under - h2)], clear, lay, floor)

    def between_cards(self, mob: Mobject, clear: float) -> bool:
        """Move ``mob`` into the room between two rows of cards, at its middle height (from the
        lower row's op names, `tag_reach`, to the upper row's foot), at the free frame's left edge,
        right edge, else its middle, where `clear_spot` finds it clear; True if one is. Why: a
        graph whose top spans the frame's width leaves no corner beside it under the pane
        (grad_accumulation 9:16: y over w, each card 4.3 of the frame's 8 units wide), but beside
        the arrows its rows' room holds a narrow legend (`smaller_legends`, its widest entry wrapped)."""
        lay = self.ctx.layout
        left, _, right, _ = self.free_rect()
        reach = tag_reach(self.theme, lay.scale)
        bands: list[tuple[float, float]] = []  # the heights the cards and their op names take, merged
        for lo, hi in sorted((b[1], b[3] + reach) for b in (box.bounds for box in lay.boxes.values())):
            if bands and lo <= bands[-1][1]:
                bands[-1] = (bands[-1][0], max(bands[-1][1], hi))
            else:
                bands.append((lo, hi))
        w2 = mob.width / 2
        spots = [(x, (low[1] + high[0]) / 2) for low, high in zip(bands, bands[1:])
                 for x in (left + w2, right - w2, (left + right) / 2)]
        return self.clear_spot(mob, spots, clear, lay)

    def pane_foot(self, floor: bool = False) -> float:
        """The height a gap under the code pane and what it will print (`printed_reach`)."""
        return min(r[1] for r in self.pane_bounds() + self.printed_reach(floor)) - self.theme.spacing.item_gap

    def printed_reach(self, floor: bool = True) -> list[Rect]:
        """Where the clip's printed lines will go (`console_reach`); with ``floor``, where the
        graph stands under the code, no lower than the graph region's top and an op name's reach
        over it (`tag_reach`): the console's lines scroll rather than run further (`Console._print`,
        and over a legend's top). Why: reckoned at its whole length, missing_gradient 9:16's
        warning reached 70 px under the lines the console shows, over the room its legend has."""
        reach, spec = self.console_reach(), self.ctx.spec
        top = self.ctx.graph_region()[3]
        if not floor or top > spec.code[1]:
            return reach
        least = top + tag_reach(self.theme, self.ctx.layout.scale)
        return [(r[0], max(r[1], least), r[2], r[3]) for r in reach if r[3] > least]

    def clear_spot(self, mob: Mobject, spots: list[tuple[float, float]], clear: float, lay: Layout,
                   floor: bool = False) -> bool:
        """Move ``mob`` to the first of ``spots`` (its centre) inside the free frame under the pane
        (`pane_foot`) where no card, arrow (kept ``clear`` off past its gap) or op name over a
        card of ``lay`` (`tag_reach` over its whole top: drawn or to come, a name slides along
        it), nor the pane or what it prints (`printed_reach`, ``floor``), reaches; True if one is clear."""
        left, bottom, right, _ = self.free_rect()
        gap = self.theme.spacing.item_gap
        under = self.pane_foot(floor)
        reach = tag_reach(self.theme, lay.scale)
        keep_off = (self.pane_bounds() + self.printed_reach(floor) + [bounds(m) for m in self.graph.tags.values()]
                    + [(b[0], b[3], b[2], b[3] + reach) for b in (box.bounds for box in lay.boxes.values())])
        edge = gap / 2 + 1e-6  # the legend's own edge on the frame's safe one: its gap lies past it
        found = first_clear(lay, NOBODY, (mob.width + gap, mob.height + gap), spots, clear, keep_off,
                            within=(left - edge, bottom - edge, right + edge, under + edge))
        if found is None:
            return False
        mob.move_to([*spots[found], 0])
        return True
