"""str() exactly as PyTorch prints a 0-dim tensor (pytorch-autograd-reference.md, section 7)."""

import numpy as np
import pytest

from engine.numbers import tensor_str

TABLE = [
    (1 / 3, "tensor(0.3333)"), (8 / 3, "tensor(2.6667)"), (4 / 9, "tensor(0.4444)"),
    (12.0, "tensor(12.)"), (6.0, "tensor(6.)"), (-0.5, "tensor(-0.5000)"),
    (1e-5, "tensor(1.0000e-05)"), (1e-4, "tensor(1.0000e-04)"), (0.0001234, "tensor(0.0001)"),
    (0.0, "tensor(0.)"), (-0.0, "tensor(-0.)"), (1.5, "tensor(1.5000)"), (0.1, "tensor(0.1000)"),
    (100000000.0, "tensor(100000000.)"), (1e10, "tensor(1.0000e+10)"),
    (12345.678, "tensor(12345.6777)"), (1.0000001, "tensor(1.0000)"),
    (float("inf"), "tensor(inf)"), (float("nan"), "tensor(nan)"), (1e-45, "tensor(1.4013e-45)"),
]


@pytest.mark.parametrize("value,text", TABLE, ids=[t for _, t in TABLE])
def test_reference_table(value: float, text: str) -> None:
    assert tensor_str(float(np.float32(value))) == text


def test_suffixes() -> None:
    assert tensor_str(3.0, requires_grad=True) == "tensor(3., requires_grad=True)"
    assert tensor_str(float(np.float32(1 / 3)), grad_fn="MulBackward0") == "tensor(0.3333, grad_fn=<MulBackward0>)"
    assert tensor_str(3, dtype="int64") == "tensor(3)"
    assert tensor_str(True, dtype="bool") == "tensor(True)"
