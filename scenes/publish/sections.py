"""The sections of an article: the storyboard's own ``article:`` text, or one per beat written
from the plan.

From the plan (no ``article:``): each beat is a section headed by a title of its own (the beat's
``title:``, else the first phrase of its narration, as its chapter is named; where that phrase is
the whole narration, the code the beat shows), its narration as prose with the numbers marked,
the numbers its picture shows (the cards' values, the buckets' fills: :mod:`.pictured`) and each
visit's arithmetic as a list (:mod:`.arithmetic`), as the screen writes them.

From ``article:``: each section's Markdown with its placeholders filled (at the end of the beat
whose figure it shows, else at the end of the log: :mod:`scenes.storyboard.articletext`), each
number escaped as Markdown text, and that beat's figure and, when asked, its arithmetic.

A section is a plain dict for the templates: a beat's figure keys (``number``, ``figure``,
``start``, ...; None without a figure) with ``heading``, ``anchor``, ``markdown``, ``html``,
``text``, ``shows`` (the picture's numbers, a sentence), ``bullets`` (the arithmetic) and
``closing`` (an authored section the page shows at its end: :func:`mark_closing`).
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt

from scenes.publish.arithmetic import VisitArithmetic
from scenes.publish.prose import Prose, inline_escape
from scenes.storyboard.articletext import beat_cutoffs, section_cutoff
from scenes.storyboard.logindex import LogIndex
from scenes.storyboard.model import Storyboard
from scenes.storyboard.placeholders import Shown, parse
from scenes.storyboard.narration import resolve

_MD = MarkdownIt("commonmark", {"html": False}).disable("image")
NO_FIGURE: dict[str, Any] = {"number": None, "figure": None, "start": None, "clock": "", "lines": [],
                             "line_text": "", "line_range": ""}


def _words(text: str) -> str:
    return " ".join(re.sub(r"[.!?:;,\s]+$", "", text.strip()).split()).casefold()


def differs(heading: str, text: str) -> bool:
    """Whether a heading says something besides the paragraph under it (not the same words)."""
    return _words(heading) != _words(text)


def beat_heading(title: str, text: str, figure: dict[str, Any], index: LogIndex) -> str:
    """A beat section's heading: its chapter's title, unless that is the whole paragraph under
    it (a one-phrase narration); then the program line the beat shows, else "Beat N"."""
    if differs(title, text):
        return title
    lines = figure["lines"]
    code = index.lines[min(lines) - 1].strip() if lines and 0 < min(lines) <= len(index.lines) else ""
    return code or f"Beat {figure['number']}"


def shows(values: list[str]) -> str:
    """``x = 1, w1 = 1/3 and L = 4/9``: the picture's numbers as a sentence's list ("" for none)."""
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} and {values[-1]}" if values else ""


def generated(titles: list[str], prose: list[Prose], figures: list[dict[str, Any]], index: LogIndex,
              values: list[list[str]], arithmetic: list[list[VisitArithmetic]]) -> list[dict[str, Any]]:
    """One section per beat of the storyboard."""
    out = []
    for k, (title, beat_prose, figure) in enumerate(zip(titles, prose, figures)):
        out.append({**figure, "heading": beat_heading(title, beat_prose.text, figure, index),
                    "anchor": f"beat-{k + 1}", "markdown": beat_prose.markdown, "html": beat_prose.html,
                    "text": beat_prose.text, "shows": shows(values[k]),
                    "bullets": [a.line for a in arithmetic[k]], "closing": False})
    return out


def filled_markdown(text: str, index: LogIndex, cutoff: int, board: Storyboard) -> tuple[str, list[Shown]]:
    """``text`` with each placeholder replaced by its number as Markdown text (escaped), and the
    numbers (validation refused every placeholder without a value)."""
    pieces, shown, pos = [], [], 0
    for p in parse(text)[0]:
        got = resolve(p, index, cutoff, board.number_style)
        if isinstance(got, str):
            raise ValueError(got)  # validation refuses this before
        pieces += [text[pos:p.start], inline_escape(got.text)]
        shown.append(got)
        pos = p.end
    pieces.append(text[pos:])
    return "".join(pieces), shown


def authored(board: Storyboard, index: LogIndex, figures: list[dict[str, Any]],
             arithmetic: list[list[VisitArithmetic]]) -> list[dict[str, Any]]:
    """One section per ``article:`` entry, with the figure of the beat it names."""
    cutoffs = beat_cutoffs(board, index)
    out = []
    for i, s in enumerate(board.article):
        figure = figures[s.figure - 1] if s.figure is not None else NO_FIGURE
        md, _ = filled_markdown(s.text.strip("\n"), index, section_cutoff(board, index, s.figure, cutoffs), board)
        bullets = [a.line for a in arithmetic[s.figure - 1]] if s.arithmetic and s.figure is not None else []
        out.append({**figure, "heading": " ".join(s.heading.split()) if s.heading else "",
                    "anchor": f"section-{i + 1}", "markdown": md, "html": _MD.render(md).strip(),
                    "text": md, "shows": "", "bullets": bullets, "closing": False})
    mark_closing(out)
    return out


def mark_closing(out: list[dict[str, Any]]) -> None:
    """Mark the closing sections: those with a heading and no figure after the last section with
    one (an author's "Key takeaways"). The page shows them after "Try it in PyTorch", where the
    seed articles and the generated form put their takeaways, not between the walk and the program."""
    figured = [k for k, b in enumerate(out) if b["number"] is not None]
    if not figured:
        return
    for b in out[figured[-1] + 1:]:
        b["closing"] = bool(b["heading"])
