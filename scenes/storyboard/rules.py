"""Each backward function's local rule, as words and as which logged numbers make its product.

Why a table: a visit of the backward walk is shown as its arithmetic, ``4/3 × 1/3 = 4/9``: the
gradient that arrived, times the node's local derivative, equals what it sends along one edge.
The scene does no calculus, and neither does this module: the product is the visit's own
``grads_out[j]``, the arrival its ``grad_in``; a rule only says which numbers of the tensors the
node names stand for the local derivative (a multiply's other input, a square's ``2`` and its
base) or which constant does (a subtraction's ``1`` and ``-1``, an open ReLU gate's ``1``).
A node whose grad_fn and op have no rule is shown by its badge alone.

The rules are declared with their ops, in the engine's op table (``engine.optable``; the kinds of
factor are in ``engine.onscreen``): this module names what the scenes read of it.
"""

from __future__ import annotations

from engine.onscreen import Rule
from engine.optable import RULE_TEXTS, RULES

__all__ = ["RULES", "WORDS", "Rule", "rule_of"]

def rule_of(grad_fn: str | None, op: str | None) -> Rule | None:
    """The local rule of a node with ``grad_fn`` made by ``op``, or None. Its ``words`` are the
    series' one notation of that rule (``pow: d(a²) = 2a``): the screen writes them beside the
    visited node, a caption or an article quotes them with ``{N.rule}`` (docs/visual-grammar.md).

    >>> rule_of("PowBackward0", "pow").words
    'pow: d(a²) = 2a'
    """
    return RULES.get((grad_fn or "", op or ""))


WORDS: frozenset[str] = RULE_TEXTS | {"0", "1"}
"""Every text this table can put on screen by itself (not read from an event): the rules' words
and constants, and an open or shut gate's ``1`` and ``0``."""
