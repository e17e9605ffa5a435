"""The op table against everything that reads it: every op it declares is spelled in the subset,
runs on the engine and on real PyTorch alike, makes exactly the nodes the table says, and either
has its on-screen rule or is one of the few shown by their badge alone.

What a new op's entry could leave out is checked here from the table, not from a second list:
a spelling the subset refuses, a call form the engine does not read, a method the oracle does not
call, a grad_fn the entry does not declare, a node without a rule, a spelling the docs omit.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import run_program
from engine.optable import OPS, Op
from engine.records import Error, Tensor
from engine.subset import CALLS, EXPRESSIONS, TENSOR_METHODS, TORCH_FUNCTIONS
from tests.conftest import needs_torch
from tests.engine.op_examples import FIRST_EXAMPLE_LINE, expressions, program

DOCS = Path(__file__).parents[2] / "docs" / "event-log.md"

BADGE_ONLY = {("DivBackward0", "div"), ("PowBackward1", "pow"), ("PowBackward2", "pow"),
              ("AbsBackward0", "abs"), ("ClampBackward1", "clamp"), ("SumBackward0", "sum"),
              ("MeanBackward0", "mean"), ("ReciprocalBackward0", "reciprocal"), ("SqrtBackward0", "sqrt")}
"""The nodes a visit shows by their badge alone, no rule and no arithmetic. A new op's node is
not one of them unless it is put here on purpose: its entry gives it a rule."""

IDS = [op.name for op in OPS]


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_every_spelling_is_in_the_subset_and_its_messages(op: Op) -> None:
    assert op.operator is not None or op.calls, f"{op.name} has no spelling: no program can reach it"
    for call in op.calls:
        assert call.name in TENSOR_METHODS and call.name in TORCH_FUNCTIONS, call.name
        assert f".{call.name}" in CALLS and f"torch.{call.name}" in CALLS, call.name
        assert re.search(rf"\b{call.name}\b", EXPRESSIONS), call.name


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_each_op_makes_exactly_the_nodes_its_entry_declares(op: Op) -> None:
    log = run_program(program(op), f"{op.name}.py")
    assert not log.of_kind(Error), log.of_kind(Error)
    lines = range(FIRST_EXAMPLE_LINE, FIRST_EXAMPLE_LINE + len(expressions(op)))
    made = {(t.grad_fn, t.op) for t in log.of_kind(Tensor) if t.line in lines}
    assert made == {(n.grad_fn, n.recorded) for n in op.nodes}


def test_no_two_entries_claim_one_name_spelling_or_node() -> None:
    """The lists read from the table are keyed by these: a second claim would overwrite the first."""
    for key in (lambda op: [op.name], lambda op: [c.name for c in op.calls],
                lambda op: [(n.grad_fn, n.recorded) for n in op.nodes]):
        claimed = [k for op in OPS for k in key(op)]
        assert len(claimed) == len(set(claimed)), sorted(k for k in claimed if claimed.count(k) > 1)


def test_a_node_without_a_rule_is_badge_only_on_purpose() -> None:
    bare = {(n.grad_fn, n.recorded) for op in OPS for n in op.nodes if n.rule is None}
    assert bare == BADGE_ONLY, ("a node of the op table has no on-screen rule: give its entry one "
                                "(engine.optable), or add it to BADGE_ONLY with the reason")


@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_each_rule_reads_inputs_its_tensors_have(op: Op) -> None:
    """A rule's ``arity`` is the number of inputs its tensors record, and its factors name
    inputs below that: else the planner finds no rule, or reads past the inputs."""
    tensors = run_program(program(op), f"{op.name}.py").of_kind(Tensor)
    for n in op.nodes:
        if n.rule is None:
            continue
        arities = {len(t.inputs) for t in tensors if (t.grad_fn, t.op) == (n.grad_fn, n.recorded)}
        assert n.rule.arity in arities, (n, arities)
        for f in (f for factors in n.rule.factors for f in factors):
            k = getattr(f, "k", getattr(f, "of", None))
            assert k is None or 0 <= k < n.rule.arity, (n, f)


def test_the_docs_list_every_spelling() -> None:
    subset = DOCS.read_text().split("## The supported subset", 1)[1].split("\n## ", 1)[0]
    for op in OPS:
        for call in op.calls:
            assert re.search(rf"\b{call.name}\b", subset), f"docs/event-log.md's subset omits {call.name}"


@needs_torch
@pytest.mark.parametrize("op", OPS, ids=IDS)
def test_every_spelling_agrees_with_pytorch(op: Op) -> None:
    """Values, grad_fns, edges, visits and grads as real torch has them: bit for bit for a
    ``bit_exact`` op, else to 1e-6 (its kernel's last ulp) and what follows from it."""
    from scenes.oracle.run import torch_trace
    from scenes.oracle.traces import compare_traces, engine_trace

    source = program(op)
    diff = compare_traces(engine_trace(run_program(source, "op.py")), torch_trace(source, "op.py"),
                          0.0 if op.bit_exact else 1e-6)
    assert diff is None, f"{diff}\n--- program ---\n{source}"
