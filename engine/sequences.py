"""Lists and loops of the subset: ``xs[i]``, ``for`` over a list, ``range(...)`` or ``zip(...)``
(unpacking a pair), naming a list's tensors by their place (``W[1][0]``), and the list arithmetic
Python has but the subset refuses (``xs + ys``, ``[x] * n``). A tuple (``(a, b)``, or the
right side of ``a, b = x, y``) is walked, indexed and unpacked as a list is.

Why apart from :mod:`engine.interpreter`: Python's sequence rules and their error texts read on
their own, next to the statements and scalar arithmetic. Imports go one way, the interpreter and
its call forms to here; what a loop needs of the interpreter comes as the :class:`Interpreter`
protocol.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, Protocol

from .errors import ProgramError, TorchError
from .tensor import PyNum, Tensor
from .values import MAX_NESTING, type_name


class Interpreter(Protocol):
    """What a for loop needs of the interpreter that runs it (``engine.interpreter``): its
    recorder and pass counts, and a way to run statements, evaluate and bind."""

    rec: Any
    passes: dict[int, int]  # for-loop line -> how many times its body began

    def stmt(self, s: ast.stmt) -> None: ...
    def evaluate(self, e: ast.expr) -> Any: ...
    def bind(self, name: str, value: Any) -> None: ...
    def tick(self, node: ast.AST | None = None, n: int = 1) -> None: ...
    def py_int(self, v: Any, node: ast.AST) -> int: ...


def run_for(it: Interpreter, s: ast.For) -> None:
    """A for statement: each pass is an operation and a ``loop`` event, then the body."""
    for item in _walked(it, s.iter):
        it.tick(s)
        it.rec.line = s.lineno
        k = it.passes[s.lineno] = it.passes.get(s.lineno, 0) + 1
        it.rec({"kind": "loop", "pass": k, "end": s.end_lineno})
        assign_target(it, s.target, item)
        for inner in s.body:
            it.stmt(inner)


def assign_target(it: Interpreter, t: ast.expr, item: Any) -> None:
    """The target of a for loop or an assignment: a name, or names unpacked from a tuple or a
    list (``a, b = x * 2, x + 1``; a pair of ``zip``), with Python's errors when the counts differ."""
    if isinstance(t, ast.Name):
        it.bind(t.id, item)
        return
    n = len(t.elts)
    if not isinstance(item, (list, tuple)):
        raise TorchError("TypeError", "iteration over a 0-d tensor" if isinstance(item, Tensor)
                         else f"cannot unpack non-iterable {type_name(item)} object")
    if len(item) < n:
        raise TorchError("ValueError", f"not enough values to unpack (expected {n}, got {len(item)})")
    if len(item) > n:
        raise TorchError("ValueError", f"too many values to unpack (expected {n})")
    for name, v in zip(t.elts, item):
        it.bind(name.id, v)


def _walked(it: Interpreter, node: ast.expr) -> Iterable[Any]:
    """What a for loop walks: ``range(...)`` as Python numbers, ``zip(...)``, or a list."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
        bounds = [it.py_int(it.evaluate(a), a) for a in node.args]
        try:
            return (PyNum(i, Fraction(i)) for i in range(*bounds))
        except ValueError as exc:
            raise TorchError("ValueError", str(exc)) from None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "zip":
        return zip(*[iterable(it.evaluate(a)) for a in node.args])
    return iterable(it.evaluate(node))


def iterable(v: Any) -> Any:
    """``v`` if Python could walk it (a list or tuple); else Python's or PyTorch's TypeError."""
    if isinstance(v, (list, tuple)):
        return v
    if isinstance(v, Tensor):
        raise TorchError("TypeError", "iteration over a 0-d tensor")
    raise TorchError("TypeError", f"'{type_name(v)}' object is not iterable")


def subscript(container: Any, key: Any) -> Any:
    """``xs[i]``: Python's indexing of a list, with Python's and PyTorch's error texts."""
    if isinstance(container, Tensor):
        raise TorchError("IndexError", "invalid index of a 0-dim tensor. Use `tensor.item()` in Python "
                         "or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if not isinstance(container, (list, tuple)):
        raise TorchError("TypeError", f"'{type_name(container)}' object is not subscriptable")
    if isinstance(key, Tensor):
        if key.dtype == "float32":
            raise TorchError("TypeError", "only integer tensors of a single element can be converted to an index")
        i = int(key.num.v)
    elif isinstance(key, PyNum) and isinstance(key.value, int):
        i = int(key.value)
    else:
        raise TorchError("TypeError", f"{type_name(container)} indices must be integers or slices, "
                         f"not {type_name(key)}")
    try:
        return container[i]
    except IndexError as exc:
        raise TorchError("IndexError", str(exc)) from None


def name_tensors(value: Any, name: str, events: list[dict[str, Any]], budget: int) -> int:
    """Name the unnamed tensors in ``value``, in ``events`` too (the tensor event made moments
    ago); the items of a list (of lists) are named by their place, ``W[1][0]``. Returns how many
    list items were looked at, for the interpreter to count as operations; stops looking once
    that passes ``budget`` (the operations left), since the count then ends the program."""
    todo: dict[str, str] = {}
    looked = 0
    stack, seen = [(value, name)], set()
    while stack and looked <= budget:
        v, label = stack.pop()
        if isinstance(v, (list, tuple)) and id(v) not in seen:  # a list may hold itself
            seen.add(id(v))
            looked += len(v)
            stack.extend((x, f"{label}[{i}]") for i, x in enumerate(v))
        elif isinstance(v, Tensor) and v.name is None and v.id is not None:
            v.name = todo[v.id] = label
    for ev in reversed(events):
        if not todo:
            break
        if ev["kind"] == "tensor" and ev["id"] in todo:
            ev["name"] = todo.pop(ev["id"])
    return looked


def equal(a: Any, b: Any, charge: Callable[[int], None], depth: int = 0) -> bool:
    """``a == b`` as Python computes it, lists item by item (an item that *is* the other is
    equal without a look, lengths that differ are unequal at once), each item compared charged
    as an operation before it is compared; nested deeper than :data:`MAX_NESTING` (a list inside
    itself, compared with another) is Python's RecursionError."""
    if not (isinstance(a, (list, tuple)) and type(a) is type(b)):
        return a == b
    if depth > MAX_NESTING:
        raise TorchError("RecursionError", "maximum recursion depth exceeded in comparison")
    if len(a) != len(b):
        return False
    charge(len(a))
    return all(x is y or equal(x, y, charge, depth + 1) for x, y in zip(a, b))


def refuse_list_arith(op: str, a: Any, b: Any, filename: str, e: ast.AST) -> None:
    """``xs + ys`` or ``xs * n`` / ``n * xs`` (an int n): Python makes a list, the subset does
    not, so it is a located :class:`ProgramError` rather than an error event to record."""
    def is_int(v: Any) -> bool:
        return isinstance(v, PyNum) and isinstance(v.value, int)

    if op == "add" and isinstance(a, (list, tuple)) and type(a) is type(b):
        what = "joining lists (xs + ys)" if isinstance(a, list) else "joining tuples"
    elif op == "mul" and (isinstance(a, list) and is_int(b) or is_int(a) and isinstance(b, list)):
        what = "repeating a list ([x] * n)"
    elif op == "mul" and (isinstance(a, tuple) and is_int(b) or is_int(a) and isinstance(b, tuple)):
        what = "repeating a tuple"
    else:
        return
    raise ProgramError(filename, getattr(e, "lineno", 1), getattr(e, "col_offset", 0) + 1,
                       f"{what} is not supported; build the list with xs.append(...) in a for loop")
