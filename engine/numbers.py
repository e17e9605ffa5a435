"""Numbers as PyTorch holds them: float32 values with an exact rational shadow.

A :class:`Num` is one scalar: ``v``, the float32 value PyTorch would hold (a ``numpy.float32``), and
``q``, the exact rational the hand-worked slides would write (a ``Fraction``), or ``None`` once a
step was not rational (tanh, exp, a float power) or the fraction grew unwieldy.

Why float32 through numpy: numpy.float32 arithmetic rounds every + - * / exactly as PyTorch's CPU
kernels do, so values and gradients agree bit for bit. Why a shadow: a clip can then show ``8/3``
where PyTorch prints ``tensor(2.6667)``.

>>> third = Num.of(1) / Num.of(3)
>>> third.v, third.q
(np.float32(0.33333334), Fraction(1, 3))
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Optional

import numpy as np

F32 = np.float32
ONE = F32(1.0)
ZERO = F32(0.0)
_MAX_BITS = 128  # beyond this a shadow is no longer something a slide would show


def _cap(q: Optional[Fraction]) -> Optional[Fraction]:
    """``q``, or None once its numerator or denominator is too long to show (also what keeps a
    loop of ``x = x * x`` from building rationals of millions of digits)."""
    if q is None:
        return None
    if q.numerator.bit_length() > _MAX_BITS or q.denominator.bit_length() > _MAX_BITS:
        return None
    return q


cap_exact = _cap


def to_f32(x: float | int) -> np.float32:
    """Round a Python number to float32 the way ``torch.tensor(x)`` does (overflow gives inf)."""
    if isinstance(x, int) and abs(x) >= 2**128:
        return F32(math.copysign(math.inf, x))
    return F32(x)


class Num:
    """A float32 value and its exact shadow; arithmetic keeps both."""

    __slots__ = ("v", "q")

    def __init__(self, v: np.float32, q: Optional[Fraction]):
        self.v = v
        self.q = q

    @staticmethod
    def of(x: float | int | Fraction, exact: Optional[Fraction] = None) -> "Num":
        """A number from the program: its float32 rounding, and its exact value if known."""
        if isinstance(x, Fraction):
            return Num(to_f32(float(x)), _cap(x))
        if exact is None and isinstance(x, int):
            exact = Fraction(x)
        if exact is None and isinstance(x, float) and math.isfinite(x) and x == int(x):
            exact = Fraction(int(x))
        return Num(to_f32(x), _cap(exact))

    # The four rational operations: float32 result, exact shadow alongside.
    def __add__(self, o: "Num") -> "Num":
        return Num(self.v + o.v, _cap(self.q + o.q) if self.q is not None and o.q is not None else None)

    def __sub__(self, o: "Num") -> "Num":
        return Num(self.v - o.v, _cap(self.q - o.q) if self.q is not None and o.q is not None else None)

    def __mul__(self, o: "Num") -> "Num":
        return Num(self.v * o.v, _cap(self.q * o.q) if self.q is not None and o.q is not None else None)

    def __truediv__(self, o: "Num") -> "Num":
        q = None
        if self.q is not None and o.q is not None and o.q != 0:
            q = _cap(self.q / o.q)
        return Num(self.v / o.v, q)

    def __neg__(self) -> "Num":
        return Num(-self.v, -self.q if self.q is not None else None)

    def map(self, f: Callable[[float], float], exact: Optional[Fraction] = None) -> "Num":
        """Apply a transcendental ``f`` (computed in double, rounded to float32); the shadow is
        ``exact`` when the caller knows it (sqrt(4/9) = 2/3), else lost."""
        return Num(to_f32(_safe(f, float(self.v))), _cap(exact))

    def exactly(self, q: Optional[Fraction]) -> "Num":
        """The same float32 value with a different shadow (a kernel whose result is exact)."""
        return Num(self.v, _cap(q))

    def __repr__(self) -> str:
        return f"Num({float(self.v)!r}, {self.q!r})"


def _safe(f: Callable[[float], float], x: float) -> float:
    """IEEE results where ``math`` raises: log(0) = -inf, log(-1) = nan, exp(1000) = inf."""
    try:
        return f(x)
    except OverflowError:
        return math.inf
    except ValueError:
        if f is math.log and x == 0:
            return -math.inf
        return math.nan


def fraction_str(q: Optional[Fraction]) -> Optional[str]:
    """``Fraction(8, 3)`` -> ``"8/3"``; ``Fraction(4)`` -> ``"4"``; None stays None."""
    if q is None:
        return None
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def parse_fraction(text: str) -> Fraction:
    """The inverse of :func:`fraction_str` (also accepts decimals: ``"0.5"``)."""
    return Fraction(text)


def json_float(v: np.float32 | float) -> float | str:
    """A float32 for JSON: the value as a double; non-finite values as strings."""
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f


# --- printing, as torch/_tensor_str.py::_Formatter does for one element, precision 4 ----------

def format_value(v: float, dtype: str = "float32") -> str:
    """The number part of ``str(tensor)``: ``0.3333``, ``12.``, ``1.0000e-05``, ``-0.``."""
    if dtype == "int64":
        return str(int(v))
    if dtype == "bool":
        return "True" if v else "False"
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    if f == 0.0:
        return "-0." if math.copysign(1.0, f) < 0 else "0."
    a = abs(f)
    if f == int(f):
        # int mode; PyTorch still switches to scientific notation above 1e8
        if a > 1e8:
            return f"{f:.4e}"
        return f"{f:.0f}."
    if a > 1e8 or a < 1e-4:
        return f"{f:.4e}"
    return f"{f:.4f}"


def tensor_str(v: float, *, dtype: str = "float32", requires_grad: bool = False,
               grad_fn: Optional[str] = None) -> str:
    """PyTorch's ``str()`` of a 0-dim tensor.

    >>> tensor_str(1/3, grad_fn="MulBackward0")
    'tensor(0.3333, grad_fn=<MulBackward0>)'
    >>> tensor_str(3.0, requires_grad=True)
    'tensor(3., requires_grad=True)'
    """
    body = format_value(v, dtype)
    if grad_fn is not None:
        return f"tensor({body}, grad_fn=<{grad_fn}>)"
    if requires_grad:
        return f"tensor({body}, requires_grad=True)"
    return f"tensor({body})"
