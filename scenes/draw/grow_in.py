"""A card (or a unit, a badge) comes in: its shapes grow from its centre, its texts fade in at
their own size.

Why not Manim's `GrowFromCenter`: it grows the texts from a point too, so for the first frames of
every new card its name and value are specks a few pixels high, texts too small to read, and the
frame check (docs/inspect.md) counts them as such. The eye still sees the node pop out of
nothing (the frame grows), and each text is, from its first visible frame, as large as it stays.
One mobject is animated (the card itself), so later plays find it in the scene as they always did.
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


class GrowIn(Transform):
    """``mob`` enters: its shapes scaled from nothing about its centre, its texts from opacity 0."""

    def __init__(self, mob: Mobject, **kwargs: object) -> None:
        super().__init__(mob, introducer=True, **kwargs)

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
    Why not the whole group's centre: a card carries its op name as a text beside it, and a
    frame grown from the middle of the two slid out from under the name, over the card next to
    it (sigmoid_logloss at 9:16: ``log(1 - p)`` over the ``rsub`` of ``1 - p``)."""
    shapes = [part.points for part, text in _parts(mob) if not text]
    if mob.has_points() and not is_text(mob):
        shapes.append(mob.points)
    if not shapes:
        return mob.get_center()

    points = np.concatenate(shapes)
    return (points.min(axis=0) + points.max(axis=0)) / 2
