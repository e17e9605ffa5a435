"""Where a Python integer stops being something PyTorch takes, with PyTorch's own texts.

Why: Python integers have no size, PyTorch's scalars do. ``torch.tensor(n)`` unpacks ``n`` as a
C ``long long``; an integer beside a tensor (``w * n``, ``w < n``, ``w.clamp(n, 1)``) is
converted to a 64-bit scalar first. Texts and bounds printed by torch 2.13.
"""

from __future__ import annotations

from typing import Any

from .errors import TorchError

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
UINT64_END = 2 ** 64


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_tensor_int(value: Any) -> None:
    """``torch.tensor(n)``: n must fit an int64."""
    n = _int(value)
    if n is not None and not INT64_MIN <= n <= INT64_MAX:
        raise TorchError("ValueError", "Overflow when unpacking long long")


def check_scalar_int(value: Any) -> None:
    """An integer operand of a tensor operation: at least -2**63, below 2**64."""
    n = _int(value)
    if n is None:
        return
    if n >= UINT64_END:
        raise TorchError("OverflowError", "int too big to convert")
    if n < INT64_MIN:
        raise TorchError("OverflowError", "can't convert negative int to unsigned")
