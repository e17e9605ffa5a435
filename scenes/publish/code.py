"""The program as an article shows it: highlighted by Pygments, each line anchored (``#L3``) and
marked by the sections that show it when a reader follows a section's link to it.

Why Pygments: the page must be self-contained (no script from another host to colour code at
load time), so the colours are spans and one style sheet, made once when the article is written.
"""

from __future__ import annotations

import re

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


_ANCHOR = re.compile(r'<a id="([^"]+)" name="[^"]+"></a>(.*)')


def listing(source: str, anchors: str = "L-") -> str:
    """The whole program highlighted once, each line a ``<span class="line" id="L-N">`` that a
    section's link targets (``#L-6``) and ``stepper.js`` marks with its section's other lines.
    Why wrap the lines: Pygments anchors a line with an empty ``<a>``, which nothing can colour."""
    out = []
    for line in highlighted(source, anchors=anchors).split("\n"):
        m = _ANCHOR.search(line)
        out.append(line if m is None else
                   f'{line[:m.start()]}<span class="line" id="{m.group(1)}">{m.group(2)}</span>')
    return "\n".join(out)


def style_sheet() -> str:
    """The CSS of the highlighted code (Pygments' classes under ``.highlight``)."""
    return _formatter().get_style_defs(".highlight")
