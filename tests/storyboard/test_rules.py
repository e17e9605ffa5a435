"""The arithmetic a visit writes beside its node is true: what arrived, times the factors its
rule reads from the log, is what the node sends along that edge.

The reviewer of micrograd's example at 1:1 saw ``mul: × the other input / 1.00 × 49.00 = 10.00``
at ``10.0 / f``: the tensor records op ``rdiv`` with inputs ``(10.0, f)``, a MulBackward0 of f's
reciprocal and 10.0, and the multiply's rule read f as the other input. Every rule of every clip
and lesson is checked here on the logged numbers (not the rounded texts).
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from engine.optable import OPS
from engine.records import Event, as_dict
from scenes.storyboard import load_and_plan
from scenes.storyboard.rules import WORDS, words_of
from scenes.storyboard.store import find_storyboards
from tests.clips import LESSONS
from tests.engine.op_examples import FIRST_EXAMPLE_LINE, expressions, program

FILES = [str(p) for p in LESSONS] + [str(p) for p in find_storyboards()]


def _number(s, events: list[Event]) -> float:
    """The logged value a string shows (its event's field: ``grads_out[1]``, ``value``), or the
    number a rule's constant says."""
    if s.seq is None:
        return float(Fraction(s.text))
    key, _, index = s.field.partition("[")
    fields = as_dict(events[s.seq])  # the field a string names is the log's (``pass``, not ``pass_``)
    if key not in fields:  # a number of the log put through a rule's arithmetic (1 - s)
        return s.number
    value = fields[key]
    if index:
        value = value[int(index.rstrip("]"))]
    return float(Fraction(value)) if isinstance(value, str) else float(value)


@pytest.mark.parametrize("path", FILES, ids=lambda p: Path(p).stem)
def test_every_visit_s_arithmetic_holds_on_the_logged_numbers(path: str) -> None:
    checked, plan = load_and_plan(path)
    events = checked.run.events
    assert all(e.seq == i for i, e in enumerate(events))
    rows = [c for c in plan.cues if c.kind == "local_rule"]
    wrong = []
    for c in rows:
        got = _number(next(s for s in c.strings if s.role == "in"), events)
        for s in c.strings:
            if s.role == "factor":
                got *= _number(s, events)
        out = _number(next(s for s in c.strings if s.role == "out"), events)
        if not math.isclose(got, out, rel_tol=1e-5, abs_tol=1e-6):
            wrong.append(f"{c.start:.2f} s {c.ids}: " + " ".join(f"{s.role}={s.text}" for s in c.strings) + f" ({got} != {out})")
    assert not wrong, "\n".join(wrong)


def test_the_number_over_a_reciprocal_is_the_factor() -> None:
    """``10.0 / f``: its MulBackward0 sends what arrived times 10 to the ReciprocalBackward0."""
    _, plan = load_and_plan(str(next(p for p in LESSONS if p.stem == "micrograd_readme")))
    visit = next(c for c in plan.cues if c.kind == "visit" and c.text("grad_fn") == "MulBackward0"
                 and any(r.kind == "local_rule" and r.ids[0] == c.ids[0] and r.text("factor") == "10" for r in plan.cues))
    assert visit.text("rule") == "mul: × the other input"


def _storyboard(op, tmp_path: Path) -> str:
    """A storyboard of the op table's example program for ``op``: its lines built, then the walk."""
    source = program(op)
    last = FIRST_EXAMPLE_LINE + len(expressions(op))
    text = (f"title: {op.name}\nprogram: |\n" + "".join(f"  {line}\n" for line in source.splitlines())
            + f"beats:\n  - visual: code_and_graph_build\n    lines: [1, {last}]\n    narration: \"Every spelling.\"\n"
            + "  - visual: wavefront\n    backward: 1\n    narration: \"The walk back.\"\n")
    path = tmp_path / f"{op.name}.yaml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("op", [op for op in OPS if any(n.rule for n in op.nodes)], ids=lambda op: op.name)
def test_every_rule_of_the_op_table_is_written_and_holds(op, tmp_path: Path) -> None:
    """Each node of the op table that has a rule writes it at its visits, and the arithmetic it
    writes holds on the logged numbers: a new op's rule is checked by its entry alone."""
    checked, plan = load_and_plan(_storyboard(op, tmp_path))
    events = checked.run.events
    visits = {c.ids[0]: c for c in plan.cues if c.kind == "visit"}
    rows = [c for c in plan.cues if c.kind == "local_rule"]
    for n in op.nodes:
        if n.rule is None:
            continue
        shown = [v for v in visits.values() if v.text("grad_fn") == n.grad_fn
                 and v.text("rule") == words_of(n.rule, checked.index.tensor_event[v.ids[1]], checked.index)]
        assert shown, f"no visit of {n.grad_fn} ({n.recorded}) writes {n.rule.words!r}"
        assert n.rule.words in WORDS or n.rule.named is not None
        assert any(r.ids[0] == v.ids[0] for r in rows for v in shown), f"{n.grad_fn} writes no arithmetic"
    wrong = []
    for c in rows:
        got = _number(next(s for s in c.strings if s.role == "in"), events)
        for s in c.strings:
            if s.role == "factor":
                got *= _number(s, events)
        out = _number(next(s for s in c.strings if s.role == "out"), events)
        if not math.isclose(got, out, rel_tol=1e-5, abs_tol=1e-6):
            wrong.append(" ".join(f"{s.role}={s.text}" for s in c.strings) + f" ({got} != {out})")
    assert not wrong, "\n".join(wrong)


def test_a_rule_calls_its_input_by_the_name_the_article_uses() -> None:
    """backward_walk: the square's rule names its base d (the storyboard's name for `yh - y`,
    the seed article's "the local derivative of d² is 2d") on screen, in the caption that
    quotes it and in the article's text: one name for one node, not a generic letter."""
    checked, plan = load_and_plan(str(next(p for p in find_storyboards() if Path(p).stem == "backward_walk")))
    visit = next(c for c in plan.cues if c.kind == "visit" and c.text("grad_fn") == "PowBackward0")
    assert visit.text("rule") == "pow: d² → × 2d"
    assert any("pow: d² → × 2d" in c.text and "d is yh - y" in c.text for c in plan.captions)
    article = "".join(str(block) for block in checked.storyboard.article or ())
    assert "d²" in article and "2d" in article and "2a" not in article


def test_a_rule_names_a_program_variable_or_the_code() -> None:
    """A base the program names is called by that name; an expression, in parentheses
    (``2(yh - y)``)."""
    from engine.onscreen import Rule
    square = Rule("pow: {}² → × 2{}", (), 2, 2.0, named=0)
    assert square.said("w") == "pow: w² → × 2w" and square.said("yh - y") == "pow: (yh - y)² → × 2(yh - y)"


def test_an_op_s_rule_reads_the_same_in_every_clip() -> None:
    """One notation across the series (issue 39 item 5): the square of a difference is
    ``pow: d² → × 2d`` in every clip that visits one, as in the seed article, not ``a²`` in
    some; and each clip's caption says what d is where its rule is quoted."""
    from tests.clips import CLIPS
    texts: dict[str, set[str]] = {}
    for path in find_storyboards():
        if Path(path).stem not in CLIPS:
            continue
        _, plan = load_and_plan(str(path))
        for c in plan.cues:
            if c.kind == "visit" and c.text("rule"):
                texts.setdefault(c.text("grad_fn"), set()).add(c.text("rule"))
                if c.text("grad_fn") == "PowBackward0":
                    assert any("square of d" in s.text for s in plan.captions), Path(path).stem
    assert texts["PowBackward0"] == {"pow: d² → × 2d"}
    assert all(len(t) == 1 for t in texts.values()), texts


@pytest.mark.parametrize("path", FILES, ids=lambda p: Path(p).stem)
def test_a_name_for_a_result_is_said_with_what_it_stands_for_when_first_used(path: str) -> None:
    """A name a storyboard gives an unnamed result (``names: {"yh - y": d}``) is not on any card:
    the first caption that says it also says what it stands for, or a viewer reads "the square of
    d" with nothing on screen or in words called d."""
    import re

    checked, plan = load_and_plan(path)
    for expr, name in checked.storyboard.names.items():
        said = re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w(]|\.\w)")  # not d.grad nor d(
        first = next((" ".join(c.lines) for c in plan.captions if said.search(" ".join(c.lines))), None)
        assert first is None or expr in first, (name, first)
