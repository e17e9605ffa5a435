"""The checklist cue of the clip scene: a storyboard's list of checks, ticked beat by beat.

Why on screen: an article that ends on "check three things" needs the three named where the
viewer can see them tick as each is shown, and still there at the end. The list comes in as
the first check is asked, in a free corner of the frame (else the free spot nearest the bottom left
corner), and stays. A view of ``ClipScene``, owning ``state.checklist``.
"""

from __future__ import annotations

from typing import Callable

from manim import LEFT, FadeIn, Transform

from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.drawers import draws
from scenes.draw.frame_spots import FreeFrame
from scenes.draw.state import ChecklistView
from scenes.draw.visuals.checklist import check_block, check_row
from scenes.storyboard.cues import Cue
from scenes.theme import Rect

Z_LIST = 3  # above a closing title's backdrop: the list stays readable to the end


class Checklist(View):
    """Draws check. Asks ``frame`` for a free corner or spot, and ``shown_rects`` (the scene's)
    where every visible text, card and bucket is now."""

    def __init__(self, ctx: DrawContext, frame: FreeFrame, shown_rects: Callable[[], list[Rect]]) -> None:
        super().__init__(ctx)
        self.frame, self.shown_rects = frame, shown_rects

    @property
    def checklist(self) -> ChecklistView:
        return self.ctx.state.checklist

    @draws("check")
    def draw_check(self, cue: Cue, step: StepScratch) -> Anims:
        """The list (all its items) comes in as the first check is asked (a cue with no
        ``ticked`` string), nothing ticked; a tick turns its row once the beat has shown it. A
        tick in the step the list comes in is drawn ticked: Manim cannot drive one row with
        the list's fade and the tick's Transform, and the fade won (item 1 was never ticked)."""
        st = self.checklist
        items = [s for s in cue.strings if s.role == "item"]
        ticked = next((s for s in cue.strings if s.role == "ticked"), None)
        k = next(i for i, s in enumerate(items) if s.text == ticked.text) + 1 if ticked is not None else 0
        out: Anims = []
        self.ctx.record_all(cue.strings)
        if not st.rows:
            rows = [check_row(s.text, n + 1 == k, self.theme) for n, s in enumerate(items)]
            block = check_block(rows, self.theme)
            if not self.frame.to_free_corner(block, only_free=True):
                self.frame.to_free_spot(block, self.shown_rects())
            for r in rows:
                r.set_z_index(Z_LIST)
            st.rows = rows
            st.ticked += [k] if k else []
            out.append(FadeIn(block))
        if ticked is not None and k not in st.ticked:
            st.ticked.append(k)
            old = st.rows[k - 1]
            new = check_row(ticked.text, True, self.theme).set_z_index(Z_LIST)
            new.move_to(old, aligned_edge=LEFT)
            out.append(Transform(old, new))
        return out
