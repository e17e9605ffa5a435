"""A bucket becomes its next state: its outline and liquid morph (the level rises), its value
does not. The value shown fades out where it is and the new one fades in where it goes.

Not a plain `Transform` of the whole bucket: it morphs one number's glyphs into the other's,
and half way the number is a shrunken smudge that reads as neither (and fails the frame check,
docs/inspect.md). A number that changes is replaced, as a cut does elsewhere; only the
shapes move.
"""

from __future__ import annotations

from typing import Any

from manim import Transform, VGroup, smooth
from manim.utils.rate_functions import linear

from scenes.draw.drop import DropTiming
from scenes.draw.grow_in import is_text
from scenes.draw.record import ATTR, opacity, tag_of

CUT_AT = 0.6
"""How far the old number has faded, and the new one come in, at a drop's swap (`Refill`)."""
_FADED = 0.01
"""A text this faint is one an earlier refill faded out: dropped before the next."""


class Refill(Transform):
    """The `Transform` `refill` returns: the going texts fade in its first half, the incoming
    value in its second, so the two numbers are never over each other (as in :func:`~scenes.draw.crossfade.cut`).
    ``timing``: a gradient drops in (`scenes.draw.drop`): the level rises from its ``arrive``,
    the texts fade from then and give way to the new value at its ``swap``."""

    def __init__(self, old: VGroup, target: VGroup, going: list[Any], incoming: Any,
                 timing: DropTiming | None = None, **kwargs: Any) -> None:
        self._out = {id(m) for g in going for m in g.get_family()}
        self._in = {id(m) for m in incoming.get_family()} if incoming is not None else set()
        self.timing = timing
        if timing is not None:
            kwargs["rate_func"] = linear  # each part keeps its own times
        super().__init__(old, target, **kwargs)

    def interpolate_submobject(self, submob: Any, start: Any, target: Any, alpha: float) -> Any:
        tm = self.timing
        if tm is not None:
            # the numbers change at ``swap`` in a cut, each fading only on its side of it: one of
            # them is always read (never a frame with none, nor with both over each other)
            if id(submob) in self._out:
                alpha = CUT_AT * tm.window(alpha, tm.arrive, tm.swap) if alpha < tm.swap else 1.0
            elif id(submob) in self._in:
                alpha = 0.0 if alpha < tm.swap else CUT_AT + (1.0 - CUT_AT) * tm.window(alpha, tm.swap, 1.0)
            else:  # the liquid rises as the gradient lands in it
                alpha = smooth(tm.window(alpha, tm.arrive, 1.0))
        elif id(submob) in self._out:
            alpha = min(1.0, 2.0 * alpha)
        elif id(submob) in self._in:
            alpha = max(0.0, 2.0 * alpha - 1.0)
        return super().interpolate_submobject(submob, start, target, alpha)


def refill(old: VGroup, new: VGroup, timing: DropTiming | None = None, **kwargs: Any) -> Transform:
    """A `Transform` of the bucket ``old`` (on screen) into ``new`` (built, not shown) in which
    each text of ``old`` fades out in place and then ``new``'s value fades in in place. ``old``
    keeps being the scene's bucket: afterwards its ``value`` is the new value's copy it holds.
    ``timing``: of the gradient dropping in, which the parts keep to (`Refill`)."""
    for m in [m for m in old.submobjects if is_text(m) and opacity(m) < _FADED]:
        old.remove(m)
    shapes = [m for m in new.submobjects if not is_text(m)]
    going = [m for m in old.submobjects if is_text(m)]
    target = VGroup(*shapes, *(m.copy().set_opacity(0.0) for m in going))
    if tag_of(old) is not None:  # it stays the bucket: a play's end gives ``old`` the target's tags
        setattr(target, ATTR, tag_of(old))
    incoming = None
    if new.value is not None:
        incoming = new.value.copy().set_opacity(0.0)
        old.add(incoming)
        target.add(new.value)
    old.value = incoming
    return Refill(old, target, going, incoming, timing, **kwargs)
