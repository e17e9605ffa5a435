"""Gradients into a bucket's mouth: where tokens that met at a leaf wait in it, and where one drops in.

Why apart from :mod:`scenes.draw.buckets`: where a token may go by a bucket (its mouth, just
above the number it shows and the one it will, clear of the arrowhead; flanking it where the mouth
has no room) and whether its way there is clear is one idea, apart from the bucket's level and
value. The buckets ask it where a dropped token goes; the walk, through them, to move the
gradients that met at a leaf into its bucket's mouth (`meet_in_mouth`). The bucket's shape comes
from the buckets (``made``); nothing here calls them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from manim import Mobject, VGroup, VMobject, smooth

from scenes.draw.context import Anims, DrawContext, View
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.onscreen import OnScreen
from scenes.draw.record import tag as record_tag, tag_of
from scenes.draw.ride_behind import RideBehind
from scenes.draw.state import GraphView, WalkView
from scenes.draw.visuals import arrow_length
from scenes.layout.clear_rects import meets
from scenes.layout.label_spots import rect_around
from scenes.layout.place import Box
from scenes.theme import Rect


class BucketMouths(View):
    """Where tokens wait in or drop into a bucket's mouth. Asks ``onscreen`` what is shown,
    ``frame`` the free frame, ``made`` the bucket of a box at a level showing a value, as the
    buckets draw it."""

    def __init__(self, ctx: DrawContext, onscreen: OnScreen, frame: FreeFrame,
                 made: Callable[[Box, float, str | None], VGroup]) -> None:
        super().__init__(ctx)
        self.onscreen, self.frame, self.made = onscreen, frame, made

    @property
    def graph(self) -> GraphView:
        return self.ctx.state.graph

    @property
    def walk(self) -> WalkView:
        return self.ctx.state.walk

    def meet_in_mouth(self, leaf: str, toks: list[VGroup], since: float) -> Anims:
        """Gradients that reached ``leaf`` together in one backward() (``w * w``'s two 3, on its
        card's arrowheads) go on down into its bucket's mouth, side by side, where the fill sums
        them: seed 004, "the two contributions meet in w's bucket and add up". Each goes straight
        down over its card's body beside its words (a step aside first where they are in the
        way), then in under the card: hardly ever away from where it lands (`scenes.render.flight`).
        None goes down level with the value just past its end, where it reads as more of it (``w = 3 3``):
        where that leaves one column for two (left of the words), they go down it one after
        another (`_single_file`), a later one aslant, above the words. They ride on as
        the bucket's arrow's, as its row does. Nothing where the mouth has no room for them all,
        or their way passes something else: they wait where they are and fade as it fills."""
        box = self.ctx.layout.boxes.get(f"bucket:{leaf}")
        card, old = self.graph.cards.get(leaf), self.graph.buckets.get(leaf)
        if box is None or card is None or old is None or len(toks) < 2 or any(waits_beside(m) for m in toks):
            return []
        fill = next((c for c in self.ctx.plan.cues if c.kind == "bucket_fill" and c.start >= since
                     and len(c.ids) > 1 and c.ids[1] == leaf), None)
        after = fill.text("after") if fill is not None else None
        value = self.made(box, 0.0, after).value if after is not None else None
        gap = self.theme.spacing.edge_clearance
        words = [bounds(w) for w in (getattr(card, r, None) for r in ("name", "sep", "value", "sub")) if w is not None]
        for beside in (False, True):  # in its mouth, or where they do not fit there, flanking it
            spots = self.mouth_row(box, toks, [old.value, value], beside)
            if spots is None:
                continue
            # nor level with its value just past its end, where the token reads as more of it (``3 3``)
            past = words + self.onscreen.value_runs([leaf])
            keep_off = past + ([bounds(old)] if beside else [])  # flanking it: not down through it
            above = max(r[3] for r in past)  # the top of the words: a token stepping aside keeps above it
            downs = [self._column(m, to, keep_off, past, box.x if beside else None, card, above) for m, to in zip(toks, spots)]
            order, spots = _single_file(toks, downs, spots, gap, box.x)
            if all(self.clear_way(leaf, m, to, toks) for m, to in zip(toks, spots)):
                break
        else:
            return []
        out: Anims = []
        for m, (x, y), down, (nth, of) in zip(toks, spots, downs, order):
            here = m.get_center()
            across = min(float(here[1]), above + m.height / 2 + gap)  # aslant to its column, nearing where it lands
            way = VMobject()
            way.set_points_as_corners([[here[0], here[1], 0.0], [down, across, 0.0], [down, y, 0.0], [x, y, 0.0]])
            record_tag(m, "badge", id=f"{box.id}->{leaf}")  # the bucket's arrow's (`BackwardWalk._to_row`)
            m.in_mouth = True
            m.rests = rect_around(x, y, (m.width, m.height))
            out.append(RideBehind(m, way, rate_func=_in_turn(nth, of)))
        return out

    def _column(self, tok: Mobject, to: tuple[float, float], keep_off: list[Rect], past: list[Rect],
                middle: float | None, card: Mobject, above: float) -> float:
        """The x at which ``tok`` goes down past its card's words to ``to`` (its way down meets
        none of ``keep_off``): the shortest way there of its own x, the spot's, just past the
        card's sides or either end of one of ``past`` (its words, its value's run), of those
        not farther from ``to`` than it starts (stepping aside aslant to just over ``above``,
        the words' top), where there is one: a step away is a detour (`scenes.render.flight`).
        ``middle``: flanking the bucket, the bucket's x, which the column keeps on the spot's side of."""
        gap, w = self.theme.spacing.edge_clearance, tok.width / 2
        x, y = float(tok.get_center()[0]), float(tok.get_center()[1])
        left, _, right, _ = bounds(card)
        clear = [x, to[0], left - w - gap, right + w + gap]
        clear += [e for r in past for e in (r[0] - w - gap, r[2] + w + gap)]
        ok = [c for c in clear if not any(meets((c - w, to[1], c + w, y), r) for r in keep_off)
              and (middle is None or (c - middle) * (to[0] - middle) > 0)]
        across = min(y, above + tok.height / 2 + gap)
        nearer = [c for c in ok if math.dist((c, across), to) <= math.dist((x, y), to)]
        return min(nearer or ok, key=lambda c: abs(c - x) + abs(c - to[0]), default=to[0])  # the shortest way past the words

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

    def clear_way(self, leaf: str, tok: Mobject, to: tuple[float, float], going: Sequence[Mobject] = ()) -> bool:
        """Whether ``tok`` can drop to ``to`` passing over nothing but its own leaf's card and
        bucket: the box its glide sweeps (to the mouth's height, then across) meets no other text,
        card or bucket on screen (but ``going``: tokens going there with it). A bucket standing
        close to another card (a crowded lesson's
        row of leaves) has none; there the token fades where it waits."""
        w, h = tok.width / 2, tok.height / 2
        x, y = tok.get_center()[0], tok.get_center()[1]
        swept = (min(x, to[0]) - w, min(y, to[1]) - h, max(x, to[0]) + w, max(y, to[1]) + h)
        others = self.onscreen.shown_rects(exclude=self.onscreen.own_shapes(leaf) + [tok, *going] + self.walk.visit_marks)
        return not any(meets(swept, r) for r in others)

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


def waits_in_mouth(tok: Mobject) -> bool:
    """Whether ``tok`` waits in its bucket's mouth (`BucketMouths.meet_in_mouth`)."""
    return bool(getattr(tok, "in_mouth", False))


def waits_beside(tok: Mobject) -> bool:
    """Whether a token waiting for a fill waits beside the bucket (the visit's badge, or the row
    of `scenes.draw.rides.TokenRides._to_row`, tagged as the bucket's arrow's), not where
    it landed at its leaf's card, with the card between it and the bucket."""
    found = tag_of(tok)
    return found is None or found.id is None or found.id.startswith("bucket:")


def _single_file(toks: Sequence[Mobject], downs: list[float], spots: list[tuple[float, float]],
                 gap: float, middle: float) -> tuple[list[tuple[int, int]], list[tuple[float, float]]]:
    """Who goes when, and where to: (the turn of each of ``toks``, of how many) and their spots.
    Side by side (all at once, in the spots given) where their columns ``downs`` are a token's
    width apart, each on its spot's side of the bucket's ``middle``; where two share one side
    (the room left of a card's words, ``w * w``'s two 3 past its value), they go one after
    another, the one nearest its column first, each to the spot farthest from its column still
    free: none crosses another that has landed, nor one on its way under the card.

    >>> tok = lambda x: type("T", (), {"width": 1.0, "get_center": lambda self: (x, 5.0, 0.0)})()
    >>> _single_file([tok(0), tok(3)], [0.0, 3.0], [(1.0, 0.0), (2.0, 0.0)], 0.1, 1.5)
    ([(0, 1), (0, 1)], [(1.0, 0.0), (2.0, 0.0)])
    >>> _single_file([tok(0), tok(3)], [0.0, 0.2], [(1.0, 0.0), (2.0, 0.0)], 0.1, 1.5)
    ([(0, 2), (1, 2)], [(2.0, 0.0), (1.0, 0.0)])
    >>> _single_file([tok(0), tok(3)], [0.0, 1.2], [(1.0, 0.0), (2.0, 0.0)], 0.1, 1.5)  # both left of the middle
    ([(0, 2), (1, 2)], [(2.0, 0.0), (1.0, 0.0)])
    """
    n = len(toks)
    apart = all(abs(downs[i] - downs[j]) >= (toks[i].width + toks[j].width) / 2 + gap
                for i in range(n) for j in range(i + 1, n))
    if apart and all((d - middle) * (s[0] - middle) > 0 for d, s in zip(downs, spots)):
        return [(0, 1)] * n, list(spots)
    go = sorted(range(n), key=lambda i: abs(downs[i] - float(toks[i].get_center()[0])))
    free, out = list(spots), list(spots)
    order = [(0, n)] * n
    for nth, i in enumerate(go):
        far = max(free, key=lambda s: abs(s[0] - downs[i]))
        free.remove(far)
        out[i], order[i] = far, (nth, n)
    return order, out


LAG = 0.4
"""The share of the glide's time one token going into the mouth in single file waits for the one
before it (`_single_file`): it is down its column and across the mouth before the next comes."""


def _in_turn(nth: int, of: int) -> Callable[[float], float]:
    """A glide's rate (Manim's ``smooth``) for the ``nth`` of ``of`` going one after another:
    each waits ``nth`` lags (`LAG`), then rides in the time left but the later ones' lags.

    >>> [round(float(_in_turn(k, 2)(t)), 3) for k, t in ((0, 0.6), (1, 0.4), (1, 1.0), (0, 0.3))]
    [1.0, 0.0, 1.0, 0.5]
    """
    if of < 2:
        return smooth
    share = 1.0 - (of - 1) * LAG
    return lambda t: smooth(min(1.0, max(0.0, (t - nth * LAG) / share)))
