"""A result's ``.grad`` that backward never fills, drawn where the words say it: ``yh.grad = None``.

Why its own module: only a leaf has an AccumulateGrad bucket (:mod:`scenes.draw.buckets`), so
nothing on screen said that an intermediate result such as ``yh`` keeps no gradient, though the
narration does (leaf_nodes: "It is not a leaf, so yh.grad stays None"; missing_gradient's
``z.grad``). A beat's ``grad_none: [yh]`` plans a ``grad_none`` cue, timed to the words naming
``yh.grad`` (:mod:`scenes.storyboard.binding`); this draws it as a note beside yh's card, in the
grammar's one picture of a ``.grad`` that is None: an empty bucket (its outline, no liquid, no
word in it; docs/visual-grammar.md), here small and beside the words ``yh.grad = None``, since
yh has no bucket of its own. The note stays: nothing fills a result's ``.grad`` later. A leaf
named so (missing_gradient's ``v.grad``, a bucket no walk reached) has its bucket: the words go
beside it (`BucketNotes.none_words`), as after ``w.grad = None``.
"""

from __future__ import annotations

from manim import LEFT, UP, FadeIn, VGroup

from scenes.draw.buckets import Buckets
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.crossfade import second_half
from scenes.draw.drawers import draws
from scenes.draw.focus import CameraFocus
from scenes.draw.frame_spots import FreeFrame
from scenes.draw.labels import CardLabels
from scenes.draw.onscreen import OnScreen
from scenes.draw.visit_note import VisitNotes
from scenes.draw.visuals import bucket, formula, note_block
from scenes.layout.label_sides import LABEL_REACH
from scenes.layout.note_spots import NONE_WORDS_GAP
from scenes.layout.place import Box, Point
from scenes.storyboard.cues import Cue

OWNER = "note:"
"""The record's id of the note's words (role ``note``) and of its empty bucket (role ``bucket``, as
it is drawn: what keeps off a bucket keeps off it): ``note:TENSOR``, one note."""


class UnkeptGrads(View):
    """Draws grad_none: the note of a result whose ``.grad`` is None beside its card, kept in
    the graph's record (``unkept``) so that a snapshot and the camera carry it. Asks ``notes``
    where a note beside a card goes, ``onscreen`` what it keeps off."""

    def __init__(self, ctx: DrawContext, labels: CardLabels, onscreen: OnScreen, frame: FreeFrame,
                 focus: CameraFocus, buckets: Buckets) -> None:
        super().__init__(ctx)
        self.labels, self.onscreen, self.frame, self.buckets = labels, onscreen, frame, buckets
        self.notes = VisitNotes(ctx, labels, onscreen, frame, focus)

    @draws("grad_none")
    def draw_grad_none(self, cue: Cue, step: StepScratch) -> Anims:
        """``yh.grad = None`` beside yh's card after an empty bucket, its words at a value's size:
        on one row where that reads as yh's (nearer it than any other card, clear of the arrows),
        else on two (``yh.grad`` over ``= None``), else both again at the least size a value is
        set at; where none reads as yh's, the first goes where there is room."""
        tensor = cue.ids[0]
        graph = self.ctx.state.graph
        if tensor in graph.buckets:  # a leaf's .grad is its bucket: the bucket wears the words
            said_name, said_after = (next((s for s in cue.strings if s.role == r), None) for r in ("name", "after"))
            if said_name is None or said_after is None:
                return []
            return self.buckets.notes.none_words(tensor, said_name, said_after)
        box = self.lay.boxes.get(self.ctx.item(tensor))
        name, after = cue.text("name"), cue.text("after")
        if box is None or tensor in graph.unkept or name is None or after is None or tensor not in graph.cards:
            return []
        self.ctx.record_all(cue.strings)
        f = self.theme.font_sizes
        said = (f"{name}.grad", f"{self.theme.labels.name_value} {after}")
        avoid = self.frame.pane_bounds() + self.frame.frame_marks() + self.onscreen.shown_rects()
        badge = any(n in self.ctx.state.walk.badges for n in cue.ids[1:])  # kept at the card: the note keeps off
        tries = [self.note(tensor, said, size, rows) for size in (f.bucket_sum, f.min_readable_main) for rows in (1, 3, 2)]
        reach = LABEL_REACH * formula(" ".join(said), self.theme, size=f.bucket_sum).height  # a label's
        def spot(block: VGroup, own: bool, by: float = reach) -> Point | None:  # a label's, as near as a bucket's words
            return self.notes.beside(block, box, avoid, own, badge, reach=by, snug=NONE_WORDS_GAP)

        # by no other card (`label_spots.faces_other`), else nearer its card than any other (as `form_spot`)
        found = next(((b, at) for by in (reach, 0.0) for b in tries if (at := spot(b, True, by)) is not None), None)
        block, at = found if found is not None else (tries[0], spot(tries[0], False))
        assert at is not None  # note_centre always finds a spot
        self.labels.keep_inside(block.move_to([at[0], at[1], 0]))
        graph.unkept[tensor] = block
        return [FadeIn(block, rate_func=second_half)]

    def note(self, tensor: str, said: tuple[str, str], size: float, rows: int) -> VGroup:
        """The note: the empty bucket and the words ``said`` (``yh.grad``, ``= None``) at ``size``;
        ``rows`` 1: the bucket, then the words on one row; 2: the bucket, then ``yh.grad``, and
        ``= None`` under it; 3: the bucket over ``yh.grad`` over ``= None`` (narrowest)."""
        t = self.theme
        lines = [formula(" ".join(said), t, size=size)] if rows == 1 else [formula(text, t, size=size) for text in said]
        words = lines[0].submobjects[0]
        h = words.height * 1.1
        empty = bucket(Box(f"{OWNER}{tensor}", "bucket", 0.0, 0.0, h * t.sizes.bucket_width / t.sizes.bucket_height, h),
                       t, scale=self.lay.scale)
        if rows == 3:
            block = note_block(lines, t, owner=tensor)
            return VGroup(empty.next_to(block, UP, buff=t.sizes.token_pad * 1.5), *block).move_to([0.0, 0.0, 0.0])
        lines[0].add(empty.next_to(words, LEFT, buff=t.sizes.token_pad * 2))
        block = note_block(lines, t, owner=tensor)
        for line in lines[1:]:  # under the words, not under the bucket
            line.align_to(words, LEFT)
        return block.move_to([0.0, 0.0, 0.0])
