"""SubRip (.srt) and WebVTT (.vtt) text made from the plan's caption spans, so captions cannot
drift from the picture. WebVTT is what an HTML5 ``<track>`` takes; SubRip what players and most
platforms take.

>>> from .plan import CaptionSpan
>>> print(srt([CaptionSpan(1, 0.0, 2.5, "The loss is 4/9, the square of 2/3.", 0, lines=("The loss is 4/9,", "the square of 2/3."))]), end="")
1
00:00:00,000 --> 00:00:02,500
The loss is 4/9,
the square of 2/3.

Each block is one caption event, set in the lines the plan chose for it (the picture's lines),
without the backticks that quote code (the picture sets it in the code font; a player would
show the backticks). WebVTT holds the same blocks:

>>> print(vtt([CaptionSpan(1, 0.0, 2.5, "The loss is 4/9 --> <ok>.", 0)]), end="")
WEBVTT
<BLANKLINE>
1
00:00:00.000 --> 00:00:02.500
The loss is 4/9 --&gt; &lt;ok&gt;.
"""

from __future__ import annotations

import textwrap
from typing import Iterable

from .placeholders import unquoted
from .plan import CaptionSpan
from .reading import ReadingRules

LINE_WIDTH = ReadingRules().line_chars
"""For a span that carries no lines of its own (one made by hand): the reading rules' line length."""


def timestamp(seconds: float, mark: str = ",") -> str:
    """``75.25`` -> ``00:01:15,250`` (SubRip's; WebVTT's has ``mark`` ``.``)."""
    ms = int(round(seconds * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{mark}{ms:03d}"


def srt(captions: Iterable[CaptionSpan]) -> str:
    """The captions as SRT blocks, numbered from 1, in their lines (else wrapped at LINE_WIDTH)."""
    blocks = []
    for n, c in enumerate(captions, start=1):
        text = unquoted("\n".join(c.lines or textwrap.wrap(c.text, LINE_WIDTH))) or " "
        blocks.append(f"{n}\n{timestamp(c.start)} --> {timestamp(c.end)}\n{text}\n")
    return "\n".join(blocks)


def vtt_cues(cues: Iterable[tuple[float, float, str]]) -> str:
    """A WebVTT file of ``(start, end, text)`` cues, numbered from 1; the text's lines kept and
    each wrapped at LINE_WIDTH, then escaped (``&``, ``<`` and ``>`` are markup in WebVTT). Why in
    that order: wrapped after, an entity was cut across two lines (``&l`` / ``t;``) and shown so."""
    blocks = ["WEBVTT\n"]
    for n, (start, end, text) in enumerate(cues, start=1):
        wrapped = "\n".join(w for line in unquoted(text).split("\n")
                             for w in textwrap.wrap(line, LINE_WIDTH, break_on_hyphens=False))
        lines = wrapped.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") or " "
        blocks.append(f"{n}\n{timestamp(start, '.')} --> {timestamp(end, '.')}\n{lines}\n")
    return "\n".join(blocks)


def vtt(captions: Iterable[CaptionSpan]) -> str:
    """The captions as a WebVTT file (``kind="captions"``), the same cues as :func:`srt`."""
    return vtt_cues((c.start, c.end, "\n".join(c.lines) if c.lines else c.text) for c in captions)
