"""The recap cue of the clip scene: the takeaway's numbers, side by side, over the closing picture.

Why: the takeaway names the clip's result ("w1.grad is 8/3 and w2.grad is 4/9"); said over a
picture where those numbers sit far apart, or not at all (a value PyTorch prints as
``tensor(2.6667)`` that the graph writes as 8/3), it asks the viewer to trust the words. The
recap writes each quantity the takeaway names on one row, ``w1.grad = 8/3 = tensor(2.6667)``, in
a free corner of the frame (else the free spot nearest its bottom left, as the checklist goes),
and adds to the picture: nothing the walk left (a badge, a bucket's value) is taken away. A view
of ``ClipScene``, owning ``state.titles.recap``.
"""

from __future__ import annotations

from typing import Callable

from manim import DOWN, LEFT, FadeIn, RoundedRectangle, VGroup

from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.drawers import draws
from scenes.draw.frame_spots import FreeFrame
from scenes.draw.record import tag
from scenes.draw.visuals import label
from scenes.storyboard.cues import Cue
from scenes.storyboard.recap import recap_rows
from scenes.theme import Rect

Z_RECAP = 3  # above the cards and arrows it may pass near, as the checklist is
ROLE = "recap"
"""The inspect role of a recap row (docs/inspect.md)."""


class Recap(View):
    """Draws recap. Asks ``frame`` for a free corner or spot, and ``shown_rects`` (the scene's)
    where every visible text, card and bucket is now."""

    def __init__(self, ctx: DrawContext, frame: FreeFrame, shown_rects: Callable[[], list[Rect]]) -> None:
        super().__init__(ctx)
        self.frame, self.shown_rects = frame, shown_rects

    def _row(self, name: str, texts: list[str]) -> VGroup:
        """``name = text = text``: the name muted, its values in the text colour, in the code's
        font (they are what the program holds), tagged as one recap item."""
        t = self.theme
        size = t.font_sizes.card_value
        parts = [label(f"{name} =", t.fonts.mono, size, t.colors.text_muted)]
        for k, text in enumerate(texts):
            if k:
                parts.append(label("=", t.fonts.mono, size, t.colors.text_muted))
            parts.append(label(text, t.fonts.mono, size, t.colors.text))
        row = VGroup(*parts).arrange(buff=t.sizes.token_pad * 2)
        return tag(row, ROLE, text=" = ".join([name, *texts]), id=ROLE)

    @draws("recap")
    def draw_recap(self, cue: Cue, step: StepScratch) -> Anims:
        """The rows, on a backdrop, fading in where nothing on screen is."""
        t = self.theme
        rows = [self._row(name, texts) for name, texts in recap_rows(cue.strings)]
        if not rows:
            return []
        self.ctx.record_all(cue.strings)
        block = VGroup(*rows).arrange(DOWN, aligned_edge=LEFT, buff=t.sizes.token_pad * 2)
        pad = t.sizes.caption_pad
        bg = RoundedRectangle(width=block.width + 2 * pad, height=block.height + 2 * pad, corner_radius=t.radii.caption,
                              stroke_width=0, fill_color=t.colors.code_bg, fill_opacity=t.opacity.code_bg)
        bg.move_to(block.get_center())
        board = VGroup(bg, block).set_z_index(Z_RECAP)
        shown = self.shown_rects() + self.frame.frame_marks()
        if not self.frame.to_free_corner(board, only_free=True, avoid=shown):
            self.frame.to_free_spot(board, shown)
        self.ctx.state.titles.recap = board
        return [FadeIn(board)]

