"""Backward cues of the clip scene: the backward graph, the wavefront walk, the buckets.

Why a mixin: ``ClipScene`` is one generic scene; its cue handlers are split by theme so each file
stays one idea. These methods read and change the scene's graph and walk records
(:mod:`scenes.draw.state`: cards, arrows, buckets, tokens) and return animations; they never call ``play`` themselves.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from manim import (FadeIn, FadeOut, MoveAlongPath, ReplacementTransform, Succession, Transform,
                   VGroup, VMobject, smooth)

from scenes.draw.grow_in import GrowIn
from scenes.draw.crossfade import crossfade, first_half, second_half
from scenes.draw.onscreen import OnScreen, at_end
from scenes.draw.refill import refill
from scenes.layout.label_spots import badge_centre, note_centre
from scenes.layout.place import Box
from scenes.layout.routes import Route
from scenes.draw.drawers import draws
from scenes.draw.state import GraphView, WalkView
from scenes.draw.visuals import (arrow_reach, bucket, edge_arrow, formula, nominal_token_size, note_block, route_path,
                                 token_ride, wavefront)

Anims = list[Any]
Z_GLOW = -1  # behind cards: the glow shows around them, never over their labels


class BackwardCues(OnScreen):
    """Handlers for grad_fn_appear, bucket_appear, backward_start, visit, grad_travel,
    bucket_fill and bucket_reset (mixed into ClipScene)."""

    # state and helpers provided by ClipScene
    theme: Any
    lay: Any
    graph: GraphView
    walk: WalkView
    _turning: dict[int, VGroup]
    fill_max: dict[str, float]
    plan: Any

    # ----- backward graph ---------------------------------------------------------------------
    def _flip_edges(self, only_into: str) -> Anims:
        """The forward arrows into ``only_into`` become gradient arrows (flipped; a path needing
        no grad is dimmed)."""
        out: Anims = []
        for r, arrow in list(self.graph.arrows.items()):
            if r.dst != only_into:
                continue
            new = edge_arrow(r, self.theme, backward=True, scale=self.lay.scale, dimmed=not r.needs_grad)
            if {r.src, r.dst} & self.graph.dimmed:
                new.fade(self.theme.opacity.dimmed)
            self._turning[id(arrow)] = new
            out.append(Transform(arrow, new))
        return out

    @draws("grad_fn_appear")
    def _cue_grad_fn_appear(self, cue: Any) -> Anims:
        """The card becomes its backward function: the tensor's name on top (an unnamed result:
        its op), the grad_fn beneath, where the forward card had it; the value goes."""
        item = self._item(cue.ids[0])
        old = self.graph.cards.get(item)
        name = cue.text("name")
        card = self._card(item, name, None, cue.text("grad_fn"))
        if card is None:
            return []
        self._record_card(card, cue, {"name": "name", "grad_fn": "sub"} if name is not None else {"grad_fn": "sub"})
        self.graph.cards[item] = card
        # a cross-fade: a Transform morphed "yh" into "MulBackward0" glyph by glyph, a blue slab
        # with a white blob for a few frames
        out = [crossfade(old, card)] if old is not None else [FadeIn(card)]
        return out + self._flip_edges(only_into=item)

    def _ensure_bucket(self, leaf: str, grad_fn: str | None = None, name: Any = None) -> Anims:
        box = self.lay.boxes.get(f"bucket:{leaf}")
        if box is None or leaf in self.graph.buckets:
            return []
        b = bucket(box, self.theme, level=0.0, value=None, scale=self.lay.scale)
        self.graph.buckets[leaf] = b
        group = VGroup(b)
        into = next((r for r in self.lay.routes if r.src == box.id and r not in self.graph.arrows), None)
        if into is not None:  # the last edge of the backward graph: leaf -> its AccumulateGrad
            self.graph.arrows[into] = edge_arrow(into, self.theme, backward=True, scale=self.lay.scale)
            group.add(self.graph.arrows[into])
        if grad_fn is not None:
            group.add(self._tag(grad_fn.text, box, above=False))
            self._record(grad_fn)
        if name is not None:  # the leaf's card beside the bucket shows the name
            if self._card_shows(leaf, name.text):
                self._record(name)
            else:
                group.add(self._tag(name.text, box, above=True))
                self._record(name)
        return [FadeIn(group)]

    @draws("bucket_appear")
    def _cue_bucket_appear(self, cue: Any) -> Anims:
        shown = {s.role: s for s in cue.strings}
        return self._ensure_bucket(cue.ids[1], shown.get("grad_fn"), shown.get("name"))

    def _enter_backward(self) -> Anims:
        """First backward cue: every weight gets its (empty) bucket. The arrows turn round as
        the walk reaches them (`_cue_visit`), not all at once: a graph the walk never enters
        (L2's, when L1.backward() runs) keeps its forward arrows, as no gradient flows there."""
        if self.graph.backward:
            return []
        self.graph.backward = True
        out: Anims = []
        for box in self.lay.boxes.values():
            if box.kind == "bucket" and self.lay.items[box.id].tensor:
                out += self._ensure_bucket(self.lay.items[box.id].tensor or "")
        return out

    # ----- backward walk ----------------------------------------------------------------------
    def _focus(self, box: Box) -> Anims:
        """The glow moves to ``box``: the old ring fades out as the new one fades in. Why not a
        Transform: the filled ring then slid across the graph between the two cards, a yellow
        slab over whatever lay between (the cards of a 1:1 frame) for a third of a second."""
        new = wavefront([box], self.theme, scale=self.lay.scale).set_z_index(Z_GLOW)
        old, self.walk.wave = self.walk.wave, new
        return [FadeIn(new)] + ([FadeOut(old)] if old is not None else [])

    def _card_shows(self, item: str, text: str) -> bool:
        card = self.graph.cards.get(item)
        return card is not None and any(getattr(card, row, None) is not None and getattr(card, row).text == text
                                        for row in ("name", "value", "sub"))

    @draws("backward_start")
    def _cue_backward_start(self, cue: Any) -> Anims:
        out = self._enter_backward()
        item = self._item(cue.ids[0])
        box = self.lay.boxes.get(item)
        for s in cue.strings:
            if self._card_shows(item, s.text):
                self._record(s)
        if box is not None:
            out += self._focus(box)
        return out

    @draws("visit")
    def _cue_visit(self, cue: Any) -> Anims:
        """The wavefront moves to the node; the summed gradient arriving sits on it as a token."""
        out = self._enter_backward()
        node, item = cue.ids[0], self._item(cue.ids[0])
        is_acc = cue.text("grad_fn") == "AccumulateGrad"
        box = self.lay.boxes.get(f"bucket:{item}" if is_acc else item) or self.lay.boxes.get(item)
        if box is None:
            return out
        out += self._focus(box)
        if not is_acc:  # the gradient leaves along the node's inputs: they turn round now
            out += self._flip_edges(only_into=item)
            self.graph.walked.add(item)
        waiting = self.walk.tokens.pop(node, [])  # what rode in; it becomes the badge of the sum
        rode = list(waiting)
        out += [FadeOut(m, rate_func=first_half) for m in self.walk.visit_marks]  # gone before the new note shows
        going, self.walk.visit_marks = self.walk.visit_marks, []
        tags = [self.graph.tags[item]] if item in self.graph.tags else []  # the op's name above its card
        for s in sorted(cue.strings, key=lambda s: s.role == "grad"):  # the badge keeps clear of tags
            if s.role == "grad_fn" and not self._card_shows(item, s.text):
                tag = self._tag(s.text, box, above=not is_acc,  # below a bucket: its leaf is above
                                avoid=[self._bounds(m) for m in rode] + [self._bounds(m) for m in tags])
                self.walk.visit_marks.append(tag)
                tags.append(tag)
                out.append(FadeIn(tag))
                self._record(s)
            elif s.role == "grad_fn":
                self._record(s)
            elif s.role == "grad":
                tok = self._token(s.text)
                avoid = [self._bounds(m) for m in tags] + self._shown_rects(exclude=going + rode + self._own_shapes(item))
                t, k = self.theme, self.lay.scale
                x, y = badge_centre(self.lay, box, (tok.width, tok.height), nominal=nominal_token_size(t, scale=k),
                                    gap=t.spacing.edge_clearance, clear=arrow_reach(t, k), avoid=avoid)
                if len(waiting) == 1 and not is_acc:  # one path in: the badge is the token, where it waits
                    x, y = waiting[0].get_center()[:2]  # (a glide beside the card crossed its corner)
                self._keep_inside(tok.move_to([x, y, 0]))
                if is_acc:  # it waits beside its bucket until the fill drops it in
                    out += [FadeOut(m) for m in self.walk.fill_tokens.pop(item, [])]
                    self.walk.fill_tokens[item] = [tok]
                else:
                    self.walk.visit_marks.append(tok)
                out += self._merge(waiting, tok, box)
                waiting = []
                self._record(s)
        if is_acc and waiting:  # no badge (they met at the bucket): they wait beside it for the fill
            out += [FadeOut(m) for m in self.walk.fill_tokens.pop(item, [])]
            self.walk.fill_tokens[item], waiting = waiting, []
            rode = []  # they stay: not going
        marks = tags + self.walk.fill_tokens.get(item, [])
        return out + [FadeOut(m) for m in waiting] + self._visit_note(cue, box, avoid_marks=marks, going=going + rode)

    def _visit_note(self, cue: Any, box: Box, avoid_marks: list[Any], going: list[Any]) -> Anims:
        """The visit's arithmetic beside its node: where gradients met, their sum
        (``3 + 3 = 6``); the rule's words; then per edge that sends a gradient (the visit's
        ``local_rule`` cues, which start with it) ``what arrived × factors = [product]``, the
        product a token that the edge's ``grad_travel`` then carries away."""
        t = self.theme
        parts = [s.text for s in cue.strings if s.role == "part"]
        rows = []
        if parts:
            rows.append(formula(f"{' + '.join(parts)} = {cue.text('grad')}", t))
        words = cue.text("rule")
        rules = [c for c in self.plan.cues if c.kind == "local_rule" and c.ids[0] == cue.ids[0] and c.start == cue.start]
        if words is not None and rules:
            rows.append(formula(words, t, muted=True))
        products: dict[str, Any] = {}
        for r in rules:
            factors = " × ".join(s.text for s in r.strings if s.role == "factor")
            who = r.text("target")
            row = formula(f"{who + ': ' if who else ''}{r.text('in')} × {factors} =", t, product=r.text("out"),
                          scale=self.lay.scale)
            rows.append(row)
            products[r.ids[1]] = row.product
        for s in cue.strings:
            if s.role in ("part", "rule") and (s.role == "part" or rules):
                self._record(s)
        if not rows:
            return []
        block = note_block(rows, t)
        nominal = nominal_token_size(t, scale=self.lay.scale)
        x, y = note_centre(self.lay, box, (block.width, block.height), gap=t.spacing.item_gap * self.lay.scale,
                           clear=arrow_reach(t, self.lay.scale), beside=nominal[0],
                           within=self._free_rect(), avoid=[self._bounds(m) for m in avoid_marks + self.walk.visit_marks]
                           + self._pane_bounds() + self._frame_marks()
                           + self._shown_rects(exclude=going, extra=avoid_marks + self.walk.visit_marks))
        self._keep_inside(block.move_to([x, y, 0]))
        self.walk.visit_marks.append(block)
        self.walk.products = {(cue.ids[0], k): p for k, p in products.items()}
        return [FadeIn(block, rate_func=second_half)]

    def _bucket_note(self, box: Box, text: str, going: list[Any]) -> Anims:
        """``before + add = after`` beside a bucket, until the next visit or fill."""
        t = self.theme
        block = note_block([formula(text, t)], t)
        x, y = note_centre(self.lay, box, (block.width, block.height), gap=t.spacing.item_gap * self.lay.scale,
                           clear=arrow_reach(t, self.lay.scale), beside=0.0, within=self._free_rect(),
                           avoid=self._pane_bounds() + self._frame_marks() + self._shown_rects(exclude=going))
        self._keep_inside(block.move_to([x, y, 0]))
        self.walk.visit_marks.append(block)
        return [FadeIn(block, rate_func=second_half)]

    @draws("local_rule")
    def _cue_local_rule(self, cue: Any) -> Anims:
        """Written by its visit (which places the node's whole note at once); here only recorded."""
        if (cue.ids[0], cue.ids[1]) in self.walk.products:
            for s in cue.strings:
                self._record(s)
        return []

    def _merge(self, waiting: list[VGroup], badge: VGroup, box: Box | None = None) -> Anims:
        """The tokens that rode in glide onto the badge and become it: where two paths meet
        (w * w), the viewer sees 3 and 3 turn into one 6, the sum over paths. A badge nothing
        rode to (the loss's 1) grows in place. Each token glides on a way around what is on
        screen (`_glide`) and is gone once it has landed, when the badge shows."""
        if not waiting:
            return [GrowIn(badge)]
        if len(waiting) == 1 and np.allclose(waiting[0].get_center(), badge.get_center()):
            return [ReplacementTransform(waiting[0], badge)]  # it waits where the badge is: it is the badge
        out: Anims = [FadeIn(badge, rate_func=at_end)]
        # in a row from where the badge shows, away from its box, not over each other (two
        # "3"s drawn on one spot) nor over the box
        wide = max(w.width for w in waiting) + self.theme.spacing.edge_clearance
        x, y = badge.get_center()[:2]
        out_x = 1.0 if box is None or x >= box.x else -1.0
        for i, token in enumerate(sorted(waiting, key=lambda m: out_x * m.get_center()[0])):
            to = (x + out_x * i * wide, y)
            out.append(Succession(MoveAlongPath(token, self._glide(token, to, waiting + [badge])),
                                  FadeOut(token, run_time=1e-3)))
        return out

    def _product_for(self, r: Route, key: tuple[str, str], taken: set[Route]) -> VGroup | None:
        """The visit's product pill that leaves on ``r``, taken from the walk's: where two
        edges join the same two nodes (w * w), the one whose ride starts nearer to the pill, so
        that the two tokens setting off at once do not cross each other's way."""
        product = self.walk.products.get(key)
        if product is None:
            return None
        rivals = [q for q in self.lay.routes if (q.src, q.dst) == (r.src, r.dst) and q not in taken]
        at = product.get_center()[:2]
        near = lambda q: float(np.hypot(*(np.array(q.points[-1]) - at)))  # noqa: E731 - a ride starts at dst
        if any(near(q) < near(r) for q in rivals):
            return None  # a later edge of the two takes it
        return self.walk.products.pop(key)

    @draws("grad_travel")
    def _cue_grad_travel(self, cue: Any) -> Anims:
        """A gradient token rides the flipped edge from one node to the next."""
        src, dst = self._item(cue.ids[0]), self._item(cue.ids[1])
        busy = {r for r, t in self.walk.riding if t == cue.start}  # two paths at once take two edges
        r = self._route(dst, src, busy)
        if r is None:
            return []
        self.walk.riding.append((r, cue.start))
        tok = self._token(cue.text("grad") or "")
        nominal = nominal_token_size(self.theme, scale=self.lay.scale)
        ride = token_ride(r, nominal, self.theme, self.lay.boxes[r.src].bounds,  # backward, it ends at src
                          leaves=self.lay.boxes[r.dst].bounds)
        product = self._product_for(r, (cue.ids[0], cue.ids[1]), busy | {r})  # w * w: one product, two edges
        aside: Anims = []
        start, exclude = ride.get_start(), []
        if product is not None:  # the product of the visit's arithmetic leaves it and rides the edge
            start, exclude = product.get_center(), [product]
            # the token is it: the pill steps aside while the token is on it (the two were drawn
            # over each other), and is written again once the token is on its way
            aside.append(Transform(product, product.copy().set_opacity(0.0), rate_func=_aside))
        path = self._ride(tok, start, ride, exclude)
        tok.move_to(path.get_start())
        self.walk.tokens.setdefault(cue.ids[1], []).append(tok)
        for s in cue.strings:
            self._record(s)
        return aside + [MoveAlongPath(tok, path)]

    @draws("bucket_fill")
    def _cue_bucket_fill(self, cue: Any) -> Anims:
        """The arriving gradient drops into the bucket; the level and value show the new .grad."""
        out = self._enter_backward()
        leaf = cue.ids[1]
        box = self.lay.boxes.get(f"bucket:{leaf}")
        if box is None:
            return out
        out += self._ensure_bucket(leaf)
        old = self.graph.buckets[leaf]
        shown = {s.role: s for s in cue.strings}
        parts = [s for s in cue.strings if s.role == "part"]
        top = self.fill_max.get(leaf) or 1.0
        before = shown.get("before")
        if before is not None and self.graph.bucket_text.get(leaf) != before.text:
            # a replayed fill: the bucket first shows what .grad held, then what arrives
            old.become(bucket(box, self.theme, level=abs(before.number or 0.0) / top, value=before.text,
                              scale=self.lay.scale))
            self.graph.bucket_text[leaf] = before.text
        for s in (shown.get("name"), before):
            if s is not None and (self._card_shows(leaf, s.text) or self.graph.bucket_text.get(leaf) == s.text):
                self._record(s)
        after = shown.get("after")
        new = bucket(box, self.theme, level=abs((after.number if after else None) or 0.0) / top,
                     value=after.text if after else None, scale=self.lay.scale)
        if after is not None and new.value is not None:
            self._record(after)
        add = shown.get("add")
        waiting = self.walk.fill_tokens.pop(leaf, [])
        if add is not None:
            # the badge of the visit to AccumulateGrad, waiting beside the bucket, goes as the
            # level rises: the number it carries becomes the bucket's (a drop into the bucket
            # covered the value it showed, or the card above it); else a badge shows there first.
            # Where paths met at the bucket, all the tokens that wait there go so (3 and 3 make 6)
            keep = [m for m in waiting if m.text.text == add.text][:1] or (waiting if parts else [])
            out += [FadeOut(m) for m in waiting if m not in keep]
            self._record(add)
            if keep:
                out += [FadeOut(m, rate_func=first_half) for m in keep]
            else:
                tok = self._token(add.text)
                t, k = self.theme, self.lay.scale
                x, y = badge_centre(self.lay, box, (tok.width, tok.height), nominal=nominal_token_size(t, scale=k),
                                    gap=t.spacing.edge_clearance, clear=arrow_reach(t, k),
                                    avoid=self._shown_rects(exclude=self._own_shapes(leaf) + self.walk.visit_marks))
                self._keep_inside(tok.move_to([x, y, 0]))
                out.append(Succession(FadeIn(tok), FadeOut(tok)))
        else:
            out += [FadeOut(m) for m in waiting]
        out += [FadeOut(m, rate_func=first_half) for m in self.walk.visit_marks]
        going, self.walk.visit_marks = self.walk.visit_marks + waiting, []
        if before is not None and add is not None and after is not None:  # .grad keeps adding: 6 + 6 = 12
            out += self._bucket_note(box, f"{before.text} + {add.text} = {after.text}", going)
        elif len(parts) > 1 and add is not None:  # the paths' gradients meet in it: 3 + 3 = 6
            out += self._bucket_note(box, f"{' + '.join(s.text for s in parts)} = {add.text}", going)
            for s in parts:
                self._record(s)
        out.append(refill(old, new, rate_func=_after_landing if add is not None else smooth))
        self.graph.bucket_text[leaf] = after.text if after is not None and new.value is not None else None
        return out

    @draws("bucket_reset")
    def _cue_bucket_reset(self, cue: Any) -> Anims:
        leaf = cue.ids[0]
        box = self.lay.boxes.get(f"bucket:{leaf}")
        if box is None or leaf not in self.graph.buckets:
            return []
        shown = {s.role: s for s in cue.strings}
        if "name" in shown and self._card_shows(leaf, shown["name"].text):
            self._record(shown["name"])
        after = shown.get("after")
        new = bucket(box, self.theme, level=0.0, value=after.text if after else None, scale=self.lay.scale)
        if after is not None and new.value is not None:
            self._record(after)
        old = self.graph.buckets[leaf]
        out: Anims = [FadeOut(m) for m in self.walk.visit_marks]
        self.walk.visit_marks = []
        self.graph.bucket_text[leaf] = after.text if after is not None and new.value is not None else None
        return out + [refill(old, new)]


def _after_landing(t: float) -> float:
    """The bucket rises once the dropped gradient is in: the drop (`Succession` of the ride and a
    fade, half each) lands at t = 0.5. Before, "12" was in the bucket while the 6 still fell."""
    return smooth(min(1.0, max(0.0, 2.0 * t - 1.0)))


def _aside(t: float) -> float:
    """A product pill hidden from the first frame of its token's ride to half time, then back."""
    return 1.0 if t < 0.5 else 1.0 - smooth(2.0 * t - 1.0)
