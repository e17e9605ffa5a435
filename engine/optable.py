"""Every op of the subset, declared once: how a program spells it, the forward that computes it
(its backward rule beside it in :mod:`engine.ops`), the autograd nodes its results carry, what a
visit of each node writes on screen, and whether the network view may draw it inside a unit.

Why one table: every list that knows about ops is read from :data:`OPS`, so adding an op is one
entry here (and its forward in ``engine.ops``) plus its tests. Derived from it: the subset's
methods and torch functions (:mod:`engine.subset`), the call forms (:mod:`engine.calls`), the
binary operators (:mod:`engine.interpreter`), the methods the PyTorch oracle calls
(``scenes.oracle.run``), the on-screen rules (``scenes.storyboard.rules``) and the ops a unit of
the network diagram may hold (``scenes.storyboard.network``). Plain data: the scenes read it, the
engine never imports the scenes. docs/event-log.md, "Adding an op", walks through one addition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

import numpy as np

from . import ops
from .onscreen import (
    ONE_MINUS_OUTPUT,
    ONE_MINUS_OUTPUT_SQUARED,
    Const,
    Derived,
    Gate,
    Input,
    Output,
    Rule,
    reciprocal_of,
    texts,
)
from .ops import Spec


class Form(Enum):
    """How a call's arguments are read (``engine.calls``)."""

    NONE = "no arguments: w.relu(), torch.relu(w)"
    EXPONENT = "one exponent: w.pow(2), torch.pow(w, 2), torch.pow(2, w)"
    SQUARE = "no arguments, the exponent 2: w.square() is w ** 2"
    BOUNDS = "min and max: w.clamp(0, 1), torch.clamp(w, max=1)"


@dataclass(frozen=True)
class Call:
    """One spelling: the method ``w.<name>(...)`` and the function ``torch.<name>(w, ...)``
    (PyTorch spells every op of the subset both ways, and the oracle makes the same call on
    real torch)."""

    name: str
    form: Form


@dataclass(frozen=True)
class Node:
    """An autograd node an op's result carries: PyTorch's ``grad_fn`` class, the ``op`` its
    tensor records (``rdiv`` for ``2 / w``, a MulBackward0), and the ``rule`` its visit writes
    on screen, or None: the node is shown by its badge alone."""

    grad_fn: str
    recorded: str
    rule: Rule | None


@dataclass(frozen=True)
class Op:
    """One op. ``name``: what a tensor event's ``op`` says; ``forward``: the op of
    :mod:`engine.ops` (``operands`` tensors or numbers: one, or two for a Python operator;
    clamp's bounds are arguments); ``operator``: how Python spells it, if it does (``a + b``,
    ``-a``); ``calls``: its method and torch-function spellings; ``nodes``: every node its
    results can carry; ``unit``: whether the network view may draw it inside a unit, between a
    weighted sum and the unit's named output (an activation: ``h = a.relu()``); ``bit_exact``:
    whether its value agrees with PyTorch's CPU bit for bit, or (a transcendental: PyTorch's
    float32 kernels there are not correctly rounded) to within an ulp, 1e-6."""

    name: str
    forward: Callable[..., Spec]
    operands: int
    operator: str | None
    calls: tuple[Call, ...]
    nodes: tuple[Node, ...]
    unit: bool
    bit_exact: bool


def _unary(name: str, forward: Callable[..., Spec], grad_fn: str, rule: Rule | None, *, unit: bool,
           bit_exact: bool = True) -> Op:
    """An op of one tensor spelled ``w.name()`` and ``torch.name(w)``, recording ``name``."""
    return Op(name, forward, 1, None, (Call(name, Form.NONE),), (Node(grad_fn, name, rule),),
              unit=unit, bit_exact=bit_exact)


_MUL = Rule("mul: × the other input", ((Input(1),), (Input(0),)), 2, spoken="a product: times the other input")

OPS: tuple[Op, ...] = (
    Op("add", ops.add, 2, "a + b", (),
       (Node("AddBackward0", "add", Rule("add: × 1", ((Const("1"),), (Const("1"),)), 2, spoken="a sum: times one")),),
       unit=False, bit_exact=True),
    Op("sub", ops.sub, 2, "a - b", (),
       (Node("SubBackward0", "sub", Rule("sub: × 1 and × −1", ((Const("1"),), (Const("-1"),)), 2,
                                      spoken="a difference: times one and times minus one")),
        Node("RsubBackward1", "rsub",  # 1 - p: one edge, to p
             Rule("rsub: × −1", ((Const("-1"),),), 2, spoken="one minus: times minus one"))),
       unit=False, bit_exact=True),
    Op("mul", ops.mul, 2, "a * b", (), (Node("MulBackward0", "mul", _MUL),), unit=False, bit_exact=True),
    # 10.0 / f is recorded as op rdiv, inputs (10.0, f): a MulBackward0 of f's reciprocal and 10.0,
    # whose edge to the (internal) ReciprocalBackward0 is times the number, input 0 (its second
    # edge, the number's, is None)
    Op("div", ops.div, 2, "a / b", (),
       (Node("DivBackward0", "div", None),
        Node("MulBackward0", "rdiv", Rule(_MUL.words, ((Input(0),), ()), 2, spoken=_MUL.spoken))),
       unit=False, bit_exact=True),
    Op("pow", ops.power, 2, "a ** b", (Call("pow", Form.EXPONENT), Call("square", Form.SQUARE)),
       (Node("PowBackward0", "pow", Rule("pow: {}² → × 2{}", ((Input(1), Input(0)),), 2, exponent=2.0, named=0,
                                          spoken="the power rule: times two {}")),
        Node("PowBackward1", "pow", None), Node("PowBackward2", "pow", None)),
       unit=False, bit_exact=True),
    Op("neg", ops.neg, 1, "-a", (Call("neg", Form.NONE),),
       (Node("NegBackward0", "neg", Rule("neg: × −1", ((Const("-1"),),), 1, spoken="a negation: times minus one")),),
       unit=True, bit_exact=True),
    _unary("relu", ops.relu, "ReluBackward0", Rule("relu: × 1 if input > 0", ((Gate(0),),), 1,
                                                spoken="the ReLU gate: times one if its input is positive"), unit=True),
    _unary("abs", ops.absolute, "AbsBackward0", None, unit=True),
    Op("clamp", ops.clamp, 1, None, (Call("clamp", Form.BOUNDS),), (Node("ClampBackward1", "clamp", None),),
       unit=False, bit_exact=True),
    _unary("sum", ops.total, "SumBackward0", None, unit=False),
    _unary("mean", ops.mean, "MeanBackward0", None, unit=False),
    _unary("reciprocal", ops.reciprocal, "ReciprocalBackward0", None, unit=False),
    _unary("tanh", ops.tanh, "TanhBackward0", Rule("tanh: × (1 − t²)", ((ONE_MINUS_OUTPUT_SQUARED,),), 1,
                                                spoken="tanh: times one minus its output squared"),
           unit=True, bit_exact=False),
    _unary("exp", ops.exp, "ExpBackward0",
           Rule("exp: × the output", ((Output(),),), 1, spoken="exp: times its output"),
           unit=True, bit_exact=False),
    _unary("log", ops.log, "LogBackward0", Rule("log: × 1/x", ((reciprocal_of(0),),), 1,
                                                spoken="log: times one over its input"), unit=False, bit_exact=False),
    _unary("sigmoid", ops.sigmoid, "SigmoidBackward0",
           Rule("sigmoid: × s(1 − s)", ((Output(), ONE_MINUS_OUTPUT),), 1,
                spoken="sigmoid: times s times one minus s"), unit=True, bit_exact=False),
    _unary("sqrt", ops.sqrt, "SqrtBackward0", None, unit=False, bit_exact=False),
    _unary("sin", ops.sin, "SinBackward0",
           Rule("sin: × cos x", ((Derived(0, np.cos, lambda q: Fraction(1) if q == 0 else None, "cos(value)"),),), 1,
                spoken="sine: times the cosine of its input"),
           unit=True, bit_exact=False),
    _unary("cos", ops.cos, "CosBackward0",
           Rule("cos: × −sin x",
                ((Derived(0, lambda v: -np.sin(v), lambda q: Fraction(0) if q == 0 else None, "-sin(value)"),),), 1,
                spoken="cosine: times minus the sine of its input"),
           unit=True, bit_exact=False),
)
"""Every op of the subset (a comparison makes a bool tensor and no node: it is no op here)."""

BY_NAME: dict[str, Op] = {op.name: op for op in OPS}
"""An op by the name its tensors record."""

SPELLINGS: dict[str, tuple[Op, Call]] = {c.name: (op, c) for op in OPS for c in op.calls}
"""A spelling (``relu``, ``square``) -> its op and how its arguments are read."""

METHODS: frozenset[str] = frozenset(SPELLINGS)
"""The ops' tensor-method spellings (``w.relu()``)."""

FUNCTIONS: frozenset[str] = frozenset(SPELLINGS)
"""The ops' torch-function spellings (``torch.relu(w)``, ``from torch import relu``)."""

BINARY: dict[str, Callable[..., Spec]] = {op.name: op.forward for op in OPS if op.operands == 2}
"""The Python operators' ops (``+`` is ``add``), and their in-place forms (``+=``)."""

RULES: dict[tuple[str, str], Rule] = {(n.grad_fn, n.recorded): n.rule for op in OPS for n in op.nodes
                                      if n.rule is not None}
"""(grad_fn class name, the op its tensor records) -> its on-screen rule. The op says what the
tensor's inputs are: the same grad_fn made by another op (``10.0 / f`` is a MulBackward0 whose
inputs are not its factors) has a rule of its own, or none."""

RULE_TEXTS: frozenset[str] = frozenset().union(*(texts(r) for r in RULES.values()))
"""Every text the rules can put on screen by themselves (their words and constants)."""

UNIT_OPS: frozenset[str] = frozenset(op.name for op in OPS if op.unit)
"""The ops the network view may draw inside a unit."""
