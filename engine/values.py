"""Small facts about program values and nodes that the interpreter and its call forms share:
how Python names a value's type in an error, how print shows it, where an expression sits."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, Optional

from .errors import TorchError
from .tensor import PyNum, Tensor


def type_name(v: Any) -> str:
    """The type as Python's error messages name it: ``NoneType``, ``Tensor``, ``float``."""
    if v is None:
        return "NoneType"
    if isinstance(v, Tensor):
        return "Tensor"
    if isinstance(v, PyNum):
        return type(v.value).__name__
    return type(v).__name__


MAX_NESTING = 200
"""Lists nested deeper than this are neither printed nor compared: Python would recurse until its
own limit and raise RecursionError, as it does comparing two lists that each hold themselves."""


def _free(n: int) -> None:
    """A charge that counts nothing, for text shown outside a program's run."""


def shown(v: Any, charge: Callable[[int], None] = _free) -> str:
    """What ``print(v)`` writes: PyTorch's str for a tensor, Python's repr for a number, and
    Python's list text (``[...]`` for a list inside itself). ``charge(n)`` is told of each list's
    ``n`` items before they are written, so a program's bound on operations stops a print of a
    large (or much shared) list before its text is built."""
    return _shown(v, charge, set())


def _shown(v: Any, charge: Callable[[int], None], open_: set[int]) -> str:
    if isinstance(v, PyNum):
        return repr(v.value)
    if isinstance(v, list):
        if id(v) in open_:
            return "[...]"
        if len(open_) > MAX_NESTING:  # Python's repr gives up at its recursion limit too
            raise TorchError("RecursionError", "maximum recursion depth exceeded while getting the repr of an object")
        charge(len(v))
        open_.add(id(v))
        try:
            return "[" + ", ".join(_shown(x, charge, open_) for x in v) + "]"
        finally:
            open_.discard(id(v))
    if isinstance(v, tuple):
        charge(len(v))
        return "(" + ", ".join(_shown(x, charge, open_) for x in v) + ("," if len(v) == 1 else "") + ")"
    return str(v)


def span_of(e: ast.AST) -> Optional[tuple]:
    """``(col, end_col)`` of a one-line expression, for the code pane to light; else None."""
    if getattr(e, "end_lineno", None) == getattr(e, "lineno", None):
        return (e.col_offset, e.end_col_offset)
    return None
