"""The call forms of the subset: ``torch.tensor(...)``, ``torch.relu(w)``, ``w.relu()``,
``w.clamp(0, 1)``, ``w.pow(2)``, ``w.item()``, ``w.detach()``, ``abs(w)``, ``print(...)``.

Each resolves to one op of :mod:`engine.ops`; argument checking gives Python's or PyTorch's text.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from typing import Any, Protocol

from . import results
from .errors import TorchError, no_attribute
from .limits import check_scalar_int
from .optable import BY_NAME, SPELLINGS, Form, Op
from .sequences import iterable
from .tensor import PyNum, Tensor
from .values import shown, span_of, type_name



class Interpreter(Protocol):
    """What a call form needs of the interpreter that meets it (``engine.interpreter``): the
    names bound so far, the recorder and session, and a way to evaluate its arguments."""

    env: dict[str, Any]
    rec: Any
    sess: Any

    def evaluate(self, e: ast.expr) -> Any: ...
    def binop(self, op: str, a: Any, b: Any, e: ast.AST) -> Any: ...
    def tick(self, node: ast.AST | None = None, n: int = 1) -> None: ...
    def name_tensors(self, value: Any, name: str) -> None: ...


def evaluate_call(it: "Interpreter", e: ast.Call) -> Any:
    """A call, each an operation: a tensor op when it runs, any other (``print``, ``len``,
    ``append``, ``item``) as it is met, and the items ``print`` writes or ``sum`` adds too."""
    f = e.func
    if isinstance(f, ast.Name):
        if f.id == "print":
            it.tick(e)
            args = [it.evaluate(a) for a in e.args]
            it.rec({"kind": "print", "text": " ".join(shown(a, lambda n: it.tick(e, n)) for a in args)})
            return None
        if f.id == "abs":
            (x,) = _args(it, e, "abs", 1)
            if isinstance(x, PyNum):
                it.tick(e)
                return PyNum(abs(x.value), abs(x.exact) if x.exact is not None else None)
            return _op(it, e, BY_NAME["abs"], x)
        if f.id in ("len", "sum") and f.id not in it.env.get("__torch_names__", ()):
            return list_builtin(it, e, f.id)
        if f.id not in it.env.get("__torch_names__", ()):
            raise TorchError("NameError", f"name '{f.id}' is not defined")
        return torch_function(it, e, f.id)
    if isinstance(f.value, ast.Name) and f.value.id == "torch":
        if "__torch__" not in it.env:
            raise TorchError("NameError", "name 'torch' is not defined")
        return torch_function(it, e, f.attr)
    # a method call on a value
    owner = it.evaluate(f.value)
    if isinstance(owner, list) and f.attr == "append":
        (x,) = _args(it, e, "list.append", 1)
        it.tick(e)
        owner.append(x)
        if isinstance(f.value, ast.Name) and isinstance(x, (Tensor, list)):  # hs.append(w * x): hs[i]
            it.name_tensors(x, f"{f.value.id}[{len(owner) - 1}]")
        return None
    if not isinstance(owner, Tensor):
        raise no_attribute(type_name(owner), f.attr)
    name = f.attr
    if name == "item":
        _args(it, e, "item", 0)
        it.tick(e)
        v = owner.num.v
        if owner.dtype == "float32":
            return PyNum(float(v), owner.num.q)
        return PyNum(bool(v) if owner.dtype == "bool" else int(v), owner.num.q)
    if name == "detach":
        _args(it, e, "detach", 0)
        it.tick(e)
        return results.detach(it.sess, owner, span_of(e))
    if name == "backward":
        raise TorchError("TypeError", "backward() returns None and is used as a statement here")
    return tensor_op(it, e, name, owner, e.args, e.keywords)


def list_builtin(it: "Interpreter", e: ast.Call, name: str) -> Any:
    """``len(xs)`` and ``sum(xs)`` / ``sum(xs, start)``, as Python's builtins do them.

    ``sum`` starts from the int 0 and adds item by item, so ``sum([a, b])`` is ``(0 + a) + b``:
    two AddBackward0 nodes, the first with the 0 on its left, as PyTorch records it."""
    if name == "len":
        (xs,) = _args(it, e, "len", 1)
        it.tick(e)
        if isinstance(xs, Tensor):
            raise TorchError("TypeError", "len() of a 0-d tensor")
        if not isinstance(xs, (list, tuple)):
            raise TorchError("TypeError", f"object of type '{type_name(xs)}' has no len()")
        return PyNum(len(xs), Fraction(len(xs)))
    if not 1 <= len(e.args) <= 2 or e.keywords:
        raise TorchError("TypeError", f"sum() takes at most 2 arguments ({len(e.args)} given)")
    values = [it.evaluate(a) for a in e.args]
    items = iterable(values[0])
    total = values[1] if len(values) > 1 else PyNum(0, Fraction(0))
    it.tick(e, len(items) + 1)  # before the items are looked at, one by one
    if all(isinstance(v, PyNum) for v in [total, *items]):  # Python's own float summation
        exact = [v.exact for v in [total, *items]]
        return PyNum(sum((v.value for v in items), total.value),
                     sum(exact) if None not in exact else None)
    for x in items:
        total = it.binop("add", total, x, e)
    return total


def torch_function(it: "Interpreter", e: ast.Call, name: str) -> Any:
    if name == "tensor":
        kw = {k.arg: k.value for k in e.keywords}
        unknown = set(kw) - {"requires_grad"}
        if unknown:
            raise TorchError("TypeError", f"tensor() got an unexpected keyword argument '{sorted(unknown)[0]}'")
        if len(e.args) != 1:
            raise TorchError("TypeError", f"tensor() takes 1 positional argument but {len(e.args)} were given")
        value = it.evaluate(e.args[0])
        rg = it.evaluate(kw["requires_grad"]) if "requires_grad" in kw else PyNum(False)
        if not isinstance(value, PyNum):
            raise TorchError("TypeError", "gradreel's torch.tensor() takes a Python number here")
        if not isinstance(rg, PyNum) or not isinstance(rg.value, bool):
            raise TorchError("TypeError", "tensor(): argument 'requires_grad' must be bool")
        it.tick(e)
        return results.create(it.sess, value, rg.value, span_of(e))
    if not e.args:
        raise TorchError("TypeError", f"{name}() missing 1 required positional argument: 'input'")
    first = it.evaluate(e.args[0])
    if not isinstance(first, Tensor):
        if name in SPELLINGS and SPELLINGS[name][1].form is Form.EXPONENT and isinstance(first, PyNum) \
                and len(e.args) == 2:  # torch.pow(2, w)
            exponent = it.evaluate(e.args[1])
            return _binary(it, e, SPELLINGS[name][0].name, first, exponent)
        raise TorchError("TypeError", f"{name}(): argument 'input' (position 1) must be Tensor, "
                         f"not {type_name(first)}")
    return tensor_op(it, e, name, first, e.args[1:], e.keywords)


def tensor_op(it: "Interpreter", e: ast.Call, name: str, x: Tensor, args: list, keywords: list) -> Any:
    """``w.<name>(args)`` or ``torch.<name>(w, args)``: the op the spelling names (engine.optable),
    its arguments read as its form says."""
    vals = [it.evaluate(a) for a in args]
    kw = {k.arg: it.evaluate(k.value) for k in keywords}
    if name not in SPELLINGS:
        raise no_attribute("Tensor", name)
    op, call = SPELLINGS[name]
    if call.form is Form.NONE:
        if vals or kw:
            raise TorchError("TypeError", f"{name}() takes no arguments here")
        return _op(it, e, op, x)
    if call.form is Form.SQUARE:
        return _binary(it, e, op.name, x, PyNum(2))
    if call.form is Form.EXPONENT:
        exponent = vals[0] if vals else kw.get("exponent")
        if exponent is None or len(vals) > 1:
            raise TorchError("TypeError", "pow() takes exactly one exponent")
        return _binary(it, e, op.name, x, exponent)
    if call.form is Form.BOUNDS:
        bounds = dict(zip(("min", "max"), vals))
        bounds.update(kw)
        extra = set(bounds) - {"min", "max"}
        if extra or len(vals) > 2:
            raise TorchError("TypeError", "clamp() takes min and max")
        lo, hi = bounds.get("min"), bounds.get("max")
        for b in (lo, hi):
            if b is not None and not isinstance(b, PyNum):
                raise TorchError("TypeError", "gradreel's clamp() takes numbers as bounds")
            if b is not None:
                check_scalar_int(b.value)
        it.tick(e)
        return results.apply(it.sess, op.forward(x, lo, hi), span_of(e))
    raise AssertionError(f"{call.form} is read nowhere")


def _binary(it: "Interpreter", e: ast.Call, op: str, a: Any, b: Any) -> Any:
    return it.binop(op, a, b, e)


def _op(it: "Interpreter", e: ast.Call, op: Op, x: Tensor) -> Tensor:
    it.tick(e)
    return results.apply(it.sess, op.forward(x), span_of(e))


def _args(it: "Interpreter", e: ast.Call, name: str, n: int) -> list:
    if len(e.args) != n or e.keywords:
        raise TorchError("TypeError", f"{name}() takes exactly {n} argument{'s' if n != 1 else ''} "
                         f"({len(e.args)} given)")
    return [it.evaluate(a) for a in e.args]
