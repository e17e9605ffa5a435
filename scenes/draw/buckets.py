"""Bucket cues of the clip scene: each leaf's AccumulateGrad bucket, its fill and its reset.

Why apart from :mod:`scenes.draw.backward`: the buckets are the one part of the backward walk
that holds state across passes (``.grad`` adds up until ``zero_grad``), with its own arithmetic
(``6 + 6 = 12``) and timing (the level rises once the dropped gradient has landed). A view of
``ClipScene``: it changes the buckets of the graph's record and the walk's marks by them
(:mod:`scenes.draw.state`) and returns animations. The walk (:mod:`scenes.draw.backward`) calls
``enter_backward`` as it starts; nothing here calls the walk.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cached_property

from manim import FadeIn, FadeOut, Mobject, VGroup, VMobject, smooth

from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.crossfade import first_half, second_half
from scenes.draw.drawers import draws
from scenes.draw.drop import DROP, FADE_LEAD, SINK, DropIn
from scenes.draw.focus import CameraFocus
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.labels import CardLabels
from scenes.draw.onscreen import OnScreen
from scenes.draw.record import tag as record_tag, tag_of
from scenes.draw.refill import refill
from scenes.draw.ride_behind import RideBehind
from scenes.draw.state import GraphView, WalkView
from scenes.layout.bucket_level import fill_level, fill_scales
from scenes.storyboard.views.graph import NONE_TEXT
from scenes.layout.label_sides import LABEL_REACH
from scenes.layout.label_spots import NONE_WORDS_GAP, form_spot, meet, rect_around
from scenes.layout.place import Box
from scenes.draw.visuals import arrow_length, arrow_reach, bucket, edge_arrow, formula, note_block
from scenes.storyboard.caption_events import naming
from scenes.storyboard.cues import Cue
from scenes.storyboard.placeholders import Shown


class Buckets(View):
    """Draws bucket_appear, bucket_fill and bucket_reset; gives every weight its bucket when the
    backward pass starts (``enter_backward``). Asks ``labels`` for tags and tokens, ``onscreen``
    what is shown, ``frame`` what a note keeps off."""

    def __init__(self, ctx: DrawContext, labels: CardLabels, onscreen: OnScreen, frame: FreeFrame,
                 focus: CameraFocus) -> None:
        super().__init__(ctx)
        self.labels, self.onscreen, self.frame, self.focus = labels, onscreen, frame, focus

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

    def _bucket_note(self, box: Box, rows: list[str], going: list[Mobject], coming: list[Mobject],
                     early: bool, until: float | None = None, later: bool = False) -> Anims:
        """The bucket's sums beside it, one a row (``3 + 3 = 6``, then ``6 + 6 = 12``), at its
        value's size (a visit note's where a row would not fit the free frame's width), until the next visit or fill; clear of what is on screen but ``going``, and
        of ``coming`` (the bucket's new value, which may overhang its rim). ``early``: the first
        row (what met in the bucket) is written while its terms are still there, before they go
        in; the rest as the level rises. ``until``: the end of the caption that names the sum
        (`naming`): it stays past the walk to then; ``later``: that caption is a later beat's,
        where the code pane may come back whole and print, so it keeps off there."""
        block, lines, heads = self._placed_note(box, rows, going, coming, later)
        if until is not None:
            block.named_until = until  # kept past the walk (`BackwardWalk.give_way`)
        self.walk.visit_marks.append(block)
        written = DROP.arrive - FADE_LEAD  # the terms start to go in then
        return [FadeIn(m, rate_func=(lambda a: smooth(DROP.window(a, 0.0, written))) if early and k < heads
                       else second_half) for k, m in enumerate(lines)]

    def _placed_note(self, box: Box, rows: list[str], going: list[Mobject], coming: list[Mobject],
                     later: bool = False, wraps: tuple[bool | None, ...] = (None, False, True),
                     snug: float = 1.0, reach: float = 0.0) -> tuple[VGroup, list[VGroup], int]:
        """The note of ``rows`` beside the bucket ``box``, placed as `_bucket_note` says (``wraps``:
        the forms tried, in order; ``snug``: its gap to the bucket, a share of the items' gap;
        ``reach``: a label's, standing by no other card nearer, `label_spots.faces_other`);
        its lines and how many of them the first row took."""
        t = self.theme
        lo, _, hi, _ = self.frame.free_rect()
        lay = self.onscreen.shown_layout(box)  # judged by the cards drawn, not a freed graph's places
        avoid = self.frame.pane_bounds() + self.frame.frame_marks() + self.onscreen.shown_rects(exclude=going, extra=coming)
        if later and self.ctx.state.code.pane is not None:
            avoid += [self.ctx.spec.code] + self.frame.console_reach()
        if self.walk.wave is not None:  # the glow round the bucket as it fills: the sum starts clear of it
            avoid.append(bounds(self.walk.wave))

        # its own spot by the bucket: at value size, else a note's, else each sum wrapped two terms a
        # line, then its result below (a four-term sum at 9:16 went above the graph's top card, 380 px off, read as its value);
        # where none is its own, one row a sum where `note_centre` finds room
        wide = max(formula(r, t, size=t.font_sizes.bucket_sum).width for r in rows) > hi - lo

        def made(wrap: bool | None, size: float) -> tuple[list[list[str]], list[VGroup], VGroup]:
            split = [[r] if wrap is None else wrapped(r, tall=wrap) for r in rows]  # None: one row a sum
            lines = [formula(r, t, size=size) for part in split for r in part]
            return split, lines, note_block(lines, t, owner=box.id)

        def forms() -> Iterator[tuple[list[list[str]], list[VGroup], VGroup]]:
            for wrap in wraps:
                for size in (t.font_sizes.bucket_sum, t.font_sizes.note):
                    form = made(wrap, size)
                    if max(m.width for m in form[1]) <= hi - lo:
                        yield form

        (split, lines, block), (x, y) = form_spot(
            lay, box, forms(), lambda f: (f[2].width, f[2].height),
            lambda: made(None, t.font_sizes.note if wide else t.font_sizes.bucket_sum),
            gap=t.spacing.item_gap * lay.scale * snug, clear=arrow_reach(t, lay.scale, lay.zoom), beside=0.0,
            within=self.frame.free_rect(), avoid=avoid, reach=reach)
        heads = len(split[0])  # the lines of the first row (what met in the bucket)
        self.labels.keep_inside(block.move_to([x, y, 0]))
        return block, lines, heads

    def none_words(self, leaf: str, name: Shown, after: Shown) -> Anims:
        """``w.grad = None`` beside ``leaf``'s empty bucket, placed as its sums are, kept until a
        gradient sets off for it (`gradient_coming`) or a fill or reset writes a number in it: the grammar's one picture of a ``.grad`` that is
        None (docs/visual-grammar.md), its words read from the cue (the log), none typed. An empty
        bucket without them is one the walk has not reached yet."""
        box = self.ctx.layout.boxes.get(f"bucket:{leaf}")
        if box is None or leaf not in self.graph.buckets or leaf in self.graph.none_words:
            return []
        self.ctx.record(name)
        self.ctx.record(after)
        said = f"{name.text}.grad {self.theme.labels.name_value} {after.text}"
        # two lines first, as yh's note; closer to the bucket than a sum (`NONE_WORDS_GAP`)
        reach = LABEL_REACH * formula(said, self.theme, size=self.theme.font_sizes.bucket_sum).height  # a label's
        block, _, _ = self._placed_note(box, [said], [], [], wraps=(False, None), snug=NONE_WORDS_GAP, reach=reach)
        self.graph.none_words[leaf] = block
        return [FadeIn(block, rate_func=second_half)]

    @cached_property
    def leaf_of_node(self) -> dict[str, str]:
        """Each AccumulateGrad node the plan fills by -> its leaf."""
        return {c.ids[0]: c.ids[1] for c in self.ctx.plan.cues if c.kind == "bucket_fill" and len(c.ids) > 1}

    def gradient_coming(self, node: str) -> Anims:
        """A gradient sets off for ``node``'s bucket (the walk reaches it): its ``w.grad = None`` goes,
        clearing the way for the tokens that meet in its mouth; it fills next."""
        return self._drop_none_words(self.leaf_of_node[node]) if node in self.leaf_of_node else []

    def _drop_none_words(self, leaf: str) -> Anims:
        """The ``w.grad = None`` words go as a number is written in the bucket."""
        words = self.graph.none_words.pop(leaf, None)
        return [FadeOut(words)] if words is not None else []

    def meet_in_mouth(self, leaf: str, toks: list[VGroup], since: float) -> Anims:
        """Gradients that reached ``leaf`` together in one backward() (``w * w``'s two 3, on its
        card's arrowheads) go on down into its bucket's mouth, side by side, where the fill sums
        them: seed 004, "the two contributions meet in w's bucket and add up". Each goes straight
        down over its card's body beside its words (a step aside first where they are in the
        way), then in under the card: hardly ever away from where it lands (`scenes.render.flight`). They ride on as
        the bucket's arrow's, as its row does. Nothing where the mouth has no room for them all,
        or their way passes something else: they wait where they are and fade as it fills."""
        box = self.ctx.layout.boxes.get(f"bucket:{leaf}")
        card, old = self.graph.cards.get(leaf), self.graph.buckets.get(leaf)
        if box is None or card is None or old is None or len(toks) < 2 or any(_beside(m) for m in toks):
            return []
        fill = next((c for c in self.ctx.plan.cues if c.kind == "bucket_fill" and c.start >= since
                     and len(c.ids) > 1 and c.ids[1] == leaf), None)
        after = fill.text("after") if fill is not None else None
        value = self._bucket(box, 0.0, after).value if after is not None else None
        for beside in (False, True):  # in its mouth, or where they do not fit there, flanking it
            spots = self.mouth_row(box, toks, [old.value, value], beside)
            if spots is not None and all(self._clear_way(leaf, m, to, toks) for m, to in zip(toks, spots)):
                break
        else:
            return []
        gap = self.theme.spacing.edge_clearance
        words = [bounds(w) for w in (getattr(card, r, None) for r in ("name", "value", "sub")) if w is not None]
        keep_off = words + ([bounds(old)] if beside else [])  # flanking it: not down through it
        left, _, right, _ = bounds(card)
        out: Anims = []
        for m, (x, y) in zip(toks, spots):
            here = m.get_center()
            clear = [float(here[0]), x, left - m.width / 2 - gap, right + m.width / 2 + gap]
            clear += [e for r in words for e in (r[0] - m.width / 2 - gap, r[2] + m.width / 2 + gap)]
            down = min((c for c in clear if not any(meet((c - m.width / 2, y, c + m.width / 2, float(here[1])), r)
                                                    for r in keep_off) and (not beside or (c - box.x) * (x - box.x) > 0)),
                       key=lambda c: abs(c - here[0]) + abs(c - x), default=x)  # the shortest way past the words
            way = VMobject()
            way.set_points_as_corners([[here[0], here[1], 0.0], [down, here[1], 0.0], [down, y, 0.0], [x, y, 0.0]])
            record_tag(m, "badge", id=f"{box.id}->{leaf}")  # the bucket's arrow's (`BackwardWalk._to_row`)
            m.in_mouth = True
            m.rests = rect_around(x, y, (m.width, m.height))
            out.append(RideBehind(m, way))
        return out

    def mouth_row(self, box: Box, toks: list[VGroup], values: list[Mobject | None],
                  beside: bool = False) -> list[tuple[float, float]] | None:
        """Where ``toks`` wait side by side in the mouth of the bucket ``box`` (in their order),
        the left half left of the arrowhead in the middle of its rim and the rest right of it, at
        the height `mouth` gives; None where they do not all fit inside its rim. ``beside``: the
        halves flank the bucket at its middle's height instead, outside its rim (None where one
        would leave the free frame)."""
        t, k = self.theme, self.ctx.layout.scale
        gap = t.spacing.edge_clearance
        lo, _, hi, _ = self.frame.free_rect()
        order = sorted(range(len(toks)), key=lambda i: toks[i].get_center()[0])
        half = len(toks) // 2
        out: list[tuple[float, float]] = [(0.0, 0.0)] * len(toks)
        for rank, i in enumerate(order):
            side, nth = (-1.0, half - 1 - rank) if rank < half else (1.0, rank - half)
            inner = [toks[j].width + gap for j in (order[:half][::-1] if side < 0 else order[half:])[:nth]]
            w = toks[i].width
            x = box.x + side * ((box.w if beside else arrow_length(t, k)) / 2 + gap + sum(inner) + w / 2)
            if (not beside and abs(x - box.x) + w / 2 > box.w / 2) or (beside and not lo <= x - w / 2 <= x + w / 2 <= hi):
                return None
            out[i] = (x, box.y if beside else self.mouth(box, toks[i], values)[1])
        return out

    @draws("bucket_fill")
    def draw_bucket_fill(self, cue: Cue, step: StepScratch) -> Anims:
        """The arriving gradient drops into the bucket; the level and value show the new .grad."""
        out = self.enter_backward()
        leaf = cue.ids[1]
        box = self.ctx.layout.boxes.get(f"bucket:{leaf}")
        if box is None:
            return out
        out += self._ensure_bucket(leaf) + self._drop_none_words(leaf)
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
        if add is not None:
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
                x, y = self.labels.badge_spot(box, tok, self.onscreen.shown_rects(
                    exclude=self.onscreen.own_shapes(leaf) + self.walk.visit_marks))
                drops = [self.labels.keep_inside(tok.move_to([x, y, 0]))]
            far = [m for m in drops if not _beside(m)]  # at the leaf's arrowheads (w * w): they go there
            out += [FadeOut(m, rate_func=first_half) for m in far]
            near = [m for m in drops if m not in far]
            if len(near) > 1 and all(_in_mouth(m) for m in near):  # met in its mouth: the note
                out += [DropIn(m, m.get_center()[:2], SINK) for m in near]  # sums them, then they go in
                near = []
            elif len(near) > 1:  # a row beside it: summed first (the note says so), as the engine sums
                out += [FadeOut(m, rate_func=lambda a: smooth(DROP.window(a, DROP.arrive - FADE_LEAD, DROP.gone)))
                        for m in near]  # paths before AccumulateGrad; dropped together they would meet in
                near = []  # the mouth, one over another
            for m in near:  # in its bucket, it is the bucket's
                to = self.mouth(box, m, [old.value, new.value])
                if not self._clear_way(leaf, m, to):  # a neighbour in the way: it goes in where it waits
                    out.append(FadeOut(m, rate_func=first_half))
                    continue
                record_tag(m, "badge", id=box.id)
                out.append(DropIn(m, to, fade_in=not keep))
        else:
            out += [FadeOut(m) for m in waiting]
        early = len(parts) > 1 and bool(keep)  # what met is summed while it is there: the note comes
        marks = [] if early else self.walk.visit_marks  # as the visit's marks go, so keeps off them
        out += [FadeOut(m, rate_func=first_half) for m in self.walk.visit_marks]
        going, self.walk.visit_marks = marks + [m for m in waiting if m not in keep], []
        coming = [new.value] if new.value is not None else []
        rows = []
        if len(parts) > 1 and add is not None:  # the paths' gradients meet in it: 3 + 3 = 6 (this pass's,
            rows.append(f"{' + '.join(s.text for s in parts)} = {add.text}")  # summed before AccumulateGrad)
            for s in parts:
                self.ctx.record(s)
        if before is not None and add is not None and after is not None:  # .grad keeps adding: 6 + 6 = 12
            rows.append(f"{before.text} + {add.text} = {after.text}")
        if rows:
            says = naming(self.ctx.plan.captions, cue)
            out += self._bucket_note(box, rows, going, coming, early=early, until=says.end if says is not None else None,
                                     later=says is not None and says.beat != cue.beat)
        out.append(refill(old, new, DROP) if add is not None else refill(old, new, rate_func=smooth))
        self.graph.bucket_text[leaf] = after.text if after is not None and new.value is not None else None
        return out

    def _clear_way(self, leaf: str, tok: Mobject, to: tuple[float, float], going: Sequence[Mobject] = ()) -> bool:
        """Whether ``tok`` can drop to ``to`` passing over nothing but its own leaf's card and
        bucket: the box its glide sweeps (to the mouth's height, then across) meets no other text,
        card or bucket on screen (but ``going``: tokens going there with it). A bucket standing
        close to another card (a crowded lesson's
        row of leaves) has none; there the token fades where it waits."""
        w, h = tok.width / 2, tok.height / 2
        x, y = tok.get_center()[0], tok.get_center()[1]
        swept = (min(x, to[0]) - w, min(y, to[1]) - h, max(x, to[0]) + w, max(y, to[1]) + h)
        others = self.onscreen.shown_rects(exclude=self.onscreen.own_shapes(leaf) + [tok, *going] + self.walk.visit_marks)
        return not any(meet(swept, r) for r in others)

    def mouth(self, box: Box, tok: Mobject, values: list[Mobject | None]) -> tuple[float, float]:
        """Where ``tok`` fades as it drops into the bucket ``box``: in its mouth, just above its
        number (the one it shows and the one it will: a token over either reads as two numbers),
        on the side ``tok`` comes from, clear of the arrowhead in the middle of the rim, and
        under the leaf's card above (a compact bucket's mouth is right under it)."""
        t, k, z = self.theme, self.ctx.layout.scale, self.ctx.layout.zoom
        high = max((v.height for v in values if v is not None), default=0.0)
        gap = t.spacing.edge_clearance
        side = 1.0 if tok.get_center()[0] >= box.x else -1.0
        y = box.y + high / 2 + tok.height / 2 + gap
        leaf = self.graph.cards.get(self.ctx.layout.items[box.id].tensor or "")
        if leaf is not None:
            y = min(y, leaf.get_bottom()[1] - tok.height / 2 - gap)
        return (box.x + side * (arrow_length(t, k, z) / 2 + tok.width / 2 + gap), y)

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
        out: Anims = [FadeOut(m) for m in self.walk.visit_marks] + self._drop_none_words(leaf)
        self.walk.visit_marks = []
        self.graph.bucket_text[leaf] = written
        out.append(refill(old, new))
        if told and after is not None:
            out += self.none_words(leaf, shown["name"], after)
        return out


def wrapped(row: str, tall: bool = False) -> list[str]:
    """A bucket's sum ``a + b + c = d`` in lines of two terms, its result on the last (``tall``:
    on a line of its own); read in order, joined by spaces, they are the sum again (the checks
    join them so).

    >>> wrapped("1/27 + 1/27 + 1/27 + 1/27 = 4/27")
    ['1/27 + 1/27 +', '1/27 + 1/27 = 4/27']
    >>> wrapped("1/27 + 1/27 + 1/27 + 1/27 = 4/27", tall=True)
    ['1/27 + 1/27 +', '1/27 + 1/27', '= 4/27']
    >>> wrapped("3 + 3 = 6")
    ['3 + 3', '= 6']
    """
    lhs, eq, rhs = row.rpartition(" = ")
    if not eq:
        return [row]
    terms = lhs.split(" + ")
    pairs = [terms[i:i + 2] for i in range(0, len(terms), 2)]
    lines = [" + ".join(p) + (" +" if k < len(pairs) - 1 else "") for k, p in enumerate(pairs)]
    if tall or len(lines) == 1:
        return lines + [f"= {rhs}"]
    return lines[:-1] + [f"{lines[-1]} = {rhs}"]


def _in_mouth(tok: Mobject) -> bool:
    """Whether ``tok`` waits in its bucket's mouth (`Buckets.meet_in_mouth`)."""
    return bool(getattr(tok, "in_mouth", False))


def _beside(tok: Mobject) -> bool:
    """Whether a token waiting for a fill waits beside the bucket (the visit's badge, or the row
    of `scenes.draw.rides.TokenRides._to_row`, tagged as the bucket's arrow's), not where
    it landed at its leaf's card, with the card between it and the bucket."""
    found = tag_of(tok)
    return found is None or found.id is None or found.id.startswith("bucket:")
