"""Runs a checked program tree on the engine, statement by statement, recording events.

Nothing is passed to Python's eval or exec: each whitelisted node (see :mod:`engine.subset`) has
its own small evaluator here, in :mod:`engine.calls` (the call forms) or :mod:`engine.sequences`
(lists and for loops). A run-time error is recorded as an ``error`` event with PyTorch's
text and the program goes on with the next top-level statement, as a notebook would. A bound on
executed operations stops a runaway loop with a located :class:`OperationLimit`.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from typing import Any, Optional

from . import ops, results, sequences
from .backward import backward
from .calls import evaluate_call
from .errors import NON_LEAF_GRAD, TorchError, no_attribute
from .events import Recorder
from .limits import check_scalar_int
from .numbers import Num, fraction_str, json_float
from .optable import BINARY
from .pynums import literal, py_arith
from .segments import source_segment
from .tensor import PyNum, Session, Tensor
from .values import shown, span_of, type_name

_BIN = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow"}
_CMP = {ast.Gt: "gt", ast.Lt: "lt", ast.GtE: "ge", ast.LtE: "le", ast.Eq: "eq", ast.NotEq: "ne"}
_PY_CMP = {"gt": lambda a, b: a > b, "lt": lambda a, b: a < b, "ge": lambda a, b: a >= b,
           "le": lambda a, b: a <= b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b}


class OperationLimit(Exception):
    """The program ran more operations than ``max_ops`` allows; located where the last one was
    spent. ``in_loop``: the operations went mostly to loop passes, so the hint is to run fewer;
    else one statement spent them (a long list, many calls, printing or comparing a large list)."""

    def __init__(self, line: int, col: int, limit: int, in_loop: bool = True, message: str | None = None):
        hint = ("run fewer loop passes" if in_loop else
                "one statement spent them, outside any loop: write shorter lists, fewer calls or "
                "smaller prints")
        super().__init__(message or f"stopped after {limit} operations, the limit: {hint} "
                                    "(render log takes --max-ops N)")
        self.line, self.col, self.limit, self.in_loop = line, col, limit, in_loop


class Interpreter:
    def __init__(self, source: str, filename: str, max_ops: int):
        self.source = source
        self.filename = filename
        self.max_ops = max_ops
        self.ops = 0
        self.rec = Recorder()
        self.sess = Session(self.rec)
        self.env: dict[str, Any] = {}
        self.passes: dict[int, int] = {}  # for-loop line -> how many times its body began
        self.at: ast.AST = ast.Pass(lineno=1, col_offset=0)  # the statement running
        self.loops_open = 0  # for loops running, one inside another
        self.loop_ops = 0  # operations spent inside finished outermost for loops

    # --- statements ----------------------------------------------------------------------------
    def run(self, tree: ast.Module) -> None:
        for stmt in tree.body:
            try:
                self.stmt(stmt)
            except TorchError as exc:
                event = {"kind": "error", "type": exc.type_name, "message": exc.message}
                if exc.node is not None:
                    event["node"] = exc.node
                self.rec(event)
            finally:
                self.sess.grad_enabled = True

    def tick(self, node: ast.AST | None = None, n: int = 1) -> None:
        """Count ``n`` operations spent at ``node`` (the running statement by default), before
        the work they stand for; past ``max_ops``, stop there with :class:`OperationLimit`."""
        self.ops += n
        if self.ops > self.max_ops:
            node = node if node is not None else self.at
            in_loop = self.loops_open > 0 or 2 * self.loop_ops > self.max_ops
            raise OperationLimit(getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1,
                                 self.max_ops, in_loop)

    def stmt(self, s: ast.stmt) -> None:
        self.at = s
        self.tick(s)
        self.rec.line = s.lineno
        if isinstance(s, ast.Import):
            self.env["__torch__"] = True
            return
        if isinstance(s, ast.ImportFrom):
            names = set(self.env.get("__torch_names__", ()))
            self.env["__torch_names__"] = names | {a.name for a in s.names}
            return
        if isinstance(s, ast.Pass):
            return
        if isinstance(s, ast.Assign):
            t = s.targets[0]
            if isinstance(t, ast.Attribute):  # w.grad = None
                self.reset_grad(self.evaluate(t.value), None, t.value)
                return
            if isinstance(t, ast.Tuple):  # a, b = x * 2, x + 1: the right side whole, then each name
                sequences.assign_target(self, t, self.evaluate(s.value))
                return
            self.bind(t.id, self.evaluate(s.value))
        elif isinstance(s, ast.AugAssign):
            self.aug_assign(s)
        elif isinstance(s, ast.Expr):
            self.expr_stmt(s)
        elif isinstance(s, ast.If):
            taken = self.truth(self.evaluate(s.test))
            self.rec.line = s.lineno
            self.rec({"kind": "branch", "test": source_segment(self.source, s.test), "taken": taken})
            for inner in (s.body if taken else s.orelse):
                self.stmt(inner)
        elif isinstance(s, ast.For):
            self.loops_open += 1
            start = self.ops
            try:
                sequences.run_for(self, s)
            finally:
                self.loops_open -= 1
                if not self.loops_open:
                    self.loop_ops += self.ops - start
        elif isinstance(s, ast.With):
            before = self.sess.grad_enabled
            self.sess.grad_enabled = False
            try:
                for inner in s.body:
                    self.stmt(inner)
            finally:
                self.sess.grad_enabled = before

    def bind(self, name: str, value: Any) -> None:
        """Bind ``name``; a tensor without a name takes it (``ws[i]`` for a list's items); a
        Python number bound to a name is logged (``lr = 0.1``), so narration can quote it."""
        self.name_tensors(value, name)
        if isinstance(value, PyNum) and not isinstance(value.value, bool) and not name.startswith("_"):
            v = value.value
            self.rec({"kind": "number", "name": name, "value": v if isinstance(v, int) else json_float(v),
                      "exact": fraction_str(value.exact)})
        self.env[name] = value

    def name_tensors(self, value: Any, name: str) -> None:
        """Name unnamed tensors (a list's items by their place, ``W[1][0]``); each item looked at
        counts as an operation, so rebinding a deep or long list in a loop meets the bound."""
        self.tick(None, sequences.name_tensors(value, name, self.rec.events, self.max_ops - self.ops + 1))

    def aug_assign(self, s: ast.AugAssign) -> None:
        name = s.target.id
        target = self.lookup(name, s.target)
        other = self.evaluate(s.value)
        op = _BIN[type(s.op)]
        if isinstance(target, Tensor):  # in place, as Tensor.__iadd__ is
            self.tick(s)
            operand = other if isinstance(other, Tensor) else self.number(other, s.value)
            results.apply_in_place(self.sess, target, BINARY[op](target, operand), span_of(s))
        else:
            self.bind(name, self.binop(op, target, other, s))

    def expr_stmt(self, s: ast.Expr) -> None:
        e = s.value
        if isinstance(e, ast.Call):
            f = e.func
            if isinstance(f, ast.Name) and f.id == "print":
                self.evaluate(e)  # the call form records the print; no expr event
                return
            if isinstance(f, ast.Attribute) and f.attr == "backward":
                self.call_backward(e)
                return
            if isinstance(f, ast.Attribute) and f.attr == "append":
                self.evaluate(e)  # returns None, which a notebook does not show
                return
            if isinstance(f, ast.Attribute) and f.attr == "zero_":
                grad = self.evaluate(f.value)
                self.reset_grad(self.evaluate(f.value.value), 0.0, f.value.value, grad)
                return
        value = self.evaluate(e)
        text = shown(value, lambda n: self.tick(e, n))
        self.rec({"kind": "expr", "source": source_segment(self.source, e), "str": text})

    def call_backward(self, e: ast.Call) -> None:
        root = self.evaluate(e.func.value)
        if not isinstance(root, Tensor):
            raise no_attribute(type_name(root), "backward")
        kwargs = {k.arg: self.evaluate(k.value) for k in e.keywords}
        args = [self.evaluate(a) for a in e.args]
        gradient = args[0] if args else kwargs.pop("gradient", None)
        retain = kwargs.pop("retain_graph", None)
        if kwargs:
            raise TorchError("TypeError", f"backward() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if isinstance(gradient, PyNum):
            raise TorchError("TypeError", f"'{type_name(gradient)}' object is not iterable")
        grad_num = gradient.num if isinstance(gradient, Tensor) else None
        self.tick(e)
        backward(self.sess, root, grad_num, bool(retain.value) if isinstance(retain, PyNum) else False)

    def reset_grad(self, owner: Any, to: Optional[float], node: ast.expr, grad: Any = None) -> None:
        if not isinstance(owner, Tensor):
            raise no_attribute(type_name(owner), "grad")
        if to is None:
            owner.grad = None
        else:
            if grad is None:
                raise no_attribute("NoneType", "zero_")
            grad.write(Num.of(0.0, Fraction(0)))
        self.rec({"kind": "grad_reset", "tensor": owner.id, "name": _var(node), "to": to})

    # --- expressions ---------------------------------------------------------------------------
    def evaluate(self, e: ast.expr) -> Any:
        if isinstance(e, ast.Constant):
            if isinstance(e.value, bool) or e.value is None or isinstance(e.value, str):
                return e.value if not isinstance(e.value, bool) else PyNum(e.value, Fraction(int(e.value)))
            return literal(e, self.source)
        if isinstance(e, ast.Name):
            return self.lookup(e.id, e)
        if isinstance(e, ast.BinOp):
            return self.binop(_BIN[type(e.op)], self.evaluate(e.left), self.evaluate(e.right), e)
        if isinstance(e, ast.UnaryOp):
            v = self.evaluate(e.operand)
            if isinstance(e.op, ast.Not):
                return PyNum(not self.truth(v))
            if isinstance(v, Tensor):
                if isinstance(e.op, ast.UAdd):
                    return v
                self.tick(e)
                return results.apply(self.sess, ops.neg(v), span_of(e))
            n = self.number(v, e)
            if isinstance(e.op, ast.UAdd):
                return n
            return PyNum(-n.value, -n.exact if n.exact is not None else None)
        if isinstance(e, ast.BoolOp):
            v = None
            for part in e.values:
                self.tick(part)
                v = self.evaluate(part)
                if self.truth(v) == isinstance(e.op, ast.Or):
                    return v
            return v
        if isinstance(e, ast.Compare):
            left = self.evaluate(e.left)
            result: Any = PyNum(True)
            for op, right_e in zip(e.ops, e.comparators):
                right = self.evaluate(right_e)
                result = self.compare(_CMP[type(op)], left, right, e)
                if not self.truth(result):
                    return result
                left = right
            return result
        if isinstance(e, ast.Attribute):
            return self.attribute(self.evaluate(e.value), e)
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, (ast.List, ast.Tuple)):
            items = []
            for item in e.elts:
                self.tick(item)
                items.append(self.evaluate(item))
            return items if isinstance(e, ast.List) else tuple(items)
        if isinstance(e, ast.Subscript):
            return sequences.subscript(self.evaluate(e.value), self.evaluate(e.slice))
        raise AssertionError(f"unchecked node {type(e).__name__}")

    def lookup(self, name: str, node: ast.AST) -> Any:
        if name not in self.env or name.startswith("__"):
            raise TorchError("NameError", f"name '{name}' is not defined")
        return self.env[name]

    def attribute(self, v: Any, e: ast.Attribute) -> Any:
        if not isinstance(v, Tensor):
            raise no_attribute(type_name(v), e.attr)
        if e.attr == "is_leaf":
            return PyNum(v.is_leaf)
        if e.attr == "requires_grad":
            return PyNum(v.requires_grad)
        # .grad
        if not v.is_leaf:
            self.sess.warn_once(self.rec.line, NON_LEAF_GRAD)
            return None
        g = v.grad
        if g is not None and g.id is None:
            g.name = f"{v.name}.grad" if v.name else None
            self.sess.register(g, "grad", [v], span_of(e))
        return g

    def number(self, v: Any, node: ast.AST) -> PyNum:
        if isinstance(v, PyNum):
            return v
        raise TorchError("TypeError", f"expected a number, got {type_name(v)}")

    def py_int(self, v: Any, node: ast.AST) -> int:
        if isinstance(v, PyNum) and isinstance(v.value, int):
            return int(v.value)
        raise TorchError("TypeError", f"'{type_name(v)}' object cannot be interpreted as an integer")

    def truth(self, v: Any) -> bool:
        if isinstance(v, Tensor):
            return bool(v.num.v)
        if isinstance(v, PyNum):
            return bool(v.value)
        return bool(v)

    def binop(self, op: str, a: Any, b: Any, e: ast.AST) -> Any:
        self.tick(e)
        if isinstance(a, Tensor) or isinstance(b, Tensor):
            a = a if isinstance(a, Tensor) else self.operand(a, op, a, b)
            b = b if isinstance(b, Tensor) else self.operand(b, op, a, b)
            for v in (a, b):
                if isinstance(v, PyNum):
                    check_scalar_int(v.value)
            if op == "div":
                return results.true_divide(self.sess, a, b, span_of(e))
            return results.apply(self.sess, BINARY[op](a, b), span_of(e))
        sequences.refuse_list_arith(op, a, b, self.filename, e)
        return py_arith(op, self.operand(a, op, a, b), self.operand(b, op, a, b))

    def operand(self, v: Any, op: str, a: Any, b: Any) -> Any:
        if isinstance(v, (Tensor, PyNum)):
            return v
        sym = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "** or pow()"}[op]
        raise TorchError("TypeError", f"unsupported operand type(s) for {sym}: "
                         f"'{type_name(a)}' and '{type_name(b)}'")

    def compare(self, op: str, a: Any, b: Any, e: ast.AST) -> Any:
        self.tick(e)
        if isinstance(a, Tensor) or isinstance(b, Tensor):
            for v in (a, b):
                if isinstance(v, PyNum):
                    check_scalar_int(v.value)
            return results.apply(self.sess, ops.compare(op, self.operand(a, "add", a, b),
                                                    self.operand(b, "add", a, b)), span_of(e))
        if isinstance(a, PyNum) and isinstance(b, PyNum):
            return PyNum(_PY_CMP[op](a.value, b.value))
        if op not in ("eq", "ne"):
            return self.operand(None, "add", a, b)
        same = sequences.equal(a, b, lambda n: self.tick(e, n))
        return PyNum(same if op == "eq" else not same)

    def call(self, e: ast.Call) -> Any:
        return evaluate_call(self, e)


def _var(node: ast.expr) -> Optional[str]:
    return node.id if isinstance(node, ast.Name) else None
