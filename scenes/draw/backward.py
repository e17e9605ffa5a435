"""The backward walk of the clip scene: the backward graph and the wavefront walk.

Why a view of its own: ``ClipScene`` is one generic scene; its drawers are split by what they
draw so each file stays one idea. This view owns the walk's record and turns the graph's arrows
and cards into the backward graph's (:mod:`scenes.draw.state`: cards, arrows, tokens); it returns
animations and never calls ``play``. The buckets the walk ends in are :mod:`scenes.draw.buckets`;
its first cue calls their ``enter_backward``.
"""

from __future__ import annotations

import numpy as np

from manim import Animation, FadeIn, FadeOut, Mobject, ReplacementTransform, Succession, VGroup

from scenes.draw.buckets import Buckets
from scenes.draw.focus import CameraFocus
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.forward import GraphCards
from scenes.draw.grow_in import GrowIn
from scenes.draw.crossfade import cut, first_half, second_half
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.labels import CardLabels
from scenes.draw.onscreen import OnScreen, at_end
from scenes.draw.record import opacity, tag as record_tag, tag_of
from scenes.draw.shown_numbers import MIN_SHOWN
from scenes.layout.label_spots import badge_centre
from scenes.layout.detail import Detail
from scenes.layout.place import Box
from scenes.layout.routes import Route
from scenes.draw.drawers import draws
from scenes.draw.state import GraphView, WalkView
from scenes.draw.turn_round import TurnRound
from scenes.draw.visit_note import VisitNotes
from scenes.draw.visuals import arrow_length, arrow_reach, edge_arrow, nominal_token_size, token_ride
from scenes.storyboard.cues import Cue, CueKind

Z_GLOW = -1  # behind cards: the glow shows around them, never over their labels


class BackwardWalk(View):
    """Draws grad_fn_appear, backward_start, visit, local_rule and grad_travel; takes the walk's
    marks away when a cue about something else comes (``give_way``). Asks the graph for cards,
    the buckets to start the backward pass, ``labels`` for tags and tokens, ``onscreen`` for
    what is shown and the ways tokens take, ``frame`` what a note keeps off."""

    def __init__(self, ctx: DrawContext, graph: GraphCards, buckets: Buckets, labels: CardLabels,
                 onscreen: OnScreen, frame: FreeFrame, focus: CameraFocus) -> None:
        super().__init__(ctx)
        self.cards, self.buckets, self.labels, self.onscreen, self.frame = graph, buckets, labels, onscreen, frame
        self.notes = VisitNotes(ctx, labels, onscreen, frame, focus)

    @property
    def graph(self) -> GraphView:
        return self.ctx.state.graph

    @property
    def walk(self) -> WalkView:
        return self.ctx.state.walk

    def give_way(self, kind: CueKind) -> Anims:
        """The walk is over when a cue about something else comes (``ends_walk``): its glow,
        its last visit's marks and the badges waiting by buckets go."""
        walk = self.walk
        if not kind.ends_walk or walk.wave is None:
            return []
        out: Anims = [FadeOut(m) for m in [walk.wave, *walk.visit_marks, *walk.badges.values(),
                                           *sum(walk.fill_tokens.values(), [])]]
        walk.wave, walk.visit_marks, walk.fill_tokens, walk.badges = None, [], {}, {}
        return out

    def _route(self, src: str, dst: str, used: set[Route] | None = None) -> Route | None:
        """The forward route src -> dst (items), skipping routes already used in this step."""
        for r in self.lay.routes:
            if r.src == src and r.dst == dst and (used is None or r not in used):
                return r
        return None

    # ----- backward graph ---------------------------------------------------------------------
    def _flip_edges(self, only_into: str, step: StepScratch) -> Anims:
        """The forward arrows into ``only_into`` become gradient arrows (flipped; a path needing
        no grad is dimmed), each turning round on its own line (`TurnRound`: never shrunk off its
        cards). A dim in the same step fades the new arrow (``step.turning``)."""
        out: Anims = []
        for r, arrow in list(self.graph.arrows.items()):
            if r.dst != only_into:
                continue
            new = edge_arrow(r, self.theme, backward=True, scale=self.lay.scale, dimmed=not r.needs_grad)
            if {r.src, r.dst} & self.graph.dimmed:
                new.fade(self.theme.opacity.dimmed)
            step.turning[id(arrow)] = new
            out.append(TurnRound(arrow, new))
        return out

    @draws("grad_fn_appear")
    def draw_grad_fn_appear(self, cue: Cue, step: StepScratch) -> Anims:
        """The card becomes its backward function: the tensor's name on top (an unnamed result:
        its op), the grad_fn beneath, where the forward card had it; the value stays (a result
        holds both, as ``tensor(0.3333, grad_fn=<MulBackward0>)`` prints: review 2's cards lost
        their numbers here and the backward graph ended with none)."""
        item = self.ctx.item(cue.ids[0])
        old = self.graph.cards.get(item)
        name = cue.text("name")
        card = self.cards.card(item, name, cue.text("value"), cue.text("grad_fn"))
        if card is None:
            return []
        self.cards.record_card(card, cue, {"name": "name", "grad_fn": "sub", "value": "value"} if name is not None
                               else {"grad_fn": "sub", "value": "value"})
        self.graph.cards[item] = card
        grad_fn = next((s for s in cue.strings if s.role == "grad_fn"), None)
        op = self.graph.tags.get(item)
        if grad_fn is not None and card.sub is None:  # a card with no room for it: the op's name
            self.graph.tags.pop(item, None)  # above the card becomes the grad_fn's (it goes with the old card)
            tag = self.graph.tags[item] = self.labels.op_tag(grad_fn.text, self.lay.boxes[item], beside=True)
            card.add(tag)
            self.ctx.record(grad_fn)
        elif op is not None and old is not None and op in old.submobjects:
            # the op's name stays over its card as the card becomes its grad_fn (it went card by
            # card as the arrows turned, and L ended without its "** 2"): the old card keeps its
            # own until the cut, the new card a copy from then on, so one shows on every frame
            self.graph.tags[item] = op.copy()
            card.add(self.graph.tags[item])
        # a cut, the card never gone: a Transform morphs one name into the other glyph by glyph,
        # unreadable on the way, and a fade out and in makes the card blink
        out = cut(old, card) if old is not None else [FadeIn(card)]
        return out + self._flip_edges(only_into=item, step=step)

    # ----- backward walk ----------------------------------------------------------------------
    def _focus(self, box: Box) -> Anims:
        """The glow moves to ``box``: the old ring fades out as the new one fades in. Not a
        Transform: that slides the filled ring across whatever lies between the two cards."""
        new = self.ctx.rings.around([box], scale=self.lay.scale).set_z_index(Z_GLOW)
        old, self.walk.wave = self.walk.wave, new
        return [FadeIn(new)] + ([FadeOut(old)] if old is not None else [])

    @draws("backward_start")
    def draw_backward_start(self, cue: Cue, step: StepScratch) -> Anims:
        out = self.buckets.enter_backward()
        item = self.ctx.item(cue.ids[0])
        box = self.lay.boxes.get(item)
        for s in cue.strings:
            if self.onscreen.card_shows(item, s.text):
                self.ctx.record(s)
        if box is not None:
            out += self._focus(box)
        return out

    @draws("visit")
    def draw_visit(self, cue: Cue, step: StepScratch) -> Anims:
        """The wavefront moves to the node; the summed gradient arriving sits on it as a token."""
        out = self.buckets.enter_backward()
        node, item = cue.ids[0], self.ctx.item(cue.ids[0])
        is_acc = cue.text("grad_fn") == "AccumulateGrad"
        box = self.lay.boxes.get(f"bucket:{item}" if is_acc else item) or self.lay.boxes.get(item)
        if box is None:
            return out
        out += self._focus(box)
        if not is_acc:  # the gradient leaves along the node's inputs: they turn round now
            out += self._flip_edges(only_into=item, step=step)
            self.graph.walked.add(item)
        waiting = self.walk.tokens.pop(node, [])  # what rode in; it becomes the badge of the sum
        rode = list(waiting)
        out += [FadeOut(m, rate_func=first_half) for m in self.walk.visit_marks]  # gone before the new note shows
        going, self.walk.visit_marks = self.walk.visit_marks, []
        tags = [self.graph.tags[item]] if item in self.graph.tags else []  # the op's name above its card
        for s in sorted(cue.strings, key=lambda s: s.role == "grad"):  # the badge keeps clear of tags
            if s.role == "grad_fn" and not self.onscreen.card_shows(item, s.text):
                if self.lay.detail is Detail.DENSE:
                    continue  # a one-row graph is packed: its cards' op names and the note's rule say what ran
                tag = self.labels.tag(s.text, box, above=not is_acc,  # below a bucket: its leaf is above
                                      avoid=[bounds(m) for m in rode] + [bounds(m) for m in tags],
                                      or_none=self.onscreen.shown_rects(exclude=going + rode))
                if tag is None:
                    continue  # no room by the box: the note's rule (the bucket's fill) says what ran
                self.walk.visit_marks.append(tag)
                tags.append(tag)
                out.append(FadeIn(tag, rate_func=second_half))  # once the last visit's marks are gone
                self.ctx.record(s)
            elif s.role == "grad_fn":
                self.ctx.record(s)
            elif s.role == "grad":
                tok = self.labels.token(s.text)
                avoid = [bounds(m) for m in tags] + self.onscreen.shown_rects(
                    exclude=going + rode + self.onscreen.own_shapes(item))
                t, k = self.theme, self.lay.scale
                x, y = badge_centre(self.lay, box, (tok.width, tok.height), nominal=nominal_token_size(t, scale=k),
                                    gap=t.spacing.edge_clearance, clear=arrow_reach(t, k), head=arrow_length(t, k),
                                    avoid=avoid)
                if len(waiting) == 1 and (not is_acc or self._in_row(waiting[0], item)):  # one path in: the
                    x, y = waiting[0].get_center()[:2]  # badge is the token, where it waits (beside the
                    # card, or in its bucket's row: a glide beside the card may cross its corner)
                else:  # no spot beside the box is free of everything shown: the nearest one that is
                    own = [bounds(m) for m in self.onscreen.own_shapes(item)]
                    x, y = self.onscreen.free_spot((x, y), tok, avoid + own)
                self.labels.keep_inside(tok.move_to([x, y, 0]))
                if is_acc:  # it waits beside its bucket until the fill drops it in
                    out += [FadeOut(m) for m in self.walk.fill_tokens.pop(item, [])]
                    self.walk.fill_tokens[item] = [tok]
                elif self.lay.detail is Detail.DENSE:  # a packed graph has no room to keep it:
                    self.walk.visit_marks.append(record_tag(tok, "badge", id=item))  # it goes with the visit's note
                else:  # the node keeps what it received to the walk's end
                    old = self.walk.badges.pop(node, None)
                    out += [FadeOut(old)] if old is not None else []
                    self.walk.badges[node] = record_tag(tok, "badge", id=item)  # its node's: a token leaving
                    # that node may cross it (`collisions._leaving`)
                out += self._merge(waiting, tok, step, box, into=item if is_acc else None)
                waiting = []
                self.ctx.record(s)
        if is_acc and waiting:  # no badge (they met at the bucket): they wait for the fill, in its mouth
            out += [FadeOut(m) for m in self.walk.fill_tokens.pop(item, [])]
            out += self.buckets.meet_in_mouth(item, waiting, cue.start)
            self.walk.fill_tokens[item], waiting = waiting, []
            rode = []  # they stay: not going
        marks = tags + self.walk.fill_tokens.get(item, [])
        note = self.notes.place(cue, box, avoid_marks=marks, going=going + rode)
        for (at, to), products in self.walk.products.items():  # its token rides the arrow to ``to``:
            for product in products if at == node else []:  # (this visit's: one with nothing to write keeps the last one's)
                record_tag(product, "badge", id=_arrow_id(self.ctx.item(to), item))  # the record follows both
        return out + [FadeOut(m) for m in waiting] + note

    @draws("local_rule")
    def draw_local_rule(self, cue: Cue, step: StepScratch) -> Anims:
        """Written by its visit (which places the node's whole note at once); here only recorded."""
        if (cue.ids[0], cue.ids[1]) in self.walk.products:
            for s in cue.strings:
                self.ctx.record(s)
        return []

    def _merge(self, waiting: list[VGroup], badge: VGroup, step: StepScratch, box: Box | None = None,
               into: str | None = None) -> Anims:
        """The tokens that rode in glide onto the badge and become it: where two paths meet
        (w * w), the viewer sees 3 and 3 turn into one 6, the sum over paths. A badge nothing
        rode to (the loss's 1) grows in place. Each token glides on a way around what is on
        screen (``glide``) and is gone once it has landed, when the badge shows. ``into``: the
        leaf whose bucket the badge waits by: the tokens ride its bucket's arrow from the leaf's
        card, which their way may cross (it is boxed in by its neighbours)."""
        if not waiting:
            return [GrowIn(badge)]
        if len(waiting) == 1 and np.allclose(waiting[0].get_center(), badge.get_center()):
            return [ReplacementTransform(waiting[0], badge)]  # it waits where the badge is: it is the badge
        out: Anims = [FadeIn(badge, rate_func=at_end)]
        # in a row from where the badge shows, away from its box: not over each other nor over
        # the box
        wide = max(w.width for w in waiting) + self.theme.spacing.edge_clearance
        x, y = badge.get_center()[:2]
        out_x = 1.0 if box is None or x >= box.x else -1.0
        half = self.ctx.spec.frame_width / 2
        if abs(x + out_x * ((len(waiting) - 1) * wide + wide / 2)) > half:  # the row would leave the frame
            out_x = -out_x
        leaves = [self.graph.cards[into]] if into in self.graph.cards else []
        for i, token in enumerate(sorted(waiting, key=lambda m: out_x * m.get_center()[0])):
            to = (x + out_x * i * wide, y)
            if into is not None:
                record_tag(token, "badge", id=_arrow_id(f"bucket:{into}", into))
            glide = self.onscreen.glide(token, to, waiting + [badge], step, leaves=leaves)
            out.append(Succession(glide, FadeOut(token, run_time=1e-3)))
        return out

    @draws("grad_travel")
    def draw_grad_travel(self, cue: Cue, step: StepScratch) -> Anims:
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
        tok = record_tag(self.labels.token(cue.text("grad") or ""), "badge", id=_arrow_id(r.src, r.dst))
        nominal = nominal_token_size(self.theme, scale=self.lay.scale)
        ride = token_ride(r, nominal, self.theme, self.lay.boxes[r.src].bounds,  # backward, it ends at src
                          leaves=self.lay.boxes[r.dst].bounds)
        product = self._product(cue, nth)
        start, exclude = ride.get_start(), []
        if product is not None:  # a copy of the visit's product leaves it and rides the edge; the
            start, exclude = product.get_center(), [product]  # note keeps its number all the while
        # from its note it may cross the note's other rows, its node, and a dimmed card between
        # (out of the walk), drawn over them: a way round squeezes between cards and words, or has none
        leaves = [m for k, m in self.graph.cards.items() if k == r.dst or opacity(m) < MIN_SHOWN]
        leaves += self.walk.visit_marks
        move = self.onscreen.ride(tok, start, ride, exclude, step, leaves=leaves, under=product)
        tok.move_to(move.path.get_start())
        anims = self._on_to_bucket(tok, move, cue, dst, step)
        self.walk.tokens.setdefault(cue.ids[1], []).append(tok)
        for s in cue.strings:
            self.ctx.record(s)
        return anims

    def _in_row(self, tok: Mobject, leaf: str) -> bool:
        """Whether ``tok`` waits in the row beside the bucket of ``leaf`` (`_to_row`)."""
        found = tag_of(tok)
        return found is not None and found.id == _arrow_id(f"bucket:{leaf}", leaf)

    def _to_row(self, tok: VGroup, row: list[VGroup], leaf: str, count: int, step: StepScratch,
                landed: list[tuple[float, float]]) -> tuple[Animation, tuple[float, float]]:
        """``tok``'s way from where it is to the next place in the row of tokens waiting beside
        the bucket of ``leaf`` (``row``, standing at ``landed``: where each is, or lands in this
        step), and that place. The row runs from beside the bucket out, as `_merge` rows tokens,
        on the side where all ``count`` fit; its way may cross the leaf's card, and it settles
        on the nearest free spot, never hidden where it waits."""
        box, t, k = self.lay.boxes[f"bucket:{leaf}"], self.theme, self.lay.scale
        wide = max([tok.width] + [m.width for m in row]) + t.spacing.edge_clearance
        if not landed:
            x0, y0 = badge_centre(self.lay, box, (tok.width, tok.height), nominal=nominal_token_size(t, scale=k),
                                  gap=t.spacing.edge_clearance, clear=arrow_reach(t, k), head=arrow_length(t, k),
                                  avoid=self.onscreen.shown_rects(exclude=[tok, *self.onscreen.own_shapes(leaf)]))
            out_x = 1.0 if x0 >= box.x else -1.0
            lo, _, hi, _ = self.frame.free_rect()
            reach = x0 + out_x * ((count - 1) * wide + wide / 2)
            if not lo <= reach <= hi and lo <= 2 * box.x - reach <= hi:  # the row fits on the other side only
                x0, out_x = 2 * box.x - x0, -out_x
            at = (x0, y0)
        else:
            out_x = 1.0 if landed[0][0] >= box.x else -1.0
            at = (landed[0][0] + out_x * len(landed) * wide, landed[0][1])
        glide = self.onscreen.glide(tok, at, row, step, settle=True, leaves=[self.graph.cards[leaf]])
        rest = getattr(tok, "rests", None)
        return glide, (((rest[0] + rest[2]) / 2, (rest[1] + rest[3]) / 2) if rest else at)

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
        if f"bucket:{leaf}" not in self.lay.boxes or leaf not in self.graph.cards or not (
                any(self._in_row(m, leaf) or id(m) in step.queued for m in row)
                or any(c.start > cue.start for c in coming)):
            return [move]
        landed = [step.queued.get(id(m)) or (float(m.get_center()[0]), float(m.get_center()[1])) for m in row]
        start = tok.get_center().copy()
        tok.move_to(move.path.get_end())
        glide, at = self._to_row(tok, row, leaf, len(row) + 1 + len(coming), step, landed)
        tok.move_to(start)
        step.queued[id(tok)] = at
        move.run_time, glide.run_time = 2.0, 1.0  # the ride down the edge, then the short way on
        return [Succession(move, _Retag(tok, _arrow_id(f"bucket:{leaf}", leaf)), glide)]

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
        tok = record_tag(self.labels.token(cue.text("grad") or ""), "badge", id=_arrow_id(item, item))
        product = self._product(cue, 0)
        t, k = self.theme, self.lay.scale
        exclude = [product] if product is not None else []
        avoid = (self.onscreen.shown_rects(exclude=exclude)
                 + [bounds(m) for m in self.walk.visit_marks if m is not product])
        to = badge_centre(self.lay, box, (tok.width, tok.height), nominal=nominal_token_size(t, scale=k),
                          gap=t.spacing.edge_clearance, clear=arrow_reach(t, k), head=arrow_length(t, k),
                          avoid=avoid)
        to = self.onscreen.free_spot(to, tok, avoid)
        tok.move_to(product.get_center() if product is not None else [box.x, box.y, 0.0])
        move = self.onscreen.glide(tok, to, exclude, step, settle=True, under=product)
        tok.move_to(move.path.get_start())
        self.walk.tokens.setdefault(cue.ids[1], []).append(tok)
        for s in cue.strings:
            self.ctx.record(s)
        return [move]


class _Retag(Animation):
    """Re-tags a token as it starts the next part of its way (`Succession`): the record follows
    it as the arrow it rides on, not the one it came down."""

    def __init__(self, tok: Mobject, ident: str) -> None:
        self.ident = ident
        super().__init__(tok, run_time=1e-3)

    def begin(self) -> None:
        record_tag(self.mobject, "badge", id=self.ident)
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        pass


def _arrow_id(src: str, dst: str) -> str:
    """The record's id of the arrow src -> dst (forward), as `edge_arrow` tags it: a token riding
    it, and the product it leaves, carry it too, so `scenes.render.flight` follows its way."""
    return f"{src}->{dst}"
