"""Small facts about program values and nodes that the interpreter and its call forms share:
how Python names a value's type in an error, how print shows it, where an expression sits."""

from __future__ import annotations

import ast
from typing import Any, Optional

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


_MAX_NESTING = 200


def shown(v: Any, _open: frozenset = frozenset()) -> str:
    """What ``print(v)`` writes: PyTorch's str for a tensor, Python's repr for a number, and
    Python's list text (``[...]`` for a list inside itself)."""
    if isinstance(v, PyNum):
        return repr(v.value)
    if isinstance(v, list):
        if id(v) in _open:
            return "[...]"
        if len(_open) > _MAX_NESTING:  # Python's repr gives up at its recursion limit too
            from .errors import TorchError
            raise TorchError("RecursionError", "maximum recursion depth exceeded while getting the repr of an object")
        return "[" + ", ".join(shown(x, _open | {id(v)}) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(shown(x, _open) for x in v) + ("," if len(v) == 1 else "") + ")"
    return str(v)


def span_of(e: ast.AST) -> Optional[tuple]:
    """``(col, end_col)`` of a one-line expression, for the code pane to light; else None."""
    if getattr(e, "end_lineno", None) == getattr(e, "lineno", None):
        return (e.col_offset, e.end_col_offset)
    return None
