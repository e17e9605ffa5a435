"""``--set NAME=VALUE``: change one number of the program without editing it.

The first assignment ``NAME = torch.tensor(<number>, ...)`` (or ``NAME = <number>``) gets its
number replaced, on the syntax tree, by VALUE: an integer, a decimal or a fraction such as ``1/3``
(kept exact, so the clip can still show fractions).

>>> import ast
>>> tree = apply_overrides(ast.parse("w1 = torch.tensor(1/3, requires_grad=True)"), {"w1": "0.5"}, "", "p.py")
>>> ast.unparse(tree)
'w1 = torch.tensor(0.5, requires_grad=True)'
"""

from __future__ import annotations

import ast
import copy
import re
from typing import Optional

from .errors import ProgramError

_NUMBER = re.compile(r"^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?(/-?\d+(\.\d*)?)?$")


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
    for stmt in ast.walk(tree):
        slot = number_slot(stmt) if isinstance(stmt, ast.stmt) else None
        if slot and slot[0] not in names:
            names.append(slot[0])
    return names


def apply_overrides(tree: ast.Module, overrides: dict[str, str], source: str, filename: str) -> ast.Module:
    tree = copy.deepcopy(tree)
    todo = dict(overrides)
    for stmt in _statements(tree.body):
        slot = number_slot(stmt)
        if slot is None or slot[0] not in todo:
            continue
        name, expr = slot
        text = todo.pop(name).strip()
        if not _NUMBER.match(text):
            raise ProgramError(filename, expr.lineno, expr.col_offset + 1,
                               f"--set {name}={text}: expected a number such as 0.5, -2 or 1/3")
        new = ast.parse(text, mode="eval").body
        _replace(stmt, expr, new)
    if todo:
        name = sorted(todo)[0]
        known = ", ".join(settable_names(tree)) or "none"
        raise ProgramError(filename, 1, 1, f"--set {name}: the program sets no number named {name}; "
                           f"names it sets: {known}")
    return ast.fix_missing_locations(tree)


def _statements(body: list):
    for stmt in body:
        yield stmt
        for field in ("body", "orelse"):
            yield from _statements(getattr(stmt, field, []) or [])


def _replace(stmt: ast.Assign, old: ast.expr, new: ast.expr) -> None:
    ast.copy_location(new, old)
    for n in ast.walk(new):
        ast.copy_location(n, old)
    if stmt.value is old:
        stmt.value = new
    else:
        stmt.value.args[0] = new


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
