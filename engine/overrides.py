"""``--set NAME=VALUE``: change one number of the program without editing its file.

The first assignment ``NAME = torch.tensor(<number>, ...)`` (or ``NAME = <number>``) gets its
number replaced *in the source text* by VALUE: an integer, a decimal or a fraction such as ``1/3``.
Working on the text keeps everything downstream honest: the log's header carries the program
that really ran, the code pane shows it, and the exact shadow comes from the new literal.

>>> apply_overrides("w1 = torch.tensor(1/3, requires_grad=True)\\n", {"w1": "0.5"}, "p.py")
'w1 = torch.tensor(0.5, requires_grad=True)\\n'
"""

from __future__ import annotations

import ast
import re
from typing import Optional

from .errors import ProgramError

_NUMBER = re.compile(r"^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?(/(\d+(\.\d*)?|\.\d+))?$")


def number_slot(stmt: ast.stmt) -> Optional[tuple[str, ast.expr]]:
    """``(name, number expression)`` when the statement gives a name a settable number."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return None
    value = stmt.value
    if isinstance(value, ast.Call) and value.args and _is_tensor_call(value.func):
        value = value.args[0]
    return (stmt.targets[0].id, value) if _is_number_expr(value) else None


def settable_names(tree: ast.Module) -> list[str]:
    """The names ``--set`` can change, in program order."""
    names: list[str] = []
    for stmt in _statements(tree.body):
        slot = number_slot(stmt)
        if slot and slot[0] not in names:
            names.append(slot[0])
    return names


def apply_overrides(source: str, overrides: dict[str, str], filename: str) -> str:
    """The source with each named number replaced; a located ProgramError for a bad name/value."""
    tree = ast.parse(source, filename)
    todo = dict(overrides)
    edits: list[tuple[int, int, int, int, str]] = []
    for stmt in _statements(tree.body):
        slot = number_slot(stmt)
        if slot is None or slot[0] not in todo:
            continue
        name, expr = slot
        text = todo.pop(name).strip()
        if not _NUMBER.match(text):
            raise ProgramError(filename, expr.lineno, expr.col_offset + 1,
                               f"--set {name}={text}: expected a number such as 0.5, -2 or 1/3")
        problem = _out_of_range(text)
        if problem:
            raise ProgramError(filename, expr.lineno, expr.col_offset + 1, f"--set {name}={text}: {problem}")
        again = [s.lineno for s in _statements(tree.body) if s is not stmt and (number_slot(s) or ("",))[0] == name]
        if again:
            raise ProgramError(filename, again[0], 1, f"--set {name}={text}: the program gives {name} a number "
                               f"on line {expr.lineno} and again on line {again[0]}; --set changes one number, "
                               "so it would change only the first")
        edits.append((expr.lineno, expr.col_offset, expr.end_lineno, expr.end_col_offset, text))
    if todo:
        name = sorted(todo)[0]
        known = ", ".join(settable_names(tree)) or "none"
        raise ProgramError(filename, 1, 1, f"--set {name}: the program sets no number named {name}; "
                           f"names it sets: {known}")
    lines = source.splitlines(keepends=True)
    for line, col, end_line, end_col, text in sorted(edits, reverse=True):
        # ast columns are UTF-8 byte offsets
        first = lines[line - 1].encode("utf-8")
        last = lines[end_line - 1].encode("utf-8")
        joined = first[:col] + text.encode("utf-8") + last[end_col:]
        lines[line - 1:end_line] = [joined.decode("utf-8")]
    return "".join(lines)


def override_lines(source: str, names: list[str]) -> dict[str, int]:
    """The program line whose number each ``--set`` name replaces (for messages about that line)."""
    out: dict[str, int] = {}
    for stmt in _statements(ast.parse(source).body):
        slot = number_slot(stmt)
        if slot and slot[0] in names and slot[0] not in out:
            out[slot[0]] = stmt.lineno
    return out


_F32_END = 2.0 ** 128 - 2.0 ** 103
"""Half a unit past float32's largest value: a number at or above it rounds to inf."""


def _out_of_range(text: str) -> str | None:
    """Why a --set number is no finite float32 (``1/0``, ``1e39``, ``1e400``), or None. Computed
    with floats: an exponent of a million digits is never turned into an integer."""
    top, _, bottom = text.partition("/")
    try:
        value = float(top) / float(bottom) if bottom else float(top)
    except ZeroDivisionError:
        return "division by zero; expected a finite number"
    if not abs(value) < _F32_END:
        return "beyond float32's range (PyTorch would hold inf); expected a finite number, as inf and nan are refused"
    return None


def _statements(body: list):
    for stmt in body:
        yield stmt
        for field in ("body", "orelse"):
            yield from _statements(getattr(stmt, field, []) or [])


def _is_tensor_call(f: ast.expr) -> bool:
    return (isinstance(f, ast.Name) and f.id == "tensor") or (
        isinstance(f, ast.Attribute) and f.attr == "tensor" and isinstance(f.value, ast.Name) and f.value.id == "torch")


def _is_number_expr(e: ast.expr) -> bool:
    if isinstance(e, ast.Constant):
        return isinstance(e.value, (int, float)) and not isinstance(e.value, bool)
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        return _is_number_expr(e.operand)
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Div, ast.Mult, ast.Add, ast.Sub, ast.Pow)):
        return _is_number_expr(e.left) and _is_number_expr(e.right)
    return False
