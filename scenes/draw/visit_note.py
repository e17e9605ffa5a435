"""A visit's note: the arithmetic the backward walk writes beside the node it visits.

Its own module because where the note goes (beside its node, clear of the arrows, at the least
readable size where room is short) is one idea apart from the walk's order of visits; the walk
(:mod:`scenes.draw.backward`) asks it for the note and gets the products its edges carry off.
"""

from __future__ import annotations

from collections.abc import Callable

from manim import FadeIn, Mobject, VGroup

from scenes.draw.collisions import BOX_ROUNDING, SHORT_SIDE, glyph_height
from scenes.draw.context import Anims, DrawContext, View
from scenes.draw.crossfade import second_half
from scenes.draw.focus import CameraFocus
from scenes.draw.frame_spots import FreeFrame, bounds, ink_bounds
from scenes.draw.labels import Z_PRODUCT, CardLabels
from scenes.draw.onscreen import OnScreen
from scenes.draw.reading import reading_back
from scenes.draw.record import tag_of, tagged
from scenes.draw.state import WalkView
from scenes.draw.visuals import arrow_reach, formula, nominal_token_size, note_block
from scenes.layout.label_spots import inside as lies_in
from scenes.layout.note_spots import free_note_centre, note_centre, own_note_centre, ways_out
from scenes.layout.place import Box, Layout, Point
from scenes.layout.routes import Route
from scenes.layout.readable import value_size
from scenes.storyboard.caption_events import explaining
from scenes.storyboard.cues import Cue
from scenes.theme import Rect

class VisitNotes(View):
    """Writes a visit's note and hands the walk its products; keeps no record of its own (the
    note is one of the walk's ``visit_marks``). Asks ``labels`` to keep it inside the frame,
    ``onscreen`` what is shown, ``frame`` what a note keeps off, ``focus`` how close the walk's
    camera is (its note is drawn that much larger, to read as large as the cards it is about)."""

    def __init__(self, ctx: DrawContext, labels: CardLabels, onscreen: OnScreen, frame: FreeFrame,
                 focus: CameraFocus) -> None:
        super().__init__(ctx)
        self.labels, self.onscreen, self.frame, self.focus = labels, onscreen, frame, focus
        self.stays: Callable[[Cue], Rect | None] = lambda visit: None
        """Where a visit's note stays in view through the camera's moves while its caption runs
        (`scenes.draw.camera.WalkCamera.stays`, which the scene's views hand in; None: anywhere)."""
        self.slid_past: Callable[[Cue], list[Rect]] = lambda visit: []
        """What a visit's note keeps off, where there is room, for the camera's slides into the
        column the pane freed while its caption runs (`scenes.draw.camera.WalkCamera.slid_past`)."""

    @property
    def walk(self) -> WalkView:
        return self.ctx.state.walk

    def place(self, cue: Cue, box: Box, avoid_marks: list[Mobject], going: list[Mobject]) -> Anims:
        """The visit's arithmetic beside its node: where gradients met, their sum
        (``3 + 3 = 6``); the rule's words; then per edge that sends a gradient (the visit's
        ``local_rule`` cues, which start with it) ``what arrived × factors = [product]``, the
        product a token that the edge's ``grad_travel`` then carries away.

        Where the cards are drawn larger than the theme's, it is first set as large as their
        values, then smaller (`_value_sizes`), as long as a spot beside the node, level with it,
        reads as the node's own (below).
        Spots are sought among the cards and arrows on screen now (`_shown`). Where no spot
        beside the node reads as its own (nearer it than any other card, clear of the arrows:
        `own_note_centre`), the note is set at the least readable size
        (`_least_size`) and looked for again; where there is still none, it goes where
        `note_centre` finds room: a free spot, else one free but for the runs left of the badges
        waiting (`reading_back`: kept off first, they are not worth a spot over the cards). All
        that is tried first where the camera's moves aside while the visit's caption runs keep
        the note in view (`stays`), then anywhere."""
        t = self.theme
        rules = self._rules(cue)
        for s in cue.strings:
            if s.role in ("part", "rule") and (s.role == "part" or rules):
                self.ctx.record(s)
        made = self._rows(cue, rules, box.id, None)
        if made is None:
            return []
        marks = avoid_marks + self.walk.visit_marks + list(self.walk.badges.values())  # kept badges too
        # (not the code lines the pane no longer holds: it shrinks to the walk's line as the walk sets off,
        # and they go with it; grad_accumulation 9:16's note was kept right of them, over y's op name)
        panes = self.frame.pane_bounds()
        shrunk = [m for m, tg in tagged(self.onscreen.drawn()) if tg.role == "code"
                  and not any(lies_in(bounds(m), p) for p in panes)]
        seen = self.onscreen.shown_rects(exclude=going + shrunk, extra=marks)
        avoid = [bounds(m) for m in marks] + self.frame.pane_bounds() + self.frame.frame_marks() + seen
        avoid += self.frame.list_sweep()  # and off the checklist's way, where it moves in this step
        avoid.append(self._ringed(box, t.spacing.item_gap * self.lay.scale))
        # and off the rings of the nodes drawn with no card, which the walk rings at their visit while the
        # note may still be up (micrograd_readme 9:16: t25's rule under n25's ring, 40.2-41.0 s)
        avoid += self.labels.unseen_rings(self.onscreen.shown_ids())
        # a badge waiting by a card keeps a word space: a rule flush with the seed's `1` read as
        # "11 × 2 × 1/4 = 1/2" (leaf_nodes 9:16, REVIEW7 3)
        space = t.spacing.item_gap * self.lay.scale / 3
        badges = self._waiting(marks, going, kept=True)
        avoid += [(x0 - space, y0 - space, x1 + space, y1 + space) for x0, y0, x1, y1 in badges]
        # nor does a row end in a product just left of one, level with it: the badge reads as more
        # of the product (dynamic_graph 1:1: the top h's seed `1` right of `h: 1/3 × 1/3 = [1/9]`);
        # nor of any number waiting, where the note has room for it (`_waiting`)
        runs = [reading_back(r) for r in badges]
        avoid += runs
        waiting = [r for r in self._waiting(marks, going, kept=False) if r not in badges]
        apart = [(x0 - space, y0 - space, x1 + space, y1 + space) for x0, y0, x1, y1 in waiting]
        apart += [reading_back(r) for r in waiting]
        # and, where there is room, off what the walk's camera took out of view: it shows again
        # where it was once the camera moves on, and the note, moved with it, would cover it
        hidden = [r for r in self.onscreen.shown_rects(exclude=going, extra=marks, away=True) if r not in seen]

        kept = self.stays(cue)  # where the camera's moves aside while its caption runs keep it in view

        words = [bounds(g) for k, g in self.ctx.state.graph.tags.items() if k == box.id and g.width > 0]

        def spot(note: VGroup, own: bool, inside: Rect | None = None, more: list[Rect] | None = None) -> Point | None:
            found = self.beside(note, box, avoid + (more or []), own, hidden=hidden, inside=inside)
            if found is None or not _over(found, note, box):
                return found
            # over its card: first a spot over it where its products' tokens leave for their edges crossing
            # none of its rows (`ways_out`); not one under or by the card for that, where the next visits'
            # tokens come (micrograd_readme 9:16's t25 went by f, and f's -0.00416 rode over its rows)
            fits = self._ways_out(note, cue.ids[0], box, words)
            return self.beside(note, box, avoid + (more or []), own, hidden=hidden, inside=inside,
                               fits=lambda p: _over(p, note, box) and fits(p)) or found

        block, products = made
        at = None
        # and, where there is room, off where the pane stands once a slide to come moves the graph
        # into its column: a note there stops the slide short (`slid_past`)
        slid = self.slid_past(cue)
        mores = [[*apart, *slid], slid] if slid else []
        tries = [(inside, more) for more in [m for m in mores if m] + ([apart] if apart else []) + [[]]
                 for inside in ([kept] if kept is not None else []) + [None]]
        for inside, more in tries:  # first where it stays in view, apart from the numbers waiting
            def own(note: VGroup, where: Rect | None = inside, off: list[Rect] = more) -> Point | None:
                return spot(note, True, where, off)

            found = self._own_spot(cue, rules, box, own)
            if found is not None:
                at, (block, products) = found
                break
        if at is None:  # no spot of its own: a free one, else one free but for the runs left of the badges
            at = self.beside(block, box, avoid, False, hidden=hidden, last=False)
        if at is None and runs:  # (a row's product may read level with a badge there: better than over a card)
            at = self.beside(block, box, [r for r in avoid if r not in runs], False, hidden=hidden, last=False)
        if at is None:
            at = spot(block, own=False)
        assert at is not None  # note_centre always finds a spot
        self.labels.keep_inside(block.move_to([at[0], at[1], 0]))
        says = explaining(self.ctx.plan.captions, cue)  # what it explains stays while said (`explained_past`)
        block.explained_until = says.end if says is not None else cue.start
        self.walk.visit_marks.append(block)
        over = bounds(block)[1] >= box.bounds[3]  # over its card: its rows lie between its products and edges
        self.walk.products = {(cue.ids[0], k): self._by_route(cue.ids[0], k, box, ps) if over else ps
                              for k, ps in products.items()}
        for product in (p for ps in products.values() for p in ps):  # over the copies that ride off
            product.set_z_index(Z_PRODUCT)
        return [FadeIn(block, rate_func=second_half)]

    def _own_spot(self, cue: Cue, rules: list[Cue], box: Box, spot: Callable[[VGroup], Point | None]
                  ) -> tuple[Point, tuple[VGroup, dict[str, list[Mobject]]]] | None:
        """The spot of the visit's note that reads as ``box``'s (``spot`` finds one or None), and the
        note as set there: as large as the cards' values where they are drawn large, level with
        its card (`_value_sizes`), else at the theme's size, else at the least (`_least_size`);
        None where none of them finds one."""
        t = self.theme
        for size in self._value_sizes():  # cards drawn large: the note as large as their values, room allowing
            large = self._rows(cue, rules, box.id, size)
            assert large is not None  # the same rows as the theme's, larger
            at = spot(large[0])
            # level with its card only: over or under it the larger rows stand in its edges' way,
            # and the products leaving them cross the card's words (grad_accumulation 9:16)
            if at is not None and abs(at[1] - box.y) < (large[0].height + box.h) / 2:
                return at, large
        made = self._rows(cue, rules, box.id, None)
        assert made is not None
        at = spot(made[0])
        if at is not None:
            return at, made
        least = self._least_size(cue, rules, box.id)
        if least < min(t.font_sizes.note, t.font_sizes.card_flag):
            small = self._rows(cue, rules, box.id, least)
            assert small is not None  # the same rows, smaller
            at = spot(small[0])
            if at is not None:
                return at, small
        return None

    def beside(self, note: Mobject, box: Box, avoid: list[Rect], own: bool, badge: bool = True,
               hidden: list[Rect] | None = None, reach: float = 0.0, snug: float = 1.0,
               inside: Rect | None = None, last: bool = True,
               fits: Callable[[Point], bool] | None = None) -> Point | None:
        """Where ``note`` goes beside ``box``, among the cards and arrows on screen now (`_shown`)
        and off ``avoid``: ``own``, only a spot that reads as ``box``'s (`own_note_centre`, else
        None); else wherever `note_centre` finds room (never None). ``badge``: on the right, past
        the room a badge at ``box`` takes (none waits there after the walk). ``hidden``: what the
        walk's camera took out of view, kept off where there is room (`free_note_centre`).
        ``reach``: a label's (``yh.grad = None``), standing by no other card nearer (`faces_other`);
        ``snug``: its gap to ``box``, a share of the items' gap; ``inside``: a part of the free
        frame it keeps to (`stays`); ``last``: where no spot is free, the one `note_centre`
        covers least with (else None: the caller looks again with less to keep off). ``fits``: only
        the spots it says yes to (then never `note_centre`'s last resort)."""
        t = self.theme
        shown, size = self._shown(box), (note.width, note.height)
        gap, clear = t.spacing.item_gap * self.lay.scale * snug, arrow_reach(t, self.lay.scale, self.lay.zoom)
        past = nominal_token_size(t, scale=self.lay.scale, zoom=self.lay.zoom)[0] if badge else 0.0
        within, rests = self.frame.free_rect(), self.labels.all_rests()
        if inside is not None:
            within = (max(within[0], inside[0]), max(within[1], inside[1]), min(within[2], inside[2]),
                      min(within[3], inside[3]))
        for keep_off in ([avoid + hidden] if hidden else []) + [avoid]:
            found = (own_note_centre if own else free_note_centre)(
                shown, box, size, gap=gap, clear=clear, beside=past, within=within, avoid=keep_off, prefer_off=rests,
                reach=reach, fits=fits)
            if found is not None:
                return found
        if not last or fits is not None:
            return None
        return None if own else note_centre(shown, box, size, gap=gap, clear=clear, beside=past, within=within,
                                            avoid=avoid, prefer_off=rests, reach=reach)

    def _routes(self, node: str, to: str) -> list[Route]:
        """The edges from ``to`` into ``node`` (ids: their layout items' routes) whose tokens a visit
        of ``node`` sends, left to right where they leave its card (backward: their last point)."""
        src, dst = self.ctx.item(to), self.ctx.item(node)
        return sorted((r for r in self.lay.routes if r.src == src and r.dst == dst), key=lambda r: r.points[-1][0])

    def _by_route(self, node: str, to: str, box: Box, products: list[Mobject]) -> list[Mobject]:
        """``products`` of a note over its card for the edges to ``to`` in the layout's order of them
        (the walk's rides take them so): the one nearest the card for the edge leaving it furthest
        left, and so on. Its row's words lie left of it: the token for an edge on the left passes
        under no other row (grad_accumulation 9:16's ``w * w``, the note over y: `ways_out`)."""
        routes = self._routes(node, to)
        if len(products) < 2 or len(routes) != len(products):
            return products
        nearest = sorted(products, key=lambda p: abs(p.get_center()[1] - box.y))
        left = {id(r): k for k, r in enumerate(routes)}
        return [nearest[left[id(r)]] for r in self.lay.routes if id(r) in left]

    def _ways_out(self, note: VGroup, node: str, box: Box, words: list[Rect]) -> Callable[[Point], bool]:
        """Whether a spot for ``note`` of ``node``'s (its card ``box``; the note centred at the origin,
        as `_rows` makes it) lets its products' tokens leave for their edges crossing none of its
        rows, nor ``words`` (`ways_out`; paired with the edges as `_by_route` pairs them)."""
        size = (note.width, note.height)
        groups: dict[str, list[Mobject]] = getattr(note, "products", {})
        others = [bounds(p) for ps in groups.values() for p in ps]
        token = nominal_token_size(self.theme, scale=self.lay.scale, zoom=self.lay.zoom)

        def fits(at: Point) -> bool:
            leaving: list[tuple[Rect, float]] = []
            for to, ps in groups.items():
                routes = [r for r in self._routes(node, to) if r.points[-1][1] <= box.bounds[1] + 1e-6]
                nearest = sorted(ps, key=lambda p: abs(at[1] + p.get_center()[1] - box.y))
                leaving += [(bounds(p), r.points[-1][0]) for p, r in zip(nearest, routes)]
            return all(ways_out(at, size, box, [(rect, x)], token, words + [
                (at[0] + o[0], at[1] + o[1], at[0] + o[2], at[1] + o[3]) for o in others if o != rect])
                for rect, x in leaving)
        return fits

    def _waiting(self, marks: list[Mobject], going: list[Mobject], kept: bool) -> list[Rect]:
        """Where a number waits beside a node as the note is placed, but ``going``: ``kept``, the
        nodes' badges; else one that goes with the visit's marks (a packed graph's, among
        ``marks``: mlp_lists 16:9's seed ``0`` right of t14's ``0 × 1 = [0]`` read ``= 0 0``) and
        the tokens waiting for their node's visit or their bucket's fill."""
        gone = {id(m) for m in going}
        found = list(self.walk.badges.values()) if kept else [
            *(m for m in marks if _node_badge(m)), *(m for ms in self.walk.tokens.values() for m in ms),
            *(m for ms in self.walk.fill_tokens.values() for m in ms)]
        out: list[Rect] = []
        for m in found:
            if id(m) not in gone and m.width > 0 and bounds(m) not in out:
                out.append(bounds(m))
        return out

    def _ringed(self, box: Box, gap: float) -> Rect:
        """What a note keeps off round its own card: the card and ``gap`` about it, and the walk's
        ring round it as far as its ink reaches (the spots beside the card keep ``gap`` already;
        one found flush with what is in the way, or on the grid, would touch the card and lie
        under its ring, its first letters hidden: issue 39, leaf_nodes' ``w1: 1/2 × 2 =``).
        Touching it is allowed (`clear_rects.meets`), so the spots ``gap`` beside the card stay."""
        edge = gap * (1 - 1e-6)
        left, bottom, right, top = box.bounds
        near = (left - edge, bottom - edge, right + edge, top + edge)
        if self.walk.wave is None:
            return near
        ring = ink_bounds(self.walk.wave)
        return (min(near[0], ring[0]), min(near[1], ring[1]), max(near[2], ring[2]), max(near[3], ring[3]))

    def size(self, visit: Cue, scale: float, least: bool = False) -> tuple[float, float]:
        """How large the note of ``visit`` is at the theme's size (``least``: at the least size
        `place` sets it at, `_least_size`), its products at layout ``scale`` (0, 0: none): the
        walk's camera keeps room for it beside the node."""
        rules = self._rules(visit)
        size = self._least_size(visit, rules, visit.ids[0]) if least else None
        made = self._rows(visit, rules, visit.ids[0], size, scale=scale)
        if made is None:
            return (0.0, 0.0)
        return (made[0].width, made[0].height)

    def _rules(self, cue: Cue) -> list[Cue]:
        """The visit's ``local_rule`` cues (they start with it)."""
        return [c for c in self.ctx.plan.cues
                if c.kind == "local_rule" and c.ids[0] == cue.ids[0] and c.start == cue.start]

    def _shown(self, box: Box) -> Layout:
        """The layout as the frame shows it now (`OnScreen.shown_layout`)."""
        return self.onscreen.shown_layout(box)

    def _value_sizes(self) -> list[float]:
        """The font sizes, largest first, a visit's note tries before the theme's where the cards
        are drawn large, larger than the theme draws them (layout scale over 1: its note size is
        set against its cards at scale 1; review 6 item 9: a rule at ~10 px beside cards whose
        values read at 30 px): the cards' value size (`readable.value_size`, at home: the note is
        drawn as much larger as the walk's camera draws the graph), then smaller by
        ``proportions.caption_shrink_step``, all over the theme's note size; none where the
        cards are drawn at the theme's size or smaller."""
        t = self.theme
        scale = self.lay.scale / self.focus.walk_closer()
        value = value_size(self.lay.detail, scale, t) if scale > 1.0 else None
        sizes: list[float] = []
        size = value or 0.0
        while size > max(t.font_sizes.note, t.font_sizes.card_flag):
            sizes.append(size)
            size *= t.proportions.caption_shrink_step
        return sizes

    def _least_size(self, cue: Cue, rules: list[Cue], owner: str) -> float:
        """The least font size a visit's note is set at: ``min_readable``, or more where a row's
        box measures its glyphs under ``min_glyph_px`` there (`collisions.glyph_height`, as
        the too_small check does: a bracket reaching over the caps, ``terms[0]: 1 × 1 =``)."""
        f = self.theme.font_sizes
        rows = self._rows(cue, rules, owner, f.min_readable)
        if rows is None:
            return f.min_readable
        px = SHORT_SIDE / min(self.ctx.spec.frame_width, self.ctx.spec.frame_height)  # pixels a unit at 854x480
        short = 1.0
        for row in rows[0].submobjects:
            words = row.submobjects[0]
            shown = tag_of(words)
            box = words.height * px - BOX_ROUNDING  # as short as the record may read it
            high = glyph_height({"bbox": [0.0, 0.0, 0.0, box], "text": shown.text if shown else ""})
            short = max(short, f.min_glyph_px / max(high, 1e-9))
        return f.min_readable * short

    def _rows(self, cue: Cue, rules: list[Cue], owner: str, size: float | None,
              scale: float | None = None) -> tuple[VGroup, dict[str, list[Mobject]]] | None:
        """A visit's note (`place`) of ``owner``'s, its words at ``size`` (None: the theme's), and the
        product pills of the edges the visit sends a gradient on, by the edges' target, in the
        rules' order (``w * w``: two rows, two pills for w, one per edge); None when the visit
        has nothing to write. Drawn as much larger as the walk's camera draws the graph
        (``scale`` given: at that layout scale, as at home)."""
        t = self.theme
        closer = 1.0 if scale is not None else self.focus.walk_closer()
        scale = self.lay.scale / closer if scale is None else scale
        parts = [s.text for s in cue.strings if s.role == "part"]
        rows = []
        if parts:
            rows.append(formula(f"{' + '.join(parts)} = {cue.text('grad')}", t, size=size))
        words = cue.text("rule")
        if words is not None and rules:
            rows.append(formula(words, t, muted=True, size=size))
        products: dict[str, list[Mobject]] = {}
        for r in rules:
            factors = " × ".join(s.text for s in r.strings if s.role == "factor")
            who = r.text("target")
            row = formula(f"{who + ': ' if who else ''}{r.text('in')} × {factors} =", t, product=r.text("out"),
                          scale=scale, size=size)
            rows.append(row)
            products.setdefault(r.ids[1], []).append(row.product)
        if not rows:
            return None
        block = note_block(rows, t, owner=owner).scale(closer)
        block.products = products  # by the edges' target, for the spot's ways out (`_ways_out`)
        return block, products


def _over(at: Point, note: Mobject, box: Box) -> bool:
    """Whether ``note`` centred ``at`` lies wholly above ``box``, over its card."""
    return at[1] - note.height / 2 >= box.bounds[3]


def _node_badge(m: Mobject) -> bool:
    """Whether ``m`` is a node's badge (tagged with the node's id), not a token on its way (an
    arrow's id) nor one waiting for its bucket's fill."""
    found = tag_of(m)
    return found is not None and found.role == "badge" and found.id is not None and "->" not in found.id


def explained_past(m: Mobject, at: float) -> bool:
    """Whether ``m`` is a visit's note whose caption (`VisitNotes.place`: the one up as the visit
    started) is still up at ``at``: it stays shown through the walk's next steps until then, a
    leaf's visit and the camera's move to it too (REVIEW7 item 4: backward_walk 9:16's mul rule
    faded as the camera closed on w2 under "and s gets the gradient times w2")."""
    return getattr(m, "explained_until", 0.0) > at + 1e-6
