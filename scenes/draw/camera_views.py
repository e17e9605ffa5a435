"""Where the walk's camera looks for a visit: the search over the free frame's rooms and the views
in each (`VisitViews.aim`), the view out on what is drawn (`VisitViews.view`), and what the
search reads of the scene (the cards drawn, the last visit's note).

Why a module of its own: the camera's moves (`scenes.draw.camera.WalkCamera`) ask where to look
and animate the answer; the search is the larger part, and changes on its own (a note's room, a
ring kept inside the frame, a caption's cards kept in view).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cached_property

from manim import Mobject

from scenes.draw.backward import BackwardWalk
from scenes.draw.context import DrawContext
from scenes.draw.focus import CameraFocus, Sight
from scenes.draw.camera_ahead import walk_ahead
from scenes.draw.collisions import RING
from scenes.draw.record import opacity, tagged
from scenes.draw.visit_note import explained_past
from scenes.draw.visuals.token import nominal_token_size
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.layout.camera import WHOLE, around, drawn_part, held, pans_only, visit_view, walk_region
from scenes.layout.clear_rects import largest_rooms, seen_in
from scenes.layout.column import column_walks, slid_left
from scenes.layout.clip import code_rect
from scenes.layout.focus import Zoom, shifted_in
from scenes.layout.label_spots import rect_around
from scenes.layout.place import Box, Layout, tag_reach
from scenes.layout.readable import value_px
from scenes.layout.tag_room import ring_reach
from scenes.storyboard.cues import CAMERA_MOVES, Cue
from scenes.storyboard.pane_back import out_before_pane
from scenes.theme import Rect, Theme


ROOMS = 0.5
"""A clear rectangle of the free frame at least this share of the largest's area is tried as the
room a visit is seen in (`largest_rooms`): beside a legend in a corner, the tall one beside it
may show a visit of stacked cards larger than the wide one under it."""
LOOKS = 4
"""How many views, each `CLOSER` as close as the one before, the camera tries in a room other than
the largest (in the largest, one: micrograd_readme 16:9's notes crowd a closer view there)."""
CLOSER = 0.94
NEAR = 1.05
"""A view in a room other than the largest is taken only this much closer than home at least:
less is a move for nothing."""


class VisitViews:
    """Finds the walk camera's views: asks ``frame`` where the graph may show, ``walk`` how large
    a visit's note is, and ``focus`` what a view shows; moves nothing."""

    def __init__(self, ctx: DrawContext, focus: CameraFocus, frame: FreeFrame, walk: BackwardWalk) -> None:
        self.ctx, self.focus, self.frame, self.walk = ctx, focus, frame, walk

    @property
    def theme(self) -> Theme:
        return self.ctx.theme

    def aim(self, cue: Cue, free: Rect, keep_off: list[Rect], sight: Sight, region: Rect) -> tuple[Zoom, Rect]:
        """Where the move ``cue`` into a visit takes the camera (`WHOLE`: home), and the room it
        frames the visit in; it moves nothing (`stays` asks it of a move to come)."""
        best, at = self.framed(cue, free, keep_off, sight, region)
        slid = self.slide(cue, sight, best)
        return (slid, free) if slid is not None else (best, at)

    def framed(self, cue: Cue, free: Rect, keep_off: list[Rect], sight: Sight, region: Rect) -> tuple[Zoom, Rect]:
        """`aim`'s view before it slides the graph into the column the pane freed (`slide`), and
        its room: `WalkCamera.slid_past` asks which moves to come slide."""
        home = self.focus.home or self.ctx.layout  # the plan leads a visit with a camera cue only where
        # the graph is dense (`camera_visits`); the visits it leads into: the next, and those after
        # it the plan found no pause for (a visit's view is framed on the clip's layout: framed on
        # the cards drawn alone, dynamic_graph's views came closer and their badges reached the
        # frame's edge and a rule's note; the move out frames the cards drawn, `_out`)
        visits = [c for c in self.ctx.plan.cues if c.kind == "visit" and c.seqs and c.seqs[0] in cue.seqs
                  and c.start >= cue.start + cue.duration - 1e-6]
        if self.pans_only:  # moved aside once for the walk's notes to come, not for each (`walk_ahead`)
            visits = walk_ahead(self.ctx.plan.cues, cue, self.ctx.plan.duration) or visits
        visited = [self.ctx.item(v.ids[0]) for v in visits] or [self.ctx.item(cue.ids[0])]
        items = {k for v in visited for k in held(home, v)}
        note, least = (_widest([self.walk.notes.size(v, home.scale, small) for v in visits]) for small in (False, True))
        if self.pans_only:  # moved aside for the notes written: beside the cards whose visits write one
            visited = [self.ctx.item(v.ids[0]) for v in visits if self.walk.notes.size(v, home.scale)[0] > 0] or visited
        # under the whole pane (a move before the walk's line is lit) the largest room, as the
        # view stays once the pane has stepped aside: a smaller one there leaves it low in the frame
        rooms = largest_rooms(free, keep_off, ROOMS) if self.frame.code.aside else [region]
        most = self._most(cue)
        best, at = self._best(home, items, visited, (note, least), rooms, free, sight, most)
        kept = self._kept(cue, items)  # what the caption up names, in view now: it stays (`kept_named`)
        if kept and best.factor > 1.0 and not self.focus.shows_whole(best, sight, kept):
            wider, room = self._best(home, items | kept, visited, (note, least), rooms, free, sight, most)
            px = value_px(home.detail, home.scale, self.theme, wider.factor)
            if px is None or px >= self.theme.font_sizes.min_glyph_main_px - 1e-9:  # where it reads
                best, at = wider, room
        best, at = self._on_drawn(home, items, visited, (note, least), rooms, free, sight, (best, at), most)
        best, at = self._explained(cue, home, (items, visited), (note, least), rooms, free, sight, (best, at), most)
        return self._rings_in(best, home, self._ringed(visits, home), sight), at

    def again(self, cue: Cue) -> bool:
        """Whether ``cue`` makes the walk's first view again, its visits begun (the plan's move
        once the pane has stepped aside, `scenes.render.camera_plan`'s ``_in_column``): it only
        slides the graph into the column the pane freed (`slide`)."""
        return bool(cue.ids) and cue.beat in self.column_walks and not any(
            c.kind == "visit" and c.seqs and c.seqs[0] in cue.seqs and c.start >= cue.start - 1e-6
            for c in self.ctx.plan.cues)

    def slide(self, cue: Cue, sight: Sight, now: Zoom = WHOLE) -> Zoom | None:
        """The graph seen no closer than home (``now``, the view found: home, or moved at its
        size) moved left at its size, its cards to the middle of the frame or as far as they
        and what reaches past them (a tag, the last visit's note) show whole there, clear of the
        pane and what it printed: into the column the code pane freed stepping aside to the
        walk's lit line beside the graph, where home leaves it ``layout.fill_empty`` of the frame
        empty at least, in a walk whose graph is as tall as the frame it may use
        (`column_walks`) and that the plan takes out before the pane comes back whole over the
        column (`out_before_pane`). None: ``now``."""
        code, spec = self.frame.code, self.ctx.spec
        if now.factor > 1.0 + 1e-9 or cue.beat not in self.column_walks or not code.aside or code.pane is None \
                or not out_before_pane(self.ctx.plan.cues, cue):
            return None
        home = self.focus.home or self.ctx.layout
        drawn = self.drawn(home)
        if not drawn.boxes:
            return None
        reach, x0, y0 = tag_reach(self.theme), *now.point((0.0, 0.0))
        cards = [(b.bounds[0] - reach + x0, b.bounds[1] - reach + y0, b.bounds[2] + reach + x0, b.bounds[3] + reach + y0)
                 for b in drawn.boxes.values()]
        notes = [(b.bounds[0] + x0, b.bounds[1] + y0, b.bounds[2] + x0, b.bounds[3] + y0) for b in self.marks().values()]
        if bounds(code.pane.bg)[2] > min(r[0] for r in cards) + 1e-9:
            return None
        dx = slid_left(cards, notes, sight, self.theme.layout.fill_empty * spec.frame_width * spec.frame_height)
        z = Zoom(1.0, (0.0, 0.0), (x0 - dx, y0))
        return z if dx > reach and self.focus.shows_whole(z, sight, drawn.boxes) else None

    @cached_property
    def column_walks(self) -> frozenset[int]:
        """The beats of the walks whose graph may slide into the column (`column_walks`)."""
        home, plan, spec = self.focus.home or self.ctx.layout, self.ctx.plan, self.ctx.spec
        seqs = frozenset(c.seqs[0] for c in plan.cues if c.kind == "visit" and c.seqs)
        return column_walks(plan, seqs, home, walk_region(plan, self.ctx.source, spec, self.theme), tag_reach(self.theme),
                            self.theme.layout.fill_empty * spec.frame_width * spec.frame_height)

    @cached_property
    def pans_only(self) -> bool:
        """Whether the camera only moves the graph aside for a note, never closer (`pans_only`:
        the whole graph reads well already)."""
        home = self.focus.home or self.ctx.layout
        return pans_only(self.ctx.plan, home, self.ctx.source, self.ctx.spec, self.theme)

    def _most(self, cue: Cue) -> float:
        """How close the view ``cue`` moves to may come: the theme's ``camera_zoom`` (1: moved aside
        at most, where the whole graph reads well, `pans_only`), but no closer
        than the view now where the plan holds it under ``camera_hold`` before the camera moves on
        (in and back out within a breath reads as the camera pumping: backward_walk 9:16 went in
        1.46x on w2's bucket at 39.4 s and out to relu 1 s later). The plan keeps the walk's last
        view from it (`scenes.render.camera_plan.too_short`), but knows not how close a view is:
        a short view between two others is most often a pan (a lesson's walk visits a node
        every 2.5 s)."""
        end = cue.start + cue.duration
        ahead = [c.start for c in self.ctx.plan.cues if c.kind in CAMERA_MOVES and c.start >= end - 1e-6]
        most = 1.0 if self.pans_only else self.theme.layout.camera_zoom
        if ahead and min(ahead) - end < self.theme.timings.camera_hold - 1e-9:
            return min(most, self.focus.zoom.factor if self.focus.zoom is not None else 1.0)
        return most

    def _best(self, home: Layout, items: set[str], visited: list[str],
              notes: tuple[tuple[float, float], tuple[float, float]], rooms: list[Rect], free: Rect,
              sight: Sight, most: float) -> tuple[Zoom, Rect]:
        """The closest view of ``items`` (`view`, at most ``most`` times larger than home) of the
        ``rooms`` tried, or one moved aside for the note (`_pan`; ``notes``: the note's size at
        the theme's and at the least size), and its room."""
        best, at = WHOLE, rooms[0]
        for n, room in enumerate(rooms):  # the largest as it always was: one look (a closer view there
            z = self.view(home, (items, visited, self._note_room(free, items)), notes, room, sight,
                           max(best.factor, NEAR) if n else best.factor, LOOKS if n else 1, most)  # crowds a
            # lesson's notes)
            if z.factor > best.factor or (best == WHOLE and z != WHOLE):  # closer, or moved aside (`_pan`)
                best, at = z, room
        return best, at

    def _on_drawn(self, home: Layout, items: set[str], visited: list[str],
                  notes: tuple[tuple[float, float], tuple[float, float]], rooms: list[Rect], free: Rect,
                  sight: Sight, found: tuple[Zoom, Rect], most: float) -> tuple[Zoom, Rect]:
        """``found`` (the visit's view, `_best`), or where it is less close than the view the camera
        is in now, the view of the visit's cards drawn now alone, where that is closer than
        ``found`` (at most ``most``): a visit's view holds every card its node feeds in the clip's
        layout, those of loops not yet run too, so the view drew back from the cards drawn as the
        walk began (dynamic_graph 16:9's one-node walk: h and w shrank x0.79 from the view before)
        and, for a leaf's bucket fill, to push in again 1 s later (the camera pumps)."""
        now = self.focus.zoom
        if not self.focus.by_walk or now is None or found[0].factor >= now.factor - 1e-9:
            return found
        drawn = set(self.drawn(home).boxes)
        mine = {k for k in items if k in drawn}
        if mine == items or not mine:
            return found
        z, room = self._best(home, mine, visited, notes, rooms, free, sight, most)
        return (z, room) if found[0].factor + 1e-9 < z.factor else found

    def _explained(self, cue: Cue, home: Layout, seen: tuple[set[str], list[str]],
                   notes: tuple[tuple[float, float], tuple[float, float]], rooms: list[Rect], free: Rect,
                   sight: Sight, found: tuple[Zoom, Rect], most: float) -> tuple[Zoom, Rect]:
        """``found`` (the visit's view), or where it leaves out the last visit's note while the
        caption explaining it is still up as the move starts (`explained_past`), the view of
        ``seen``'s items and that note, where it holds the note and the cards' values still read
        (or read no smaller than now); else, where the view now holds both, that view: the visit's
        own cards at least (`_own_seen`; REVIEW7 item 4: backward_walk 9:16's mul rule went as the
        camera closed on w2 while "and s gets the gradient times w2" ran). A note the walk replaces
        before that caption ends (a bucket's fill) is kept in view too: it shows until then
        (`scenes.render.named_view.rules_gone`; dynamic_graph 9:16, the first h's rule). Where the
        camera only moves aside (`pans_only`), ``found`` all the same: the move gives the visit's
        note a spot by its own card, without which it reads as another's while its own caption runs
        (missing_gradient 9:16: mul's reads as z's, not L1's); the notes written before it keep to
        where it leaves them in view (`stays`)."""
        if self.pans_only and found[0] != WHOLE:
            return found
        marks = self.marks(lambda m: explained_past(m, cue.start))

        def holds(z: Zoom) -> bool:
            return all(seen_in(z.point(b.bounds[:2]) + z.point(b.bounds[2:]), *sight) for b in marks.values())

        if not marks or holds(found[0]):
            return found
        items, visited = seen
        lay = replace(home, boxes={**home.boxes, **marks})
        wider, room = self._best(lay, items | set(marks), visited, notes, rooms, free, sight, most)
        px = value_px(home.detail, home.scale, self.theme, wider.factor)
        now = self.focus.zoom  # (values that read, or no smaller than the view now shows them)
        reads = px is None or px >= self.theme.font_sizes.min_glyph_main_px - 1e-9 or (
            now is not None and wider.factor >= now.factor - 1e-9)
        if reads and holds(wider):
            return wider, room
        # none closer holds it: the view stays where it is, where that holds the visit
        if now is not None and self.focus.by_walk and holds(now) and self._own_seen(now, home, visited, sight):
            return now, self.focus.rec.region or found[1]
        return found

    def _own_seen(self, z: Zoom, home: Layout, visited: list[str], sight: Sight) -> bool:
        """Whether the view ``z`` shows whole the cards of the ``visited`` cards' visits (`around`:
        each, what its gradient came from and the inputs it sends it to), each of them with all
        its inputs shown or none: a view that keeps the last visit's rule up while its caption
        runs may leave out the inputs' own inputs (`held`), as long as no card reads as made from
        some of its inputs alone (missing_gradient 16:9: pow's rule, "... pow: d² → × 2d" up to
        20.50 s, lies over the code pane at home, where the camera went for sub at 19.90 s; the
        view on pow shows sub's visit, z without its inputs w and x)."""
        own = {k for v in visited for k in around(home, v)}
        if not self.focus.shows_whole(z, sight, own):
            return False
        g, faded = self.ctx.state.graph, self.focus.faded
        shown = {k for k, m in g.cards.items() if opacity(m) > 0 and id(m) not in faded}
        made_of: dict[str, set[str]] = {}
        for r in home.routes:
            if r.src in g.cards and r.dst in own:
                made_of.setdefault(r.dst, set()).add(r.src)
        return all(not (ins & shown) or ins <= shown for ins in made_of.values())

    def _ringed(self, visits: list[Cue], home: Layout) -> set[str]:
        """The boxes the walk rings while the view it moves to for ``visits`` shows: each visit's
        own (a leaf's bucket at its AccumulateGrad, as `BackwardWalk` rings it), and the one
        ringed now, whose ring stays through the move until the next visit."""
        out: set[str] = set()
        for v in visits:
            item = self.ctx.item(v.ids[0])
            acc = f"bucket:{item}"
            out.add(acc if v.text("grad_fn") == "AccumulateGrad" and acc in home.boxes else item)
        wave = self.ctx.state.walk.wave
        if wave is not None and opacity(wave) > 0:
            out |= {t.id for _, t in tagged([wave]) if t.role == RING and t.id is not None}
        return out

    def _rings_in(self, z: Zoom, home: Layout, ringed: set[str], sight: Sight) -> Zoom:
        """``z`` (a view, `WHOLE` too) moved as little as holds the ring round each card of
        ``ringed`` (`ring_reach` past its box, as drawn in the view) inside the frame the cards
        may use (``sight``'s, by its slack): the views fit the cards, and a ring round a card at
        the frame's side reached into its margin (dynamic_graph 9:16: at home, t4 and t2 at its
        right, t7 at its left, 0.9 px past the 3 % edge). ``z`` where no move holds them, or where
        the move would take a card ``z`` shows whole out of view, but for a freed graph kept beside
        the new one, which goes as the walk starts (`FreedGraphs.retire_ghost`)."""
        reach = ring_reach(self.theme, home.scale * z.factor)
        rings = [rect_around(*z.point((b.x, b.y)), (b.w * z.factor, b.h * z.factor), reach)
                 for k in ringed if (b := home.boxes.get(k)) is not None]
        shown, _, slack = sight
        moved = shifted_in(z, rings, (shown[0] - slack, shown[1] - slack, shown[2] + slack, shown[3] + slack))
        if moved is None or moved is z:
            return z
        going = self.ctx.state.graph.ghost
        whole = [k for k in self.drawn(home).boxes if k not in going and self.focus.shows_whole(z, sight, [k])]
        return moved if self.focus.shows_whole(moved, sight, whole) else z

    def _kept(self, cue: Cue, items: set[str]) -> set[str]:
        """The cards of ``cue``'s ids past its visits' (those a caption up during the move names,
        `scenes.render.camera_plan.kept_named`) that are in view now and the visits' view does
        not hold."""
        g, faded = self.ctx.state.graph, self.focus.faded
        cards = {self.ctx.item(i) for i in cue.ids} - items
        return {k for k in cards if (m := g.cards.get(k)) is not None and opacity(m) > 0 and id(m) not in faded}

    def marks(self, which: Callable[[Mobject], bool] = lambda m: True) -> dict[str, Box]:
        """The last visit's note and marks (those ``which`` says), as boxes where the layout at
        home has them (the camera's move undone): a view out on the cards alone may leave the
        note out of the frame while the caption still names its sum."""
        z = self.focus.zoom.inverse() if self.focus.zoom is not None else None
        out: dict[str, Box] = {}
        for n, m in enumerate(m for m in self.walk_marks() if which(m)):
            b = bounds(m)
            if z is not None:
                b = z.point((b[0], b[1])) + z.point((b[2], b[3]))
            out[f"mark:{n}"] = Box(f"mark:{n}", "op", (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, b[2] - b[0], b[3] - b[1])
        return out

    def walk_marks(self) -> list[Mobject]:
        """The walk's marks of its last visit on screen (its note)."""
        return [m for m in self.ctx.state.walk.visit_marks if len(m.get_family()) and m.width > 0 and opacity(m) > 0]

    def drawn(self, lay: Layout) -> Layout:
        """``lay`` (the clip's layout at home) with only the cards and buckets drawn now
        (`drawn_part`): shown, or faded out of view by the camera (they come back with it)."""
        g, faded = self.ctx.state.graph, self.focus.faded

        def shows(m: object) -> bool:
            return m is not None and (opacity(m) > 0 or id(m) in faded)

        keys = [k for k in lay.boxes
                if shows(g.buckets.get(k[len("bucket:"):]) if k.startswith("bucket:") else g.cards.get(k))]
        return drawn_part(lay, keys)

    def _note_room(self, free: Rect, items: set[str]) -> tuple[Rect, list[Rect]] | None:
        """Where the visit's note may go, when that is more than where the cards may: a move under
        the whole code pane, before the walk's line is lit, keeps the cards off it, but the note
        is written at the visit, once the pane has stepped aside to its lit line (16:9: the
        column beside the graph). None: where the cards may (in a tall frame the legend comes
        into the strip the pane frees, `LegendFrame.walk_legend`; and where the visit's ``items``
        are every card on screen: that is no close-up, but the whole graph drawn larger, which
        the walk's later calls, moved in under the stepped-aside pane, would not be:
        grad_accumulation's two cards)."""
        code = self.frame.code
        if code.aside or code.pane is None or self.ctx.layout.code_lit or self.ctx.spec.walk_code != "lit" \
                or self.frame.legend_goes_aside():
            return None
        if all(k in items for k, m in self.ctx.state.graph.cards.items() if opacity(m) > 0):
            return None
        return free, [code_rect(self.ctx.spec, self.theme, True, self.ctx.source)] + self.frame.frame_marks()

    def view(self, home: Layout, seen: tuple[set[str], list[str], tuple[Rect, list[Rect]] | None],
              notes: tuple[tuple[float, float], tuple[float, float]], room: Rect, sight: Sight, beat: float,
              looks: int, most: float) -> Zoom:
        """The camera on ``seen``'s items (`held`) in ``room`` (`visit_view`) with the visit's ``note``
        beside its visited cards (``seen``'s second part) in its room (its third, `_note_room`),
        where it shows them whole (`CameraFocus.shows_whole`: a card drawn larger than its box, a
        long name, may leave the view; then a little less close, up to ``looks`` times), at most
        ``most`` times larger than home and closer than ``beat`` (a factor), or from home moved aside where home leaves the note no room
        (``notes``: its size and its least, `visit_view`); else `WHOLE`."""
        note, least = notes
        reach = tag_reach(self.theme)  # an op's name over a card, a badge beside it: kept in view
        items, visited, note_room = seen
        past = nominal_token_size(self.theme, scale=home.scale)[0]  # the badge right of a card, before a note there
        cards = set(self.drawn(home).boxes)  # a move aside keeps the note off these only (cards drawn later may be
        # where it is written)
        for _ in range(looks):
            inner = (room[0] + reach, room[1] + reach, room[2] - reach, room[3] - reach)
            # moved aside, not larger (`visit_view`): as far as what may show, the cards at the
            # frame's safe edge (no tag stands out past a card's side but a badge, kept off there)
            aside = (sight[0][0], inner[1], sight[0][2], inner[3])
            z = visit_view(home, items, note, inner, most, self.theme.spacing.item_gap, visited, note_room, past,
                           least, aside, cards)
            drawn = tag_reach(self.theme, home.scale * z.factor)  # a tag grows with the view: L1's ``** 2``
            if drawn > reach + 1e-9:  # drawn close reached up against the checklist (REVIEW5 item 5)
                reach = drawn
                inner = (room[0] + reach, room[1] + reach, room[2] - reach, room[3] - reach)
                z = visit_view(home, items, note, inner, most, self.theme.spacing.item_gap, visited, note_room, past,
                               least, aside, cards)
            if z.factor == 1.0 and z != WHOLE and beat <= 1.0:  # moved aside: no closer view to try
                return z if self.focus.shows_whole(z, sight, items) else WHOLE
            if z.factor <= beat + 1e-9:
                break
            if self.focus.shows_whole(z, sight, items):
                return z
            most = z.factor * CLOSER
        return WHOLE


def _widest(sizes: list[tuple[float, float]]) -> tuple[float, float]:
    """The width and height of the largest of the notes ``sizes`` (0, 0: none)."""
    return max((n[0] for n in sizes), default=0.0), max((n[1] for n in sizes), default=0.0)
