"""The operations: each forward sits next to its backward rule, as PyTorch's derivatives.yaml has it.

Each op is declared, with its spellings and on-screen rule, in :mod:`engine.optable`.
Every op returns a :class:`Spec`: the result's value, which grad_fn PyTorch would give it, which
operands become edges (in ``next_functions`` order), which tensors it saves, and its ``rule``:
``grad_in -> [grad per edge]``. :mod:`engine.results` turns a Spec into a new tensor, or writes it
into an existing one (``h += w``). The arithmetic inside each rule is PyTorch's own
kernel arithmetic in float32, so gradients agree bit for bit, not merely to a tolerance.

>>> # w * w: two edges to one AccumulateGrad; the rule sends grad * other along each
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional

import numpy as np

from .errors import MEAN_OF_INT, TorchError
from .numbers import F32, ONE, ZERO, Num
from .tensor import Operand, PyNum, Tensor

TWO = Num(F32(2.0), Fraction(2))
NUM_ZERO = Num(ZERO, Fraction(0))


@dataclass
class Spec:
    """What an op computed, and what autograd needs to record it."""

    num: Num
    dtype: str
    op: str
    inputs: list  # operands in PyTorch's order, for the log
    grad_fn: Optional[str] = None
    edge_inputs: list = field(default_factory=list)  # operands that become edges (or None edges)
    rule: Optional[Callable[[Num], list]] = None
    saves: list = field(default_factory=list)  # (operand position, tensor) saved for backward
    saves_output: bool = False


# --- values and dtypes -------------------------------------------------------------------------

def num_of(x: Operand, dtype: str = "float32") -> Num:
    """The operand's value in the computation dtype (a Python scalar is cast, as PyTorch does)."""
    n = x.num if isinstance(x, Tensor) else x.num()
    if dtype == "float32":
        return n if isinstance(n.v, np.float32) else Num(F32(n.v), n.q)
    return Num(np.int64(n.v), n.q)


def result_dtype(*xs: Operand, floating: bool = False) -> str:
    """PyTorch's promotion for 0-dim operands: any float (tensor or Python float) gives float32."""
    if floating:
        return "float32"
    for x in xs:
        if isinstance(x, Tensor) and x.dtype == "float32":
            return "float32"
        if isinstance(x, PyNum) and isinstance(x.value, float):
            return "float32"
    return "int64"


def _grad(x: Operand) -> bool:
    return isinstance(x, Tensor) and x.requires_grad


def c_pow(base: Num, e: float) -> Num:
    """``base ** e`` by PyTorch's pow kernel for a scalar exponent, specialisations included."""
    b = base.v
    exact = None
    if base.q is not None and float(e).is_integer() and abs(e) <= 64 and not (base.q == 0 and e < 0):
        exact = base.q ** int(e)
    if e == 0:
        return Num(ONE, Fraction(1))
    if e == 1:
        return base
    if e == 2:
        return Num(b * b, exact)
    if e == 3:
        return Num(b * b * b, exact)
    if e == -1:
        return Num(ONE / b, exact)
    if e == -2:
        return Num(ONE / (b * b), exact)
    if e == 0.5:
        return Num(np.sqrt(b), _rational_sqrt(base.q))
    if e == -0.5:
        return Num(ONE / np.sqrt(b), None)
    with np.errstate(all="ignore"):
        return Num(F32(np.power(np.float64(b), np.float64(e))), exact)


def _powf(a: Num, b: Num) -> Num:
    """Tensor ** tensor: C's powf on two float32 values."""
    exact = None
    if a.q is not None and b.q is not None and b.q.denominator == 1 and abs(b.q) <= 64 \
            and not (a.q == 0 and b.q < 0):
        exact = a.q ** int(b.q)
    with np.errstate(all="ignore"):
        return Num(F32(np.power(np.float64(a.v), np.float64(b.v))), exact)


def _rational_sqrt(q: Optional[Fraction]) -> Optional[Fraction]:
    if q is None or q < 0:
        return None
    n, d = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(n, d) if n * n == q.numerator and d * d == q.denominator else None


def _log(a: Num) -> Num:
    return a.map(math.log, Fraction(0) if a.q == 1 else None)


# --- binary ops --------------------------------------------------------------------------------

def add(a: Operand, b: Operand) -> Spec:
    if isinstance(a, PyNum):  # 2 + w is w.__radd__(2): PyTorch swaps the operands
        a, b = b, a
    dt = result_dtype(a, b)
    return Spec(num_of(a, dt) + num_of(b, dt), dt, "add", [a, b], "AddBackward0", [a, b],
                rule=lambda g: [g, g])


def sub(a: Operand, b: Operand) -> Spec:
    dt = result_dtype(a, b)
    if isinstance(a, PyNum):  # 2 - w is rsub(w, 2): one edge, no saved scalar
        return Spec(num_of(a, dt) - num_of(b, dt), dt, "rsub", [b, a], "RsubBackward1", [b],
                    rule=lambda g: [-g])
    return Spec(num_of(a, dt) - num_of(b, dt), dt, "sub", [a, b], "SubBackward0", [a, b],
                rule=lambda g: [g, -g])


def mul(a: Operand, b: Operand) -> Spec:
    if isinstance(a, PyNum):  # 2 * w is w.__rmul__(2)
        a, b = b, a
    dt = result_dtype(a, b)
    x, y = num_of(a, dt), num_of(b, dt)
    xf, yf = num_of(a), num_of(b)
    saves = [(i, t) for i, t, other in ((1, b, a), (0, a, b)) if isinstance(t, Tensor) and _grad(other)]
    return Spec(x * y, dt, "mul", [a, b], "MulBackward0", [a, b],
                rule=lambda g: [g * yf, g * xf], saves=saves)


def div(a: Operand, b: Operand) -> Spec:
    if isinstance(a, PyNum):
        raise AssertionError("rdiv is built by true_divide")
    x, y = num_of(a), num_of(b)
    saves = []
    if _grad(a) and isinstance(b, Tensor):
        saves.append((1, b))
    if _grad(b):
        saves += [(i, t) for i, t in ((0, a), (1, b)) if isinstance(t, Tensor) and (i, t) not in saves]
    return Spec(x / y, "float32", "div", [a, b], "DivBackward0", [a, b],
                rule=lambda g: [g / y, -g * ((x / y) / y)], saves=saves)


def reciprocal(a: Operand) -> Spec:
    x = num_of(a)
    y = Num(ONE, Fraction(1)) / x
    return Spec(y, "float32", "reciprocal", [a], "ReciprocalBackward0", [a],
                rule=lambda g: [-g * (y * y)], saves_output=True)


def pow_scalar(a: Tensor, e: PyNum) -> Spec:
    """``w ** 2``: PowBackward0, one edge; the exponent stays a Python scalar."""
    if a.dtype != "float32" and not isinstance(e.value, float):
        if e.value < 0:
            raise TorchError("RuntimeError", "Integers to negative integer powers are not allowed.")
        return Spec(Num(np.int64(a.num.v) ** np.int64(e.value), a.num.q ** int(e.value)), "int64",
                    "pow", [a, e])
    x = num_of(a)
    ev = float(e.value)
    fe = Num.of(e.value, e.exact)

    def rule(g: Num) -> list:
        if ev == 0:
            return [NUM_ZERO]
        return [g * (fe * c_pow(x, ev - 1))]
    return Spec(c_pow(x, ev), "float32", "pow", [a, e], "PowBackward0", [a], rule=rule, saves=[(0, a)])


def pow_tensor(a: Tensor, b: Tensor) -> Spec:
    """``w ** v``: PowBackward1, two edges; saves base, exponent and result."""
    x, y = num_of(a), num_of(b)
    r = _powf(x, y)

    def rule(g: Num) -> list:
        ga = NUM_ZERO if y.v == 0 else g * (y * _powf(x, y - Num(ONE, Fraction(1))))
        gb = g * (NUM_ZERO if (x.v == 0 and y.v >= 0) else r * _log(x))
        return [ga, gb]
    return Spec(r, "float32", "pow", [a, b], "PowBackward1", [a, b], rule=rule,
                saves=[(0, a), (1, b)], saves_output=True)


def pow_scalar_base(s: PyNum, b: Tensor) -> Spec:
    """``2 ** w``: PowBackward2, one edge (the scalar base gets none)."""
    base = num_of(s)
    r = _powf(base, num_of(b))
    log_s = Num.of(0.0, Fraction(0)) if s.value == 1 else Num(F32(_c_log(float(s.value))), None)

    def rule(g: Num) -> list:
        if s.value == 0:
            return [g * (NUM_ZERO if b.num.v >= 0 else r * log_s)]
        return [g * (r * log_s)]
    return Spec(r, "float32", "pow", [s, b], "PowBackward2", [b], rule=rule, saves=[(1, b)],
                saves_output=True)


def _c_log(x: float) -> float:
    if x == 0:
        return -math.inf
    if x < 0:
        return math.nan
    return math.log(x)


def power(a: Operand, b: Operand) -> Spec:
    if isinstance(b, PyNum):
        return pow_scalar(a, b)
    if isinstance(a, PyNum):
        return pow_scalar_base(a, b)
    return pow_tensor(a, b)


# --- unary ops ---------------------------------------------------------------------------------

def neg(a: Tensor) -> Spec:
    return Spec(-a.num, a.dtype, "neg", [a], "NegBackward0", [a], rule=lambda g: [-g])


def relu(a: Tensor) -> Spec:
    x = a.num
    # clamp_min(x, 0) keeps -0.0 and nan, as std::max(x, 0) does
    y = x if (x.v != x.v or not (x.v < 0)) else Num(type(x.v)(0), Fraction(0))
    return Spec(y, a.dtype, "relu", [a], "ReluBackward0", [a],
                rule=lambda g: [NUM_ZERO if y.v <= 0 else g], saves_output=True)


def tanh(a: Tensor) -> Spec:
    y = num_of(a).map(math.tanh, Fraction(0) if a.num.q == 0 else None)
    return Spec(y, "float32", "tanh", [a], "TanhBackward0", [a],
                rule=lambda g: [g * (Num(ONE, Fraction(1)) - y * y)], saves_output=True)


def exp(a: Tensor) -> Spec:
    y = num_of(a).map(math.exp, Fraction(1) if a.num.q == 0 else None)
    return Spec(y, "float32", "exp", [a], "ExpBackward0", [a], rule=lambda g: [g * y],
                saves_output=True)


def sin(a: Tensor) -> Spec:
    """SinBackward0 saves its input: ``grad * cos(x)``."""
    x = num_of(a)
    return Spec(x.map(math.sin, Fraction(0) if x.q == 0 else None), "float32", "sin", [a], "SinBackward0", [a],
                rule=lambda g: [g * x.map(math.cos, Fraction(1) if x.q == 0 else None)], saves=[(0, a)])


def cos(a: Tensor) -> Spec:
    """CosBackward0 saves its input: ``grad * -sin(x)``."""
    x = num_of(a)
    return Spec(x.map(math.cos, Fraction(1) if x.q == 0 else None), "float32", "cos", [a], "CosBackward0", [a],
                rule=lambda g: [g * -x.map(math.sin, Fraction(0) if x.q == 0 else None)], saves=[(0, a)])


def log(a: Tensor) -> Spec:
    x = num_of(a)
    return Spec(_log(x), "float32", "log", [a], "LogBackward0", [a], rule=lambda g: [g / x],
                saves=[(0, a)])


def sigmoid(a: Tensor) -> Spec:
    x = num_of(a)
    one = Num(ONE, Fraction(1))
    e = (-x).map(math.exp, None)
    y = one / (one + e)
    if x.q == 0:
        y = y.exactly(Fraction(1, 2))
    return Spec(y, "float32", "sigmoid", [a], "SigmoidBackward0", [a],
                rule=lambda g: [(g * (one - y)) * y], saves_output=True)


def sqrt(a: Tensor) -> Spec:
    x = num_of(a)
    y = Num(np.sqrt(x.v), _rational_sqrt(x.q))
    return Spec(y, "float32", "sqrt", [a], "SqrtBackward0", [a],
                rule=lambda g: [g / (TWO * y)], saves_output=True)


def absolute(a: Tensor) -> Spec:
    x = a.num
    y = Num(abs(x.v), abs(x.q) if x.q is not None else None)
    sign = Num(F32(np.sign(np.float32(x.v))), None if x.v != x.v else Fraction(int(np.sign(x.v))))
    return Spec(y, a.dtype, "abs", [a], "AbsBackward0", [a], rule=lambda g: [g * sign], saves=[(0, a)])


def clamp(a: Tensor, lo: Optional[PyNum], hi: Optional[PyNum]) -> Spec:
    if lo is None and hi is None:
        raise TorchError("RuntimeError", "torch.clamp: At least one of 'min' or 'max' must not be None")
    dt = result_dtype(a, *(b for b in (lo, hi) if b is not None))
    x = num_of(a, dt)
    y = x
    lo_n = num_of(lo, dt) if lo is not None else None
    hi_n = num_of(hi, dt) if hi is not None else None
    if x.v == x.v:  # nan stays nan
        if lo_n is not None and x.v < lo_n.v:
            y = lo_n
        if hi_n is not None and y.v > hi_n.v:
            y = hi_n

    def rule(g: Num) -> list:
        inside = (lo_n is None or x.v >= lo_n.v) and (hi_n is None or x.v <= hi_n.v)
        return [g if inside else NUM_ZERO]
    inputs = [a] + [b if b is not None else PyNum(None) for b in (lo, hi)]
    return Spec(y, dt, "clamp", inputs, "ClampBackward1", [a], rule=rule, saves=[(0, a)])


def total(a: Tensor) -> Spec:
    # a sum starts from +0: sum(-0.) is 0.
    n = Num(ZERO, Fraction(0)) + a.num if a.dtype == "float32" else a.num
    return Spec(n, a.dtype, "sum", [a], "SumBackward0", [a], rule=lambda g: [g])


def mean(a: Tensor) -> Spec:
    if a.dtype != "float32":
        raise TorchError("RuntimeError", MEAN_OF_INT)
    return Spec((Num(ZERO, Fraction(0)) + a.num) / Num(ONE, Fraction(1)), "float32", "mean", [a], "MeanBackward0", [a],
                rule=lambda g: [g / Num(ONE, Fraction(1))])


COMPARE = {"gt": np.greater, "lt": np.less, "ge": np.greater_equal, "le": np.less_equal,
           "eq": np.equal, "ne": np.not_equal}


def compare(op: str, a: Operand, b: Operand) -> Spec:
    """``s > 0``: a bool tensor; it needs no grad and creates no node."""
    dt = result_dtype(a, b)
    return Spec(Num(np.bool_(COMPARE[op](num_of(a, dt).v, num_of(b, dt).v)), None), "bool", op,
                [a, b])
