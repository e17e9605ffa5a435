"""The program's plain Python numbers: a literal with its exact value from the source text, and
arithmetic on them with its exact shadow, refusing results too large to compute (as Python would
run out of memory or time) with Python's own error texts."""

from __future__ import annotations

import ast
import math
from fractions import Fraction

from .errors import TorchError
from .numbers import cap_exact
from .segments import source_segment
from .tensor import PyNum

_MAX_INT_BITS = 4096
"""An integer result longer than this is refused: ``10 ** 10 ** 9`` would not finish."""


def literal(e: ast.Constant, source: str) -> PyNum:
    """A number literal with its exact value from the source text (``0.1`` is exactly 1/10)."""
    v = e.value
    if isinstance(v, int):
        return PyNum(v, cap_exact(Fraction(v)))
    text = source_segment(source, e) or repr(v)
    try:
        exact = cap_exact(_exact_decimal(text.replace("_", "")))
    except (ValueError, ZeroDivisionError):
        exact = Fraction(v) if math.isfinite(v) else None
    return PyNum(v, exact)


_MAX_EXPONENT = 400  # 1e400 is inf for a float; Fraction("1e99999999") would build a huge integer


def _exact_decimal(text: str) -> Fraction:
    """The exact value of a float literal's text, refusing (ValueError) an exponent no float has."""
    mantissa, _, exponent = text.lower().partition("e")
    if exponent and abs(int(exponent)) > _MAX_EXPONENT + len(mantissa):
        raise ValueError(text)
    return Fraction(text)


def py_arith(op: str, a: PyNum, b: PyNum) -> PyNum:
    """Python number arithmetic with its exact shadow; huge integers are refused, not computed."""
    x, y = a.value, b.value
    qa, qb = a.exact, b.exact
    both = qa is not None and qb is not None
    try:
        if op == "add":
            v, q = x + y, (qa + qb if both else None)
        elif op == "sub":
            v, q = x - y, (qa - qb if both else None)
        elif op == "mul":
            v, q = x * y, (qa * qb if both else None)
        elif op == "div":
            v, q = x / y, (qa / qb if both else None)
        else:
            if isinstance(x, int) and isinstance(y, int) and y > 0 and abs(x) > 1 \
                    and y * abs(x).bit_length() > _MAX_INT_BITS:
                raise TorchError("OverflowError", "integer result too large")
            v = x ** y
            q = qa ** int(qb) if both and qb.denominator == 1 and abs(qb) <= 64 and not (qa == 0 and qb < 0) else None
            if isinstance(v, complex):
                raise TorchError("ValueError", "math domain error")
    except ZeroDivisionError as exc:  # Python's own words: "float division by zero", "0.0 cannot be raised ..."
        raise TorchError("ZeroDivisionError", str(exc)) from None
    except OverflowError:
        raise TorchError("OverflowError", "numerical result out of range") from None
    if isinstance(v, int) and v.bit_length() > _MAX_INT_BITS:
        raise TorchError("OverflowError", "integer result too large")
    return PyNum(v, cap_exact(q))
