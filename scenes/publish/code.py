"""The program as an article shows it: highlighted by Pygments, each line anchored (``#L3``) and
marked by the sections that show it when a reader follows a section's link to it.

Why Pygments: the page must be self-contained (no script from another host to colour code at
load time), so the colours are spans and one style sheet, made once when the article is written.
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

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


def highlighted(source: str, lines: list[int] | None = None, first: int = 1, anchors: str = "",
                label: str = "The program") -> str:
    """``source`` as highlighted HTML; ``lines`` (numbered from ``first``) are marked; with
    ``anchors`` each line is a ``<span id="{anchors}N">`` to link to. With a ``label``, its
    ``<pre>`` is a region of that name that the keyboard reaches (tabindex 0), so a line wider
    than a phone scrolls with the arrow keys too; without, its lines wrap (class ``wrap``), so
    it never scrolls and is no stop for Tab."""
    options: dict[str, object] = {"linenos": "inline", "linenostart": first, "hl_lines": [n - first + 1 for n in lines or []]}
    if anchors:
        options.update(lineanchors=anchors.rstrip("-"), anchorlinenos=False)
    page = highlight(source, PythonLexer(), _formatter(**options))
    pre = f'<pre tabindex="0" role="region" aria-label="{escape(label)}">' if label else '<pre class="wrap">'
    return page.replace("<pre>", pre, 1)  # Pygments' own <pre>: the program's text in it is escaped


_ANCHOR = re.compile(r'<a id="([^"]+)" name="[^"]+"></a>(.*)')


def listing(source: str, anchors: str = "L-") -> str:
    """The whole program highlighted once, each line a ``<span class="line" id="L-N">`` that a
    section's link targets (``#L-6``) and ``gradreel.js`` marks with its section's other lines.
    Why wrap the lines: Pygments anchors a line with an empty ``<a>``, which nothing can colour."""
    out = []
    for line in highlighted(source, anchors=anchors).split("\n"):
        m = _ANCHOR.search(line)
        out.append(line if m is None else
                   f'{line[:m.start()]}<span class="line" id="{m.group(1)}">{m.group(2)}</span>')
    return "\n".join(out)


MIN_CONTRAST = 4.5
"""WCAG 2's AA ratio for text under 18.66 px bold or 24 px: every colour the code is written in
meets it on every background code lies on (axe-core checks it in tests/publish/test_axe.py)."""
_PAGE_STYLE = Path(__file__).resolve().parent / "templates" / "gradreel.css"


def _rgb(colour: str) -> tuple[float, float, float]:
    h = colour.lstrip("#")
    h = "".join(c * 2 for c in h) if len(h) == 3 else h
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def _luminance(rgb: tuple[float, float, float]) -> float:
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2's contrast ratio of two ``#rgb``/``#rrggbb`` colours, 1 to 21.

    >>> round(contrast("#8a93a8", "#ffffcc"), 1)  # the line numbers once, on a marked line
    3.0
    """
    la, lb = sorted((_luminance(_rgb(a)), _luminance(_rgb(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable(colour: str, backgrounds: list[str]) -> str:
    """``colour``, darkened (its hue kept) until it meets :data:`MIN_CONTRAST` on each of the
    light ``backgrounds``; unchanged when it already does.

    >>> readable("#AA22FF", ["#f4f6fa", "#ffffcc"])  # 4.43:1 on the tint
    '#a521f7'
    """
    rgb = _rgb(colour)
    while min(contrast(_hex(rgb), b) for b in backgrounds) < MIN_CONTRAST:
        rgb = (rgb[0] * 0.97, rgb[1] * 0.97, rgb[2] * 0.97)
    return colour if rgb == _rgb(colour) else _hex(rgb)


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)


def code_backgrounds() -> list[str]:
    """What code text lies on: the page's code tint (``--tint`` in gradreel.css) and the marked
    lines' colour (the Pygments style's)."""
    tint = re.search(r"--tint:\s*(#[0-9a-fA-F]{3,6})", _PAGE_STYLE.read_text())
    assert tint, f"{_PAGE_STYLE} defines no --tint"
    return [tint.group(1), _formatter().style.highlight_color]


def style_sheet() -> str:
    """The CSS of the highlighted code (Pygments' classes under ``.highlight``), each text colour
    made :func:`readable` on the code's backgrounds (Pygments' default has a few under 4.5:1)."""
    backgrounds = code_backgrounds()
    return re.sub(r"(?<![-\w])color: (#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b",
                  lambda m: f"color: {readable(m.group(1), backgrounds)}", _formatter().get_style_defs(".highlight"))
