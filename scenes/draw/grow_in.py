"""A card (or a unit, a badge) comes in: its shapes grow from its centre, its texts fade in at
their own size.

Not Manim's `GrowFromCenter`: it grows the texts from a point too, so in a new card's first
frames its name and value are specks too small to read, which the frame check (docs/inspect.md)
flags. Here the frame grows from nothing and each text is, from its first visible frame, as
large as it stays. Only the card itself is animated, so later plays find that same mobject in
the scene.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from manim import MarkupText, Mobject, Text, Transform


def is_text(m: object) -> bool:
    """Whether ``m`` is a text (its glyphs are faded, never scaled or morphed)."""
    return isinstance(m, (Text, MarkupText))


def _parts(mob: Mobject) -> Iterator[tuple[Mobject, bool]]:
    """Each text of ``mob`` (not looked into) and each other part with points: ``(part, text?)``."""
    for sub in mob.submobjects:
        if is_text(sub):
            yield sub, True
        else:
            if sub.has_points():
                yield sub, False
            yield from _parts(sub)


TEXT_LAG = 0.5
"""The share of the grow before a text starts to fade in: a text at its own size showing in a
frame still half grown spilled out of it (grad_accumulation's "MulBackward0" out of y's card)."""


class GrowIn(Transform):
    """``mob`` enters: its shapes scaled from nothing about its centre, its texts from opacity 0
    once the shapes are half grown (``TEXT_LAG``)."""

    def __init__(self, mob: Mobject, **kwargs: object) -> None:
        super().__init__(mob, introducer=True, **kwargs)

    def interpolate_mobject(self, alpha: float) -> None:
        super().interpolate_mobject(alpha)
        late = max(0.0, (self.rate_func(alpha) - TEXT_LAG) / (1.0 - TEXT_LAG))
        texts = [part for part, text in _parts(self.mobject) if text]
        starts = [part for part, text in _parts(self.starting_mobject) if text]
        ends = [part for part, text in _parts(self.target_copy) if text]
        for m, a, b in zip(texts, starts, ends):
            for x, y, z in zip(m.family_members_with_points(), a.family_members_with_points(),
                               b.family_members_with_points()):
                x.interpolate(y, z, late)

    def create_target(self) -> Mobject:
        return self.mobject.copy()

    def create_starting_mobject(self) -> Mobject:
        start = self.mobject.copy()
        centre = _shapes_centre(start)
        if start.has_points() and not is_text(start):
            start.points[:] = centre  # a shape with points of its own (a bare circle)
        for part, text in list(_parts(start)):
            if text:
                part.set_opacity(0.0)
            else:
                part.points[:] = centre
        if is_text(start):
            start.set_opacity(0.0)
        return start


def _shapes_centre(mob: Mobject) -> np.ndarray:
    """The middle of ``mob``'s shapes (its texts left out): where a card's frame grows from.
    Not the whole group's centre: a card carries its op name as a text beside it, and a frame
    grown from the middle of the two slides out from under the name, over a neighbouring card."""
    shapes = [part.points for part, text in _parts(mob) if not text]
    if mob.has_points() and not is_text(mob):
        shapes.append(mob.points)
    if not shapes:
        return mob.get_center()

    points = np.concatenate(shapes)
    return (points.min(axis=0) + points.max(axis=0)) / 2
