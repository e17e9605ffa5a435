"""A beat's narration as prose: the captions' text, with each number from the log marked.

The text is the plan's caption events of the beat, joined (a long narration may be several
captions), so the prose is what the clip says. The numbers are the captions' own filled
placeholders: each becomes a code span in Markdown (and ``<code>`` in HTML, by markdown-it-py
from the same Markdown, so the ``.md`` and the page say the same), and any other character that
Markdown would read as markup is escaped.

>>> md_escape("y = w * w [see <here>]")
'y = w \\\\* w \\\\[see \\\\<here\\\\>\\\\]'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from scenes.storyboard.chapters import beat_texts
from scenes.storyboard.cuemarks import unmarked
from scenes.storyboard.placeholders import code_spans, parse

_MARKUP = re.compile(r"([\\`*_\[\]<>#|~&!])")
_MD = MarkdownIt("commonmark", {"html": False})


@dataclass(frozen=True)
class Prose:
    text: str
    markdown: str
    html: str


def inline_escape(text: str) -> str:
    """Markup characters escaped, runs of white space one space (the edges kept), and each
    backtick-quoted span of code (as narration quotes it: `` `1 - o**2` ``) a code span, as the
    clip sets it in the code font.

    >>> inline_escape("the rule `1 - o**2` *is* local")
    'the rule `1 - o**2` \\\\*is\\\\* local'
    """
    return _with_code(text, _escape_words, code_span)


def _escape_words(text: str) -> str:
    return _MARKUP.sub(r"\\\1", re.sub(r"\s+", " ", text))


def code_html(text: str) -> Markup:
    """``text`` as HTML: escaped, each backtick-quoted span of code in ``<code>`` (without the
    backticks), for the places a page shows caption text outside Markdown (the takeaway, the
    transcript).

    >>> str(code_html("the rule `a < b` & more"))
    'the rule <code>a &lt; b</code> &amp; more'
    """
    return Markup(_with_code(text, lambda words: str(escape(words)), lambda code: f"<code>{escape(code)}</code>"))


def _with_code(text: str, words: Callable[[str], str], code: Callable[[str], str]) -> str:
    """``text`` with each backtick-quoted span written by ``code`` (its backticks dropped) and
    the text between them by ``words``."""
    out, pos = [], 0
    for start, end in code_spans(text):
        out += [words(text[pos:start]), code(text[start + 1:end - 1])]
        pos = end
    out.append(words(text[pos:]))
    return "".join(out)


def md_escape(text: str) -> str:
    """``text`` as a Markdown paragraph that reads as itself: markup characters escaped, and a
    first character that would start a list or a heading too."""
    return _block_safe(inline_escape(text).strip())


def _block_safe(markdown: str) -> str:
    return "\\" + markdown if markdown[:1] in "-+=" or markdown[:1].isdigit() else markdown


def _longest_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def code_span(text: str) -> str:
    """``text`` as a Markdown code span: set off by one backtick more than its longest run of
    them (so none of its own closes it), and by spaces when it starts or ends with a backtick or
    a space (which Markdown strips one of).

    >>> code_span("a ``` b")
    '````a ``` b````'
    >>> code_span("`x`")
    '`` `x` ``'
    """
    fence = "`" * (_longest_run(text) + 1)
    pad = " " if text[:1] in "` " or text[-1:] in "` " else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def fenced(text: str, info: str = "") -> str:
    """``text`` as a fenced Markdown code block (``info`` its language): a fence of three
    backticks or one more than the longest run of them in ``text``. Why: a program line or a
    printed line of three backticks closed a fence of three, and what followed it (a
    ``<script>``) was read as Markdown and HTML.

    >>> print(fenced("print('```')", "python"))
    ````python
    print('```')
    ````
    """
    fence = "`" * max(3, _longest_run(text) + 1)
    body = text.rstrip("\n")
    return f"{fence}{info}\n{body}\n{fence}"


def marked(narration: str, numbers: list[str], text: str) -> str:
    """The Markdown of ``narration`` with its placeholders filled by ``numbers`` as code spans;
    plain escaped ``text`` when the two do not give the same words (never a wrong number)."""
    placeholders, _ = parse(narration)
    if len(placeholders) != len(numbers):
        return md_escape(text)
    pieces, plain, pos = [], [], 0
    for p, number in zip(placeholders, numbers):
        pieces += [inline_escape(narration[pos:p.start]), code_span(number)]
        plain += [narration[pos:p.start], number]
        pos = p.end
    pieces.append(inline_escape(narration[pos:]))
    plain.append(narration[pos:])
    if " ".join("".join(plain).split()) != " ".join(text.split()):
        return md_escape(text)
    return _block_safe("".join(pieces).strip())


def beat_prose(board: Any, p: Any) -> list[Prose]:
    """Each beat's prose: text, Markdown and HTML."""
    texts = beat_texts(p)
    numbers: list[list[str]] = [[] for _ in p.beats]
    for c in p.captions:
        numbers[c.beat] += [s.text for s in c.strings]
    out = []
    for beat, text, nums in zip(board.beats, texts, numbers):
        md = marked(unmarked(beat.narration), nums, text)
        out.append(Prose(text, md, _MD.render(md).strip()))
    return out
