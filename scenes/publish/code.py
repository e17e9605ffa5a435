"""The program as an article shows it: highlighted by Pygments, each line anchored (``#L3``) and
marked with the beats that show it, and a beat's own lines as a highlighted excerpt.

Why Pygments: the page must be self-contained (no script from another host to colour code at
load time), so the colours are spans and one style sheet, made once when the article is written.
"""

from __future__ import annotations

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from scenes.storyboard.logindex import LogIndex
from scenes.storyboard.model import Beat

STYLE = "default"
"""Pygments' style: dark enough on a light page to pass contrast for text."""


def beat_lines(index: LogIndex, beat: Beat) -> list[int]:
    """The program lines a beat shows: those its span's events come from (none for a title card)."""
    return sorted({ev.line for ev in index.select(beat)} if beat.span_key() else set())


def _formatter(**options: object) -> HtmlFormatter:
    return HtmlFormatter(style=STYLE, cssclass="highlight", wrapcode=True, **options)


def highlighted(source: str, lines: list[int] | None = None, first: int = 1, anchors: str = "") -> str:
    """``source`` as highlighted HTML; ``lines`` (numbered from ``first``) are marked; with
    ``anchors`` each line is a ``<span id="{anchors}N">`` to link to."""
    options: dict[str, object] = {"linenos": "inline", "linenostart": first, "hl_lines": [n - first + 1 for n in lines or []]}
    if anchors:
        options.update(lineanchors=anchors.rstrip("-"), anchorlinenos=False)
    return highlight(source, PythonLexer(), _formatter(**options))


def excerpt(source: str, lines: list[int]) -> str:
    """The lines ``min(lines)`` to ``max(lines)`` of ``source``, highlighted, the beat's marked."""
    if not lines:
        return ""
    all_lines = source.splitlines()
    a, b = min(lines), max(lines)
    return highlighted("\n".join(all_lines[a - 1:b]) + "\n", lines, first=a)


def style_sheet() -> str:
    """The CSS of the highlighted code (Pygments' classes under ``.highlight``)."""
    return _formatter().get_style_defs(".highlight")
