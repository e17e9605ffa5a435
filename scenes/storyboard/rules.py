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
from engine.records import Event

from .logindex import LogIndex

__all__ = ["RULES", "WORDS", "Rule", "rule_of", "words_of"]

def rule_of(grad_fn: str | None, op: str | None) -> Rule | None:
    """The local rule of a node with ``grad_fn`` made by ``op``, or None. Its ``words`` are the
    series' one notation of that rule (``pow: {}² → × 2{}``, the ``{}`` its base's name, see
    :func:`words_of`): the screen writes them beside the visited node, a caption or an article
    quotes them with ``{N.rule}`` (docs/visual-grammar.md).

    >>> rule_of("PowBackward0", "pow").words
    'pow: {}² → × 2{}'
    """
    return RULES.get((grad_fn or "", op or ""))


def input_name(index: LogIndex, tensor: Event, k: int) -> str:
    """What input ``k`` of ``tensor`` is called where a rule names it: its program name, else the
    name the storyboard's ``names:`` gives it (``"yh - y": d``, the name the article uses), else
    the rule's own letter ``a`` (a result the program and the storyboard leave unnamed: its code
    in the words, ``pow: (yh - y)² → × 2(yh - y)``, ran long and drew the note toward other
    cards); a Python number is written as the program wrote it."""
    inputs = tensor.inputs or []
    src = inputs[k] if k < len(inputs) else None
    if not isinstance(src, str):
        return str(int(src)) if isinstance(src, float) and src.is_integer() else str(src)
    ev = index.tensor_event.get(src)
    if ev is not None and ev.name:
        return ev.name
    named = [n for n, ids in index.name_tensors.items() if src in ids]
    return named[0] if named else "a"


def words_of(rule: Rule, tensor: Event, index: LogIndex) -> str:
    """The words of ``rule`` for the node of ``tensor``, its named input called by
    :func:`input_name`: the very text the screen writes beside the node and ``{N.rule}``
    quotes, so that screen, caption and article give a value one name (``pow: d² → × 2d``)."""
    return rule.said(input_name(index, tensor, rule.named)) if rule.named is not None else rule.words


WORDS: frozenset[str] = RULE_TEXTS | {"0", "1"}
"""Every text this table can put on screen by itself (not read from an event): the rules' words
and constants, and an open or shut gate's ``1`` and ``0``."""
