"""The walk's gradient tokens on their way: riding a flipped edge from one node to the next,
waiting in a row beside a bucket, gliding onto the badge they become.

Why a module of its own: the walk (:mod:`scenes.draw.backward`) decides what a visit shows; how a
token gets from one place to the next round what is on screen is this helper's, as a visit's
note is :mod:`scenes.draw.visit_note`'s. It keeps no record of its own: the tokens are the
walk's (``WalkView.tokens``).
"""

from __future__ import annotations

import math
from bisect import bisect_left

import numpy as np

from manim import Animation, FadeIn, FadeOut, Mobject, ReplacementTransform, Succession, VGroup, VMobject

from scenes.draw.collisions import MIN_OPACITY
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.crossfade import at_end
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.grow_in import GrowIn
from scenes.draw.labels import CardLabels
from scenes.draw.onscreen import RIDE_SAMPLES, OnScreen
from scenes.draw.retag import Retag
from scenes.draw.record import opacity, tag as record_tag, tag_of
from scenes.draw.shown_numbers import MIN_SHOWN
from scenes.draw.state import WalkView
from scenes.draw.visuals import nominal_token_size, token_ride
from scenes.layout.label_spots import inside, rect_around
from scenes.layout.place import Box
from scenes.layout.routes import Route
from scenes.storyboard.cues import Cue
from scenes.draw.waiting import WaitingTokens, arrow_id, middle
from scenes.theme import Rect


class TokenRides(View):
    """Moves the walk's gradient tokens (`travel`, `merge`); asks ``labels`` for tokens,
    ``onscreen`` for what is shown and the ways tokens take, ``frame`` where a row of them fits,
    ``waiting`` which row a token waits in and what it keeps off there."""

    def __init__(self, ctx: DrawContext, labels: CardLabels, onscreen: OnScreen, frame: FreeFrame,
                 waiting: WaitingTokens) -> None:
        super().__init__(ctx)
        self.labels, self.onscreen, self.frame = labels, onscreen, frame
        self.waiting = waiting  # where the tokens wait, and what they keep off there
        self._timings_of: object = None  # the plan `_timings` was read from
        self._timings_cache: tuple[list[float], list[tuple[float, tuple[str, ...]]]] = ([], [])

    @property
    def walk(self) -> WalkView:
        """The walk's record: its tokens, products and marks (the walk's view writes it too)."""
        return self.ctx.state.walk

    @property
    def cards(self) -> dict[str, VGroup]:
        """The graph's cards by item: a token's way may cross the card at either end of it."""
        return self.ctx.state.graph.cards

    def _route(self, src: str, dst: str, used: set[Route] | None = None) -> Route | None:
        """The forward route src -> dst (items), skipping routes already used in this step."""
        for r in self.lay.routes:
            if r.src == src and r.dst == dst and (used is None or r not in used):
                return r
        return None

    def merge(self, waiting: list[VGroup], badge: VGroup, step: StepScratch, box: Box | None = None,
               into: str | None = None, passing: list[Mobject] | None = None) -> Anims:
        """The tokens that rode in glide onto the badge and become it: where two paths meet
        (w * w), the viewer sees 3 and 3 turn into one 6, the sum over paths. A badge nothing
        rode to (the loss's 1) grows in place. Each token glides on a way around what is on
        screen (``glide``) and is gone once it has landed, when the badge shows. ``into``: the
        leaf whose bucket the badge waits by: the tokens ride its bucket's arrow from the leaf's
        card, which their way may cross (it is boxed in by its neighbours). ``passing``: what else
        their way may cross, behind it (the words of the visit's note, not its products: `OnScreen.ride`'s
        ``behind``)."""
        if not waiting:
            return [GrowIn(badge)]
        if len(waiting) == 1 and np.allclose(waiting[0].get_center(), badge.get_center()):
            return [ReplacementTransform(waiting[0], badge)]  # it waits where the badge is: it is the badge
        out: Anims = [FadeIn(badge, rate_func=at_end)]
        # in a row from where the badge shows, away from its box: not over each other nor over
        # the box; each lands as the badge sits (`badge_centre`), its inner edge where the badge's
        # is, off the ring the box gets at the visit (lesson 3's -1.0000, wider than the 2.0000 it
        # lands on beside a's card, went 2 px over a's ring)
        widest = max(w.width for w in waiting)
        wide = widest + self.theme.spacing.edge_clearance
        x, y = badge.get_center()[:2]
        out_x = 1.0 if box is None or x >= box.x else -1.0
        if box is not None and not box.x - box.w / 2 < x < box.x + box.w / 2:  # beside the box, not over or under it
            x += out_x * max(0.0, (widest - badge.width) / 2)
        half = self.ctx.spec.frame_width / 2
        if abs(x + out_x * ((len(waiting) - 1) * wide + wide / 2)) > half:  # the row would leave the frame
            out_x = -out_x
        # the way may cross the leaf's card and bucket (grazing the bucket's corner, a token was
        # hidden for a frame on its way, and blinked)
        leaves = [m for m in (self.cards.get(into or ""), self.ctx.state.graph.buckets.get(into or "")) if m is not None]
        taken: list[Rect] = []  # the ways of those gliding before: each keeps off them (side by side they overlap)
        # the visit's ring round the box: gone round where it can (but round a leaf's bucket, whose arrow they ride)
        ring = [self.labels.ring(box)] if box is not None and into is None else []
        words = [bounds(m) for m in passing or [] if m.width > 0 and opacity(m) >= MIN_OPACITY]  # passed behind
        for i, token in enumerate(sorted(waiting, key=lambda m: out_x * m.get_center()[0])):
            to = (x + out_x * i * wide, y)
            if into is not None:
                record_tag(token, "badge", id=arrow_id(f"bucket:{into}", into))
            glide = self.onscreen.glide(token, to, waiting + [badge] + (passing or []), step, leaves=leaves, off=taken,
                                        behind=words, skirt=ring)
            taken += _way(glide.path, (token.width, token.height))
            out.append(Succession(glide, FadeOut(token, run_time=1e-3)))
        return out

    def travel(self, cue: Cue, step: StepScratch) -> Anims:
        """A gradient token rides the flipped edge from one node to the next."""
        src, dst = self.ctx.item(cue.ids[0]), self.ctx.item(cue.ids[1])
        if src == dst:
            return self._pass_within(cue, src, step)
        busy = {r for r, t in step.riding if t == cue.start}  # two paths at once take two edges
        r = self._route(dst, src, busy)
        if r is None:
            return []
        # w * w: the rule row has a product per input slot, and each edge takes its own (the
        # routes of one pair are taken in the layout's order, the rules are written in the slots')
        nth = sum(1 for b in busy if (b.src, b.dst) == (r.src, r.dst))
        step.riding.append((r, cue.start))
        tok = record_tag(self.labels.token(cue.text("grad") or ""), "badge", id=arrow_id(r.src, r.dst))
        nominal = nominal_token_size(self.theme, scale=self.lay.scale, zoom=self.lay.zoom)
        ride = token_ride(r, nominal, self.theme, self.lay.boxes[r.src].bounds,  # backward, it ends at src
                          leaves=self.lay.boxes[r.dst].bounds)
        product = self._product(cue, nth)
        start, exclude = ride.get_start(), []
        if product is not None:  # a copy of the visit's product leaves it and rides the edge; the
            start, exclude = product.get_center(), [product]  # note keeps its number all the while
        # from its note it may cross the note's other rows, its node, and a dimmed card between
        # (out of the walk), drawn over them: a way round squeezes between cards and words, or has none
        away = self.onscreen.away()  # (not one out of the camera's view: it shows again)
        leaves = [m for k, m in self.cards.items() if k == r.dst or (opacity(m) < MIN_SHOWN and id(m) not in away)]
        leaves += self.walk.visit_marks
        # but not another product of the note with its number: it reads as one number sent twice
        # (w * w's two 3); a way round any product boxed dynamic_graph's 1/27 in, at 16:9
        text = getattr(tag_of(tok), "text", None)
        others = [bounds(p) for ps in self.walk.products.values() for p in ps
                  if p is not product and opacity(p) >= MIN_SHOWN and getattr(tag_of(p), "text", None) == text]
        # and not over the tokens setting off with it (from one rule: ``4/9`` over ``8/3`` read ``4/93``)
        along = [(way, size) for at, way, size in step.ways if at == cue.start]
        ahead = [m for at, m in step.rides if at == cue.start]
        apart = [bounds(m) for k, m in self.cards.items() if k not in (r.src, r.dst) and opacity(m) >= MIN_SHOWN]
        move = self.onscreen.ride(tok, start, ride, exclude, step, leaves=leaves, under=product, off=others,
                                  rest_off=self.labels.unseen_rings(self.onscreen.shown_ids()), along=along,
                                  ahead=ahead, apart_from=apart)
        step.ways.append((cue.start, list(tok.way), (tok.width, tok.height)))
        step.rides.append((cue.start, move))
        tok.move_to(move.path.get_start())
        anims = self._on_to_bucket(tok, move, cue, dst, step)
        self.walk.tokens.setdefault(cue.ids[1], []).append(tok)
        for s in cue.strings:
            self.ctx.record(s)
        return anims

    def _to_row(self, tok: VGroup, row: list[VGroup], leaf: str, count: int, step: StepScratch,
                landed: list[tuple[float, float]], top: bool = True) -> tuple[Animation, tuple[float, float]]:
        """``tok``'s way from where it is to the next place in the row of tokens waiting beside
        the bucket of ``leaf`` (``row``, standing at ``landed``: where each is, or lands in this
        step), and that place. The row runs from beside the bucket out, as `merge` rows tokens,
        on the side where all ``count`` fit. Where the camera moves before the fill (``top``,
        `_camera_before_fill`) it stands level with the bucket's top, which closer views of the
        nodes above keep in the frame longest; elsewhere level with its middle, leaving the room
        above to the fill's sum. Its way may cross the leaf's card and bucket, and it settles on
        the nearest free spot, never hidden where it waits."""
        box = self.lay.boxes[f"bucket:{leaf}"]
        wide = max([tok.width] + [m.width for m in row]) + self.theme.spacing.edge_clearance
        if not landed:
            x0, y0 = self.labels.badge_spot(box, tok,
                                            self.onscreen.shown_rects(exclude=[tok, *self.onscreen.own_shapes(leaf)]),
                                            top=top)
            out_x = 1.0 if x0 >= box.x else -1.0
            lo, _, hi, _ = self.frame.free_rect()
            reach = x0 + out_x * ((count - 1) * wide + wide / 2)
            if not lo <= reach <= hi and lo <= 2 * box.x - reach <= hi:  # the row fits on the other side only
                x0, out_x = 2 * box.x - x0, -out_x
            # nor toward another bucket level with it, where it reads as that one's as it grows (micrograd_readme
            # 1:1: b's row ran on past a's bucket): it wraps where the frame ends (`WaitingTokens.row_spots`)
            near = [b.x - box.x for k, b in self.lay.boxes.items() if k.startswith("bucket:") and k != box.id
                    and abs(b.y - box.y) < box.h and lo <= b.x <= hi]
            if any(out_x * d > 0 for d in near) and not any(out_x * d < 0 for d in near) and lo <= 2 * box.x - x0 <= hi:
                x0, out_x = 2 * box.x - x0, -out_x
            at = (x0, y0)
        else:
            at = self.waiting.row_spots(landed[0], box, [*row, tok])[-1]
        place = at
        if landed and not inside(rect_around(at[0], at[1], (tok.width, tok.height)), self.frame.free_rect()):
            # its place is out of the frame (the camera's view cut the row): it waits at the nearest
            # spot free of all a waiting token keeps off, the values the camera hid included (they
            # show again), until a view has room for it there (`rejoin`)
            at = self.onscreen.free_spot(at, tok, self.waiting.kept_off(tok, []))
        own = [m for m in (self.cards[leaf], self.ctx.state.graph.buckets.get(leaf)) if m is not None]
        # its way may graze its bucket, and pass by the row standing (round the spots of the last
        # two, it went up and dropped in: 33 px off its way, dynamic_graph 16:9 at 117.13 s)
        glide = self.onscreen.glide(tok, at, row, step, settle=True, leaves=own,
                                    joins=[m for m in row if id(m) not in step.queued])
        rest = getattr(tok, "rests", None)
        to = middle(rest) if rest else at
        off = landed and math.dist(to, place) > self.theme.spacing.edge_clearance  # (a nudge is at its place)
        tok.row_place = len(landed) if off else None  # `rejoin` takes it there
        return glide, to

    def _on_to_bucket(self, tok: VGroup, move: Animation, cue: Cue, leaf: str, step: StepScratch) -> Anims:
        """``move`` (``tok`` riding to the node of ``cue``), and, where that node is a leaf with a
        bucket that gradients reach at different times (dynamic_graph's four 1/27, one per use
        of w, which piled up on w's arrowheads), ``tok`` going on from the leaf's card to wait in
        the row beside the bucket (`_to_row`): each is seen to arrive and stays countable until
        the fill drops them in. Riding on, it is the bucket's arrow's. Gradients that all arrive
        at once (w * w) ride at the pace of every ride and wait where they land, two at most."""
        node = cue.ids[1]
        row = self.walk.tokens.get(node, [])
        coming = self._coming(cue)
        if f"bucket:{leaf}" not in self.lay.boxes or leaf not in self.cards or not (
                any(self.waiting.in_row(m, leaf) or id(m) in step.queued for m in row)
                or any(c.start > cue.start for c in coming)):
            return [move]
        landed = [step.queued.get(id(m)) or (float(m.get_center()[0]), float(m.get_center()[1])) for m in row]
        start = tok.get_center().copy()
        tok.move_to(move.path.get_end())
        glide, at = self._to_row(tok, row, leaf, len(row) + 1 + len(coming), step, landed,
                                 top=self._camera_before_fill(cue, leaf))
        tok.move_to(start)
        step.queued[id(tok)] = at
        move.run_time, glide.run_time = 2.0, 1.0  # the ride down the edge, then the short way on
        return [Succession(move, Retag(tok, arrow_id(f"bucket:{leaf}", leaf)), glide)]

    def _camera_before_fill(self, cue: Cue, leaf: str) -> bool:
        """Whether the walk's camera moves from ``cue`` on until ``leaf``'s bucket fills: its
        views may then carry a row waiting by the bucket out of the frame (`_to_row`)."""
        cameras, fills = self._timings()
        fill = min((t for t, ids in fills if leaf in ids and t >= cue.start), default=float("inf"))
        at = bisect_left(cameras, cue.start)
        return at < len(cameras) and cameras[at] < fill

    def _timings(self) -> tuple[list[float], list[tuple[float, tuple[str, ...]]]]:
        """The plan's camera moves' starts (sorted) and its bucket fills (start, ids), read once
        per plan."""
        plan = self.ctx.plan
        if self._timings_of is not plan:
            cameras = sorted(c.start for c in plan.cues if c.kind == "camera")
            fills = [(c.start, tuple(c.ids)) for c in plan.cues if c.kind == "bucket_fill"]
            self._timings_of, self._timings_cache = plan, (cameras, fills)
        return self._timings_cache

    def _coming(self, cue: Cue) -> list[Cue]:
        """The other gradients riding to the node of ``cue`` from its start on, until that node is
        visited."""
        node, out = cue.ids[1], []
        for c in self.ctx.plan.cues:
            if c.start < cue.start or c is cue:
                continue
            if c.kind == "visit" and c.ids and c.ids[0] == node:
                break
            if c.kind == "grad_travel" and len(c.ids) > 1 and c.ids[1] == node:
                out.append(c)
        return out

    def _product(self, cue: Cue, nth: int) -> Mobject | None:
        """The ``nth`` product the last visit wrote for the edge of ``cue`` (node, to node), the one
        whose copy rides it; None when the visit wrote none for it."""
        products = self.walk.products.get((cue.ids[0], cue.ids[1]), [])
        return products[min(nth, len(products) - 1)] if products else None

    def _pass_within(self, cue: Cue, item: str, step: StepScratch) -> Anims:
        """A gradient passed on inside a chain's card (`Layout.merged`: both nodes are drawn as
        one card): no edge to ride, so the token leaves the visit's product (or the card) and
        waits beside the card, clear of the badge there now; the next visit, of the folded node,
        makes it its badge where it waits, so the number at the card changes without two badges
        on one spot."""
        box = self.lay.boxes.get(item)
        if box is None:
            return []
        tok = record_tag(self.labels.token(cue.text("grad") or ""), "badge", id=arrow_id(item, item))
        product = self._product(cue, 0)
        exclude = [product] if product is not None else []
        avoid = (self.onscreen.shown_rects(exclude=exclude)
                 + [bounds(m) for m in self.walk.visit_marks if m is not product])
        to = self.labels.badge_spot(box, tok, avoid)
        to = self.onscreen.free_spot(to, tok, avoid + self.labels.rings())
        tok.move_to(product.get_center() if product is not None else [box.x, box.y, 0.0])
        move = self.onscreen.glide(tok, to, exclude, step, settle=True, under=product)
        tok.move_to(move.path.get_start())
        self.walk.tokens.setdefault(cue.ids[1], []).append(tok)
        for s in cue.strings:
            self.ctx.record(s)
        return [move]


def _way(path: VMobject, size: tuple[float, float]) -> list[Rect]:
    """The boxes a token of ``size`` covers along ``path`` between its ends (`RIDE_SAMPLES` points)."""
    pts = [path.point_from_proportion(i / RIDE_SAMPLES)[:2] for i in range(1, RIDE_SAMPLES)]
    return [rect_around(float(x), float(y), size, 0.0) for x, y in pts]
