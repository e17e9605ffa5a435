"""Real PyTorch as the oracle: run the same checked program on torch and compare with the log.

The program is never handed to Python's exec: this module walks the same whitelisted syntax tree
as the engine (``engine.subset`` checked it) and performs each node with real torch. What it
records is the comparable trace of :mod:`scenes.oracle.traces` (tensors, edges by label, the visit order
seen with ``Node.register_hook``, grads after each backward, errors, warnings and prints), so
``compare_traces(engine_trace(log), torch_trace(source))`` says where the two differ.

torch is imported only when :func:`torch_trace` runs; the rest of gradreel never needs it. This
module imports nothing of gradreel at its top, so that another Python with PyTorch (and perhaps
no numpy) can run it: ``scenes.oracle.remote``.
"""

from __future__ import annotations

import ast
import math
import warnings
from typing import Any, Optional

_MAX_INT_BITS = 4096
_BIN = {ast.Add: "__add__", ast.Sub: "__sub__", ast.Mult: "__mul__", ast.Div: "__truediv__",
        ast.Pow: "__pow__"}
_IBIN = {ast.Add: "__iadd__", ast.Sub: "__isub__", ast.Mult: "__imul__", ast.Div: "__itruediv__",
         ast.Pow: "__ipow__"}
_CMP = {ast.Gt: "__gt__", ast.Lt: "__lt__", ast.GtE: "__ge__", ast.LtE: "__le__",
        ast.Eq: "__eq__", ast.NotEq: "__ne__"}
EXTRA_METHODS = frozenset({"item", "detach"})  # beyond the ops' own spellings (engine.optable.METHODS)


def torch_available() -> bool:
    """Whether torch is installed (without importing it: that alone takes seconds)."""
    import importlib.util
    return importlib.util.find_spec("torch") is not None


# --- PyTorch's side ----------------------------------------------------------------------------

class _TorchRun:
    def __init__(self, source: str, methods: frozenset[str], visits: bool = False):
        import torch
        self.torch = torch
        self.source = source
        self.methods = methods  # the tensor methods the subset spells as PyTorch does
        self.visits = visits  # record each visit's gradients too, not only the order
        self.env: dict[str, Any] = {}
        self.out: list[tuple] = []
        self.index: dict[int, int] = {}  # id(tensor) -> creation index
        self.keep: list = []  # keep tensors and nodes alive so that ids are not reused
        self.node_label: dict[int, tuple] = {}
        self.per_tensor: dict[int, int] = {}
        self.hooked: set = set()
        self.leaves: list = []
        self.made: list = []  # the registered tensors, in order
        self.calls = 0
        self.line = 0

    # labels
    def label(self, node) -> tuple:
        key = id(node)
        if key not in self.node_label:
            if type(node).__name__ == "AccumulateGrad":
                self.node_label[key] = ("acc", self.index[id(node.variable)])
            self.keep.append(node)
        return self.node_label[key]

    def own(self, t) -> None:
        """Label t's grad_fn (a new one) as the next node of tensor t, and its inner nodes."""
        fn = t.grad_fn
        if fn is None or id(fn) in self.node_label:
            return
        i = self.index[id(t)]
        k = self.per_tensor.get(i, 0)
        self.per_tensor[i] = k + 1
        self.node_label[id(fn)] = ("op", i, k)
        self.keep.append(fn)
        self._inner(fn)

    def _inner(self, fn) -> None:
        for j, (nxt, _) in enumerate(fn.next_functions):
            if nxt is None or id(nxt) in self.node_label or type(nxt).__name__ == "AccumulateGrad":
                continue
            self.node_label[id(nxt)] = ("inner", self.node_label[id(fn)], j)
            self.keep.append(nxt)
            self._inner(nxt)

    def edges(self, t) -> tuple:
        if t.grad_fn is None:
            return ()
        return tuple(self.label(n) if n is not None else None for n, _ in t.grad_fn.next_functions)

    def register(self, t) -> Any:
        torch = self.torch
        if not isinstance(t, torch.Tensor) or id(t) in self.index:
            return t
        i = self.index[id(t)] = len(self.index)
        self.keep.append(t)
        self.made.append(t)
        if t.requires_grad and t.is_leaf:
            self.leaves.append(t)
        self.own(t)
        self.out.append(("tensor", i, str(t), _val(t), _fn_name(t), self.edges(t)))
        return t

    def grads(self) -> None:
        self.out.append(("grads", {self.index[id(w)]: (_val(w.grad) if w.grad is not None else None)
                                   for w in self.leaves}))

    # statements
    def run(self, tree: ast.Module) -> list[tuple]:
        torch = self.torch
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = self._show  # in order, as they happen
            for stmt in tree.body:
                try:
                    self.stmt(stmt)
                except Exception as exc:  # PyTorch's and Python's own errors are the data here
                    self.out.append(("error", self.line, type(exc).__name__, _msg(exc)))
                finally:
                    torch.set_grad_enabled(True)
        return self.out

    def _show(self, message, category, *args, **kwargs) -> None:
        entry = ("warning", self.line, category.__name__, str(message))
        if entry not in self.out:  # Python's default filter: once per call site
            self.out.append(entry)

    def stmt(self, s: ast.stmt) -> None:
        self.line = s.lineno
        if isinstance(s, ast.Import):
            self.env["torch"] = self.torch
        elif isinstance(s, ast.ImportFrom):
            for a in s.names:
                self.env[a.name] = getattr(self.torch, a.name)
        elif isinstance(s, ast.Assign):
            t = s.targets[0]
            if isinstance(t, ast.Attribute):
                owner = self.evaluate(t.value)
                owner.grad = None
                self.grads()
            elif isinstance(t, ast.Tuple):
                self.unpack([n.id for n in t.elts], self.evaluate(s.value))
            else:
                self.env[t.id] = self.evaluate(s.value)
        elif isinstance(s, ast.AugAssign):
            target = self.evaluate(s.target)  # a NameError as Python's when it is unbound
            other = self.evaluate(s.value)
            if isinstance(target, self.torch.Tensor):
                result = getattr(target, _IBIN[type(s.op)])(other)
                self.own(result)
                self.env[s.target.id] = result
                self.out.append(("update", self.index[id(result)], str(result), _val(result),
                                 _fn_name(result), self.edges(result)))
                self.sharers(result)
            else:
                self.env[s.target.id] = self.register(self.binop(type(s.op), target, other))
        elif isinstance(s, ast.Expr):
            self.expr_stmt(s.value)
        elif isinstance(s, ast.If):
            taken = bool(self.evaluate(s.test))
            self.out.append(("branch", taken))
            for inner in (s.body if taken else s.orelse):
                self.stmt(inner)
        elif isinstance(s, ast.For):
            for item in self.iterate(s.iter):
                if isinstance(s.target, ast.Tuple):
                    self.unpack([n.id for n in s.target.elts], item)
                else:
                    self.env[s.target.id] = item
                for inner in s.body:
                    self.stmt(inner)
        elif isinstance(s, ast.With):
            with self.torch.no_grad():
                for inner in s.body:
                    self.stmt(inner)

    def sharers(self, written: Any) -> None:
        """An update of each tensor that shares ``written``'s data (its ``.detach()``, or what it
        was detached from), in the order they were made: they changed too."""
        ptr = written.untyped_storage().data_ptr()
        for t in self.made:
            if t is not written and t.untyped_storage().data_ptr() == ptr:
                self.out.append(("update", self.index[id(t)], str(t), _val(t), _fn_name(t), self.edges(t)))

    def unpack(self, names: list[str], item: Any) -> None:
        """``a, b = item`` as Python does it, its errors included, for names not known till now."""
        if isinstance(item, self.torch.Tensor):
            iter(item)  # raises PyTorch's own TypeError
        if not isinstance(item, (list, tuple)):
            raise TypeError(f"cannot unpack non-iterable {type(item).__name__} object")
        if len(item) < len(names):
            raise ValueError(f"not enough values to unpack (expected {len(names)}, got {len(item)})")
        if len(item) > len(names):
            raise ValueError(f"too many values to unpack (expected {len(names)})")
        self.env.update(zip(names, item))

    def expr_stmt(self, e: ast.expr) -> None:
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "backward":
            root = self.evaluate(e.func.value)
            if not isinstance(root, self.torch.Tensor):
                root.backward  # Python's own AttributeError: 'int' object has no attribute ...
            kw = {k.arg: self.evaluate(k.value) for k in e.keywords}
            args = [self.evaluate(a) for a in e.args]
            self.calls += 1
            self.out.append(("backward", self.calls))
            call = self.calls
            handles: list = []
            if root.grad_fn is not None:
                self._hook(root.grad_fn, call, handles)
            elif root.requires_grad:
                acc = (root * 1).grad_fn.next_functions[0][0]  # the leaf's cached AccumulateGrad
                self._hook(acc, call, handles)
            try:
                root.backward(*args, **kw)
            finally:
                for h in handles:
                    h.remove()
                self.grads()
            return
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "zero_":
            self.evaluate(e.func.value).zero_()
            self.grads()
            return
        self.evaluate(e)

    def iterate(self, it: ast.expr) -> Any:
        """``range(...)``, ``zip(...)`` or a list, as Python walks them."""
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("range", "zip"):
            args = [self.evaluate(a) for a in it.args]
            return range(*args) if it.func.id == "range" else zip(*args)
        return self.evaluate(it)

    def _hook(self, root, call: int, handles: list) -> None:
        """A post-hook on every node the walk can reach: it fires once the node has run."""
        seen, stack = set(), [root]
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            self.keep.append(n)
            handles.append(n.register_hook(lambda gi, go, n=n: self.out.append(self._visit(call, n, gi, go))))
            stack.extend(m for m, _ in n.next_functions if m is not None)

    def _visit(self, call: int, n: Any, grad_inputs: tuple, grad_outputs: tuple) -> tuple:
        """A visit's entry: the node's label, and with ``visits`` the gradient it received and
        the one it sent along each edge (None where it sent none), as the engine's visit logs."""
        if not self.visits:
            return ("visit", call, self.label(n))
        arrived = grad_outputs[0] if grad_outputs else None
        return ("visit", call, self.label(n), _val(arrived) if arrived is not None else None,
                tuple(_val(g) if g is not None else None for g in grad_inputs))

    # expressions
    def evaluate(self, e: ast.expr) -> Any:
        if isinstance(e, ast.Constant):
            return e.value
        if isinstance(e, ast.Name):
            if e.id not in self.env:
                raise NameError(f"name '{e.id}' is not defined")
            return self.env[e.id]
        if isinstance(e, ast.BinOp):
            return self.register(self.binop(type(e.op), self.evaluate(e.left), self.evaluate(e.right)))
        if isinstance(e, ast.UnaryOp):
            v = self.evaluate(e.operand)
            if isinstance(e.op, ast.Not):
                return not v
            return self.register(-v) if isinstance(e.op, ast.USub) else v
        if isinstance(e, ast.BoolOp):
            v = None
            for part in e.values:
                v = self.evaluate(part)
                if bool(v) == isinstance(e.op, ast.Or):
                    return v
            return v
        if isinstance(e, ast.Compare):
            left = self.evaluate(e.left)
            result: Any = True
            for op, right_e in zip(e.ops, e.comparators):
                right = self.evaluate(right_e)
                result = self.register(_compare(_CMP[type(op)], left, right))
                if not bool(result):
                    return result
                left = right
            return result
        if isinstance(e, ast.Attribute):
            owner = self.evaluate(e.value)
            value = getattr(owner, e.attr)  # .grad, .is_leaf or .requires_grad (checked)
            return self.register(value) if e.attr == "grad" else value
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, ast.List):
            return [self.evaluate(item) for item in e.elts]
        if isinstance(e, ast.Tuple):
            return tuple(self.evaluate(item) for item in e.elts)
        if isinstance(e, ast.Subscript):
            container = self.evaluate(e.value)
            return container[self.evaluate(e.slice)]
        raise AssertionError(type(e).__name__)

    def binop(self, op: type, a: Any, b: Any) -> Any:
        if isinstance(a, int) and isinstance(b, int) and op is ast.Pow and b > 0 and abs(a) > 1 \
                and b * abs(a).bit_length() > _MAX_INT_BITS:
            raise OverflowError("integer result too large")
        fn = {ast.Add: lambda x, y: x + y, ast.Sub: lambda x, y: x - y, ast.Mult: lambda x, y: x * y,
              ast.Div: lambda x, y: x / y, ast.Pow: lambda x, y: x ** y}[op]
        return fn(a, b)

    def call(self, e: ast.Call) -> Any:
        torch = self.torch
        f = e.func
        args = [self.evaluate(a) for a in e.args]
        kw = {k.arg: self.evaluate(k.value) for k in e.keywords}
        if isinstance(f, ast.Name):
            if f.id == "print":
                self.out.append(("print", " ".join(_pystr(a) for a in args)))
                return None
            if f.id == "abs":
                return self.register(abs(*args))
            if f.id in ("len", "sum") and f.id not in self.env:
                return self.builtin(f.id, args)
            return self.register(self.env[f.id](*args, **kw))
        if isinstance(f.value, ast.Name) and f.value.id == "torch":
            if "torch" not in self.env:
                raise NameError("name 'torch' is not defined")
            return self.register(getattr(torch, f.attr)(*args, **kw))
        owner = self.evaluate(f.value)
        if isinstance(owner, list) and f.attr == "append":
            return owner.append(*args, **kw)
        if f.attr not in self.methods:
            raise AssertionError(f.attr)
        return self.register(getattr(owner, f.attr)(*args, **kw))


    def builtin(self, name: str, args: list) -> Any:
        """``len`` as Python's; ``sum`` folded as Python's does (start 0, item by item), each
        partial sum registered so that the trace lists every tensor it made."""
        if name == "len":
            return len(*args)
        if not 1 <= len(args) <= 2:
            return sum(*args)  # Python's own TypeError
        items, total = args[0], (args[1] if len(args) > 1 else 0)
        if not any(isinstance(v, self.torch.Tensor) for v in [total, *iter(items)]):
            return sum(items, total)
        for x in items:
            total = self.register(total + x)
        return total


def _compare(op: str, a: Any, b: Any) -> Any:
    return getattr(a, op)(b) if not isinstance(a, (int, float)) or isinstance(b, (int, float)) else \
        getattr(b, {"__gt__": "__lt__", "__lt__": "__gt__", "__ge__": "__le__", "__le__": "__ge__",
                    "__eq__": "__eq__", "__ne__": "__ne__"}[op])(a)


def _pystr(v: Any) -> str:
    return repr(v) if isinstance(v, float) else str(v)


def _fn_name(t) -> Optional[str]:
    return type(t.grad_fn).__name__ if t.grad_fn is not None else None


def _val(t) -> Any:
    if t.dtype.is_floating_point:
        f = t.item()
        if math.isnan(f):
            return "nan"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return f
    return t.item()


def _msg(exc: Exception) -> str:
    return exc.args[0] if isinstance(exc, (NameError, AttributeError)) and exc.args else str(exc)


def torch_trace(source: str, filename: str = "<program>", visits: bool = False) -> list[tuple]:
    """Run ``source`` (checked against the subset first) on real PyTorch; return its trace
    (``visits``: with each visit's gradients, as :func:`scenes.oracle.traces.engine_trace`)."""
    from engine.optable import METHODS
    from engine.subset import parse

    tree = parse(source, filename)
    return _TorchRun(source, METHODS | EXTRA_METHODS, visits).run(tree)


def checked_trace(source: str, filename: str, methods: frozenset[str], visits: bool = False) -> list[tuple]:
    """:func:`torch_trace` of a program the caller has already checked against the subset, in a
    Python that may lack numpy and gradreel's engine (``scenes.oracle.remote`` serves it): the
    tree is walked as :func:`torch_trace` walks it, ``methods`` the spellings to call."""
    return _TorchRun(source, methods, visits).run(ast.parse(source, filename))
