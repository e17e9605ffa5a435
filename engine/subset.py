"""The supported subset of Python and PyTorch, checked on the syntax tree before any line runs.

A program is parsed with :mod:`ast` and never executed by Python: the interpreter walks the tree
itself. This module refuses everything outside the subset with one located message:
``FILE:LINE:COL: <what> is not supported; supported: <what is>``.

>>> check(ast.parse("while True: pass"), "p.py")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.ProgramError: p.py:1:1: a while loop is not supported; supported: assignments (x = ...), ...
"""

from __future__ import annotations

import ast

from .errors import ProgramError
from .optable import FUNCTIONS, METHODS

MAX_SOURCE_BYTES = 1_000_000
MAX_DEPTH = 200  # nesting of expressions and blocks; the tree walkers stay far from recursion limits

TENSOR_METHODS = set(METHODS) | {"backward", "item", "detach"}  # the ops' spellings (engine.optable), and these
TORCH_FUNCTIONS = set(FUNCTIONS) | {"tensor"}
ATTRIBUTES = {"grad", "is_leaf", "requires_grad"}
BUILTINS = {"print", "abs", "range", "len", "sum", "zip"}
ITERATORS = {"range", "zip"}  # called only as the iterable of a for loop
LIST_METHODS = {"append"}

FOR_FORMS = "for x in range(n) / range(a, b) / range(a, b, step), for x in xs, for a, b in zip(xs, ys)"
STATEMENTS = ("assignments (x = ..., a, b = x, y), augmented assignments (x += ...), expression statements, "
              "if/else, for x in range(a, b, step) / a list / zip(a, b), with torch.no_grad():, "
              "import torch, pass")
EXPRESSIONS = ("numbers, names, + - * / **, unary -, comparisons, and/or/not, torch.tensor(...), "
               "tensor methods and torch functions (" + ", ".join(sorted(TORCH_FUNCTIONS - {"tensor"}))
               + "), .grad, .is_leaf, .requires_grad, print(...), abs(...), lists [a, b], xs[i], "
               "len(xs), sum(xs), xs.append(x), tuples (a, b), .detach()")
CALLS = ("torch.tensor, torch." + ", torch.".join(sorted(TORCH_FUNCTIONS - {"tensor"}))
         + ", print, abs, len, sum, range and zip (in for), torch.no_grad (in with), and the methods ."
         + ", .".join(sorted(TENSOR_METHODS | LIST_METHODS | {"zero_"})))

_NAMED = {
    ast.While: "a while loop", ast.FunctionDef: "a function definition", ast.AsyncFunctionDef:
    "a function definition", ast.ClassDef: "a class definition", ast.Return: "return",
    ast.Delete: "del", ast.Raise: "raise", ast.Try: "try", ast.Assert: "assert",
    ast.Global: "global", ast.Nonlocal: "nonlocal", ast.Break: "break", ast.Continue: "continue",
    ast.AsyncFor: "async for", ast.AsyncWith: "async with", ast.Lambda: "a lambda expression",
    ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
    ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator expression",
    ast.Dict: "a dict",
    ast.Set: "a set", ast.JoinedStr: "an f-string", ast.IfExp: "a conditional expression",
    ast.NamedExpr: "the walrus operator", ast.Starred: "a starred expression", ast.Await: "await",
    ast.Yield: "yield", ast.YieldFrom: "yield", ast.Slice: "a slice", ast.AnnAssign:
    "an annotated assignment",
}
if hasattr(ast, "TryStar"):
    _NAMED[ast.TryStar] = "try"
if hasattr(ast, "Match"):
    _NAMED[ast.Match] = "a match statement"
_BINOPS = {ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow}
_OPNAMES = {ast.FloorDiv: "//", ast.Mod: "%", ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>",
            ast.BitOr: "|", ast.BitXor: "^", ast.BitAnd: "&"}


def parse(source: str, filename: str) -> ast.Module:
    """Parse and check a program; the tree that comes back is safe to interpret."""
    if len(source.encode("utf-8")) > MAX_SOURCE_BYTES:
        raise ProgramError(filename, 1, 1, f"program is larger than {MAX_SOURCE_BYTES} bytes")
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as exc:
        raise ProgramError(filename, exc.lineno or 1, exc.offset or 1,
                           f"syntax error: {exc.msg}") from None
    except (RecursionError, MemoryError):
        line = _too_deep_line(source)
        raise ProgramError(filename, line, 1, f"line {line} is nested too deeply or is too long an expression "
                           "to parse; split it into several statements") from None
    check(tree, filename)
    return tree


def _too_deep_line(source: str) -> int:
    """The line a parse ran out of depth on: the first that cannot be parsed alone for depth
    (``1+1+...`` a megabyte long on line 2), else the one with the most operators and brackets."""
    lines = source.splitlines()
    for number, text in enumerate(lines, 1):
        try:
            ast.parse(text.strip() or "pass")
        except (RecursionError, MemoryError):
            return number
        except SyntaxError:
            continue
    weight = [sum(text.count(c) for c in "([{+-*/") for text in lines] or [0]
    return weight.index(max(weight)) + 1


def check(tree: ast.Module, filename: str) -> None:
    """Refuse, with a located message, the first construct outside the subset."""
    Checker(filename).block(tree.body, 0)


class Checker:
    def __init__(self, filename: str):
        self.filename = filename

    def fail(self, node: ast.AST, what: str, supported: str) -> None:
        raise ProgramError(self.filename, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1,
                           f"{what} is not supported; supported: {supported}")

    def deep(self, node: ast.AST, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise ProgramError(self.filename, getattr(node, "lineno", 1),
                               getattr(node, "col_offset", 0) + 1,
                               f"nesting deeper than {MAX_DEPTH} levels is not supported")

    def not_torch(self, target: ast.expr) -> None:
        """``torch = 5`` would leave ``torch.tensor`` meaning the module still: refused."""
        if isinstance(target, ast.Name) and target.id == "torch":
            self.fail(target, "binding the name torch (it would hide the module)",
                      "names of your own variables")

    # --- statements ----------------------------------------------------------------------------
    def for_target(self, t: ast.expr) -> None:
        """``for x in ...`` or ``for a, b in zip(...)``: names only."""
        names = t.elts if isinstance(t, ast.Tuple) else [t]
        for n in names:
            if not isinstance(n, ast.Name) or n.id.startswith("__"):
                self.fail(n, "for with this target", "for x in ..., for a, b in zip(xs, ys)")

    def block(self, body: list, depth: int) -> None:
        for stmt in body:
            self.stmt(stmt, depth + 1)

    def stmt(self, s: ast.stmt, depth: int) -> None:
        self.deep(s, depth)
        if type(s) in _NAMED:
            self.fail(s, _NAMED[type(s)], STATEMENTS)
        if isinstance(s, ast.Import):
            for alias in s.names:
                if alias.name == "torch" and alias.asname not in (None, "torch"):
                    self.fail(s, f"import torch as {alias.asname} (another name for torch)",
                              "import torch, then torch.tensor(...) and the like by that name")
                if alias.name != "torch":
                    self.fail(s, f"import {alias.name}", "import torch, from torch import tensor")
        elif isinstance(s, ast.ImportFrom):
            if s.module != "torch" or s.level:
                self.fail(s, f"from {s.module or '.'} import", "import torch, from torch import tensor")
            for alias in s.names:
                if alias.name not in TORCH_FUNCTIONS or alias.asname not in (None, alias.name):
                    what = f" as {alias.asname}" if alias.asname not in (None, alias.name) else ""
                    self.fail(s, f"from torch import {alias.name}{what}", "from torch import "
                              + ", ".join(sorted(TORCH_FUNCTIONS)) + ", each by its own name")
        elif isinstance(s, ast.Assign):
            if len(s.targets) != 1:
                self.fail(s, "chained assignment (a = b = ...)", "one target per assignment")
            t = s.targets[0]
            if isinstance(t, ast.Attribute):
                if t.attr != "grad" or not (isinstance(s.value, ast.Constant) and s.value.value is None):
                    self.fail(t, f"assigning to .{t.attr}", "x = ..., w.grad = None")
                self.expr(t.value, depth + 1)
            elif isinstance(t, ast.Tuple):
                for n in t.elts:
                    if not isinstance(n, ast.Name) or n.id.startswith("__"):
                        self.fail(n, "unpacking into this target", "a, b = x * 2, x + 1 (names only)")
                    self.not_torch(n)
            elif not isinstance(t, ast.Name):
                self.fail(t, "assigning to " + type(t).__name__.lower(), "x = ..., a, b = x, y, w.grad = None")
            self.not_torch(t)
            self.expr(s.value, depth + 1)
        elif isinstance(s, ast.AugAssign):
            self.not_torch(s.target)
            if not isinstance(s.target, ast.Name):
                self.fail(s.target, "augmented assignment to anything but a name", "x += ...")
            if type(s.op) not in _BINOPS:
                self.fail(s, f"the operator {_OPNAMES.get(type(s.op), '?')}=", "+= -= *= /= **=")
            self.expr(s.value, depth + 1)
        elif isinstance(s, ast.Expr):
            self.expr(s.value, depth + 1)
        elif isinstance(s, ast.If):
            self.expr(s.test, depth + 1)
            self.block(s.body, depth)
            self.block(s.orelse, depth)
        elif isinstance(s, ast.For):
            for t in (s.target.elts if isinstance(s.target, ast.Tuple) else [s.target]):
                self.not_torch(t)
            self.for_target(s.target)
            it = s.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ITERATORS:
                if it.keywords or not (1 <= len(it.args) <= (3 if it.func.id == "range" else 8)):
                    self.fail(it, f"{it.func.id}() with these arguments", FOR_FORMS)
                for a in it.args:
                    self.expr(a, depth + 1)
            else:
                self.expr(it, depth + 1)
            if s.orelse:
                self.fail(s.orelse[0], "for ... else", FOR_FORMS)
            self.block(s.body, depth)
        elif isinstance(s, ast.With):
            if len(s.items) != 1 or s.items[0].optional_vars is not None or not _is_no_grad(s.items[0].context_expr):
                self.fail(s, "with anything but torch.no_grad()", "with torch.no_grad():")
            self.block(s.body, depth)
        elif isinstance(s, ast.Pass):
            pass
        else:
            self.fail(s, type(s).__name__, STATEMENTS)

    # --- expressions ---------------------------------------------------------------------------
    def expr(self, e: ast.expr, depth: int, in_print: bool = False) -> None:
        """Iterative over binary-operator chains (``a+a+a+...`` is deep on the left)."""
        self.deep(e, depth)
        if type(e) in _NAMED:
            self.fail(e, _NAMED[type(e)], EXPRESSIONS)
        if isinstance(e, ast.Constant):
            if isinstance(e.value, str) and not in_print:
                self.fail(e, "a string outside print(...)", "strings only as arguments of print")
            if not isinstance(e.value, (int, float, str, type(None))) or isinstance(e.value, complex):
                self.fail(e, f"the constant {e.value!r}", "numbers, True, False, None")
        elif isinstance(e, ast.Name):
            if e.id.startswith("__"):
                self.fail(e, f"the name {e.id}", "names of your own variables")
        elif isinstance(e, ast.BinOp):
            if type(e.op) not in _BINOPS:
                self.fail(e, f"the operator {_OPNAMES.get(type(e.op), '?')}", "+ - * / **")
            self.expr(e.left, depth + 1)
            self.expr(e.right, depth + 1)
        elif isinstance(e, ast.UnaryOp):
            if isinstance(e.op, ast.Invert):
                self.fail(e, "the operator ~", "unary -, +, not")
            self.expr(e.operand, depth + 1)
        elif isinstance(e, ast.BoolOp):
            for v in e.values:
                self.expr(v, depth + 1)
        elif isinstance(e, ast.Compare):
            for op in e.ops:
                if isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)):
                    self.fail(e, "an is / in comparison", "< <= > >= == !=")
            self.expr(e.left, depth + 1)
            for c in e.comparators:
                self.expr(c, depth + 1)
        elif isinstance(e, ast.Attribute):
            if e.attr not in ATTRIBUTES:
                self.fail(e, f"the attribute .{e.attr}", ", ".join("." + a for a in sorted(ATTRIBUTES)))
            self.expr(e.value, depth + 1)
        elif isinstance(e, ast.Call):
            self.call(e, depth)
        elif isinstance(e, (ast.List, ast.Tuple)):
            for item in e.elts:
                self.expr(item, depth + 1)
        elif isinstance(e, ast.Subscript):
            if isinstance(e.slice, ast.Slice):
                self.fail(e.slice, "a slice", "one index, xs[i]")
            self.expr(e.value, depth + 1)
            self.expr(e.slice, depth + 1)
        else:
            self.fail(e, type(e).__name__, EXPRESSIONS)

    def call(self, e: ast.Call, depth: int) -> None:
        f = e.func
        in_print = False
        if isinstance(f, ast.Name):
            if f.id not in BUILTINS | TORCH_FUNCTIONS or f.id in ITERATORS:
                self.fail(e, f"calling {f.id}()", CALLS)
            in_print = f.id == "print"
        elif isinstance(f, ast.Attribute):
            if isinstance(f.value, ast.Name) and f.value.id == "torch":
                if f.attr not in TORCH_FUNCTIONS:
                    self.fail(e, f"torch.{f.attr}()", CALLS)
            elif f.attr == "zero_":
                if not (isinstance(f.value, ast.Attribute) and f.value.attr == "grad"):
                    self.fail(e, ".zero_() on anything but .grad", "w.grad.zero_()")
                self.expr(f.value, depth + 1)
            elif f.attr in TENSOR_METHODS | LIST_METHODS:
                self.expr(f.value, depth + 1)
            else:
                self.fail(e, f"the method .{f.attr}()", CALLS)
        else:
            self.fail(e, "calling the result of an expression", CALLS)
        for a in e.args:
            self.expr(a, depth + 1, in_print=in_print)
        for k in e.keywords:
            if k.arg is None:
                self.fail(e, "**kwargs", "keyword arguments by name")
            self.expr(k.value, depth + 1)


def _is_no_grad(e: ast.expr) -> bool:
    return (isinstance(e, ast.Call) and not e.args and not e.keywords and isinstance(e.func, ast.Attribute)
            and e.func.attr == "no_grad" and isinstance(e.func.value, ast.Name) and e.func.value.id == "torch")
