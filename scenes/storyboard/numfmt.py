"""Write a logged number the way the storyboard asks: ``8/3``, ``2.667`` or ``tensor(2.6667)``.

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
"""

from __future__ import annotations

import math

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


def decimal(value: Value, places: int) -> str:
    """``value`` with ``places`` digits; non-finite values as Python writes them."""
    v = as_float(value)
    if math.isnan(v) or math.isinf(v):
        return str(v)
    return f"{v:.{places}f}"


def show(value: Value, exact: str | None, numbers: Numbers, torch_text: str | None = None) -> str:
    """The displayed text of one logged number.

    ``fraction`` uses the exact shadow and falls back to 4 decimals when it is null (tanh, exp);
    ``torch`` uses ``torch_text`` (the event's own ``str``) when the event carries one.
    """
    if numbers.style == "fraction":
        return exact if exact is not None else decimal(value, 4)
    if numbers.style == "decimal":
        return decimal(value, numbers.places)
    return torch_text if torch_text is not None else torch_str(value)
