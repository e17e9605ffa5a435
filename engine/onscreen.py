"""What a visit of the backward walk writes beside its node: the rule's words, and which numbers
of the log make its local derivative. Plain data, declared with each op in :mod:`engine.optable`.

Why here, beside the maths and not in the scenes: adding an op is one entry of the op table, its
on-screen rule included. The scenes read these records (``scenes.storyboard.rules``) and do no
calculus: a visit shows ``arrived × factors = sent``, where ``sent`` is the visit's own
``grads_out[j]`` and each factor is a number of the log, a constant of the rule, or a logged
number put through a little float32 arithmetic (:class:`Derived`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np


@dataclass(frozen=True)
class Input:
    """The value of input ``k`` of the node's tensor: a tensor's value, or the Python number."""

    k: int


@dataclass(frozen=True)
class Const:
    """A number of the rule itself, written as ``text`` (a subtraction's ``1`` and ``-1``)."""

    text: str


@dataclass(frozen=True)
class Gate:
    """``1`` if input ``k`` is positive, else ``0`` (an open or shut ReLU gate)."""

    k: int


@dataclass(frozen=True)
class Output:
    """The node's own value (a sigmoid's ``s``, an exp's output)."""


@dataclass(frozen=True)
class Derived:
    """A logged number put through a little arithmetic: of input ``of`` (``1/x`` of a log's
    input), or of the node's own output when ``of`` is None (``1 - s`` of a sigmoid's).

    ``value`` is float32 arithmetic on the logged float32; ``exact`` the same on the log's exact
    value (None where the result is not rational); ``field`` names the factor in the plan."""

    of: int | None
    value: Callable[[np.float32], np.floating]
    exact: Callable[[Fraction], Fraction | None]
    field: str


Factor = Input | Const | Gate | Output | Derived


@dataclass(frozen=True)
class Rule:
    """``words``: the rule in a few words, shown beside the node; ``factors[j]``: the factors of
    the local derivative along edge ``j`` (the node's ``next_functions`` order); ``arity``: how
    many inputs the node's tensor must have for the factors to mean that (else no rule);
    ``exponent``: a power rule holds for this exponent (input 1) only; ``named``: the input whose
    name the words carry where they write ``{}`` (a square's base: ``pow: d² → × 2d`` for ``d**2``),
    so that screen, caption and article call a value by one name; ``spoken``: the same rule as a
    voice says it, in words (``the power rule: times two {}``): the screen's shorthand read symbol
    by symbol ("pow: d squared to times 2d") is noise to a listener (REVIEW5 4)."""

    words: str
    factors: tuple[tuple[Factor, ...], ...]
    arity: int
    exponent: float | None = None
    named: int | None = None
    spoken: str = ""

    def said(self, name: str) -> str:
        """The words with the named input called ``name`` (parenthesised when it is an
        expression: ``2(yh - y)``); words that name no input are returned as they are.

        >>> Rule("pow: {}² → × 2{}", (), 2, 2.0, named=0).said("yh - y")
        'pow: (yh - y)² → × 2(yh - y)'
        >>> Rule("pow: {}² → × 2{}", (), 2, 2.0, named=0).said("d")
        'pow: d² → × 2d'
        """
        if self.named is None:
            return self.words
        return self.words.replace("{}", name if name.isidentifier() else f"({name})")

    def voiced(self, name: str) -> str:
        """:attr:`spoken` with the named input called ``name``, as :meth:`said` writes it
        (the voice reads the name as it reads any name: ``d``, ``y hat minus y``).

        >>> Rule("pow: {}² → × 2{}", (), 2, 2.0, named=0, spoken="the power rule: times two {}").voiced("d")
        'the power rule: times two d'
        """
        return self.spoken.replace("{}", name if name.isidentifier() else f"({name})")


ONE_MINUS_OUTPUT = Derived(None, lambda v: 1 - v, lambda q: 1 - q, "1 - value")
ONE_MINUS_OUTPUT_SQUARED = Derived(None, lambda v: 1 - v * v, lambda q: 1 - q * q, "1 - value**2")


def reciprocal_of(k: int) -> Derived:
    """``1/x`` of input ``k`` (exact where x is rational and not 0)."""
    return Derived(k, lambda v: 1 / v, lambda q: 1 / q if q != 0 else None, "1 / value")


def texts(rule: Rule) -> frozenset[str]:
    """Every text the rule can put on screen by itself (not read from an event): its words
    unless they name an input (then they are filled from the log's names)."""
    return frozenset(({rule.words} if rule.named is None else set()) | {f.text for fs in rule.factors for f in fs if isinstance(f, Const)})
