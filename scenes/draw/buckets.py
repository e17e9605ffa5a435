"""Bucket cues of the clip scene: each leaf's AccumulateGrad bucket, its fill and its reset.

Why apart from :mod:`scenes.draw.backward`: the buckets are the one part of the backward walk
that holds state across passes (``.grad`` adds up until ``zero_grad``), with its own arithmetic
(``6 + 6 = 12``) and timing (the level rises once the dropped gradient has landed). A view of
``ClipScene``: it changes the buckets of the graph's record and the walk's marks by them
(:mod:`scenes.draw.state`) and returns animations. The walk (:mod:`scenes.draw.backward`) calls
``enter_backward`` as it starts; nothing here calls the walk. What a bucket's notes say and where
(its sums, its ``w.grad = None``) is :mod:`scenes.draw.bucket_notes`'s; where tokens wait in and
drop into its mouth, :mod:`scenes.draw.bucket_mouth`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cached_property

from manim import DOWN, RIGHT, FadeIn, FadeOut, Mobject, VGroup, smooth

from scenes.draw.bucket_mouth import BucketMouths, waits_beside, waits_in_mouth
from scenes.draw.bucket_notes import BucketNotes, named_past
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.crossfade import first_half
from scenes.draw.drawers import draws
from scenes.draw.drop import COLUMN, DROP, FADE_LEAD, SINK, DropIn
from scenes.draw.focus import CameraFocus
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.labels import CardLabels
from scenes.draw.onscreen import OnScreen
from scenes.draw.record import tag as record_tag
from scenes.draw.refill import refill
from scenes.draw.state import GraphView, WalkView
from scenes.layout.bucket_level import fill_level, fill_scales
from scenes.layout.detour import clear_of
from scenes.storyboard.views.graph import NONE_TEXT
from scenes.layout.label_spots import rect_around
from scenes.layout.term_column import by_leaf, column_x, nearer_other_leaf, stepped_column, under
from scenes.layout.place import Box
from scenes.theme import Rect
from scenes.draw.visuals import bucket, edge_arrow
from scenes.storyboard.caption_events import naming
from scenes.storyboard.cues import Cue
from scenes.storyboard.pane_back import last_out_before_pane
from scenes.storyboard.placeholders import Shown

class Buckets(View):
    """Draws bucket_appear, bucket_fill and bucket_reset; gives every weight its bucket when the
    backward pass starts (``enter_backward``). Asks ``labels`` for tags and tokens, ``onscreen``
    what is shown; ``notes`` writes its sums and None words, ``mouths`` says where tokens go in."""

    def __init__(self, ctx: DrawContext, labels: CardLabels, onscreen: OnScreen, frame: FreeFrame,
                 focus: CameraFocus) -> None:
        super().__init__(ctx)
        self.labels, self.onscreen, self.frame, self.focus = labels, onscreen, frame, focus
        self.notes = BucketNotes(ctx, labels, onscreen, frame)
        self.mouths = BucketMouths(ctx, onscreen, frame, self._bucket)
        self.sum_written: Callable[[Mobject, str, list[Mobject], StepScratch], Anims] = lambda *_: []
        """What gives way to a fill's new sum (its value, the leaf, what goes in the step): the
        walk's tokens waiting in another bucket's row level with it (`WaitingTokens.clear_sum`)."""
        self.note_written: Callable[[list[Mobject], str, list[Mobject], StepScratch], Anims] = lambda *_: []
        """What gives way to the lines of a fill's sums note (the lines, the leaf, what goes in the
        step): the walk's tokens waiting in another bucket's row just over or under them
        (`WaitingTokens.clear_note`)."""

    def _bucket(self, box: Box, level: float, value: str | None) -> VGroup:
        """The bucket of ``box`` at ``level`` showing ``value``, built at home and moved as the
        camera is: its value keeps the least readable size at home, where a bucket filled while
        the camera is in would otherwise shrink under it once the camera is back (or moves to a
        wider view)."""
        return self.focus.drawn_at_home(lambda lay: bucket(lay.boxes.get(box.id, box), self.theme, level=level,
                                                           value=value, scale=lay.scale))

    @property
    def graph(self) -> GraphView:
        return self.ctx.state.graph

    @property
    def walk(self) -> WalkView:
        return self.ctx.state.walk

    @cached_property
    def fill_max(self) -> dict[str, float]:
        """Each leaf's largest |.grad| over the clip: its bucket full to the brim (`fill_scales`)."""
        return fill_scales(self.ctx.plan)

    def _ensure_bucket(self, leaf: str, grad_fn: Shown | None = None, name: Shown | None = None) -> Anims:
        """The empty bucket of ``leaf`` with the edge into it, its grad_fn beneath and its name above
        (unless the leaf's card shows it); nothing if it is shown already or has no box."""
        box = self.ctx.layout.boxes.get(f"bucket:{leaf}")
        if box is None or leaf in self.graph.buckets:
            return []
        b = self._bucket(box, 0.0, None)
        self.graph.buckets[leaf] = b
        group = VGroup(b)
        into = next((r for r in self.ctx.layout.routes if r.src == box.id and r not in self.graph.arrows), None)
        if into is not None:  # the last edge of the backward graph: leaf -> its AccumulateGrad
            self.graph.arrows[into] = edge_arrow(into, self.theme, backward=True, scale=self.ctx.layout.scale,
                                                 zoom=self.ctx.layout.zoom)
            group.add(self.graph.arrows[into])
        if grad_fn is not None:
            self.graph.bucket_tags.append(self.labels.tag(grad_fn.text, box, above=False))
            group.add(self.graph.bucket_tags[-1])
            self.ctx.record(grad_fn)
        if name is not None:  # the leaf's card beside the bucket shows the name
            if self.onscreen.card_shows(leaf, name.text):
                self.ctx.record(name)
            else:
                self.graph.bucket_tags.append(self.labels.tag(name.text, box, above=True))
                group.add(self.graph.bucket_tags[-1])
                self.ctx.record(name)
        return [FadeIn(group)]

    @draws("bucket_appear")
    def draw_bucket_appear(self, cue: Cue, step: StepScratch) -> Anims:
        """The bucket of the cue's leaf comes in (see `_ensure_bucket`)."""
        shown = {s.role: s for s in cue.strings}
        return self._ensure_bucket(cue.ids[1], shown.get("grad_fn"), shown.get("name"))

    def enter_backward(self) -> Anims:
        """First backward cue: every weight gets its (empty) bucket. The arrows turn round as
        the walk reaches them (`BackwardWalk.draw_visit`), not all at once: a graph the walk never enters (a
        second loss's, when only the first's backward() runs) keeps its forward arrows, as no
        gradient flows there."""
        if self.graph.backward:
            return []
        self.graph.backward = True
        out: Anims = []
        for box in self.ctx.layout.boxes.values():
            if box.kind == "bucket" and self.ctx.layout.items[box.id].tensor:
                out += self._ensure_bucket(self.ctx.layout.items[box.id].tensor or "")
        return out

    @draws("bucket_fill")
    def draw_bucket_fill(self, cue: Cue, step: StepScratch) -> Anims:
        """The arriving gradient drops into the bucket; the level and value show the new .grad."""
        out = self.enter_backward()
        leaf = cue.ids[1]
        box = self.ctx.layout.boxes.get(f"bucket:{leaf}")
        if box is None:
            return out
        out += self._ensure_bucket(leaf) + self.notes.drop_none_words(leaf)
        old = self.graph.buckets[leaf]
        shown = {s.role: s for s in cue.strings}
        parts = [s for s in cue.strings if s.role == "part"]
        top = self.fill_max.get(leaf)
        before = shown.get("before")
        if before is not None and self.graph.bucket_text.get(leaf) != before.text:
            # a replayed fill: the bucket first shows what .grad held, then what arrives
            old.become(self._bucket(box, fill_level(before.number, top), before.text))
            self.graph.bucket_text[leaf] = before.text
        for s in (shown.get("name"), before):
            if s is not None and (self.onscreen.card_shows(leaf, s.text) or self.graph.bucket_text.get(leaf) == s.text):
                self.ctx.record(s)
        after = shown.get("after")
        new = self._bucket(box, fill_level(after.number if after else None, top), after.text if after else None)
        if after is not None and new.value is not None:
            self.ctx.record(after)
        add = shown.get("add")
        waiting = self.walk.fill_tokens.pop(leaf, [])
        keep: list[VGroup] = []  # the tokens waiting there that go in (the others fade)
        settled: set[int] = set()  # tokens shown where they go in (no room beside the bucket)
        arriving = (self._terms_arrive(box, leaf, parts, [old, new])  # no token rode to it: its terms show first
                    if add is not None and len(parts) > 1 and not waiting else [])
        if arriving and add is not None:  # they show by the bucket, the sum is written over them, they go in
            self.ctx.record(add)
            keep = arriving
            out += [DropIn(m, m.sinks_to, COLUMN, fade_in=True, steady=True) if hasattr(m, "sinks_to")
                    else DropIn(m, m.get_center()[:2], SINK, fade_in=True) for m in arriving]
        elif add is not None:
            # the badge of the visit to AccumulateGrad, waiting beside the bucket, drops into it:
            # it glides into the middle and fades there as the level rises, and the bucket's
            # number shows once it is gone (`scenes.draw.drop`); with no badge there, one shows
            # first. Where paths met at the bucket, every token waiting there drops in with it
            keep = waiting if len(parts) > 1 else [m for m in waiting if m.text.text == add.text][:1]
            out += [FadeOut(m) for m in waiting if m not in keep]
            self.ctx.record(add)
            drops = keep
            if not keep:
                tok = self.labels.token(add.text)
                (x, y), inside = self._first_shown_at(leaf, box, tok, old, new)
                if inside:  # it goes in where it shows
                    settled.add(id(tok))
                drops = [self.labels.keep_inside(tok.move_to([x, y, 0]))]
            far = [m for m in drops if not waits_beside(m)]  # at the leaf's arrowheads (w * w): they go there
            out += [FadeOut(m, rate_func=first_half) for m in far]
            near = [m for m in drops if m not in far]
            if len(near) > 1 and all(waits_in_mouth(m) for m in near):  # met in its mouth: the note
                out += [DropIn(m, m.get_center()[:2], SINK) for m in near]  # sums them, then they go in
                near = []
            elif len(near) > 1:  # a row beside it: summed first (the note says so), as the engine sums
                out += [FadeOut(m, rate_func=lambda a: smooth(DROP.window(a, DROP.arrive - FADE_LEAD, DROP.gone)))
                        for m in near]  # paths before AccumulateGrad; dropped together they would meet in
                near = []  # the mouth, one over another
            for m in near:  # in its bucket, it is the bucket's
                to = tuple(m.get_center()[:2]) if id(m) in settled else self.mouths.mouth(box, m, [old.value, new.value])
                if not self.mouths.clear_way(leaf, m, to):  # a neighbour in the way: it goes in where it waits
                    out.append(FadeOut(m, rate_func=first_half))
                    continue
                record_tag(m, "badge", id=box.id)
                out.append(DropIn(m, to, fade_in=not keep))
        else:
            out += [FadeOut(m) for m in waiting]
        early = len(parts) > 1 and bool(keep)  # what met is summed while it is there: the note comes
        named = [m for m in self.walk.visit_marks if named_past(m, cue.start)]  # an earlier sum a caption names
        marks = [] if early else [m for m in self.walk.visit_marks if m not in named]  # as the visit's marks
        out += [FadeOut(m, rate_func=first_half) for m in self.walk.visit_marks if m not in named]  # go, so
        going, self.walk.visit_marks = marks + [m for m in waiting if m not in keep], named  # keeps off them
        coming = ([new.value] if new.value is not None else []) + arriving  # the note keeps off the terms coming
        if new.value is not None:  # a token of another bucket's row waiting level with the sum, past it, moves
            out += self.sum_written(new.value, leaf, going, step)
        rows = []
        if len(parts) > 1 and add is not None:  # the paths' gradients meet in it: 3 + 3 = 6 (this pass's,
            rows.append(f"{' + '.join(s.text for s in parts)} = {add.text}")  # summed before AccumulateGrad)
            for s in parts:
                self.ctx.record(s)
        if before is not None and add is not None and after is not None:  # .grad keeps adding: 6 + 6 = 12
            rows.append(f"{before.text} + {add.text} = {after.text}")
        if rows:
            says = naming(self.ctx.plan.captions, cue)
            written = self.notes.sums_note(box, rows, going, coming, early=early,
                                           until=says.end if says is not None else None,
                                           later=says is not None and says.beat != cue.beat
                                           and not self._framed_out(cue))
            out += written  # (its lines' fade-ins) a token of another row just over or under a line moves
            out += self.note_written([a.mobject for a in written], leaf, going, step)
        out.append(refill(old, new, DROP) if add is not None else refill(old, new, rate_func=smooth))
        self.graph.bucket_text[leaf] = after.text if after is not None and new.value is not None else None
        return out

    def _framed_out(self, cue: Cue) -> bool:
        """Whether a sum the fill ``cue`` writes need not keep off the code pane as it comes back
        whole where it is now: the walk's camera is closer than home, and its way out frames the
        walk's last note clear of the whole pane and its printed lines (`WalkCamera._out`,
        `last_out_before_pane`). Kept off them in the close view, the sum went to the bucket's far
        side from the cards, and the view out, holding it, came less close (dynamic_graph 16:9)."""
        z = self.focus.zoom
        return self.focus.by_walk and z is not None and z.factor > 1.0 + 1e-9 and last_out_before_pane(
            self.ctx.plan.cues, cue)

    def _terms_arrive(self, box: Box, leaf: str, parts: list[Shown], buckets: list[VGroup]) -> list[VGroup]:
        """The terms of a fill whose gradients met, where none rode to it (the walk to the leaf not
        drawn: an ``accumulate`` beat, a walk cut short by its ``steps``): a token each, in a row or
        one over another, whichever free spot is nearer the bucket (clear of what is shown and of
        ``buckets``, its old and new state) and not nearer another leaf, tagged as its arrow's as a
        row that rode there is. cubic_fit3's ``d``: its sum ``5.0000 + -1.1250 + -1.5000 = 2.3750``
        was written with no term ever shown. Where that spot is not by the leaf (`by_leaf`: at
        9:16 c's terms stood by the sums at the frame's top) or none is free (one between two others
        in a crowded row, `nearer_other_leaf`), one over another over the leaf (`_terms_over_mouth`);
        where that has no room either, at the far spot; none where there is none."""
        own = [bounds(m) for m in self.onscreen.own_shapes(leaf) + buckets]
        others = self.onscreen.shown_rects(exclude=self.onscreen.own_shapes(leaf), away=True)
        avoid = others + own
        lay = self.onscreen.shown_layout(box)
        placed = []
        for way in (RIGHT, DOWN):  # a row, or one over another where that stands nearer (a crowded 9:16 graph)
            toks = [self.labels.token(s.text) for s in parts]
            group = VGroup(*toks).arrange(way, buff=self.theme.spacing.edge_clearance)
            x, y = self.labels.badge_spot(box, group, avoid, low=True)
            x, y = self.onscreen.free_spot((x, y), group, avoid)
            spot = rect_around(x, y, (group.width, group.height), 0.0)
            if not nearer_other_leaf(lay, box, spot):
                placed.append((not by_leaf(lay, box, spot), math.dist((x, y), (box.x, box.y)), group, toks, (x, y)))
        best = min(placed, key=lambda p: p[:2], default=None)
        if best is None or best[0]:
            over = self._terms_over_mouth(box, leaf, parts, others)
            if over or best is None:
                return over
        _, _, group, toks, (x, y) = best
        self.labels.keep_inside(group.move_to([x, y, 0]))
        return [record_tag(m, "badge", id=f"{box.id}->{leaf}") for m in toks]

    def _terms_over_mouth(self, box: Box, leaf: str, parts: list[Shown], avoid: list[Rect]) -> list[VGroup]:
        """The terms of a fill with no free spot beside its bucket (`_terms_arrive`), one over
        another over its own leaf: the last where its new value will show, the others above it
        over the leaf's card (its own: its value hides a moment), so they go down into the mouth
        as the sum is written. Clear of all else shown (``avoid``) and of the card's name where
        one such place is (`column_x`); else over the name (a tall card's name over its value,
        9:16), still straight over the leaf's card and bucket alone; over all of its value or
        none of it. One width, each pill's pad under the next's: a block through which the
        value shows in no slice, low enough under 1:1's close layer above. cubic_fit3's b and c,
        between two neighbours in the row of four, had their sums written alone (issue 39). Where
        no one x holds it (b at 1:1: its op name ``× 2`` level with the lowest pill), one a pill
        (`_stepped`). None where no such place is inside the free frame."""
        toks = [self.labels.token(s.text) for s in parts]
        gap = self.theme.spacing.edge_clearance
        # one width, each pill's pad under the next one's: a block, with no gap through which
        # the card's value would show in slices
        wide, own = max(m.width for m in toks), [m.width for m in toks]
        for m in toks:
            m.pill.stretch_to_fit_width(wide)
        pad = min((m.pill.height - m.text.height) / 2 for m in toks)
        col = VGroup(*toks).arrange(DOWN, buff=-0.9 * pad)
        card = self.graph.cards.get(leaf)
        name, value = getattr(card, "name", None), getattr(card, "value", None)
        whole = [bounds(value)] if value is not None else []
        named = [bounds(name)] if name is not None else []
        lo_x, lo_y, hi_x, hi_y = self.frame.free_rect()
        at = box.y + (col.height - toks[-1].height) / 2  # the last where the new value will show
        ys = [y for y in (at, max(lo_y + col.height / 2, at - toks[-1].height / 2))  # or down to the frame's foot
              if y - col.height / 2 >= lo_y - 1e-9 and y + col.height / 2 <= hi_y]
        found = next(((x, y) for y in ys for keep in (named, [])  # its name readable if it can
                      if (x := column_x(box.x, y, (col.width, col.height), [*avoid, *keep], (lo_x, hi_x), gap,
                                        whole)) is not None), None)
        if found is None:  # one x a pill, its own width where the column's meets a label beside the bucket
            ys += [h for y in ys[:1] for h in under(y, (col.width, col.height), box.x, avoid)
                   if h - col.height / 2 >= lo_y]
            return self._stepped(box, leaf, toks, own, ys, [[*avoid, *keep] for keep in (named, [])], whole)
        x, y = found
        col.move_to([x, y, 0])
        for m in toks:  # down into the mouth, where the last waits
            m.sinks_to = (float(x), float(box.y))
        return [record_tag(m, "badge", id=f"{box.id}->{leaf}") for m in toks]

    def _stepped(self, box: Box, leaf: str, toks: list[VGroup], own: list[float], ys: list[float],
                 avoids: list[list[Rect]], whole: list[Rect]) -> list[VGroup]:
        """`_terms_over_mouth`'s column (``toks`` one over another, centred at one of ``ys``) where
        no one x holds it: each pill its own x, its own width (``own``) where the column's meets a
        label by the bucket (`stepped_column`), clear of the first of ``avoids`` it can be. Each goes
        across, then down into the mouth, flush right with the last where it meets nothing there,
        else as near as it can (`column_x`), else where the last waits. None where no place is."""
        lo_x, _, hi_x, _ = self.frame.free_rect()
        gap, wide, mid = self.theme.spacing.edge_clearance, toks[0].width, VGroup(*toks).get_center()[1]
        offs = [float(m.get_center()[1] - mid) for m in toks]
        found = next(((y, avoid, xs) for avoid in avoids for y in ys if (xs := stepped_column(
            box.x, [(y + o, w, m.height) for o, w, m in zip(offs, own, toks)], wide, avoid, (lo_x, hi_x), gap,
            whole)) is not None), None)
        if found is None:
            return []
        y, avoid, xs = found
        for m, o, (x, w) in zip(toks, offs, xs):
            m.pill.stretch_to_fit_width(w)
            m.move_to([x, y + o, 0])
        last, right = xs[-1][0], xs[-1][0] + xs[-1][1] / 2
        for m, (x, w) in zip(toks, xs):  # into the mouth, flush right with the last (digits under digits)
            land = column_x(right - w / 2, box.y, (w, m.height), avoid, (lo_x, hi_x), gap)  # or nearest that
            m.sinks_to = (float(last if land is None else land), float(box.y))
        return [record_tag(m, "badge", id=f"{box.id}->{leaf}") for m in toks]

    def _first_shown_at(self, leaf: str, box: Box, tok: VGroup, old: VGroup,
                        new: VGroup) -> tuple[tuple[float, float], bool]:
        """Where the fill's badge ``tok`` of ``leaf``, shown first (no token waits there), comes in:
        beside the bucket (`badge_spot`) where it covers nothing shown there; else, the bucket
        empty, where its new value will show (it fades there before the value comes in); else in
        the mouth it drops into, on that side. In a row of leaves' buckets with cards close above, a
        7-digit badge beside one covered the next bucket's value (tanh_sgd_lists, issue 39).
        Where none is clear, beside it as placed. And whether it shows in the bucket (it stays there to go in)."""
        seen = self.onscreen.shown_rects(exclude=self.onscreen.own_shapes(leaf) + self.walk.visit_marks)
        size = (tok.width, tok.height)
        beside = self.labels.badge_spot(box, tok, seen)
        spots = [beside]
        if old.value is None and new.value is not None:
            spots.append((float(new.value.get_center()[0]), float(new.value.get_center()[1])))
        spots.append(self.mouths.mouth(box, tok.move_to([beside[0], beside[1], 0]), [old.value, new.value]))
        found = next((k for k, p in enumerate(spots) if clear_of(p, size, seen)), 0)
        return spots[found], found > 0

    @draws("bucket_reset")
    def draw_bucket_reset(self, cue: Cue, step: StepScratch) -> Anims:
        leaf = cue.ids[0]
        box = self.ctx.layout.boxes.get(f"bucket:{leaf}")
        if box is None or leaf not in self.graph.buckets:
            return []
        shown = {s.role: s for s in cue.strings}
        after = shown.get("after")
        told = after is not None and after.text == NONE_TEXT and "name" in shown  # its words say it
        if "name" in shown and not told and self.onscreen.card_shows(leaf, shown["name"].text):
            self.ctx.record(shown["name"])
        # .grad = None empties the bucket and it wears the words `w.grad = None` (the one picture of
        # a gradient that is None; bare, it waits for the walk); zero_grad's 0 is written in it
        written = None if after is None or after.text == NONE_TEXT else after.text
        new = self._bucket(box, 0.0, written)
        if after is not None and not told:
            self.ctx.record(after)
        old = self.graph.buckets[leaf]
        out: Anims = [FadeOut(m) for m in self.walk.visit_marks] + self.notes.drop_none_words(leaf)
        self.walk.visit_marks = []
        self.graph.bucket_text[leaf] = written
        out.append(refill(old, new))
        if told and after is not None:
            out += self.notes.none_words(leaf, shown["name"], after)
        return out

