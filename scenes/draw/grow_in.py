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

from manim import DL, UR, MarkupText, Mobject, Text, Transform


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
TEXT_LAST = 0.95
"""The latest share of the grow at which a text starts to fade in, however wide it is: a text
as wide as its card fades in over the last twentieth of the grow (about the last sixth of its time,
the grow eased) rather than appearing at its end."""


class GrowIn(Transform):
    """``mob`` enters: its shapes scaled from nothing about its centre, its texts from opacity 0
    once the shapes are half grown (``TEXT_LAG``)."""

    def __init__(self, mob: Mobject, **kwargs: object) -> None:
        super().__init__(mob, introducer=True, **kwargs)
        self._from: list[float] | None = None

    def interpolate_mobject(self, alpha: float) -> None:
        super().interpolate_mobject(alpha)
        texts = [part for part, text in _parts(self.mobject) if text]
        starts = [part for part, text in _parts(self.starting_mobject) if text]
        ends = [part for part, text in _parts(self.target_copy) if text]
        if self._from is None:
            self._from = [text_from(b, self.target_copy) for b in ends]
        grown = self.rate_func(alpha)
        for m, a, b, lag in zip(texts, starts, ends, self._from):
            late = max(0.0, (grown - lag) / (1.0 - lag))
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


def text_from(text: Mobject, mob: Mobject) -> float:
    """The share of ``mob``'s grow from which ``text`` fades in: once the growing shapes hold it
    (a text inside the shapes at full size, its reach from their centre over theirs per axis),
    not before ``TEXT_LAG`` nor after ``TEXT_LAST``. A text beside the shapes (an op name) does
    not wait for them. Why: a card's ``MulBackward0`` nearly as wide as the card, faded in at its
    own size from half the grow, ran past the growing border at 1080p (REVIEW7 10).

    >>> from manim import UP, Rectangle, VGroup
    >>> card = Rectangle(width=2.0, height=1.0)
    >>> wide, small, aside = Text("MulBackward0").scale_to_fit_width(1.8), Text("z").scale(0.3), Text("mul").shift(3 * UP)
    >>> whole = VGroup(card, wide, small, aside)
    >>> [round(text_from(t, whole), 2) for t in (wide, small, aside)]
    [0.9, 0.5, 0.5]
    """
    shapes = [part.points for part, is_txt in _parts(mob) if not is_txt]
    if not shapes or not text.family_members_with_points():
        return TEXT_LAG
    points = np.concatenate(shapes)
    low, high = points.min(axis=0)[:2], points.max(axis=0)[:2]
    centre, half = (low + high) / 2, np.maximum((high - low) / 2, 1e-9)
    t_low, t_high = text.get_corner(DL)[:2], text.get_corner(UR)[:2]
    if not (np.all(t_low + t_high >= 2 * low) and np.all(t_low + t_high <= 2 * high)):
        return TEXT_LAG  # its middle lies outside the shapes: beside them
    reach = np.maximum(np.abs(t_low - centre), np.abs(t_high - centre)) / half
    return float(min(TEXT_LAST, max(TEXT_LAG, reach.max())))


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
