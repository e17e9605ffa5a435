"""What is on screen, for the walk's moving marks: where a token rides and glides, what a note
or a badge keeps off.

Why from the scene and not the layout: the layout knows the cards, buckets and arrows, but not
the texts drawn since (op names, a visit's note and its products, badges waiting at other nodes,
the legend, the checklist, the code pane), and a token or note placed by the cards alone would
cover them. These helpers list every visible text, card and bucket as the scene holds it now
(:func:`scenes.draw.record.tagged`, the record `render inspect` reads), and plan a token's way
around them (`scenes.layout.detour`). A view of ``ClipScene`` that the walk, the buckets, the
checklist and the training step ask; it owns no record.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
from manim import Animation, Mobject, VGroup, VMobject, smooth

from scenes.draw.collisions import CONTAINERS, MIN_OPACITY
from scenes.draw.crossfade import after_wait
from scenes.draw.context import DrawContext, StepScratch, View
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.reading import reading_run
from scenes.draw.record import opacity, tag_of, tagged
from scenes.draw.state import GraphView, WalkView
from scenes.draw.ride_behind import RideBehind
from scenes.layout.detour import dense, nearest_free, ride_path
from scenes.layout.ride_cover import backs_away, hidden_length, hidden_spans, set_off_after, way_length
from scenes.layout.label_spots import rect_around, route_ends
from scenes.layout.place import Box, Layout
from scenes.draw.visuals.edges import arrow_length
from scenes.theme import Rect

RIDE_SAMPLES = 24
"""Points taken along an edge's ride for the search of the way beside it."""


NETWORK_LINES = ("link", "mark")
"""The inspect roles of the network's lines: a weight, and a weight or unit lit (docs/inspect.md)."""


def _pieces(body: VMobject) -> list[Rect]:
    """The boxes of `RIDE_SAMPLES` short pieces along ``body``."""
    pts = [body.point_from_proportion(i / RIDE_SAMPLES)[:2] for i in range(RIDE_SAMPLES + 1)]
    return [(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])) for a, b in zip(pts, pts[1:])]


LONG_WAY = 1.6
"""How many times longer than the way across the card it leaves a way round it may be: round a
card and its note where that is a step aside (grad_accumulation's 3s round y), across it where
the way round would tour the graph (REVIEW5 8)."""


BACK_OFF = 0.3
"""How far (in token heights) a way round may go back from the nearest it has come to its end."""


class OnScreen(View):
    """What the scene shows now (``drawn``: its display list): what a note or badge keeps off
    (``shown_rects``), and the ways tokens take (``ride``, ``glide``, ``free_spot``)."""

    def __init__(self, ctx: DrawContext, frame: FreeFrame, drawn: Callable[[], list[Mobject]]) -> None:
        super().__init__(ctx)
        self.frame, self.drawn = frame, drawn

    @property
    def graph(self) -> GraphView:
        return self.ctx.state.graph

    @property
    def walk(self) -> WalkView:
        return self.ctx.state.walk

    def shown_rects(self, exclude: Sequence[Mobject] = (), extra: Sequence[Mobject] = (),
                    away: bool = False) -> list[Rect]:
        """Where every visible text, card and bucket is now (and ``extra`` shapes about to come
        in), but ``exclude`` and their parts: what a riding token, a note or a badge keeps off,
        so nothing it is drawn beside or passes is covered. ``away``: and what the camera faded
        out of view (`away`), where it is: a token waiting there would cover it once the camera
        moves on and it shows again."""
        from manim.utils.iterables import list_update

        skip = {id(m) for e in exclude for m in e.get_family()}
        gone = self.away() if away else set()
        mobs = list_update(self.drawn(), list(extra))
        out, seen = [], set()
        for m, t in tagged(mobs):
            if id(m) in skip or id(m) in seen or (t.kind != "text" and t.role not in CONTAINERS):
                continue
            seen.add(id(m))
            if (opacity(m) >= MIN_OPACITY or id(m) in gone) and m.width > 0:
                out.append(bounds(m))
        return out

    def away(self) -> set[int]:
        """ids of the shapes (and their parts) the camera faded out of view that showed before
        (`scenes.draw.state.CameraView.faded`, kept with their colours from before the move)."""
        return {id(s) for m, saved in self.ctx.state.camera.faded
                if any(max(fill[:, 3].max(initial=0.0), stroke[:, 3].max(initial=0.0)) >= MIN_OPACITY
                       for fill, stroke in saved)
                for s in m.get_family()}

    def shown_ids(self) -> set[str]:
        """The ids of the cards and buckets visible now (at least ``MIN_OPACITY`` opaque, as the
        frame checks see them)."""
        return {t.id for m, t in tagged(self.drawn())
                if t.role in CONTAINERS and t.id is not None and opacity(m) >= MIN_OPACITY}


    def shown_layout(self, box: Box) -> Layout:
        """The layout as the frame shows it now: only the cards and buckets drawn (`shown_ids`,
        as the notes check sees them) and the routes between them, and ``box``. A clip's layout
        holds every graph it will draw (the next pass's cards, a freed graph's, `clip_layout`); a
        note kept off, or judged nearer, a card not on screen is pushed far from its own node for
        nothing (dynamic_graph's rules, issue 39; its 9:16 bucket sum, review 4)."""
        shown = self.shown_ids() | {box.id}
        lay = self.lay
        boxes = {k: b for k, b in lay.boxes.items() if k in shown}
        routes = tuple(r for r in lay.routes if lay.card_of(r.src) in shown and lay.card_of(r.dst) in shown)
        return replace(lay, boxes=boxes, routes=routes)
    def line_rects(self) -> list[Rect]:
        """Where every visible arrow runs now, as the boxes of short pieces of its body (`RIDE_SAMPLES`
        a body) and its head, and on a network every unit and line (a weight, plain or lit, a
        lit ring): a board placed clear of them covers no edge, however it curves, while the
        room between edges stays free (one box of a long diagonal would cover it)."""
        out: list[Rect] = []
        for m, t in tagged(self.drawn()):
            if t.role not in ("arrow", *NETWORK_LINES, "unit") or opacity(m) < MIN_OPACITY:
                continue
            body = m if t.role in NETWORK_LINES else getattr(m, "body", None)
            if t.role == "unit":
                out.append(bounds(m))
            elif body is not None and body.has_points():
                out += _pieces(body)
            elif body is not None:  # dashed: its dashes are its pieces
                out += [bounds(d) for d in body.submobjects if d.has_points()]
            tip = getattr(m, "tip", None)
            if tip is not None:
                out.append(bounds(tip))
        return out

    def arrowheads(self) -> list[Rect]:
        """Where every visible arrow's head is now: a token does not wait on one (issue 39: a
        gradient waiting at the end of a short edge hid the head that says which way it flows),
        though it may pass over one on its way."""
        gone = self.away()  # and one out of view: it shows again when the camera moves on
        return [bounds(m) for m, t in tagged(self.drawn())
                if t.role == "arrowhead" and (opacity(m) >= MIN_OPACITY or id(m) in gone)]

    def _heads(self) -> list[Rect]:
        """Where an arrowhead stands at either end of every route (`route_ends`): a head turns
        round when its edge does, after a token or badge has been placed beside it."""
        lay = self.ctx.layout
        return route_ends(lay, arrow_length(self.theme, lay.scale, lay.zoom))

    def own_shapes(self, item: str) -> list[Mobject]:
        """The card and bucket of ``item``: a badge beside them may touch them (`badge_centre`
        keeps it off their text)."""
        return [m for m in (self.graph.cards.get(item), self.graph.buckets.get(item)) if m is not None]

    def value_runs(self, items: Sequence[str] | None = None, away: bool = False) -> list[Rect]:
        """Where a number beside the card of each of ``items`` (None: every card) would read as
        more of its value: level with it, up to `READS_ON` of its heights past its end (L1's
        ``= 4`` and its gradient ``1`` waiting beside the card read ``= 4 1``: issue 39, as
        `reading.waits_reading_on` sees it). A badge or a waiting token keeps off it. ``away``:
        and of the values the camera faded out of view (`away`), which show again once it moves on."""
        cards = self.graph.cards
        gone = self.away() if away else set()
        out = []
        for k in cards if items is None else items:
            value = getattr(cards.get(k), "value", None)
            if isinstance(value, Mobject) and value.width > 0 and (opacity(value) >= MIN_OPACITY or id(value) in gone):
                out.append(reading_run(bounds(value)))
        return out

    def below_value_run(self, item: str, box: Box) -> Rect | None:
        """The band under the run right of the value of ``item``'s card (`reading_run`, past the
        value's end) down to the foot of ``box`` (its bucket, under it): a badge waiting there is
        reached from the card down its end level with the value, where the token reads as more
        of it (backward_walk 9:16's ``w2 = 2 4/9``), or round the card's words. None when the
        card shows no value."""
        value = getattr(self.graph.cards.get(item), "value", None)
        if not isinstance(value, Mobject) or value.width <= 0 or opacity(value) < MIN_OPACITY:
            return None
        _, bottom, end, top = bounds(value)
        return (end, min(box.bounds[1], bottom), reading_run(bounds(value))[2], top)

    def result_runs(self, but: Mobject | None = None) -> list[Rect]:
        """Where a number would read as more of a visible rule's result, the product pill ending a
        row of a visit's note (`reading_run`), but the product ``but`` (the one a token leaves: it
        sets off inside its run; `_apart` keeps it off that run where it can): a token waits off
        them, as off a card's value (`value_runs`; grad_accumulation's waiting 3 beside the
        rule's ``= 3``, the other row's product)."""
        return [reading_run(bounds(p)) for ps in self.walk.products.values() for p in ps
                if p is not but and p.width > 0 and opacity(p) >= MIN_OPACITY]

    def card_shows(self, item: str, text: str) -> bool:
        """Whether the card of ``item`` shows ``text`` (as its name, value or grad_fn, or the tag
        above it, a grad_fn its card had no room for): a string the card already draws is
        recorded, not drawn again beside it."""
        card = self.graph.cards.get(item)
        tag = self.graph.tags.get(item)
        return card is not None and any(getattr(card, row, None) is not None and getattr(card, row).text == text
                                        for row in ("name", "value", "sub")) or (
            tag is not None and any(getattr(tag_of(m), "text", None) == text for m in tag.submobjects))

    def ride(self, tok: VGroup, start: np.ndarray, ride: VMobject, exclude: Sequence[Mobject], step: StepScratch,
             settle: bool = True, leaves: Sequence[Mobject] = (), under: Mobject | None = None,
             off: Sequence[Rect] = (), rest_off: Sequence[Rect] = (),
             along: Sequence[tuple[list[tuple[float, float]], tuple[float, float]]] = (),
             ahead: Sequence[Animation] = (), behind: Sequence[Rect] = (),
             skirt: Sequence[Rect] = (), joins: Sequence[Mobject] = (), apart_from: Sequence[Rect] = ()
             ) -> RideBehind:
        """``tok``'s move from ``start`` along the edge part ``ride`` to where it waits: from
        ``start`` to the line, then along it, stepping beside it wherever it passes something
        on screen (`ride_path`), hidden only where no way passes clear (`hidden_spans`).
        ``exclude``: what it may pass (the product pill it sets off from), but not wait on,
        since that shows too. ``leaves``: the card it sets off from, which its way may cross,
        drawn over it (from a note on the far side of its node, the way round squeezes between
        other cards and words, or has none: issue 39's 4/3 went up over L and vanished), but
        where it never waits. Tokens setting off together (from one note) may pass over each other.
        ``under``: the product it is a copy of, drawn over it: it comes out from under it
        (`RideBehind`). ``off``: more to keep off (the ways of tokens gliding with it); ``rest_off``:
        more it may pass but not wait on (the ring of a node drawn with no card, at its visit);
        ``along``: the ways (corners) and sizes of tokens setting off with it: where it would ride
        over one of them at the same time, it waits under its product for them to pass, or where
        one token sets off with it (``ahead``: its ride) that one waits for it, each then riding
        its own way; else its way round its note goes round theirs too. ``behind``: words of
        ``exclude`` it may cross on a glide (a visit's note, the way to a badge boxed in by cards
        may have no other), going round them where that is not far longer, and hidden where it
        crosses them, as behind what it has no way past: a number over words reads as more of
        them (backward_walk 1:1's 8/3 gliding on to w1's badge went over the end of z's note,
        ``mul: × the other input``). ``skirt``: what a glide goes round where it can, shown over it
        where it cannot (the ring its visit puts round the box whose badge it glides onto).
        ``joins``: the tokens of the row it joins, standing where they wait: it passes by them
        and does not go round where they rest (beside a bucket, `scenes.draw.rides`). ``apart_from``:
        the cards its edge does not join, which it keeps ``ride_apart`` of its height off where it
        can (`ride_path`'s ``apart``): skimming one, it reads as touching it."""
        t = self.theme
        size = (tok.width, tok.height)  # its own: it starts on its product's pill, beside the note's words
        here = (float(start[0]), float(start[1]))
        edge = [here] + [tuple(ride.point_from_proportion(i / RIDE_SAMPLES)[:2]) for i in range(RIDE_SAMPLES + 1)]
        extra = [*self.walk.visit_marks, *self.walk.badges.values(), *self.graph.tags.values()]
        waits = [r for toks in self.walk.tokens.values() for m in toks  # where others will wait too (w * w)
                 if m is not tok and not any(m is j for j in joins) and (r := getattr(m, "rests", None))]
        keep_off = self.shown_rects(exclude=[*exclude, *leaves], extra=extra, away=True) + list(off)
        # the card it leaves it may cross, but not over its words: a number riding over another
        # reads as one with it (issue 39), over a name or a grad_fn as more of it (REVIEW5 8:
        # ``y3 = 9``, ``3ulBackward0``); where no way passes beside them, it is not hidden there
        values = [bounds(v) for m in leaves for row in ("name", "value", "sub") if (v := getattr(m, row, None))
                  is not None and isinstance(v, Mobject) and v.width > 0 and opacity(v) >= MIN_OPACITY]
        # and its op name, drawn with it (grad_accumulation 9:16's 3 leaving y's rule went over its ``mul``)
        values += [bounds(g) for k, g in self.graph.tags.items() if any(self.graph.cards.get(k) is m for m in leaves)
                   and g.width > 0 and opacity(g) >= MIN_OPACITY]
        # and it goes round what it may cross where it can (it waits off a rule's result: ``= 3 3``)
        soft = self._crossed(leaves, under) + waits  # (it may pass where another will wait, as it arrives)
        pitch, clear = size[1] * t.proportions.ride_grid, t.spacing.edge_clearance / 2
        spaced = dict(apart=list(apart_from), gap=size[1] * t.proportions.ride_apart)
        rests = ([bounds(m) for m in [*exclude, *leaves] if opacity(m) >= MIN_OPACITY]
                 + self.arrowheads() + self._heads() + self.value_runs()
                 + self.result_runs(but=under)
                 + waits + list(rest_off))
        plain_values = [bounds(v) for m in leaves if isinstance(v := getattr(m, "value", None), Mobject)
                        and v.width > 0 and opacity(v) >= MIN_OPACITY]  # over all but a value
        if under is None:  # a glide on from a card (to its bucket's badge or row), with no way round to try:
            # off the card's words, and off its value's run, where it reads as more of it (`value_runs`:
            # backward_walk 9:16's 4/9 going on from w2's card down its right end read ``w2 = 2 4/9``)
            crossed = [k for k, m in self.graph.cards.items() if any(m is n for n in leaves)]
            plain_values = values + self.value_runs(crossed)

        def plan(rest: list[Rect]) -> tuple[list[tuple[float, float]], list[Rect]]:
            """Its way to a rest off ``rest``, and what it is hidden behind on it."""
            within = self.frame.free_rect()
            corners = ride_path(here, edge[-1], edge, size, keep_off + waits + plain_values, soft=[*behind, *skirt],
                                within=within, step=pitch, clear=clear, settle=settle, rest_off=rest, **spaced)
            shown_over = keep_off + waits + list(behind)
            if under is not None and leaves:  # a copy leaving its note: round its card and note where that is a
                # step aside, across where the way round is far longer (backward_walk's 8/3 went all round z)
                # or first backs away from the edge (`scenes.render.flight`)
                way = ride_path(here, edge[-1], edge, size, keep_off + values, soft=soft, within=within, step=pitch,
                                clear=clear, settle=settle, rest_off=rest, **spaced)
                if way_length(way) <= LONG_WAY * way_length(corners) and not backs_away(way, BACK_OFF * size[1]):
                    corners, shown_over = way, keep_off + list(behind)
            return corners, shown_over

        # and off the run of the product it left (``= -6.94 -6.94``), where that way is no longer nor
        # hidden more (backward_walk 16:9's 4/3 between L and yh - y, level with L's rule, has no room
        # above or below it: pushed along, it went behind yh - y's ``sub`` and vanished)
        own = self._apart(under, edge[-1], size, keep_off + waits + plain_values + rests, pitch, clear) if (
            under is not None and settle) else []
        corners, shown_over = plan(rests + own)
        if own and not along:
            near, near_over = plan(rests)
            if way_length(corners) > LONG_WAY * way_length(near) or hidden_length(
                    corners, size, shown_over, pitch) > hidden_length(near, size, near_over, pitch) + 1e-9:
                corners, shown_over = near, near_over
        grid = dict(within=self.frame.free_rect(), step=pitch, clear=clear, settle=settle, rest_off=rests + own,
                    **spaced)
        wait: float | None = 0.0  # the share of the ride it waits under its product before it sets off
        if under is not None and leaves:
            if along and hidden_spans(corners, size, [], grid["step"], list(along)):  # over one setting off with it
                # (4/9 over 8/3, from the end of yh's rule, read 4/93): it waits under its product for them to
                # pass, then rides its own way; where no wait clears them, it goes round their ways
                wait = set_off_after(corners, size, list(along), grid["step"], smooth)
                if wait is None and len(ahead) == 1 == len(along):  # (one in front, in the same lane, lets it pass)
                    theirs = set_off_after(along[0][0], along[0][1], [(corners, size)], grid["step"], smooth)
                    if theirs is not None:
                        ahead[0].rate_func, wait = after_wait(theirs), 0.0
                apart = [rect_around(x, y, s, 0.0) for w, s in along for x, y in dense(w, grid["step"])]
                way = ride_path(here, edge[-1], edge, size, keep_off + values, soft=soft + apart, **grid)
                if wait is None and way_length(way) <= LONG_WAY * way_length(corners) and not backs_away(
                        way, BACK_OFF * size[1]):
                    corners, shown_over = way, keep_off + list(behind)
        tok.rests = rect_around(corners[-1][0], corners[-1][1], size, 0.0)
        tok.way = corners
        path = VMobject()
        path.set_points_as_corners([[x, y, 0.0] for x, y in corners])
        hidden = hidden_spans(corners, size, shown_over, size[1] * t.proportions.ride_grid)
        return RideBehind(tok, path, hidden, under=reading_run(bounds(under)) if under is not None else None,
                          rate_func=after_wait(wait))

    def _apart(self, under: Mobject, end: tuple[float, float], size: tuple[float, float], taken: list[Rect],
               step: float, clear: float) -> list[Rect]:
        """The run of the product ``under`` a token leaves (`reading_run`), as a spot it does not
        wait on, where keeping off it moves where it waits (near ``end``, off ``taken``): waiting
        level with it, just past it, the copy reads as more of it (micrograd_readme 9:16:
        ``-6.94 × 1 = -6.94 -6.94``); none where it does not."""
        run = reading_run(bounds(under))
        within = self.frame.free_rect()
        near = nearest_free(end, size, taken, within=within, step=step, clear=clear)
        apart = nearest_free(end, size, taken + [run], within=within, step=step, clear=clear)
        return [run] if math.dist(near, apart) > 1e-9 else []

    def _crossed(self, leaves: Sequence[Mobject], under: Mobject | None) -> list[Rect]:
        """Where each of ``leaves`` shows, a token may cross it but goes round it where it can:
        a card whole, a visit's note by its rows (the token sets off from among them), not the
        product ``under`` which it comes out from."""
        mine = {id(m) for m in under.get_family()} if under is not None else set()
        out = []
        for m in leaves:
            parts = [p for p, t in tagged([m]) if t.kind == "text" or t.role in CONTAINERS] or [m]
            out += [bounds(p) for p in parts if id(p) not in mine and p.width > 0 and opacity(p) >= MIN_OPACITY]
        return out

    def free_spot(self, at: tuple[float, float], tok: VGroup, avoid: list[Rect]) -> tuple[float, float]:
        """Where ``tok`` waits near ``at``: there, or the nearest spot inside the frame's free
        area where it overlaps none of ``avoid`` nor an arrowhead (`nearest_free`, on the rides' grid): a spot
        that only comes close is left as `badge_centre` chose it."""
        t = self.theme
        size = (tok.width, tok.height)
        return nearest_free((float(at[0]), float(at[1])), size, avoid + self._heads(), within=self.frame.free_rect(),
                            step=size[1] * t.proportions.ride_grid, clear=0.0)

    def glide(self, tok: VGroup, to: Sequence[float], exclude: Sequence[Mobject], step: StepScratch,
              settle: bool = False, leaves: Sequence[Mobject] = (), under: Mobject | None = None,
              off: Sequence[Rect] = (), behind: Sequence[Rect] = (), skirt: Sequence[Rect] = (),
              joins: Sequence[Mobject] = ()) -> RideBehind:
        """A straight move of ``tok`` to ``to``, stepping around what is on screen on the way;
        ``settle``: it waits at the nearest free spot when ``to`` is not free; ``leaves``,
        ``under``, ``behind``, ``skirt``, ``joins``: what it may cross, what it comes out from under,
        what it passes behind, what it goes round where it can, the row it joins (see ``ride``)."""
        here = tok.get_center()
        seg = VMobject()
        seg.set_points_as_corners([here, [float(to[0]), float(to[1]), 0.0]])
        return self.ride(tok, here, seg, exclude, step, settle=settle, leaves=leaves, under=under, off=off,
                         behind=behind, skirt=skirt, joins=joins)
