"""Write a logged number the way the storyboard asks: ``8/3``, ``2.667``, ``tensor(2.6667)``,
``0.333`` (significant digits) or ``3.33e-01`` (scientific).

Why here and not in the scene: every string a clip shows must come from the plan, traced to an
event, so formatting is part of the pure plan. The ``torch`` style copies PyTorch's
``_tensor_str._Formatter`` for a 0-dim float32 (precision 4), as listed in the autograd reference:
int mode (``12.``), fixed (``0.3333``) or scientific (``1.0000e-05``).

>>> show(2.6666667461395264, "8/3", Numbers("fraction"))
'8/3'
>>> show(2.6666667461395264, "8/3", Numbers("decimal", 2))
'2.67'
>>> show(12.0, "12", Numbers("torch"))
'tensor(12.)'
>>> show(5.5153e-06, None, Numbers("sig")), show(5.5153e-06, None, Numbers("sci"))
('5.52e-06', '5.52e-06')
>>> show(0.3333, None, Numbers("sig")), show(0.3333, None, Numbers("sci"))
('0.333', '3.33e-01')

A ``decimal`` value that is not zero but that ``places`` would round to zero (a vanishing
gradient) is written with ``digits`` significant digits, never as ``0.0000``:

>>> show(5.5153e-06, None, Numbers("decimal")), show(-0.00004, None, Numbers("decimal"))
('5.52e-06', '-4e-05')
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from engine.numbers import format_value, tensor_str

from .model import Numbers

Value = float | str | None  # a logged value: a float, or "nan"/"inf"/"-inf"


def as_float(value: Value) -> float:
    """The logged value as a Python float (the strings "nan", "inf", "-inf" included)."""
    if isinstance(value, str):
        return float(value)
    return float(value)  # type: ignore[arg-type]


def torch_number(value: Value) -> str:
    """PyTorch's text for one float32 scalar inside ``tensor(...)``: ``2.6667``, ``12.``, ``-0.``."""
    return format_value(as_float(value))


def torch_str(value: Value) -> str:
    """``str()`` of a 0-dim float32 tensor with no flags: ``tensor(0.4444)``."""
    return tensor_str(as_float(value))


def _finite(value: Value) -> float | str:
    """The value as a float, or the text Python writes for a non-finite one (``nan``, ``inf``)."""
    v = as_float(value)
    return str(v) if math.isnan(v) or math.isinf(v) else v


EXACT_MORE = 1
"""A value written exactly in this many places more than the style's is written so, not rounded
(one: a product of two values exact at 4 places, such as 3/8 × 1/4, needs a fifth; more would
widen a card's value past the six characters a layout plans for)."""


def decimal(value: Value, places: int, digits: int = 3) -> str:
    """``value`` with ``places`` digits after the point; a nonzero value that would round to
    zero there (``0.0000``) with ``digits`` significant digits instead (``5.52e-06``): a
    vanishing gradient is not a zero. A value that one place more writes exactly
    (``EXACT_MORE``) is written with them (``0.09375``, ``1.40625``, not ``0.0938`` and
    ``1.4062``): rounded, the products on a unit's lines did not add up to the sum written
    beside it (mlp: 0.3750 + 0.1875 + 0.0938 + 0.7500 = 1.4063 against Σ = 1.4062). A printed
    tensor stays as PyTorch prints it (`torch_str`). Non-finite values as Python writes them.

    >>> decimal(0.09375, 4), decimal(1.40625, 4), decimal(0.375, 4), decimal(1 / 3, 4), decimal(0.140625, 4)
    ('0.09375', '1.40625', '0.3750', '0.3333', '0.1406')
    """
    v = _finite(value)
    if isinstance(v, str):
        return v
    text = f"{v:.{places}f}"
    if v != 0 and float(text) == 0:
        return significant(v, digits)
    exact = Fraction(v)
    if Fraction(text) != exact:
        longer = (f"{v:.{places + more}f}" for more in range(1, EXACT_MORE + 1))
        return next((t for t in longer if Fraction(t) == exact), text)
    return text


def one_precision(texts: list[str]) -> list[str]:
    """Numbers that are read together (a unit's products and the sum they make) at one
    precision: each plain decimal with trailing zeros to the most places any of them is written
    with (`decimal` writes a value exact at one place more so, ``0.09375``). The same values,
    not rounded: mixed, ``= 0.3750``, ``= 0.09375`` and ``Σ = 1.40625`` on one unit read as
    numbers of different precision (REVIEW7 11). Any other text (``5.52e-06``, ``8/3``) as it is.

    >>> one_precision(["0.3750", "0.1875", "0.09375", "0.7500", "1.40625"])
    ['0.37500', '0.18750', '0.09375', '0.75000', '1.40625']
    >>> one_precision(["-0.5000", "2", "5.52e-06", "0.25"])
    ['-0.5000', '2', '5.52e-06', '0.2500']
    """
    places = [len(t.split(".")[1]) if _PLAIN.fullmatch(t) else None for t in texts]
    most = max((p for p in places if p is not None), default=0)
    return [t + "0" * (most - p) if p is not None else t for t, p in zip(texts, places)]


_PLAIN = re.compile(r"-?\d+\.\d+")
"""A number written with a point and digits after it (not scientific: ``5.52e-06``)."""


def significant(value: Value, digits: int) -> str:
    """``value`` with ``digits`` significant digits, as Python's ``g`` writes it: plain for
    moderate sizes (``0.333``, ``12``), scientific for the very small or large (``5.52e-06``)."""
    v = _finite(value)
    return v if isinstance(v, str) else f"{v:.{digits}g}"


def scientific(value: Value, digits: int) -> str:
    """``value`` in scientific notation with ``digits`` significant digits: ``5.52e-06``."""
    v = _finite(value)
    return v if isinstance(v, str) else f"{v:.{digits - 1}e}"


def show(value: Value, exact: str | None, numbers: Numbers, torch_text: str | None = None) -> str:
    """The displayed text of one logged number.

    ``fraction`` uses the exact shadow and falls back to 4 decimals when it is null (tanh, exp);
    ``torch`` uses ``torch_text`` (the event's own ``str``) when the event carries one.
    """
    if numbers.style == "fraction":
        return exact if exact is not None else decimal(value, 4, numbers.digits)
    if numbers.style == "decimal":
        return decimal(value, numbers.places, numbers.digits)
    if numbers.style == "sig":
        return significant(value, numbers.digits)
    if numbers.style == "sci":
        return scientific(value, numbers.digits)
    return torch_text if torch_text is not None else torch_str(value)


def python_number(value: object, numbers: Numbers) -> str:
    """A Python number the program bound (``lr = 0.1``) as the style writes it: a float in the
    ``decimal``, ``sig`` and ``sci`` styles as a logged value is, anything else as Python
    prints it (``0.1``, ``3``)."""
    if numbers.style in ("decimal", "sig", "sci") and isinstance(value, float):
        return show(value, None, numbers)
    return value if isinstance(value, str) else repr(value)
