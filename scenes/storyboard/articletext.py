"""A storyboard's own article text (``article:``) and beat titles (``title:``), checked as
narration is: placeholders only, every one with a value at its moment, each problem located.

Why here, beside the narration checks: an author who writes ``{w3.grad}`` in a section of the
article is told at ``render check`` time, with file and line, exactly as for a caption, and the
page never shows an unfilled brace. A section's placeholders are read at the end of the beat
whose figure it shows (``figure: N``), as that beat's narration is; without a figure, at the end
of the log, as the takeaway's are.
"""

from __future__ import annotations

import unicodedata

from .errors import INVISIBLE, ErrorList, Path
from .logindex import LogIndex
from .model import Storyboard
from .placeholders import parse
from .narration import resolve
from .yamlsafe import Document

MAX_SECTIONS = 40
MAX_SECTION_CHARS = 6000
"""An article's bounds: a page, not a book (and a 100 MB text is refused before it is filled)."""
MAX_POINTS = 8
"""Key takeaways (``takeaway: points:``): a few lines a reader keeps, not the article again."""


def beat_cutoffs(board: Storyboard, index: LogIndex) -> list[int]:
    """The seq each beat's placeholders are read at: the end of its span, or of the last span
    before it (``-1`` before any), as :func:`.validate.check_beats` and the plan read them."""
    out, cutoff = [], -1
    for beat in board.beats:
        selected = index.select(beat) if beat.span_key() else []
        if selected:
            cutoff = max(e.seq for e in selected)
        out.append(cutoff)
    return out


def section_cutoff(board: Storyboard, index: LogIndex, figure: int | None, cutoffs: list[int]) -> int:
    """Where a section with ``figure`` (1-based beat, or None) reads its placeholders."""
    if figure is not None and 0 < figure <= len(cutoffs):
        return cutoffs[figure - 1]
    return len(index.events) - 1


def text_pos(doc: Document, path: Path, offset: int) -> tuple[int, int]:
    """The line and column of character ``offset`` of the scalar at ``path``: exact in a literal
    block (``text: |``) and in a one-line scalar; the scalar's start in any other (folded) form."""
    line, col = doc.at(path)
    node = doc.nodes.get(path)
    value = getattr(node, "value", None)
    if node is None or not isinstance(value, str):
        return line, col
    style = getattr(node, "style", None)
    before = value[:offset]
    if style == "|":
        rows = doc.text.splitlines()
        first = node.start_mark.line + 1  # the row after the `|` indicator (0-based)
        while first < len(rows) and not rows[first].strip():
            first += 1
        indent = len(rows[first]) - len(rows[first].lstrip(" ")) if first < len(rows) else 0
        k = before.count("\n")
        return first + k + 1, indent + len(before) - (before.rfind("\n") + 1) + 1
    if node.start_mark.line == node.end_mark.line:
        return line, col + offset + (1 if style in ('"', "'") else 0)
    return line, col


def _no_numbers(doc: Document, path: Path, what: str, text: str, errors: ErrorList) -> None:
    """A heading or title: no typed number and no placeholder (a chapter menu shows it as is)."""
    placeholders, problems = parse(text)
    for offset, message in problems:
        message = message.replace("narration", what)
        if "types the number" in message:  # not "use a placeholder": a heading holds none
            where = "narration" if what == "title" else "text under it"
            message = message.split(";")[0] + f"; a {what} holds no number: say it in the {where}"
        errors.add(*text_pos(doc, path, offset), message, path)
    for p in placeholders:
        errors.add(*text_pos(doc, path, p.start), f"{what} {{{p.ref}}}: a {what} holds no placeholder; "
                   "say the number in the text under it", path)


def _check_section_text(doc: Document, path: Path, text: str, errors: ErrorList) -> bool:
    """Bounds and characters of a section's Markdown; True when its placeholders can be checked."""
    if len(text) > MAX_SECTION_CHARS:
        errors.add(*doc.at(path), f"an article section is {len(text)} characters; at most {MAX_SECTION_CHARS}: "
                   "cut it into several sections", path)
        return False
    bad = next((c for c in text if (unicodedata.category(c) == "Cc" and c not in "\n\t") or c in INVISIBLE), None)
    if bad is not None:
        errors.add(*doc.at(path), f"the article text holds the control character U+{ord(bad):04X} "
                   f"({unicodedata.name(bad, 'a control character')}); write plain text", path)
        return False
    return True


def _markup_problems(text: str) -> list[tuple[int, str]]:
    """``(offset, message)`` for the Markdown a page must not carry: raw HTML (the ``.md`` is
    shown by renderers that run it), an image (the figure is ``figure: N``; a page loads nothing
    from another host) and a link to a ``javascript:``, ``data:`` or other unsafe URL."""
    from markdown_it import MarkdownIt

    class Every(MarkdownIt):
        """Parses every link, so that an unsafe one is found (the page's renderer drops it)."""

        def validateLink(self, url: str) -> bool:
            return True

    md = Every("commonmark")
    safe = MarkdownIt("commonmark").validateLink
    rows = text.split("\n")
    out: list[tuple[int, str]] = []
    seen: set[tuple[int, str]] = set()  # one problem of a kind per line (<b> and </b> are one mistake)

    def offset(row: int) -> int:
        return sum(len(r) + 1 for r in rows[:row])

    def walk(tokens: list, row: int) -> None:
        for t in tokens:
            here = t.map[0] if t.map else row
            if t.type in ("html_block", "html_inline") and (here, "html") not in seen:
                seen.add((here, "html"))
                out.append((offset(here), f"the article holds HTML ({t.content.strip()[:30]!r}); write Markdown "
                            "only (a page shows no markup of its own)"))
            elif t.type == "image":
                out.append((offset(here), "the article holds an image; a section shows a beat's figure with "
                            "figure: N, and a page loads nothing from another host"))
            elif t.type == "link_open" and not safe(str(t.attrs.get("href", ""))):
                out.append((offset(here), f"the article links to {str(t.attrs.get('href'))[:40]!r}; a link goes "
                            "to an http(s) address, a mail address or a file beside the page"))
            if t.children:
                walk(t.children, here)

    walk(md.parse(text), 0)
    return out


def check_article(doc: Document, board: Storyboard, index: LogIndex, errors: ErrorList) -> None:
    """Report each beat title and each ``article:`` section that a page cannot show as written:
    a typed number, a placeholder that is unknown or has no value at its moment, a figure of a
    beat the storyboard does not have, an arithmetic list without a figure."""
    for i, beat in enumerate(board.beats):
        if beat.title is not None:
            _no_numbers(doc, ("beats", i, "title"), "title", beat.title, errors)
    if len(board.article) > MAX_SECTIONS:
        errors.add(*doc.at(("article",)), f"{len(board.article)} article sections; at most {MAX_SECTIONS}",
                   ("article",))
        return
    _check_points(doc, board, index, errors)
    cutoffs = beat_cutoffs(board, index)
    for i, section in enumerate(board.article):
        at: Path = ("article", i)
        if section.heading is not None:
            _no_numbers(doc, at + ("heading",), "heading", section.heading, errors)
        if section.figure is not None and section.figure > len(board.beats):
            errors.add(*doc.at(at + ("figure",)), f"figure: {section.figure} names no beat: the storyboard has "
                       f"{len(board.beats)} (figure: N shows beat N's picture)", at + ("figure",))
            continue
        if section.arithmetic and section.figure is None:
            errors.add(*doc.at(at + ("arithmetic",)), "arithmetic: true lists the arithmetic of the beat the "
                       "section shows: add figure: N", at + ("arithmetic",))
        path = at + ("text",)
        if not _check_section_text(doc, path, section.text, errors):
            continue
        placeholders, problems = parse(section.text)
        problems += _markup_problems(section.text)
        for offset, message in problems:
            errors.add(*text_pos(doc, path, offset), message.replace("in narration", "in the article")
                       .replace("narration types", "the article types"), path)
        cutoff = section_cutoff(board, index, section.figure, cutoffs)
        for p in placeholders:
            got = resolve(p, index, cutoff, board.number_style)
            if isinstance(got, str):
                errors.add(*text_pos(doc, path, p.start), got, path)


def _check_points(doc: Document, board: Storyboard, index: LogIndex, errors: ErrorList) -> None:
    """The key takeaways (``takeaway: points:``) as the takeaway's text is checked: no typed
    number, every placeholder with a value at the end of the log; at most :data:`MAX_POINTS`,
    and only where the page writes the article from the plan (``article:`` writes its own)."""
    points = board.takeaway.points if board.takeaway is not None else ()
    at: Path = ("takeaway", "points")
    if len(points) > MAX_POINTS:
        errors.add(*doc.at(at), f"{len(points)} key takeaways; at most {MAX_POINTS}: the few lines a reader "
                   "keeps, not the article again", at)
        return
    if points and board.article:
        errors.add(*doc.at(at), "the storyboard has its own article: (write its key takeaways as its closing "
                   "section, as backward_walk.yaml does); points: are the key takeaways of an article written "
                   "from the plan", at)
        return
    for i, point in enumerate(points):
        path = at + (i,)
        placeholders, problems = parse(point)
        for offset, message in problems:
            errors.add(*text_pos(doc, path, offset), message.replace("in narration", "in a key takeaway")
                       .replace("narration types", "a key takeaway types"), path)
        for p in placeholders:
            got = resolve(p, index, len(index.events) - 1, board.number_style)
            if isinstance(got, str):
                errors.add(*text_pos(doc, path, p.start), got, path)
