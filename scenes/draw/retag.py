"""A token re-tagged as it starts the next part of its way: one animation, of no length, in a
`Succession` of moves (`scenes.draw.rides`), so that the inspector's record follows the token
as the arrow it now rides on."""

from __future__ import annotations

from manim import Animation, Mobject

from scenes.draw.record import tag as record_tag


class Retag(Animation):
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
