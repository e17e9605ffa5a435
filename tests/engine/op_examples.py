"""A program per op of the op table that uses every way the table says it is spelled: its Python
operator on two tensors, with a number on the right and on the left, and each method,
``torch.`` function and ``from torch import`` name with the arguments its form reads.

Written from the table alone, so an op added to it is exercised by the engine's, the oracle's
and the on-screen rules' tests without a line of test code more."""

from __future__ import annotations

import re

from engine.optable import Form, Op

OPERANDS = [("w", "v"), ("w", "2.0"), ("2.0", "w")]
"""Two tensors; a number on the right (``w ** 2.0``); a number on the left (``2.0 - w`` is rsub)."""

ARGUMENTS = {
    Form.NONE: ["w.{}()", "torch.{}(w)", "{}(w)"],
    Form.SQUARE: ["w.{}()", "torch.{}(w)", "{}(w)"],
    Form.EXPONENT: ["w.{}(2)", "torch.{}(w, v)", "{}(2.0, w)"],
    Form.BOUNDS: ["w.{}(0, 1)", "torch.{}(w, max=0.25)", "{}(w, min=1)"],
}
"""Per form of call: the method, the torch function and the imported name, with arguments."""


def expressions(op: Op) -> list[str]:
    """Every spelling of ``op`` applied to the leaves ``w`` and ``v`` (and to numbers)."""
    out = []
    if op.operator is not None:
        for a, b in OPERANDS if op.operands == 2 else [("w", "")]:
            out.append(re.sub(r"\b[ab]\b", lambda m: a if m.group() == "a" else b, op.operator))
    for call in op.calls:
        out += [form.format(call.name) for form in ARGUMENTS[call.form]]
    return out


def program(op: Op) -> str:
    """``y0 = <spelling>``, ``y1 = ...``, one line each, then the backward of their sum times 3
(so that what arrives at each op's node is not 1) and the grads."""
    names = ", ".join(c.name for c in op.calls)
    exprs = expressions(op)
    lines = ["import torch", f"from torch import {names}" if names else "# no function spells it",
             "w = torch.tensor(0.5, requires_grad=True)", "v = torch.tensor(1.5, requires_grad=True)"]
    lines += [f"y{i} = {e}" for i, e in enumerate(exprs)]
    total = " + ".join(f"y{i}" for i in range(len(exprs)))
    lines += [f"L = ({total}) * 3.0", "L.backward()", "print(w.grad, v.grad)"]  # 3 arrives at each op
    return "\n".join(lines) + "\n"


FIRST_EXAMPLE_LINE = 5
"""The program line of ``y0``; ``y{i}`` is on line ``FIRST_EXAMPLE_LINE + i``."""
