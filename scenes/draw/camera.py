"""The walk's camera: in on the node about to be visited where the graph is dense, out on what
is drawn at the beat's end.

Why a view of its own: the plan at an aspect (`scenes.render.camera_plan`) gives each visit a
``camera`` cue in the pause before it and the walk one with no ids where it ends; where the camera
looks is pure (:mod:`scenes.layout.camera`), how the graph's shapes follow is `CameraFocus`'s
(what leaves fades, the rest moves, the scene reads the layout as seen from there). Only the
graph layer moves: the code pane, the captions, the legend and the titles stay. Where the whole
graph reads well already (`dense` says no) the camera comes no closer: it stays home, or moves
the graph aside for a note with no room by its card at home (`pans_only`).
A move never takes time of its own: every aspect's clip keeps the shared plan's times. The camera stays in from one walk beat to the next (it is in
the beat's record), and the plan moves it back out where the walk with it ends.
"""

from __future__ import annotations

import math
from dataclasses import replace

from manim import Mobject, VGroup

from scenes.draw.backward import BackwardWalk
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.drawers import draws
from scenes.draw.fade_times import still_said
from scenes.draw.focus import CameraFocus, Sight
from scenes.draw.camera_ahead import kept_in_view
from scenes.draw.camera_shapes import graph_shapes
from scenes.draw.collisions import CONTAINERS, MIN_OPACITY
from scenes.draw.record import opacity, tagged
from scenes.storyboard.caption_events import explaining
from scenes.draw.frame_spots import FreeFrame
from scenes.draw.ways import moved_bounds
from scenes.layout.camera import WHOLE, drawn_part
from scenes.layout.clear_rects import clear_rect
from scenes.layout.clip import code_rect
from scenes.layout.focus import Zoom
from scenes.layout.place import tag_reach
from scenes.storyboard.cues import BUILDS, Cue, opens_pane
from scenes.draw.camera_views import LOOKS, VisitViews
from scenes.theme import Rect




class WalkCamera(View):
    """Draws ``camera``: asks ``frame`` where the graph may show, ``walk`` how large the visit's
    note is, and moves ``focus``'s camera."""

    def __init__(self, ctx: DrawContext, focus: CameraFocus, frame: FreeFrame, walk: BackwardWalk) -> None:
        super().__init__(ctx)
        self.focus, self.frame, self.walk = focus, frame, walk
        self.views = VisitViews(ctx, focus, frame, walk)

    def _room(self, settled: bool = False) -> tuple[Rect, list[Rect]]:
        """The frame the graph may use while close, and what it keeps off there: the code pane
        (its lit line in the walk) and what it prints, the legend, the checklist (``settled``:
        where a move under way lands, `FreeFrame.frame_marks`)."""
        return self.frame.free_rect(), self.frame.pane_bounds() + self.frame.frame_marks(settled)

    @draws("camera")
    def draw_camera(self, cue: Cue, step: StepScratch) -> Anims:
        """The camera's move (`_move`), and the buckets' ``w.grad = None`` words placed for the view
        it moves to, and the sums a caption still names (`BucketNotes.follow_view`)."""
        g, was = self.ctx.state.graph, self.focus.zoom
        notes = self.walk.buckets.notes
        sums = notes.named_sums(cue.start)  # a bucket's sum a caption names: placed anew too
        back = {id(s) for m, _ in self.focus.rec.faded for s in m.get_family()} if g.none_words or sums else set()
        out = self._move(cue)
        now = self.focus.zoom
        if (not g.none_words and not sums) or (was is None and now is None):
            return out
        notes.keep_named(sums)
        rel = now if was is None else was.inverse() if now is None else was.inverse().then(now)
        assert rel is not None  # (one of the two is a close view)
        gone = {id(s) for m, _ in self.focus.rec.faded for s in m.get_family()}  # out of view after it

        def landed(m: Mobject) -> Rect | None:
            return None if id(m) in gone else moved_bounds(m, rel)

        words = {id(m) for m in [*g.none_words.values(), *sums]}
        shapes = graph_shapes(self.ctx.state)
        seen = self.walk.onscreen.shown_rects(exclude=shapes)  # what the move leaves where it is
        seen += [b for m, t in tagged([m for m in shapes if id(m) not in words])
                 if (t.kind == "text" or t.role in CONTAINERS) and m.width > 0
                 and (opacity(m) >= MIN_OPACITY or id(m) in back) and (b := landed(m)) is not None]
        return self.walk.buckets.notes.follow_view(out, landed, seen)

    def _sight(self, settled: bool = False) -> tuple[Rect, list[Rect], Rect, Sight]:
        """The free frame, what the graph keeps off there (`_room`), the largest clear part of it,
        and where a shape may show while close (a card's stroke may reach past the graph region's
        foot, over the caption's margin, and show at home; never into the frame's safe edge)."""
        free, keep_off = self._room(settled)
        region = clear_rect(free, keep_off)
        slack, safe = self.theme.spacing.edge_clearance, self.theme.safe_rect(self.ctx.spec)
        shown = (max(free[0], safe[0] + slack), max(free[1], safe[1] + slack),
                 min(free[2], safe[2] - slack), min(free[3], safe[3] - slack))
        return free, keep_off, region, (shown, tuple(keep_off), slack)

    def stays(self, visit: Cue) -> Rect | None:
        """Where a note written at ``visit`` stays in view through the moves the camera makes
        while the caption explaining it runs, where it only moves the graph aside (`pans_only`:
        each such move, a pan, is known now, `kept_in_view`); None: anywhere."""
        says = explaining(self.ctx.plan.captions, visit)
        if not self.views.pans_only or says is None:
            return None
        free, keep_off, region, sight = self._sight(settled=True)  # as the moves will find it
        now = self.focus.zoom
        rels: list[Zoom | None] = []
        for c in self.ctx.plan.cues:
            if c.kind == "camera" and c.ids and visit.start + 1e-6 < c.start < says.end - 1e-6:
                z, _ = self.views.aim(c, free, keep_off, sight, region)
                rels.append((None if now is None else now.inverse()) if z == WHOLE
                            else z if now is None else now.inverse().then(z))
        return kept_in_view(sight[0], rels)

    def slid_past(self, visit: Cue) -> list[Rect]:
        """What a note written at ``visit`` keeps off so that the camera's slides into the column
        the pane freed (`VisitViews.slide`) while the caption explaining it runs take it clear of
        the pane stepped aside and what it keeps off: those, each moved back by each slide. A note
        in the way stops the slide short at the lit line, and leaves the column empty."""
        says = explaining(self.ctx.plan.captions, visit)
        if says is None or visit.beat not in self.views.column_walks or not self.frame.code.aside:
            return []
        free, keep_off, region, sight = self._sight(settled=True)  # as the moves will find it
        now = self.focus.zoom
        out: list[Rect] = []
        for c in self.ctx.plan.cues:
            if c.kind == "camera" and c.ids and visit.start + 1e-6 < c.start < says.end - 1e-6:
                # as `_move` makes it: the walk's first view made again slides from home
                base = WHOLE if self.views.again(c) else self.views.framed(c, free, keep_off, sight, region)[0]
                z = self.views.slide(c, sight, base)
                rel = None if z is None else z if now is None else now.inverse().then(z)
                if rel is None or abs(rel.factor - 1.0) > 1e-9:
                    continue  # no slide (a move closer keeps its note in view itself)
                dx, dy = rel.point((0.0, 0.0))
                if abs(dx) < 1e-9 and abs(dy) < 1e-9:
                    continue  # the graph stays where it is
                out += [m for r in keep_off if (m := (r[0] - dx, r[1] - dy, r[2] - dx, r[3] - dy)) not in out]
        return out

    def stays_home(self, cue: Cue) -> bool:
        """Whether the move ``cue`` into a visit leaves the graph at home, with no legend kept off
        (it moves nothing): no closer, moved under half the gap a legend keeps off the graph. A
        legend beside the graph steps out only for a view that comes closer or moves it aside
        (`LegendFrame.give_way`; grad_accumulation 9:16's views: home moved 0.8 px)."""
        if self.focus.walk_holds():
            return True  # a beat's `focus:` holds the camera (`_move`)
        if self.focus.zoom is not None:
            return False
        g = self.ctx.state.graph
        was, g.legend = g.legend, VGroup()
        try:
            free, keep_off, region, sight = self._sight()
            if self.views.again(cue):
                return self.views.slide(cue, sight) is None
            z = self.views.aim(cue, free, keep_off, sight, region)[0]
            dx, dy = z.point((0.0, 0.0))
            return abs(z.factor - 1.0) < 1e-9 and math.hypot(dx, dy) < self.theme.spacing.item_gap / 2
        finally:
            g.legend = was

    def _move(self, cue: Cue) -> Anims:
        free, keep_off, region, sight = self._sight()
        if not cue.ids:
            return self._out(cue, free, (sight[0], (*keep_off, *self._whole_pane()), sight[2]), sight, region)
        if self.focus.walk_holds():
            return []  # a beat's `focus:` chose what the camera shows
        if self.views.again(cue):  # the walk's first view, from home, made again once the pane stepped aside
            slid = self.views.slide(cue, sight) if self.focus.zoom is None else None
            return [] if slid is None else self.focus.view_to(slid, sight, free)
        best, at = self.views.aim(cue, free, keep_off, sight, region)
        if best == WHOLE:  # the visit is seen from home
            return self.focus.view_to(None, sight, region, at=cue.start)
        return self.focus.view_to(best, sight, at)

    def _whole_pane(self) -> list[Rect]:
        """The code pane as it comes back whole after the walk (its lit line no longer alone), and
        the clip's printed lines under it (`FreeFrame.console_reach`, as tall as there)."""
        if self.frame.code.pane is None:
            return []
        pane = code_rect(self.ctx.spec, self.theme, False, self.ctx.source)
        printed = [(pane[0], max(self.ctx.spec.caption[3] + self.ctx.spec.margin, pane[1] - (r[3] - r[1])), pane[2],
                    pane[1]) for r in self.frame.console_reach()]
        return [pane, *printed]

    def _out(self, cue: Cue, free: Rect, out_sight: Sight, sight: Sight, region: Rect) -> Anims:
        """The walk's camera out at the walk's end (or before the next graph is built): on the
        cards drawn now and those the cues until the next camera move build, as large as they fit
        the frame the whole code pane leaves (`VisitViews.view`), where that is closer than home and leaves
        some card of the clip out; else home. The clip's layout places every card it will ever
        draw: home shows the two cards of a loop's graph small in a corner (issue 39 item 4).
        Where the plan moves the camera home before the pane is back whole (``lit``), the cards
        drawn, all of them too, as large as they fit the room the lit line leaves."""
        home = self.focus.home or self.ctx.layout
        later = [c for c in self.ctx.plan.cues if c.start > cue.start + 1e-6 and c.kind in ("camera", "whole")]
        ahead = min(later, key=lambda c: c.start, default=None)
        if ahead is not None and ahead.kind == "whole":
            return self.focus.view_to(None, sight, region, at=cue.start)  # the whole graph grows from home
        until = ahead.start if ahead is not None else self.ctx.plan.duration
        # a move home comes before the pane is back whole (`scenes.render.camera_plan`'s
        # home_before_pane): until then the whole graph may grow into the room the lit line leaves,
        # the walk's notes going as they go home, but for one still explained
        lit = (ahead is not None and not ahead.ids and self.frame.code.aside
               and not any(opens_pane(c) for c in self.ctx.plan.cues if cue.start <= c.start < ahead.start))
        keys = set(self.views.drawn(home).boxes)
        for c in self.ctx.plan.cues:
            if c.kind in BUILDS and cue.start <= c.start < until and c.ids:
                k = self.ctx.item(c.ids[0])
                keys |= {k, f"bucket:{k}"} & set(home.boxes)
        if not keys or (keys >= set(home.boxes) and not lit) or self.views.pans_only:
            return self.focus.view_to(None, sight, region, at=cue.start)
        out_sight = sight if lit else out_sight
        room = clear_rect(free, list(out_sight[1]))
        if lit:  # the whole graph: nothing reaches under its foot but a bucket's name, into the
            # caption's margin as at home (`VisitViews.view` keeps a tag's reach off every side of its room)
            room = (room[0], room[1] - tag_reach(self.theme), room[2], room[3])
        part = drawn_part(home, keys)
        # the last visit's note stays through the move: in view too
        marks = self.views.marks((lambda m: still_said(m, cue.start)) if lit else (lambda m: True))
        part = replace(part, boxes={**part.boxes, **marks})
        z = self.views.view(part, (keys | set(marks), [], None), ((0.0, 0.0), (0.0, 0.0)), room, out_sight, 1.0, LOOKS,
                       self.theme.layout.camera_zoom)
        if z.factor <= 1.0:
            return self.focus.view_to(None, sight, region, at=cue.start)
        if lit:
            return self.focus.view_to(z, out_sight, room, at=cue.start, notes_go=True)
        return self.focus.view_to(z, out_sight, room, sight[1])  # the pane comes back whole after the move

    def see_now(self) -> None:
        """While the walk's camera is close, where a shape may show keeps off the code pane and the
        legend as they are now: the pane steps aside to its lit line at the walk's first visit,
        after a move made under the whole pane, and the note written there beside the card (in
        the column it freed, `VisitViews._note_room`) shows."""
        sight = self.focus.rec.sight
        if sight is not None and self.focus.by_walk:
            self.focus.rec.sight = (sight[0], tuple(self._room()[1]), sight[2])
