"""Cached text glyphs. Why: building a Manim `Text` is slow (Pango, then an SVG parse;
docs/bench.md has the figures); a clip shows the same few strings many times, and renders again
and again show the same captions.
So each (text, font, size, colour) is built once per machine: kept in memory for the process and
stored as data (:mod:`scenes.draw.datafile`, never pickle: the folder may be shared) in a folder (``$GRADREEL_GLYPHS``, else ``$XDG_CACHE_HOME/gradreel/glyphs``, else
``~/.cache/gradreel/glyphs``), where loading one is cheap. Callers get a cheap
``.copy()``. The folder is keyed on Manim's and ManimPango's versions and on this file, so a
change to either builds anew. A glyph file that cannot be read back as a Text is built again.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

import unicodedata

from manim import MarkupText, Text, VGroup, VMobject

from scenes.atomic import read_regular, write_atomic
from scenes.draw import datafile
from scenes.draw.record import tag

_MEASURE = "white"  # colour of glyphs built only to be measured, never drawn


# Pango lays a Text out in a box of fixed width and silently wraps any longer line inside it (a
# 90-character caption line at size 26 comes back as two lines). Glyphs are vectors, so a Text
# is built at this size, where even long lines fit the box, and scaled to the size asked for.
_BUILD_SIZE = 16.0


@lru_cache(maxsize=1)
def _store() -> tuple[Path, str]:
    """The glyph folder and the version salt of every key in it."""
    from importlib.metadata import version

    base = os.environ.get("GRADREEL_GLYPHS") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "gradreel", "glyphs")
    salt = hashlib.sha256(Path(__file__).read_bytes())
    salt.update(f"{version('manim')} {version('manimpango')}".encode())
    return Path(base), salt.hexdigest()


@lru_cache(maxsize=4096)
def _master(text: str, font: str, size: float, colour: str) -> Text | MarkupText:
    folder, salt = _store()
    path = folder / (hashlib.sha256(repr((salt, text, font, size, colour)).encode()).hexdigest()[:40] + ".glyph")
    try:
        mob = datafile.loads(read_regular(path, _MAX_GLYPH_BYTES), _MANIM)
        if type(mob) is (MarkupText if _right_to_left(text) else Text):
            return mob
    except (OSError, datafile.DataFileError):
        pass
    mob = _build(text, font, size, colour)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(path, datafile.dumps(mob, _MANIM))
    except OSError:  # a read-only home or a full disk: glyphs are then built in every process
        pass
    return mob


_MANIM = datafile.under("manim")
"""The classes a glyph file may hold: a Text is Manim's shapes and colours, nothing else."""
_MAX_GLYPH_BYTES = 64 << 20


def _build(text: str, font: str, size: float, colour: str) -> Text | MarkupText:
    """A Text, or a MarkupText for right-to-left letters: Manim's Text drops every one of them
    below some size, and Pango's markup path shapes them. Only for them: Text and MarkupText
    set line breaks apart differently, and every other text keeps Text's outlines. The text is
    escaped, so it is never read as markup."""
    built = min(size, _BUILD_SIZE)
    if _right_to_left(text):
        mob: Text | MarkupText = MarkupText(_as_markup(text), font=font, font_size=built, color=colour)
    else:
        mob = Text(text, font=font, font_size=built, color=colour)
    if built != size:
        mob.scale(size / built)
    return _without_paths(mob)


def _without_paths(mob: VMobject) -> VMobject:
    """``mob`` without the parsed SVG path each glyph keeps: it is never read again, every copy
    deep-copies it (dropping it makes a copy several times cheaper), and a beat's saved state,
    which may hold the text (a caption kept up across beats), cannot store it. Nor the SVG's
    groups by id (``id_to_vgroup_dict``: some four groups of every glyph, never drawn nor read
    here), which made a copy of a 12-letter label four times dearer, and every copy of a card
    or a note holding labels with it (a camera move copies the graph's shapes)."""
    for glyph in mob.get_family():
        if hasattr(glyph, "path_obj"):
            glyph.path_obj = None
    if hasattr(mob, "id_to_vgroup_dict"):
        mob.id_to_vgroup_dict = {}
    return mob


_LRM = "\u200e"


def _right_to_left(text: str) -> bool:
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


def _as_markup(text: str) -> str:
    """``text`` as Pango markup of itself, each line led by a left-to-right mark, so it keeps a
    left-to-right base direction (its first glyph, a row's strut, stays on the left) while Pango
    orders each right-to-left run as it is read."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "\n".join(_LRM + line for line in escaped.split("\n"))


def label(text: str, font: str, size: float, colour: str) -> Text | MarkupText:
    """A fresh copy of the cached text for these four keys (safe to move and recolour), tagged
    as a label showing ``text`` (a builder tags it more precisely: :mod:`scenes.draw.record`)."""
    return tag(_master(text, font, round(float(size), 2), colour).copy(), "label", text=text, kind="text")


@lru_cache(maxsize=4096)
def text_width(text: str, font: str, size: float) -> float:
    """Ink width of `text` in scene units (for wrapping without building every candidate line)."""
    return float(_master(text, font, round(float(size), 2), _MEASURE).width)


def word_space(font: str, size: float) -> float:
    """The advance of a space between two words of ``font`` at ``size``, in scene units (ink to
    ink: ``a a`` less ``aa``), measured once at a reference size and scaled.

    >>> round(word_space("DejaVu Sans Mono", 48.0) / word_space("DejaVu Sans Mono", 24.0), 6)
    2.0
    """
    return (text_width("a a", font, SPACE_REF) - text_width("aa", font, SPACE_REF)) * size / SPACE_REF


SPACE_REF = 48.0
"""The font size `word_space` measures at (a measuring unit, not a visual)."""


def shrink_to_fit(mob: VMobject, max_w: float, max_h: float, least: float = 0.0) -> float:
    """Scale `mob` down (never up) to fit a max_w x max_h box, but never by a factor under
    `least` (a text kept readable overhangs its box); returns the factor used."""
    f = 1.0
    if mob.width > max_w > 0:
        f = max_w / mob.width
    if mob.height * f > max_h > 0:
        f = max_h / mob.height
    f = max(f, least)
    if f < 1.0:
        mob.scale(f)
    return f


STRUT = "\u2502"  # a full-height glyph: every row built with it has the same vertical extent


def text_rows(lines: list[str], font: str, size: float, colour: str,
              spacing: float = 1.0) -> tuple[list[VGroup], list[VMobject], float]:
    """Lines of text as separate rows at a fixed pitch: ``(glyphs per row, strut per row, pitch)``;
    the pitch is the font's own line distance times ``spacing``.

    Why not one multi-line Text sliced by character counts: Pango may merge glyphs (the "fi"
    ligature) and Manim drops glyphs whose paths come out empty at some sizes (a tiny "_"), so
    counts drift and later lines get the wrong glyphs. Each row is its own Text, placed by its
    strut (which callers do not draw), so baselines stay aligned whatever each row contains.
    Why ``spacing``: DejaVu's own line distance puts an underscore's bottom on the top of a tall
    letter in the line below, where it reads as an accent.
    """
    pitch = line_pitch(font, size) * spacing
    rows, struts = [], []
    for k, line in enumerate(lines):
        row = label(STRUT + line, font, size, colour)
        row.shift([-row[0].get_center()[0], -k * pitch - row[0].get_center()[1], 0])
        struts.append(row[0])
        rows.append(tag(VGroup(*row[1:]), "label", text=line, kind="text"))
    return rows, struts, pitch


@lru_cache(maxsize=256)
def _markup_master(markup: str, font: str, size: float, colour: str) -> VMobject:
    from manim import MarkupText

    built = min(size, _BUILD_SIZE)
    mob = MarkupText(markup, font=font, font_size=built, color=colour)
    if built != size:
        mob.scale(size / built)
    return _without_paths(mob)


def markup_label(markup: str, font: str, size: float, colour: str) -> VMobject:
    """A fresh copy of a Pango-markup Text (a caption line with a span in another font)."""
    return _markup_master(markup, font, round(float(size), 2), colour).copy()


@lru_cache(maxsize=256)
def line_pitch(font: str, size: float) -> float:
    """The font's own distance between the baselines of two lines, in scene units."""
    size = round(float(size), 2)
    return float(_master(STRUT + "\n" + STRUT, font, size, _MEASURE).height - _master(STRUT, font, size, _MEASURE).height)
