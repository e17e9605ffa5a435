"""Each backward function's local rule, as words and as which logged numbers make its product.

Why a table: a visit of the backward walk is shown as its arithmetic, ``4/3 × 1/3 = 4/9``: the
gradient that arrived, times the node's local derivative, equals what it sends along one edge.
The scene does no calculus, and neither does this module: the product is the visit's own
``grads_out[j]``, the arrival its ``grad_in``; a rule only says which numbers of the tensors the
node names stand for the local derivative (a multiply's other input, a square's ``2`` and its
base) or which constant does (a subtraction's ``1`` and ``-1``, an open ReLU gate's ``1``).
A node whose grad_fn and op are missing here is shown by its badge alone.

A factor is ``("input", k)``: the value of input ``k`` of the node's tensor (a tensor's value,
or the Python number itself); ``("const", "1")``: a number of the rule; ``("gate", k)``: ``1`` if
input ``k`` is positive, else ``0``; ``("output", None)``: the node's own value (a sigmoid's
``s``); ``("one_minus_output", None)``, ``("one_minus_output_squared", None)``: ``1 - s`` and
``1 - t²`` of it; ``("reciprocal", k)``: ``1/x`` of input ``k`` (the planner's `DERIVED`).
"""

from __future__ import annotations

from dataclasses import dataclass

Factor = tuple[str, object]


@dataclass(frozen=True)
class Rule:
    """``words``: the rule in a few words, shown beside the node; ``factors[j]``: the factors of
    the local derivative along edge ``j`` (the node's ``next_functions`` order); ``arity``: how
    many inputs the node's tensor must have for the factors to mean that (else no rule)."""

    words: str
    factors: tuple[tuple[Factor, ...], ...]
    arity: int
    exponent: float | None = None  # a power rule holds for this exponent only (input 1)


RULES: dict[tuple[str, str], Rule] = {
    ("MulBackward0", "mul"): Rule("mul: × the other input", ((("input", 1),), (("input", 0),)), 2),
    # 10.0 / f is recorded as op rdiv, inputs (10.0, f): a MulBackward0 of f's reciprocal and
    # 10.0, whose edge to the ReciprocalBackward0 is times the number, input 0 (its second
    # edge, the number's, is None)
    ("MulBackward0", "rdiv"): Rule("mul: × the other input", ((("input", 0),), ()), 2),
    ("PowBackward0", "pow"): Rule("pow: d(a²) = 2a", ((("input", 1), ("input", 0)),), 2, exponent=2.0),
    ("SubBackward0", "sub"): Rule("sub: × 1 and × −1", ((("const", "1"),), (("const", "-1"),)), 2),
    ("AddBackward0", "add"): Rule("add: × 1", ((("const", "1"),), (("const", "1"),)), 2),
    ("ReluBackward0", "relu"): Rule("relu: × 1 if input > 0", ((("gate", 0),),), 1),
    ("NegBackward0", "neg"): Rule("neg: × −1", ((("const", "-1"),),), 1),
    ("RsubBackward1", "rsub"): Rule("rsub: × −1", ((("const", "-1"),),), 2),  # 1 - p: one edge, to p
    ("LogBackward0", "log"): Rule("log: × 1/x", ((("reciprocal", 0),),), 1),
    ("SigmoidBackward0", "sigmoid"): Rule("sigmoid: × s(1 − s)", ((("output", None), ("one_minus_output", None)),), 1),
    ("TanhBackward0", "tanh"): Rule("tanh: × (1 − t²)", ((("one_minus_output_squared", None),),), 1),
    ("ExpBackward0", "exp"): Rule("exp: × the output", ((("output", None),),), 1),
}
"""(grad_fn class name, the op its tensor records) -> its local rule. The op says what the
tensor's inputs are: the same grad_fn made by another op (``10.0 / f`` is a MulBackward0 whose
inputs are not its factors) has a rule of its own, or none."""

WORDS: frozenset[str] = frozenset(r.words for r in RULES.values()) | frozenset(
    str(c[1]) for r in RULES.values() for fs in r.factors for c in fs if c[0] == "const") | {"0", "1"}
"""Every text this table can put on screen by itself (not read from an event)."""
