"""Which characters the installed fonts can draw, asked of fontconfig (no Manim).

Why: Pango draws a character no font has as a box with its code point in it, and a caption of
boxes reads as nothing. A storyboard's titles and narrations are checked here, so such a character
is refused by ``render check`` with its code point, before anything is drawn. Any installed font
counts, since Pango falls back from the theme's font to the others for a missing glyph. Plain
ASCII needs no question at all; fontconfig is asked once per process otherwise.
"""

from __future__ import annotations

import bisect
import shutil
import subprocess
import sys
import unicodedata
from functools import lru_cache


@lru_cache(maxsize=1)
def _covered() -> tuple[tuple[int, int], ...] | None:
    """Code point ranges some installed font has, or None when fontconfig cannot be asked."""
    tool = shutil.which("fc-list")
    if tool is None:
        return None
    try:
        out = subprocess.run([tool, "--format", "%{charset}\\n"], capture_output=True, text=True,
                             timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    spans = []
    for word in out.split():
        first, _, last = word.partition("-")
        try:
            spans.append((int(first, 16), int(last or first, 16)))
        except ValueError:
            continue
    merged: list[tuple[int, int]] = []  # disjoint and sorted: one bisect finds a code point
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return tuple(merged)


def _has(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    k = bisect.bisect_right(ranges, (code, sys.maxsize)) - 1
    return k >= 0 and ranges[k][0] <= code <= ranges[k][1]


def undrawable(text: str) -> str | None:
    """The first character of ``text`` no installed font draws, or None (also when fontconfig is
    not there to ask: the picture then shows what Pango makes of it)."""
    if text.isascii():
        return None
    ranges = _covered()
    if ranges is None:
        return None
    for c in text:
        if c.isspace() or unicodedata.category(c) in ("Cc", "Cf", "Mn", "Me"):
            continue
        if not _has(ord(c), ranges):
            return c
    return None
