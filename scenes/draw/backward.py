"""The backward walk of the clip scene: the backward graph and the wavefront walk.

Why a view of its own: ``ClipScene`` is one generic scene; its drawers are split by what they
draw so each file stays one idea. This view owns the walk's record and turns the graph's arrows
and cards into the backward graph's (:mod:`scenes.draw.state`: cards, arrows, tokens); it returns
animations and never calls ``play``. The buckets the walk ends in are :mod:`scenes.draw.buckets`;
its first cue calls their ``enter_backward``. How its gradient tokens ride and wait is
:mod:`scenes.draw.rides`'s, its visits' notes :mod:`scenes.draw.visit_note`'s.
"""

from __future__ import annotations

from manim import FadeIn, FadeOut, Mobject, VGroup

from scenes.draw.buckets import Buckets
from scenes.draw.fade_times import still_said
from scenes.draw.focus import CameraFocus
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.forward import GraphCards
from scenes.draw.collisions import RING
from scenes.draw.crossfade import cut, first_half, second_half
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.labels import CardLabels
from scenes.draw.onscreen import OnScreen
from scenes.draw.record import opacity, tag as record_tag, tagged
from scenes.draw.rides import TokenRides
from scenes.draw.waiting import WaitingTokens, arrow_id
from scenes.layout.detail import Detail
from scenes.layout.detour import clear_of
from scenes.layout.label_spots import inside, rect_around
from scenes.layout.place import Box
from scenes.draw.drawers import draws
from scenes.draw.state import GraphView, WalkView
from scenes.draw.turn_round import TurnRound
from scenes.draw.visit_note import VisitNotes
from scenes.draw.visuals import edge_arrow
from scenes.storyboard.cues import Cue, CueKind, writes_note

Z_GLOW = -1  # behind cards: the glow shows around them, never over their labels


HOLDS = frozenset({"code_line", "output_line", "message", "light", "emphasis", "check"})
"""Cue kinds that leave the graph as it is: a bucket's sum kept past the walk stays through them."""


class BackwardWalk(View):
    """Draws grad_fn_appear, backward_start, visit, local_rule and grad_travel; takes the walk's
    marks away when a cue about something else comes (``give_way``). Asks the graph for cards,
    the buckets to start the backward pass, ``labels`` for tags and tokens, ``onscreen`` for
    what is shown and the ways tokens take, ``frame`` what a note keeps off."""

    def __init__(self, ctx: DrawContext, graph: GraphCards, buckets: Buckets, labels: CardLabels,
                 onscreen: OnScreen, frame: FreeFrame, focus: CameraFocus) -> None:
        super().__init__(ctx)
        self.cards, self.buckets, self.labels, self.onscreen, self.frame = graph, buckets, labels, onscreen, frame
        self.focus = focus
        self.notes = VisitNotes(ctx, labels, onscreen, frame, focus)
        self.waiting = WaitingTokens(ctx, labels, onscreen, frame)  # where tokens wait, and give way
        self.rides = TokenRides(ctx, labels, onscreen, frame, self.waiting)

    @property
    def graph(self) -> GraphView:
        return self.ctx.state.graph

    @property
    def walk(self) -> WalkView:
        return self.ctx.state.walk

    def give_way(self, kind: CueKind, at: float | None = None) -> Anims:
        """The walk is over when a cue about something else comes (``ends_walk``): its glow,
        its last visit's marks and the badges waiting by buckets go; but a bucket's sum that a
        caption up at ``at`` (the cue's start) or after names (its ``named_until``,
        `BucketNotes.sums_note`) stays while only the code and what it prints change (`HOLDS`),
        to that caption's end (``walk.held``): "`print(w.grad)` shows 2/3, the sum of what its
        two arrows carried" came after ``1/3 + 1/3 = 2/3`` had gone (REVIEW5 item 6)."""
        walk = self.walk

        def holds(m: Mobject) -> bool:
            return at is not None and kind.name in HOLDS and getattr(m, "named_until", 0.0) > at + 1e-6

        out: Anims = [FadeOut(m) for m in walk.held if not holds(m)]
        walk.held = [m for m in walk.held if holds(m)]
        if not kind.ends_walk or walk.wave is None:
            return out
        walk.held += [m for m in walk.visit_marks if holds(m)]
        out += [FadeOut(m) for m in [walk.wave, *walk.visit_marks, *walk.badges.values(),
                                     *sum(walk.fill_tokens.values(), [])] if m not in walk.held]
        walk.wave, walk.visit_marks, walk.fill_tokens, walk.badges = None, [], {}, {}
        return out

    # ----- backward graph ---------------------------------------------------------------------
    def _flip_edges(self, only_into: str, step: StepScratch) -> Anims:
        """The forward arrows into ``only_into`` become gradient arrows (flipped; a path needing
        no grad is dimmed), each turning round on its own line (`TurnRound`: never shrunk off its
        cards). A dim in the same step fades the new arrow (``step.turning``)."""
        out: Anims = []
        for r, arrow in list(self.graph.arrows.items()):
            if r.dst != only_into:
                continue
            new = edge_arrow(r, self.theme, backward=True, scale=self.lay.scale, zoom=self.lay.zoom,
                             dimmed=not r.needs_grad)
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
        record_tag(new, RING, id=box.id, meaning="now")  # what a note beside the card keeps off
        old, self.walk.wave = self.walk.wave, new
        return [FadeIn(new)] + ([FadeOut(old)] if old is not None else [])

    @draws("backward_start")
    def draw_backward_start(self, cue: Cue, step: StepScratch) -> Anims:
        out = self.buckets.enter_backward() + self.cards.freed.retire_ghost()  # the new graph is complete
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
        merging: tuple[list[VGroup], VGroup] | None = None
        # the last visit's marks go before the new note shows; a visit that writes none (a leaf's)
        # leaves the last note up while the caption explaining it runs, and a bucket's sum while
        # the caption naming it is up or to come (`still_said`)
        # (and still shown: one the camera took out of view would come back stale with it)
        kept = [] if writes_note(self.ctx.plan.cues, cue) else [
            m for m in self.walk.visit_marks if still_said(m, cue.start) and opacity(m) > 0
            and id(m) not in self.focus.faded]
        going, self.walk.visit_marks = [m for m in self.walk.visit_marks if m not in kept], kept
        out += [FadeOut(m, rate_func=first_half) for m in going]
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
                avoid = [bounds(m) for m in tags] + self.onscreen.value_runs() + self.onscreen.shown_rects(
                    exclude=going + rode + self.onscreen.own_shapes(item), away=True)  # and what the camera hid: it shows again there
                x, y = self.labels.badge_spot(box, tok, avoid, low=True)
                shade = (self.onscreen.below_value_run(item, box)  # (tokens in its row: the badge is where they wait)
                         if is_acc and rode and not any(self.waiting.in_row(m, item) for m in rode) else None)
                if shade is not None and not clear_of((x, y), (tok.width, tok.height), [shade]):
                    # the tokens coming on from the card wait level with it on its other side, where that is free
                    other = (2 * box.x - x, y)
                    if clear_of(other, (tok.width, tok.height), [*avoid, shade, *self.labels.rings()]) and inside(
                            rect_around(other[0], other[1], (tok.width, tok.height)), self.frame.free_rect()):
                        x, y = other
                if len(waiting) == 1 and (not is_acc or self.waiting.in_row(waiting[0], item)) and inside(
                        bounds(waiting[0]), self.ctx.frame_rect()):  # one path in: the badge is the token,
                    x, y = waiting[0].get_center()[:2]  # where it waits (beside the card, or in its
                    # bucket's row: a glide beside the card may cross its corner); not where the camera's
                    # move to the node took it out of the frame (kept inside, it went over the op's name)
                else:  # no spot beside the box is free of everything shown: the nearest one that is
                    own = [bounds(m) for m in self.onscreen.own_shapes(item)]
                    x, y = self.onscreen.free_spot((x, y), tok, avoid + own + self.labels.rings())
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
                merging = (waiting, tok)  # they glide once the note is placed: their way keeps off it
                waiting = []
                self.ctx.record(s)
        if is_acc and waiting:  # no badge (they met at the bucket): they wait for the fill, in its mouth
            out += [FadeOut(m) for m in self.walk.fill_tokens.pop(item, [])]
            out += self.buckets.mouths.meet_in_mouth(item, waiting, cue.start)
            for tok, glide in self.waiting.gather(item, waiting, going, step, set(self.focus.faded)):
                self.focus.bring_back(tok)  # a term out of view comes into the frame for the fill
                out.append(glide)
            self.walk.fill_tokens[item], waiting = waiting, []
            rode = []  # they stay: not going
        marks = tags + self.walk.fill_tokens.get(item, [])
        note = self.notes.place(cue, box, avoid_marks=marks, going=going + rode)
        mine = [p for (at, _), ps in self.walk.products.items() if at == node for p in ps]
        # a number its rules' results read on gives way (the new badge too, before its tokens glide onto it)
        note += self.waiting.make_way(mine, going + rode, step, badge=merging[1] if merging is not None else None)
        note += self.waiting.rejoin(going + rode, step, but=node)  # a row's token waiting off its place goes there
        for (at, to), products in self.walk.products.items():  # its token rides the arrow to ``to``:
            for product in products if at == node else []:  # (this visit's: one with nothing to write keeps the last one's)
                record_tag(product, "badge", id=arrow_id(self.ctx.item(to), item))  # the record follows both
        if merging is not None:  # the tokens glide round the note's products as they come in (its words
            words = [m for m, t in tagged(self.walk.visit_marks) if t.role == "note"]  # they may pass, as before)
            out += self.rides.merge(*merging, step, box, into=item if is_acc else None, passing=words)
        return out + [FadeOut(m) for m in waiting] + note

    @draws("local_rule")
    def draw_local_rule(self, cue: Cue, step: StepScratch) -> Anims:
        """Written by its visit (which places the node's whole note at once); here only recorded."""
        if (cue.ids[0], cue.ids[1]) in self.walk.products:
            for s in cue.strings:
                self.ctx.record(s)
        return []

    @draws("grad_travel")
    def draw_grad_travel(self, cue: Cue, step: StepScratch) -> Anims:
        """A gradient token rides the flipped edge from one node to the next (`TokenRides.travel`);
        one bound for a bucket told None takes its words away (`BucketNotes.gradient_coming`)."""
        coming = self.buckets.notes.gradient_coming(cue.ids[1]) if len(cue.ids) > 1 else []
        return coming + self.rides.travel(cue, step)
