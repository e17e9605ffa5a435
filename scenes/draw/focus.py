"""The camera of a beat's `focus:`: the graph moves so that some cards fill its region, larger,
and moves back at the beat's end.

Why the shapes move and not Manim's camera: the code pane, the captions and the legend stay
where they are; only the graph is seen closer. The scene reads the layout as seen from there
(`scenes.layout.focus.zoomed`) while the camera is close, so what the beat's cues draw lands on
the moved cards; what the move takes out of the graph's region fades out (it would lie over the
code or the captions) and comes back with the move back. Each move is in two halves, so that a
card that moves never passes over one that fades: going in, what leaves fades first and the
rest then grows; coming back, the rest shrinks first and what returns then fades in.

A view of ``ClipScene``. Where the camera is is its record (`scenes.draw.state.CameraView`): a
beat's focus lasts from its focus to its unfocus, but the walk's camera stays in from beat to
beat while the walk goes on, so a beat may start with the camera close, and its starting state
(and the digest in its segment's key) says so. While close it sets the context's layout to the
zoomed one (`restore` sets it again from the record, once a stored state is loaded), and files
the graph's arrows and the walk's routes under the zoomed layout's routes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from manim import Animation, FadeOut, Mobject, Transform, VMobject
from manim.utils.rate_functions import linear

from scenes.draw.camera_shapes import floating, graph_shapes, owners, together
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.crossfade import first_half, second_half
from scenes.draw.drawers import draws
from scenes.draw.fade_times import (CAMERA_FADES, FADE_LEAST, before_the_move, comes_from, gone_by, settled, span,
                                    still_said)
from scenes.draw.frame_spots import bounds
from scenes.draw.glide import Colours, colours, glide, glide_in, glide_out, hop, restore, through
from scenes.draw.state import CameraView
from scenes.draw.turn_round import TurnRound
from scenes.draw.ways import (CALM, carried_off, crosses, first_met, last_met, moved_bounds, parts,
                              keep_in_frame, seen_until, shows_from, stride, ways, zoom_shape, carry_rests)
from scenes.layout.clear_rects import seen_in
from scenes.layout.focus import Zoom, focus_zoom, inside, zoomed
from scenes.layout.place import Layout
from scenes.storyboard.cues import Cue
from scenes.theme import Rect

Sight = tuple[Rect, tuple[Rect, ...], float]
"""Where a shape may show while the walk's camera is close: inside a rectangle (by a slack),
over none of the rectangles kept off (`scenes.layout.camera.seen_in`)."""

class CameraFocus(View):
    """Draws focus and unfocus; builds a shape at home and moves it as the camera is
    (``drawn_at_home``); fades what a cue drew outside the region while close (``fade_outside``)."""

    def __init__(self, ctx: DrawContext) -> None:
        super().__init__(ctx)
        self.clip = ctx.layout  # the clip's layout: the camera at home
        self.moving: set[int] = set()  # the shapes the walk's camera moves in this step (where they land counts)

    @property
    def rec(self) -> CameraView:
        return self.ctx.state.camera

    @property
    def home(self) -> Layout | None:
        """The clip's layout while the camera is close (None: at home)."""
        return self.clip if self.rec.zoom is not None else None

    @property
    def zoom(self) -> Zoom | None:
        """The camera's move in (None: at home)."""
        return self.rec.zoom

    @property
    def by_walk(self) -> bool:
        """The walk's camera (`scenes.draw.camera`) moved it, not a beat's focus."""
        return self.rec.by_walk

    @property
    def faded(self) -> dict[int, Colours]:
        """Shape id -> its colours before a move faded it out of view."""
        return {id(m): c for m, c in self.rec.faded}

    def _fade(self, m: Mobject) -> None:
        """``m`` kept as faded out of view, with its colours now (before it is faded)."""
        self.rec.faded.append((m, colours(m)))

    def bring_back(self, m: Mobject) -> None:
        """``m``, faded out of view by a move, drawn again with its colours from before: a cue
        moves it into view itself (`WaitingTokens.gather`), so `fade_outside` leaves it where it
        starts this step."""
        for k, (shape, saved) in enumerate(self.rec.faded):
            if shape is m:
                del self.rec.faded[k]
                restore(m, saved)
                break
        self.moving.add(id(m))

    def seen(self) -> Callable[[Rect], bool] | None:
        """While the walk's camera is close: where a shape may show."""
        sight = self.rec.sight
        if sight is None:
            return None
        return lambda b: seen_in(b, sight[0], sight[1], sight[2])

    def _set(self, zoom: Zoom | None, by_walk: bool = False, region: Rect | None = None,
             sight: Sight | None = None) -> None:
        self.rec.zoom, self.rec.by_walk, self.rec.region, self.rec.sight = zoom, by_walk, region, sight

    def restore(self) -> None:
        """The context's layout as the record says the camera is (after a stored state is
        loaded): the clip's, or the clip's as seen from the camera (its routes equal those the
        arrows are filed under)."""
        z = self.rec.zoom
        if z is None:
            self.ctx.layout = self.clip
        elif self.rec.region is not None:
            self.ctx.layout = replace(zoomed(self.clip, z), region=self.rec.region)
        else:
            self.ctx.layout = zoomed(self.clip, z)

    def _rekey(self, new: Layout) -> None:
        """The arrows filed under ``new``'s routes: the layout's routes are the keys the cues look
        arrows up by, and the zoom makes new ones, in order."""
        to = dict(zip(self.ctx.layout.routes, new.routes))
        g = self.ctx.state.graph
        g.arrows = {to.get(r, r): a for r, a in g.arrows.items()}
        self.ctx.layout = new

    def _moved(self, m: Mobject, z: Zoom) -> Mobject:
        return zoom_shape(m.copy(), z)

    def drawn_at_home(self, make: Callable[[Layout], Mobject]) -> Mobject:
        """A shape ``make`` builds from a layout, built from the layout at home and then moved
        as the camera is: while close, a text sized by the least readable size (a compact card,
        an op name) would be that size in the close view, and too small once the camera is back."""
        if self.home is None or self.zoom is None:
            return make(self.ctx.layout)
        return zoom_shape(make(self.home), self.zoom)

    @draws("focus")
    def draw_focus(self, cue: Cue, step: StepScratch) -> Anims:
        items = {self.ctx.item(i) for i in cue.ids}
        z = focus_zoom(self.ctx.layout, items, self.theme.layout.focus_zoom)
        if z.factor == 1.0 and z.about == z.to:
            return []
        self._set(z)
        self._rekey(zoomed(self.ctx.layout, z))  # where tokens wait is read from the layout anew
        self.rec.faded = []
        out: Anims = []
        shapes = graph_shapes(self.ctx.state)
        carry_rests(shapes, z)
        # the move places them: `fade_outside` must not judge them where the move starts (a
        # focused card at home may lie outside the close view's region, and would stay hidden)
        self.moving = {id(m) for m in shapes}
        for m in shapes:
            target = self._moved(m, z)
            if not inside(bounds(target), self.ctx.layout.region):
                self._fade(m)
                target.set_opacity(0.0)
                out.append(hop(m, target, 0.0, 0.5, out=True))
            else:  # moves once what leaves has faded: the growing cards never pass over a fading one
                out.append(Transform(m, target, rate_func=second_half))
        return out

    def fade_outside(self, anims: Sequence[Animation] = ()) -> None:
        """While the camera is close, what a cue has just drawn outside the graph's region (an
        arrow from a card the zoom left out) is faded as the zoom faded the rest. ``anims``: the
        step's animations: one that turns a shape kept out of view (a `TurnRound` of an arrow
        into a gradient's as the walk flips the edges, or a `Transform`) turns it unseen, and the
        shape comes back in view as it was turned (its colours kept), not shown where the camera
        left it."""
        moving, self.moving = self.moving, set()  # still where the move starts: it placed them itself
        if self.home is None:
            return
        region = self.ctx.layout.region
        seen = self.seen() or (lambda b: inside(b, region))
        faded, owned = self.faded, owners(self.ctx)
        shapes = [m for m in graph_shapes(self.ctx.state) if id(m) not in moving]
        out = {id(m) for m in shapes if id(m) in faded or not seen(bounds(m))}
        gone = out | faded.keys()
        for m in shapes:  # a mark beside a card out of view goes with it
            if id(m) not in faded and (id(m) in out or any(id(o) in gone for o in owned.get(id(m), []))):
                self._fade(m)
                m.set_opacity(0.0)
        hidden = {id(m): k for k, (m, _) in enumerate(self.rec.faded)}
        for a in anims:
            k = hidden.get(id(a.mobject))
            target = a.target_mobject if isinstance(a, Transform) else a.new if isinstance(a, TurnRound) else None
            if target is not None and k is not None and id(a.mobject) not in moving:
                turned = colours(target)  # its opacity as turned (a dimmed arrow's), where the parts match
                if len(turned) == len(self.rec.faded[k][1]):
                    self.rec.faded[k] = (a.mobject, turned)
                for part in target.get_family():  # a Group has no opacity of its own: its VMobjects do
                    if isinstance(part, VMobject):
                        part.set_opacity(0.0)

    @draws("unfocus")
    def draw_unfocus(self, cue: Cue, step: StepScratch) -> Anims:
        home = self.home
        if home is None or self.zoom is None:
            return []
        z = self.zoom.inverse()
        self._rekey(home)
        faded = self.faded
        self._set(None)
        # the last visit's note and marks were made for the close view (its texts at the least
        # readable size there): shrunk with the graph they would be too small, and reach out of
        # the frame; the beat that made them is over, so they go where they are, before the
        # graph has moved from under them
        walk = self.ctx.state.walk
        notes, walk.visit_marks, walk.products = walk.visit_marks, [], {}
        out: Anims = [FadeOut(m, rate_func=before_the_move) for m in notes]
        shapes = graph_shapes(self.ctx.state)
        carry_rests(shapes, z)
        targets = {id(m): self._moved(m, z) for m in shapes}
        self._waiting_in_frame(targets, z)
        for m in shapes:
            target = targets[id(m)]
            saved = faded.get(id(m))
            if saved is not None:
                restore(target, saved)
            out.append(hop(m, target, 0.5, 1.0, out=False) if saved is not None  # back before what returns shows
                       else Transform(m, target, rate_func=first_half))
        self.rec.faded = []
        return out

    def _waiting_in_frame(self, targets: dict[int, Mobject], z: Zoom) -> None:
        """Each token waiting for its node's visit that the move ``z`` takes out of the frame set
        inside it instead (`keep_in_frame`), off where the other shapes land (``targets``, by
        shape id; not the arrows, which it may pass) and off the runs of the cards' values."""
        g, w, h = self.ctx.state.graph, self.ctx.spec.frame_width, self.ctx.spec.frame_height
        waiting = [m for ms in self.ctx.state.walk.tokens.values() for m in ms if id(m) in targets]
        values = [v for c in g.cards.values() if isinstance(v := getattr(c, "value", None), Mobject) and v.width > 0]
        e, skip = self.theme.layout.safe_edge, {id(a) for a in g.arrows.values()}
        keep_in_frame(waiting, targets, skip, values, z, (-w / 2 + e * w, -h / 2 + e * h, w / 2 - e * w, h / 2 - e * h),
                      self.theme.proportions.ride_grid)

    def walk_closer(self) -> float:
        """How much larger the walk's camera draws the graph now (1: home, or a beat's `focus:`):
        a visit's note is drawn that much larger too, so that its maths reads as large as the
        cards it is about."""
        return self.zoom.factor if self.by_walk and self.zoom is not None else 1.0

    def walk_holds(self) -> bool:
        """Whether a beat's `focus:` holds the camera (the walk's camera then leaves it be)."""
        return self.home is not None and not self.by_walk

    def shows_whole(self, z: Zoom, sight: Sight, items: Iterable[str]) -> bool:
        """Whether the walk's camera moved to ``z`` (a move of the layout at home) shows whole
        every drawn card and bucket of ``items`` (ids of the clip's layout): a card is drawn
        larger than its box (a long name, a loss's), and one the move would take past the
        view's edge fades out of view, where the move was to show it."""
        rel = z if self.zoom is None else self.zoom.inverse().then(z)
        g = self.ctx.state.graph
        shapes = [g.buckets.get(k[len("bucket:"):]) if k.startswith("bucket:") else g.cards.get(k) for k in items]
        return all(seen_in(moved_bounds(m, rel), sight[0], sight[1], sight[2]) for m in shapes if m is not None)

    def _edges(self) -> list[Rect]:
        """The bands along the frame's edges, ``layout.safe_edge`` of its width and height deep,
        and everything past them: where nothing on screen stays (`scenes.render.fill.near_edge`)."""
        w, h, e = self.ctx.spec.frame_width, self.ctx.spec.frame_height, self.theme.layout.safe_edge
        x, y, far = w / 2 - e * w, h / 2 - e * h, 4.0 * (w + h)
        return [(-far, -far, -x, far), (x, -far, far, far), (-far, -far, far, -y), (-far, y, far, far)]

    def view_to(self, z: Zoom | None, sight: Sight, region: Rect, via: Sequence[Rect] | None = None,
                at: float | None = None, notes_go: bool = False) -> Anims:
        """The walk's camera from where it is to ``z`` (a move of the layout at home; None: home),
        in up to three parts, so that a shape that moves never passes over one that fades: what
        leaves the view (``seen`` says where a shape may show) glides with the rest and fades
        out over the glide, gone before it would pass over a pane, the caption or out of the
        frame (`glide_out`; one out of view where it starts, and going home the last visit's
        note, as at an `unfocus`, fade where they are, first, but for a walk's mark still
        explained as the move starts at ``at``, `still_said`); the rest moves; what comes back
        fades in over the glide or where it landed. ``region``: where the cues place things
        while close; ``via``: what the glide keeps off, where that is not yet what ``sight`` keeps
        off (a pane that comes back whole after the move; None: ``sight``'s). ``notes_go``: the
        notes go as going home, on a way out to the whole graph grown (`WalkCamera._out`)."""
        def seen(b: Rect) -> bool:
            return seen_in(b, sight[0], sight[1], sight[2])

        if self.zoom is None and z is None:
            return []
        home = self.home or self.ctx.layout
        if self.zoom is None:
            assert z is not None
            rel = z
        else:
            rel = self.zoom.inverse() if z is None else self.zoom.inverse().then(z)
        notes: list[Mobject] = []
        if z is None or notes_go:  # the note was made for the close view: it goes where it is (`draw_unfocus`)
            walk = self.ctx.state.walk
            kept = [m for m in walk.visit_marks if still_said(m, at) and seen(moved_bounds(m, rel))]
            if not kept or kept[-1] is not walk.visit_marks[-1]:
                walk.products = {}  # the products are pills in the last visit's note
            notes, walk.visit_marks = [m for m in walk.visit_marks if m not in kept], kept
        leaving, coming, moving = [], [], []
        faded: list[tuple[Mobject, Colours]] = []
        was, owned = self.faded, owners(self.ctx)
        shapes = graph_shapes(self.ctx.state)
        carry_rests(shapes, rel)
        ids = {id(m) for m in shapes}
        # where each lands is judged from its box; a moved copy is made only for a shape that
        # fades or crosses (one that glides is carried there by `glide`, point by point)
        shown = {id(m) for m in shapes if z is None or seen(moved_bounds(m, rel))}
        if z is not None:
            shown -= floating(self.ctx, shown)
        for m in shapes:
            saved = was.get(id(m))
            shows = id(m) in shown and all(id(o) not in ids or id(o) in shown  # a mark beside a card
                                           for o in owned.get(id(m), []))  # shows only with it
            if saved is None and not shows:  # leaves the view: faded where it is, first
                faded.append((m, colours(m)))
                leaving.append(m)
            elif saved is not None and shows:  # comes back: where it lands, once the rest is there
                target = self._moved(m, rel)
                restore(target, saved)
                coming.append((m, target))
            elif saved is not None:  # stays out of view: moved unseen
                faded.append((m, saved))
                zoom_shape(m, rel)
            else:
                moving.append(m)
        # the graph glides on the first way (straight, shift then scale, scale then shift) on
        # which nothing passes over the code pane, the legend or the checklist; where every way
        # does, what would pass over them leaves and comes back
        options, panes = ways(rel), sight[1] if via is None else via
        box = {id(m): bounds(m) for m in [*moving, *leaving, *(m for m, _ in coming)]}  # read for every way: once
        clear = [w for w in options if not any(crosses(box[id(m)], w, panes) for m in moving)] or options[:1]
        # of those no faster than `CALM` times the calmest, the one on which what leaves stays in
        # the frame longest, to fade as it goes
        strides = [max((stride(box[id(m)], w) for m in moving), default=0.0) for w in clear]
        clear = [w for w, s in zip(clear, strides) if s <= CALM * min(strides) + 1e-9]
        # and, where some do, those on which nothing that stays or comes back passes by the frame's edge
        edges, shown_after = self._edges(), moving + [m for m, _ in coming]
        clear = [w for w in clear if not any(crosses(box[id(m)], w, edges) for m in shown_after)] or clear
        off = carried_off(self.ctx.spec.frame_width, self.ctx.spec.frame_height, sight[0][1] - sight[2], panes)
        way = max(clear, key=lambda w: min((seen_until(box[id(m)], w, off) for m in leaving), default=1.0))
        crossing = [(m, self._moved(m, rel)) for m in moving if crosses(box[id(m)], way, panes)]
        moving = [m for m in moving if not any(m is c for c, _ in crossing)]
        # what comes back glides in with the rest, fading in from where it is in view for good,
        # unless that is late in the glide: then it fades in where it lands, once the rest is there
        # (a mark, from where its cards are in view too: an arrow does not come in before them)
        starts = {id(m): shows_from(box[id(m)], way, seen) for m, _ in coming}
        for m, _ in coming:
            for o in owned.get(id(m), []):
                if id(o) in starts and starts[id(m)] is not None:
                    so = starts[id(o)]
                    starts[id(m)] = None if so is None else max(so, starts[id(m)] or 0.0)
        entering = [(m, t, f) for m, t in coming if (f := starts[id(m)]) is not None]
        coming = [(m, t) for m, t in coming if starts[id(m)] is None]
        # what leaves glides with the rest and fades out over the glide, gone by where it would
        # pass over a pane or the caption, or out of the frame (it may cross the safe edge as it
        # goes, faded: a camera carries it off); a card and its marks on one curve, the soonest
        # of theirs (a badge goes with its card)
        untils = together({id(m): seen_until(box[id(m)], way, off) for m in leaving}, owned)
        # (a moved copy only for what fades where it is: what glides out is carried point by point)
        hopping = [(m, self._moved(m, rel).set_opacity(0.0)) for m in leaving if untils[id(m)] <= 0.0]
        # the move takes most of the play, the fades `CAMERA_FADES` of it between them: a move
        # fitted into a short pause glides, and does not leap across the frame
        fades = int(bool(hopping or notes or crossing)) + int(bool(coming or crossing))
        share = min(1.0 / 3.0, CAMERA_FADES / fades) if fades else 0.0
        gone = share if (hopping or notes or crossing) else 0.0  # the part in which the rest moves: [gone, back]
        back = 1.0 - share if (coming or crossing) else 1.0
        rate = settled(gone, back)
        # a card that would be gone within a frame or two is held where it is seen as it fades
        # (`glide_out`), gone before a shape that glides on (or leaves by a longer way) meets it
        # there (a visit's note fades as it goes); what comes back where it lands fades in there
        # once none passes over it
        # (each by its parts: a card's op name reaches over the gap to the next row, whose card
        # its box meets where none of its parts does)
        part = {id(m): parts(m) for m in [*moving, *leaving, *(m for m, _, _ in entering)]}
        movers = [(part[id(m)], 1.0, 1.0) for m in [*moving, *(m for m, _, _ in entering)]]
        movers += [(part[id(m)], u, gone_by(rate, u)) for m in leaving if (u := untils[id(m)]) > 0.0]
        # (a card, and its marks with it; an arrow as its cards: the one that glides on covers it)
        g = self.ctx.state.graph
        cards = {id(c) for c in (*g.cards.values(), *g.buckets.values())}
        met = together({id(m): first_met(part[id(m)], way, rate, untils[id(m)], movers)
                         if len(owned.get(id(m), [])) < 2 else 1.0 for m in leaving
                         if 0.0 < untils[id(m)] and gone_by(rate, untils[id(m)]) < FADE_LEAST
                         and (id(m) in cards or owned.get(id(m)))}, owned)
        lands = together({id(m): comes_from(back, last_met(parts(t), way, rate, movers)) for m, t in coming},
                          owned, max)
        out: Anims = [FadeOut(m, rate_func=span(0.0, gone)) for m in notes]
        out += [hop(m, target, 0.0, gone, out=True) for m, target in hopping]
        out += [glide_out(m, way, rate, untils[id(m)], met.get(id(m), 0.0)) for m in leaving if untils[id(m)] > 0.0]
        out += [glide(m, way, rate) for m in moving]
        out += [glide_in(m, target, way, rate, f) for m, target, f in entering]
        out += [through(m, target, gone, back) for m, target in crossing]
        out += [hop(m, target, lands[id(m)], 1.0, out=False, eased=linear) for m, target in coming]
        self.rec.faded = faded
        self.moving = ({id(m) for m, _ in coming + crossing} | {id(m) for m in leaving + moving}
                       | {id(m) for m, _, _ in entering})
        if z is None:
            self._rekey(home)
            self._set(None)
        else:
            self._rekey(replace(zoomed(home, z), region=region))
            self._set(z, by_walk=True, region=region, sight=sight)
        return out
