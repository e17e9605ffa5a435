"""The source text of a node of the program, as :func:`ast.get_source_segment` gives it, in time
proportional to the node's text.

Why not ``ast.get_source_segment``: it splits the whole source into lines at each call, and the
engine asks for each float literal's text (its exact value) and each ``if`` test's: a program of
4,000 lines ``x = 1.5`` took 18 s, 20,000 minutes. The lines are split once per source.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache

_LINE = re.compile(r".*?(?:\r\n|\n|\r|$)")
"""A line with its end, as the parser counts lines (a form feed ends none)."""


@lru_cache(maxsize=8)
def _lines(source: str) -> tuple[bytes, ...]:
    """The source's lines, each with its end, as UTF-8 (a node's columns count bytes)."""
    return tuple(m.group(0).encode("utf-8") for m in _LINE.finditer(source))


def source_segment(source: str, node: ast.AST) -> str | None:
    """The text of ``node`` in ``source``, or None when the node has no position."""
    try:
        first, last = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
        start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
    except AttributeError:
        return None
    if first is None or last is None or start is None or end is None:
        return None
    lines = _lines(source)
    if first == last:
        return lines[first][start:end].decode("utf-8")
    return (lines[first][start:] + b"".join(lines[first + 1:last]) + lines[last][:end]).decode("utf-8")
