"""Cached text glyphs. Why: building a Manim `Text` costs ~20-30 ms (Pango + SVG parse); a clip
shows the same few value strings many times, so each (text, font, size, colour) is built once and
callers get a cheap `.copy()`."""

from __future__ import annotations

from functools import lru_cache

from manim import Text, VMobject

_MEASURE = "white"  # colour of glyphs built only to be measured, never drawn


@lru_cache(maxsize=4096)
def _master(text: str, font: str, size: float, colour: str) -> Text:
    return Text(text, font=font, font_size=size, color=colour)


def label(text: str, font: str, size: float, colour: str) -> Text:
    """A fresh copy of the cached Text for these four keys (safe to move and recolour)."""
    return _master(text, font, round(float(size), 2), colour).copy()


@lru_cache(maxsize=4096)
def text_width(text: str, font: str, size: float) -> float:
    """Ink width of `text` in scene units (for wrapping without building every candidate line)."""
    return float(_master(text, font, round(float(size), 2), _MEASURE).width)


def shrink_to_fit(mob: VMobject, max_w: float, max_h: float) -> float:
    """Scale `mob` down (never up) to fit a max_w x max_h box; returns the factor used."""
    f = 1.0
    if mob.width > max_w > 0:
        f = max_w / mob.width
    if mob.height * f > max_h > 0:
        f = max_h / mob.height
    if f < 1.0:
        mob.scale(f)
    return f
