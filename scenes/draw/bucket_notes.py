"""A bucket's notes: its sums (``3 + 3 = 6``, then ``6 + 6 = 12``) and its ``w.grad = None``.

Why apart from :mod:`scenes.draw.buckets`: where words go beside a bucket (a spot of its own, at
its value's size, else a note's, else wrapped; `form_spot`) is one idea, the same for the sums a
fill writes and the words a reset leaves, and apart from the bucket's level and value. The
buckets ask it for a fill's sums and a reset's words; the walk, through them, for the words'
going as a gradient sets off for the bucket (`gradient_coming`). Nothing here calls the buckets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cached_property

from manim import FadeIn, FadeOut, Mobject, VGroup, smooth

from scenes.draw.context import Anims, DrawContext, View
from scenes.draw.crossfade import second_half
from scenes.draw.drop import DROP, FADE_LEAD
from scenes.draw.fade_times import span
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.glide import Beside
from scenes.draw.labels import CardLabels
from scenes.draw.onscreen import OnScreen
from scenes.draw.record import tag_of
from scenes.draw.state import GraphView, WalkView
from scenes.draw.visuals import arrow_reach, formula, note_block
from scenes.layout.label_sides import LABEL_REACH
from scenes.layout.focus import inside
from scenes.layout.note_spots import NONE_WORDS_GAP, form_spot
from scenes.layout.place import Box
from scenes.storyboard.placeholders import Shown
from scenes.theme import Rect


SUM_GOES = 0.15
"""The share of a camera's move by which a bucket's sum placed anew for its view has faded where it
was (the graph starts to move under it), and over which, at the end, it fades in where it lands
(the graph there): `BucketNotes.follow_view`."""


class BucketNotes(View):
    """Writes a bucket's sums and its ``w.grad = None`` words, and takes the words away. Asks
    ``labels`` to keep them inside the frame, ``onscreen`` what is shown, ``frame`` what they
    keep off."""

    def __init__(self, ctx: DrawContext, labels: CardLabels, onscreen: OnScreen, frame: FreeFrame) -> None:
        super().__init__(ctx)
        self.labels, self.onscreen, self.frame = labels, onscreen, frame

    @property
    def graph(self) -> GraphView:
        return self.ctx.state.graph

    @property
    def walk(self) -> WalkView:
        return self.ctx.state.walk

    def sums_note(self, box: Box, rows: list[str], going: list[Mobject], coming: list[Mobject],
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
            block.sums = (box.id, tuple(rows))  # placed anew where a camera's move would lose it (`follow_view`)
        self.walk.visit_marks.append(block)
        written = DROP.arrive - FADE_LEAD  # the terms start to go in then
        return [FadeIn(m, rate_func=(lambda a: smooth(DROP.window(a, 0.0, written))) if early and k < heads
                       else second_half) for k, m in enumerate(lines)]

    def _placed_note(self, box: Box, rows: list[str], going: list[Mobject], coming: list[Mobject],
                     later: bool = False, wraps: tuple[bool | None, ...] = (None, False, True),
                     snug: float = 1.0, reach: float = 0.0,
                     seen: list[Rect] | None = None) -> tuple[VGroup, list[VGroup], int]:
        """The note of ``rows`` beside the bucket ``box``, placed as `sums_note` says (``wraps``:
        the forms tried, in order; ``snug``: its gap to the bucket, a share of the items' gap;
        ``reach``: a label's, standing by no other card nearer, `label_spots.faces_other`;
        ``seen``: what it keeps off, where that is not what is shown now: as a camera's move
        will show it, `follow_view`); its lines and how many of them the first row took."""
        t = self.theme
        lo, _, hi, _ = self.frame.free_rect()
        lay = self.onscreen.shown_layout(box)  # judged by the cards drawn, not a freed graph's places
        shown = self.onscreen.shown_rects(exclude=going, extra=coming) if seen is None else seen
        avoid = self.frame.pane_bounds() + self.frame.frame_marks() + shown
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
        block = self._words(box, said)
        self.graph.none_words[leaf] = block
        return [FadeIn(block, rate_func=second_half)]

    def _words(self, box: Box, said: str, wraps: tuple[bool | None, ...] = (False, None),
               seen: list[Rect] | None = None) -> VGroup:
        """The words ``said`` (``w.grad = None``) placed beside the bucket ``box``: two lines first, as
        yh's note; closer to the bucket than a sum (`NONE_WORDS_GAP`); ``seen``: as `_placed_note`."""
        reach = LABEL_REACH * formula(said, self.theme, size=self.theme.font_sizes.bucket_sum).height  # a label's
        block, _, _ = self._placed_note(box, [said], [], [], wraps=wraps, snug=NONE_WORDS_GAP, reach=reach, seen=seen)
        return block

    def follow_view(self, anims: Anims, landed: Callable[[Mobject], Rect | None], seen: list[Rect]) -> Anims:
        """``anims`` (a walk camera's move) with the buckets' ``w.grad = None`` words placed for the
        view it moves to (``landed``: where the move puts a shape of the graph, None where it
        leaves the view; ``seen``: what shows once it is over, the words but). They were set beside
        their bucket for the view they were written in: carried with a move that scales the graph,
        they are scaled too, and may be carried over the caption (dynamic_graph: written in the
        close view on w at 90.5 s, under its bucket, and carried with it as the camera drew back
        home at 92.7 s, over the caption's top at 16:9, under 9 px at 9:16). Where the move scales
        them or carries them out of the free frame, they are placed anew beside where their bucket
        lands, at their size, and go there beside it (`Beside`)."""
        out = list(anims)
        free = self.frame.free_rect()
        out = self._sums_follow(out, landed, seen, free)
        for leaf, words in list(self.graph.none_words.items()):
            bucket, box = self.graph.buckets.get(leaf), self.ctx.layout.boxes.get(f"bucket:{leaf}")
            to, at, now = landed(words), (landed(bucket) if bucket is not None else None), bounds(words)
            if box is None or bucket is None or to is None or at is None or now[3] <= now[1]:
                continue  # (out of view after the move: they go with their bucket)
            if abs((to[3] - to[1]) / (now[3] - now[1]) - 1.0) < 1e-3 and inside(to, free):
                continue  # a pan carries them as they are
            rows = [_said(r) for r in words.submobjects]
            form = (False, None) if len(rows) > 1 else (None, False)  # the form they have first
            block = self._words(box, " ".join(rows), form, seen)
            out = [a for a in out if a.mobject is not words]
            if [_said(r) for r in block.submobjects] == rows:  # the same lines: each glyph goes to itself
                out.append(Beside(words, block, bucket, at))
            else:  # set otherwise there: the one fades where it is as the other comes in where it lands
                out += [FadeOut(words, rate_func=span(0.0, 0.6)), FadeIn(block, rate_func=span(0.4, 1.0))]
                self.graph.none_words[leaf] = block
        return out

    def named_sums(self, at: float) -> list[Mobject]:
        """The buckets' sums among the walk's marks that a caption up at ``at`` or later names."""
        return [m for m in self.walk.visit_marks if getattr(m, "sums", None) and named_past(m, at)]

    def keep_named(self, sums: list[Mobject]) -> None:
        """``sums`` (`named_sums` before a camera's move) stay among the walk's marks, where the
        move let them go (going home, one that would land out of view): `follow_view` places
        them anew."""
        self.walk.visit_marks += [m for m in sums if m not in self.walk.visit_marks]

    def _sums_follow(self, out: Anims, landed: Callable[[Mobject], Rect | None], seen: list[Rect],
                     free: Rect) -> Anims:
        """`follow_view` for the buckets' sums a caption still names (`named_sums`): where the
        move shrinks one under the least readable size (`min_readable`) or carries it out of the free frame, it is
        placed anew at its size beside where its bucket lands: the one there fades as the move
        starts, the new one as it ends (`SUM_GOES`; carried with `Beside`, two sums may cross the
        graph to each other's side)."""
        seen = list(seen)
        for k, m in enumerate(list(self.walk.visit_marks)):
            kept = getattr(m, "sums", None)
            if not kept or not getattr(m, "named_until", 0.0):
                continue
            bucket_id, rows = kept
            box, bucket = self.ctx.layout.boxes.get(bucket_id), self.graph.buckets.get(bucket_id[len("bucket:"):])
            to, at, now = landed(m), (landed(bucket) if bucket is not None else None), bounds(m)
            if box is None or at is None or now[3] <= now[1]:
                continue
            row = m.submobjects[0]  # its first line: carried, as high as the least readable size's?
            least = formula(_said(row) or "0", self.theme, size=self.theme.font_sizes.min_readable).height
            if to is not None and inside(to, free) and row.height * (to[3] - to[1]) / (now[3] - now[1]) >= least - 1e-9:
                seen.append(to)
                continue  # the move carries it as it is, readable (placed anew, it would blink)
            block, _, _ = self._placed_note(box, list(rows), [], [], seen=seen)
            block.named_until, block.sums = m.named_until, kept
            seen.append(bounds(block))
            out = [a for a in out if a.mobject is not m]
            out += [FadeOut(m, rate_func=span(0.0, SUM_GOES)), FadeIn(block, rate_func=span(1.0 - SUM_GOES, 1.0))]
            self.walk.visit_marks[k] = block
        return out

    @cached_property
    def leaf_of_node(self) -> dict[str, str]:
        """Each AccumulateGrad node the plan fills by -> its leaf."""
        return {c.ids[0]: c.ids[1] for c in self.ctx.plan.cues if c.kind == "bucket_fill" and len(c.ids) > 1}

    def gradient_coming(self, node: str) -> Anims:
        """A gradient sets off for ``node``'s bucket (the walk reaches it): its ``w.grad = None`` goes,
        clearing the way for the tokens that meet in its mouth; it fills next."""
        return self.drop_none_words(self.leaf_of_node[node]) if node in self.leaf_of_node else []

    def drop_none_words(self, leaf: str) -> Anims:
        """The ``w.grad = None`` words go as a number is written in the bucket."""
        words = self.graph.none_words.pop(leaf, None)
        return [FadeOut(words)] if words is not None else []


def named_past(mark: object, at: float) -> bool:
    """Whether ``mark`` is a bucket's sum that a caption up at ``at`` or later names (its
    ``named_until``, `BucketNotes.sums_note`): a later fill leaves it, and writes its own clear of
    it, so a caption comparing two sums finds both.

    >>> sum_note = type("N", (), {"named_until": 46.27})()
    >>> named_past(sum_note, 41.9), named_past(sum_note, 46.5), named_past(object(), 41.9)
    (True, False, False)
    """
    return float(getattr(mark, "named_until", 0.0) or 0.0) > at + 1e-6


def _said(row: VGroup) -> str:
    """The words of a note's row (its first part's text)."""
    t = tag_of(row.submobjects[0]) if row.submobjects else None
    return t.text or "" if t is not None else ""


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

