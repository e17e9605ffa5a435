"""SubRip (.srt) and WebVTT (.vtt) text made from the plan's caption spans, so captions cannot
drift from the picture. WebVTT is what an HTML5 ``<track>`` takes; SubRip what players and most
platforms take.

>>> from .plan import CaptionSpan
>>> print(srt([CaptionSpan(1, 0.0, 2.5, "The loss is 4/9.", 0)]), end="")
1
00:00:00,000 --> 00:00:02,500
The loss is 4/9.
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

from .plan import CaptionSpan

LINE_WIDTH = 42  # the usual subtitle guideline; two lines at most for most narrations


def timestamp(seconds: float, mark: str = ",") -> str:
    """``75.25`` -> ``00:01:15,250`` (SubRip's; WebVTT's has ``mark`` ``.``)."""
    ms = int(round(seconds * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{mark}{ms:03d}"


def srt(captions: Iterable[CaptionSpan]) -> str:
    """The captions as SRT blocks, numbered from 1, text wrapped at LINE_WIDTH."""
    blocks = []
    for n, c in enumerate(captions, start=1):
        text = "\n".join(textwrap.wrap(c.text, LINE_WIDTH)) or " "
        blocks.append(f"{n}\n{timestamp(c.start)} --> {timestamp(c.end)}\n{text}\n")
    return "\n".join(blocks)


def vtt_cues(cues: Iterable[tuple[float, float, str]]) -> str:
    """A WebVTT file of ``(start, end, text)`` cues, numbered from 1; the text escaped (``&``,
    ``<`` and ``>`` are markup in WebVTT) and wrapped at LINE_WIDTH."""
    blocks = ["WEBVTT\n"]
    for n, (start, end, text) in enumerate(cues, start=1):
        safe = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        lines = "\n".join(textwrap.wrap(safe, LINE_WIDTH, break_on_hyphens=False)) or " "
        blocks.append(f"{n}\n{timestamp(start, '.')} --> {timestamp(end, '.')}\n{lines}\n")
    return "\n".join(blocks)


def vtt(captions: Iterable[CaptionSpan]) -> str:
    """The captions as a WebVTT file (``kind="captions"``), the same cues as :func:`srt`."""
    return vtt_cues((c.start, c.end, c.text) for c in captions)
