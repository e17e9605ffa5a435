"""Where a line of text sits: its baseline, from its glyphs.

Why: Manim crops a `Text` to its ink, so two texts of different sizes set side by side are
centred on their ink, not on one line: a small name beside a large number floats above the
number's foot (review 5: grad_accumulation's ``w.grad after call 2 =`` over its large 12), and a
name with a descender (``h1_0``'s ``_``) is centred low in its circle. The glyphs that sit on the
baseline say where it is.
"""

from __future__ import annotations

from manim import Mobject

LOW = frozenset("gjpqy,;_()[]{}|")
"""Glyphs that reach below the baseline (`scenes.draw.collisions.LOW`)."""
HIGH = frozenset("-−–—+=×÷*~^'\"`°·<>")
"""Glyphs drawn above the baseline, off it (a minus, an operator, a quote): the foot of a value
``-0.0754`` is its digits', not its minus's (REVIEW7 11: the recap's value sat ~8 px under its
name, on the minus's foot)."""


def baseline(text: Mobject) -> float:
    """The y of ``text``'s baseline: the bottom of its glyphs that sit on it (one per character
    but spaces, as Manim builds a `Text`; not those that hang below it nor those drawn above it,
    `HIGH`); its bottom where every glyph hangs below."""
    chars = getattr(text, "text", "").replace(" ", "")
    glyphs = text.submobjects if len(text.submobjects) == len(chars) else []
    sitting = [g for g, c in zip(glyphs, chars) if c not in LOW and c not in HIGH]
    return max(float(g.get_bottom()[1]) for g in sitting) if sitting else float(text.get_bottom()[1])


def on_baseline(text: Mobject, y: float) -> Mobject:
    """``text`` moved up or down so that its baseline is at ``y``."""
    return text.shift([0.0, y - baseline(text), 0.0])
