"""``{N->M}``: the gradient N's node sends along its edge to M's node, read from the visit's
``grads_out``; and a detached tensor, or one computed under ``torch.no_grad()``, drawn as a
plain value (no edge from its source)."""

from __future__ import annotations

from engine import run_program
from scenes.layout.graph import graph_from_events
from scenes.storyboard.logindex import LogIndex
from scenes.storyboard.model import Numbers
from scenes.storyboard.placeholders import parse
from scenes.storyboard.narration import fill

SOURCE = """import torch
a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
sq = a ** 2
m = a * a
L = sq * b + m
L.backward()
d = sq.detach()
"""


def _fill(text: str, at: int | None = None, numbers: Numbers = Numbers("fraction")) -> tuple[str, list[str]]:
    log = run_program(SOURCE, "p.py")
    index = LogIndex.build(log.events, SOURCE)
    got, _, problems = fill(text, index, len(log.events) - 1 if at is None else at, numbers)
    return got, problems


def test_the_gradient_sent_along_one_edge() -> None:
    # L's AddBackward0 sends 1 to m; sq's PowBackward0 gets b = 2 and sends 2 * 2a = 12 to a
    assert _fill("sq sends {sq->a} to a, L sends {L -> m} to m.") == ("sq sends 12 to a, L sends 1 to m.", [])
    assert _fill("{sq->a}", numbers=Numbers("decimal", 2)) == ("12.00", [])
    (p,), problems = parse("{sq->a@2}")
    assert (p.name, p.to, p.pass_, p.ref, problems) == ("sq", "a", 2, "sq->a@2", [])


def test_what_cannot_be_one_edge_says_why() -> None:
    _, (two,) = _fill("{m->a}")
    assert two == ("{m->a}: m's node (MulBackward0) sends to 'a' along 2 edges (3 and 3); a placeholder "
                   "shows one number: a's node receives their sum, {a.grad_in}")
    _, (none,) = _fill("{L->sq}")
    assert none == "{L->sq}: L's node (AddBackward0) sends nothing to 'sq' in backward call 1; it sends to `sq * b`, m"
    _, (early,) = _fill("{sq->a}", at=5)
    assert early == "{sq->a} has no value yet at this beat: no backward walk has reached 'sq'"
    _, (unknown,) = _fill("{sq->zz}")
    assert unknown.startswith("{sq->zz}: the program has no tensor named 'zz'; it defines a, b, sq")


def test_a_detached_tensor_has_no_edge_from_its_source() -> None:
    log = run_program(SOURCE, "p.py")
    d = log.tensor("d")
    graph = graph_from_events(log.events, SOURCE)
    assert [it.kind for it in graph.items if it.id == d.id] == ["leaf_nograd"]
    assert [e for e in graph.edges if d.id in (e.src, e.dst)] == []


NO_GRAD = """import torch
a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
with torch.no_grad():
    c = a * b
L = a * c + b
L.backward()
"""


def test_a_result_computed_under_no_grad_is_a_plain_value(tmp_path) -> None:
    """``c = a * b`` under ``torch.no_grad()`` has no grad_fn: autograd recorded nothing, so it is
    drawn as a literal is (as a ``.detach()`` is): an input's card, no ``mul`` tag, no edge from a
    or b; L's edges from ``a * c`` and b stay."""
    from scenes.storyboard import load_and_plan

    log = run_program(NO_GRAD, "p.py")
    c, L = log.tensor("c"), log.tensor("L")
    graph = graph_from_events(log.events, NO_GRAD)
    assert [it.kind for it in graph.items if it.id == c.id] == ["leaf_nograd"]
    assert [(e.src, e.dst) for e in graph.edges if e.dst == c.id] == []
    assert len([e for e in graph.edges if e.dst == L.id]) == 2
    board = tmp_path / "nograd.yaml"
    program = "".join(f"  {line}\n" for line in NO_GRAD.splitlines())
    board.write_text(f"title: t\nprogram: |\n{program}beats:\n  - visual: code_and_graph_build\n"
                     f"    lines: [2, 6]\n    narration: \"c is {{c}}, L is {{L}}.\"\n")
    _, plan = load_and_plan(str(board))
    grown = [c_.ids for c_ in plan.cues if c_.kind == "edge_grow"]
    assert [ids for ids in grown if ids[1] == c.id] == [] and len(grown) == 4
    card = next(c_ for c_ in plan.cues if c_.kind == "node_appear" and c.id in c_.ids)
    assert [s.field for s in card.strings if s.field == "op"] == []


def test_a_branch_test_stays_by_its_operand_in_the_layout() -> None:
    """``s > 0`` has no grad_fn either, but it is a branch's test, not a value computed under
    ``no_grad``: the layout keeps its edge from s, as the clips' layouts were made with it."""
    source = "import torch\nw = torch.tensor(2.0, requires_grad=True)\ns = w * 3\nif s > 0:\n    s = s * 2\n"
    log = run_program(source, "p.py")
    test = next(e for e in log.events if getattr(e, "op", None) == "gt")
    graph = graph_from_events(log.events, source)
    assert [e.src for e in graph.edges if e.dst == test.id] == [test.inputs[0]]


def test_a_rule_is_quoted_in_the_words_the_screen_writes() -> None:
    """``{N.rule}`` (issue 39): a caption and an article quote a node's rule in the one notation
    the screen writes beside the node (the visit's ``rule`` string), not in one of their own."""
    from scenes.storyboard import load_and_plan, storyboard_path

    assert _fill("{sq.rule}; {m.rule}") == ("pow: a² → × 2a; mul: × the other input", [])
    _, (leaf,) = _fill("{a.rule}")
    assert leaf == "{a.rule}: 'a' has no local rule (it is a leaf)"
    checked, p = load_and_plan(storyboard_path("backward_walk"))
    screen = {s.text for c in p.cues if c.kind == "visit" for s in c.strings if s.field == "rule"}
    said = {s.text for cap in p.captions for s in cap.strings if s.field == "rule"}
    assert said and said <= screen
