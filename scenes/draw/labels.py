"""Labels and tokens by the graph's cards: where an op name (a tag) goes beside a card, where
tokens wait at a card, and a gradient token, kept inside the frame.

Why a view of its own: the graph's cards, the backward walk, its buckets and the training step
all put small things by a card, and each must keep off what the others placed there; one place
says where. It owns no record: it reads the graph's (tags placed so far) and asks the focus for
the layout at home and the free frame for the code pane's rectangle.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import Mobject, VGroup

from scenes.draw.context import DrawContext, View
from scenes.draw.focus import CameraFocus
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.visuals import arrow_length, arrow_reach, card_tag, grad_token, nominal_token_size, token_rests
from scenes.layout.detour import clear_of
from scenes.layout.label_spots import badge_centre, rect_around, tag_centre
from scenes.layout.place import Box, Layout
from scenes.layout.tag_room import badge_gap, op_tag_gap, ring_reach, tag_gap
from scenes.theme import Rect

# Drawing order (Cairo sorts by z_index): code pane backdrop and the running-line bar (Z_PANE,
# Z_BAR, in code.py), then the wavefront glow (Z_GLOW, in backward.py), then edges and cards,
# then tokens, then a visit's products (a copy rides off from under its product), then captions
# and titles (Z_CAPTION, in titles.py).
Z_TOKEN = 1
Z_PRODUCT = 1.1  # a visit's product, over the tokens: its copy comes out from under it as it sets off


class CardLabels(View):
    """Makes tokens (``token``) and tags (``tag``), keeps a shape inside the frame
    (``keep_inside``), and says where tokens wait at a box (``token_rests``, ``all_rests``)."""

    def __init__(self, ctx: DrawContext, focus: CameraFocus, frame: FreeFrame) -> None:
        super().__init__(ctx)
        self.focus, self.frame = focus, frame
        self._rests: dict[str, list[Rect]] = {}  # per box, where tokens wait: derived from the layout
        self._rests_of: Layout | None = None  # the layout they were read from (a focus's zoom makes another)

    def token(self, text: str) -> VGroup:
        """A gradient token showing ``text``, not yet placed."""
        lay = self.ctx.layout
        return grad_token(text, self.theme, scale=lay.scale, zoom=lay.zoom).set_z_index(Z_TOKEN)

    def keep_inside(self, mob: Mobject) -> Mobject:
        """Shift a mobject back inside the frame's margin (a token at a card on the edge)."""
        lo_x, lo_y, hi_x, hi_y = self.ctx.frame_rect()
        dx = max(0.0, lo_x - mob.get_left()[0]) - max(0.0, mob.get_right()[0] - hi_x)
        dy = max(0.0, lo_y - mob.get_bottom()[1]) - max(0.0, mob.get_top()[1] - hi_y)
        return mob.shift([dx, dy, 0])

    def tag(self, text: str, box: Box, above: bool = True, avoid: Sequence[Rect] = (), beside: bool = False,
            or_none: list[Rect] | None = None) -> VGroup | None:
        """A small muted label just outside ``box`` (an op name, AccumulateGrad, a bucket's name),
        inside the frame, clear of where tokens wait at the box, of the tags already placed (a
        word space apart), of the code pane and of ``avoid``; ``beside``: level with the box where
        it fits (`tag_centre`). Given ``or_none`` (what is on screen), None when no spot by the box
        is clear of that too: a tag moved off its box reads as another card's, and one left on
        another label hides it."""
        t, lay, graph = self.theme, self.ctx.layout, self.ctx.state.graph
        m = self.focus.drawn_at_home(lambda home: card_tag(text, home.boxes.get(box.id, box), t, scale=home.scale))
        m.move_to([0.0, 0.0, 0.0])
        # more than a word space between two tags on one line: a word apart, two tags read as
        # one phrase ("AccumulateGrad mul" at 9:16, review 2), so a tag's height more
        apart = m.height * (1 + t.proportions.tag_apart)
        placed = [(x0 - apart, y0, x1 + apart, y1) for x0, y0, x1, y1 in
                  (bounds(tag) for tag in [*graph.tags.values(), *graph.bucket_tags])]
        # and off the ring every other box the walk visits gets then, but not a ring at its own card's place
        # (another pass's result drawn in the same card)
        rings = self.rings(but=box, visited=True)
        keep_off = self.token_rests(box) + placed + self.frame.pane_bounds() + list(avoid) + rings
        # the tag and the card are made at home and drawn ``zoom`` times larger: so is their gap
        # off the card's border, and off the ring a box the walk visits gets then (a box never visited keeps
        # the tag's usual gap, and its place)
        gap = lay.zoom * (op_tag_gap if box.id in self.visited() else tag_gap)(t, lay.scale / lay.zoom)
        x, y = tag_centre(lay, box, (m.width, m.height), above=above, gap=gap,
                          clear=arrow_reach(t, lay.scale, lay.zoom), step=t.proportions.tag_slide_step,
                          avoid=keep_off, beside=beside, within=self.ctx.frame_rect())
        self.keep_inside(m.move_to([x, y, 0]))
        if or_none is not None and not clear_of(tuple(m.get_center()[:2]), (m.width, m.height), keep_off + or_none):
            return None
        return m

    def visited(self) -> set[str]:
        """The boxes the walk rings at a visit: a node's card, an AccumulateGrad's bucket (as
        `BackwardWalk.draw_visit` finds them)."""
        return {f"bucket:{self.ctx.item(c.ids[0])}" if c.text("grad_fn") == "AccumulateGrad" else self.ctx.item(c.ids[0])
                for c in self.ctx.plan.cues if c.kind == "visit" and c.ids}

    def badge_spot(self, box: Box, tok: Mobject, avoid: Sequence[Rect], low: bool = False,
                   top: bool = False) -> tuple[float, float]:
        """Where ``tok`` waits beside ``box`` (`badge_centre`, placed by a token's nominal size), off
        the arrows, their heads and ``avoid``, and off the ring the box gets at its visit (`badge_gap`)
        and every other box's (`rings`): a badge touching another card was under its ring at its visit.
        ``low``, ``top``: the spots tried first (`badge_spots`)."""
        t, lay = self.theme, self.ctx.layout
        k, z = lay.scale, lay.zoom
        rings = self.rings(but=box)
        return badge_centre(lay, box, (tok.width, tok.height), nominal=nominal_token_size(t, scale=k, zoom=z),
                            gap=badge_gap(t, k), clear=arrow_reach(t, k, z), head=arrow_length(t, k, z),
                            avoid=[*avoid, *rings], low=low, top=top)

    def ring(self, box: Box) -> Rect:
        """Where the walk's ring round ``box`` stands at its visit (`ring_reach`)."""
        b = self.ctx.layout.boxes.get(box.id, box)
        return rect_around(b.x, b.y, (b.w, b.h), ring_reach(self.theme, self.ctx.layout.scale))

    def unseen_rings(self, shown: set[str]) -> list[Rect]:
        """`ring` of every internal node's box (a grad_fn with no tensor) whose card is not among
        ``shown``: the forward pass may draw none for it (micrograd's ``f**-1``), and nothing on
        screen keeps a token off its box, yet the walk visits it and rings it."""
        return [self.ring(b) for b in self.ctx.layout.boxes.values() if b.kind == "internal" and b.id not in shown]

    def rings(self, but: Box | None = None, visited: bool = False) -> list[Rect]:
        """`ring` of every box: where a badge that waits does not stand (a walk's later visit rings it).
        ``but``: not that box's own; ``visited``: only the boxes the walk visits (`visited`), and none
        standing at ``but``'s place."""
        seen = self.visited() if visited else None
        return [self.ring(b) for b in self.ctx.layout.boxes.values()
                if (but is None or b.id != but.id)
                and (seen is None or (b.id in seen and (but is None or (b.x, b.y) != (but.x, but.y))))]

    def op_tag(self, text: str, box: Box, beside: bool = False) -> VGroup:
        """An op name by ``box`` (``tag``, which always finds a place unless asked ``or_none``)."""
        tag = self.tag(text, box, beside=beside)
        assert tag is not None
        return tag

    def token_rests(self, box: Box) -> list[Rect]:
        """`token_rests` of ``box``, once per box. The same in every clip of a graph, whether
        tokens ride in it or not, so a tag never moves between clips."""
        lay = self.ctx.layout
        if self._rests_of is not lay:
            self._rests, self._rests_of = {}, lay
        if box.id not in self._rests:
            nominal = nominal_token_size(self.theme, scale=lay.scale, zoom=lay.zoom)
            self._rests[box.id] = token_rests(lay, box.id, nominal, self.theme)
        return self._rests[box.id]

    def all_rests(self) -> list[Rect]:
        """``token_rests`` of every box: where a token may wait later in the walk, which a note
        written now keeps off, so a badge arriving at the next node does not cover it."""
        return [r for box in self.ctx.layout.boxes.values() for r in self.token_rests(box)]
