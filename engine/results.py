"""Turning an op's :class:`~engine.ops.Spec` into tensors: a new result, an internal one, or an
in-place update (``h += w``), each recorded as PyTorch would build it.

Separate from :mod:`engine.ops` because this is where autograd's bookkeeping lives (does the
result need a node, which edges, which saved tensors and versions), while ops holds the maths.
"""

from __future__ import annotations

import numpy as np

from .errors import INT_REQUIRES_GRAD, LEAF_IN_PLACE, TorchError
from .limits import check_tensor_int
from .numbers import Num, fraction_str, json_float
from .ops import Spec, _grad, div, mul, num_of, reciprocal
from .tensor import Operand, PyNum, Session, Tensor


def _needs_grad(sess: Session, spec: Spec) -> bool:
    return sess.grad_enabled and spec.grad_fn is not None and any(_grad(x) for x in spec.edge_inputs)


def _edges(spec: Spec) -> list:
    return [x.node if _grad(x) else None for x in spec.edge_inputs]


def apply(sess: Session, spec: Spec, span=None) -> Tensor:
    """A new tensor holding the op's result, with its grad_fn if autograd records it."""
    out = Tensor(spec.num, spec.dtype)
    if _needs_grad(sess, spec):
        saved = [(t, t.version, False) for _, t in spec.saves] + ([(out, 0, True)] if spec.saves_output else [])
        out.requires_grad = True
        out.grad_fn = sess.node(spec.grad_fn, _edges(spec), spec.rule, saved, out)
    return sess.register(out, spec.op, spec.inputs, span)


def true_divide(sess: Session, a: Operand, b: Operand, span=None) -> Tensor:
    """``a / b``; ``2 / w`` is PyTorch's ``w.reciprocal() * 2``: an internal ReciprocalBackward0
    feeding a MulBackward0, two roundings."""
    if not isinstance(a, PyNum):
        return apply(sess, div(a, b), span)
    r = reciprocal(b)
    inner = Tensor(r.num, "float32")
    if _needs_grad(sess, r):
        inner.requires_grad = True
        inner.grad_fn = sess.node(r.grad_fn, _edges(r), r.rule, [(inner, 0, True)], None)
    spec = mul(inner, a)
    spec.inputs = [a, b]
    spec.op = "rdiv"
    return apply(sess, spec, span)


def create(sess: Session, value: PyNum, requires_grad: bool, span=None) -> Tensor:
    """``torch.tensor(value, requires_grad=...)``: a Python int gives an int64 tensor."""
    dtype = "float32" if isinstance(value.value, float) else ("bool" if isinstance(value.value, bool) else "int64")
    check_tensor_int(value.value)
    if requires_grad and dtype != "float32":
        raise TorchError("RuntimeError", INT_REQUIRES_GRAD)
    n = value.num() if dtype == "float32" else Num(np.int64(value.value), value.num().q)
    if dtype == "bool":
        n = Num(np.bool_(value.value), None)
    t = sess.leaf(n, dtype, requires_grad)
    return sess.register(t, "tensor", [value], span)


def detach(sess: Session, x: Tensor, span=None) -> Tensor:
    """``x.detach()``: a leaf that needs no grad, sharing ``x``'s value and version counter (an
    in-place change of either shows in both, as PyTorch's detach is a view of the same data).
    Its ``inputs`` name ``x``, which it came from; no autograd edge joins them."""
    t = x.detached()
    return sess.register(t, "detach", [x], span)


def apply_in_place(sess: Session, target: Tensor, spec: Spec, span=None) -> Tensor:
    """``target op= other``: PyTorch's in-place rules. A leaf that requires grad refuses (unless
    under no_grad); otherwise the value changes, the version counter moves on (so a saved copy
    of it fails at backward), and with autograd recording the tensor gets a new grad_fn."""
    if sess.grad_enabled and target.is_leaf and target.requires_grad:
        raise TorchError("RuntimeError", LEAF_IN_PLACE)
    if target.dtype != "float32" and spec.dtype == "float32":
        raise TorchError("RuntimeError", "result type Float can't be cast to the desired output type Long")
    needs = _needs_grad(sess, spec)
    edges = _edges(spec) if needs else None  # the target's edge is to its old node
    # `self` is saved as a copy of its old value (the rule holds it); any other operand is saved
    # as it is now, so `v *= v` fails at backward just as in PyTorch
    saved = [(t, t.version, False) for i, t in spec.saves if i != 0]
    before = target.num
    target.write(spec.num if target.dtype == spec.dtype else num_of(Tensor(spec.num, spec.dtype), target.dtype))
    if needs:
        if spec.saves_output:
            saved.append((target, target.version, True))
        target.requires_grad = True
        target.grad_fn = sess.node(spec.grad_fn, edges, spec.rule, saved, target)
        sess.record_node(target.grad_fn)
    inputs = [x.id if isinstance(x, Tensor) else x.json() for x in spec.inputs]
    _record_update(sess, target, span, spec.op, inputs, before)
    for other in target.shared or ():  # its .detach(), or what it was detached from: changed too
        if other is not target:
            _record_update(sess, other, span, None, [target.id], before)
    return target


def _record_update(sess: Session, t: Tensor, span, op: str | None, inputs: list, before: Num) -> None:
    """The ``update`` event of ``t``; ``op`` None (``inputs`` the tensor written) for a tensor
    whose value changed because it shares it with the tensor an in-place op wrote."""
    node = t.node
    sess.record({
        "kind": "update", "tensor": t.id, "name": t.name, "value": json_float(t.num.v),
        "exact": fraction_str(t.num.q), "str": str(t),
        "grad_fn": t.grad_fn.grad_fn if t.grad_fn else None,
        "node": node.id if node else None,
        "edges": [e.id if e else None for e in t.grad_fn.edges] if t.grad_fn else [],
        "span": list(span) if span else None,
        "op": op, "inputs": inputs,
        "before": json_float(before.v), "before_exact": fraction_str(before.q),
    })
