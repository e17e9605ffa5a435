"""The numbers of the two articles, from the engine alone (no torch needed)."""

from pathlib import Path

from engine import run_program
from engine.records import Accumulate, Branch, GradReset, Node, Print, Tensor, Visit

PROGRAMS = Path(__file__).parent / "programs"


def run(name: str):
    return run_program((PROGRAMS / name).read_text(), name)


def test_seed_program_values_and_fractions() -> None:
    log = run("seed.py")
    L = log.tensor("L")
    assert (L.exact, L.str, L.value) == ("4/9", "tensor(0.4444, grad_fn=<PowBackward0>)", 0.444444477558136)
    assert log.tensor("z").str == "tensor(0.3333, grad_fn=<MulBackward0>)"
    acc = {e.name: e for e in log.of_kind(Accumulate)}
    assert (acc["w1"].after_exact, acc["w1"].str, acc["w1"].after) == ("8/3", "tensor(2.6667)", 2.6666667461395264)
    assert (acc["w2"].after_exact, acc["w2"].str) == ("4/9", "tensor(0.4444)")
    assert [p.text for p in log.of_kind(Print)] == ["tensor(2.6667) tensor(0.4444)"]


def test_seed_visit_order_is_pytorchs() -> None:
    log = run("seed.py")
    names = {e.node: (e.name or "") for e in log.of_kind(Tensor) if e.node}
    order = [f"{e.grad_fn}({names.get(e.node, '')})" for e in log.of_kind(Visit)]
    assert order == ["PowBackward0(L)", "SubBackward0()", "MulBackward0(yh)", "AccumulateGrad(w2)",
                     "ReluBackward0(s)", "MulBackward0(z)", "AccumulateGrad(w1)"]
    sent = [e.grads_out_exact for e in log.of_kind(Visit)]
    assert sent[:3] == [["4/3"], ["4/3", None], ["8/3", "4/9"]]


def test_bucket_reaches_6_then_12_then_6_after_reset() -> None:
    log = run("accumulate.py")
    assert [p.text for p in log.of_kind(Print)] == ["tensor(6.)", "tensor(12.)", "tensor(6.)"]
    acc = log.of_kind(Accumulate)
    assert [(a.before, a.add, a.after) for a in acc] == [(None, 6.0, 6.0), (6.0, 6.0, 12.0), (None, 6.0, 6.0)]
    # two edges to one AccumulateGrad: w*w's node lists the same node twice
    mul = log.of_kind(Node)[1]
    assert mul.grad_fn == "MulBackward0" and mul.edges[0] == mul.edges[1]
    assert [r.to for r in log.of_kind(GradReset)] == [None]


def test_dynamic_graph_rebuilt_each_step() -> None:
    log = run("dynamic.py")
    assert [b.taken for b in log.of_kind(Branch)] == [True, False]
    assert [p.text for p in log.of_kind(Print)] == ["tensor(2.)", "tensor(-0.)"]
    walks = [[v.grad_fn for v in log.of_kind(Visit) if v.call == c] for c in (1, 2)]
    assert walks == [["MulBackward0", "ReluBackward0", "MulBackward0", "AccumulateGrad"],
                     ["ReluBackward0", "MulBackward0", "AccumulateGrad"]]


def test_interleaved_branches_are_not_depth_first() -> None:
    log = run("schedule.py")
    names = {e.node: e.name for e in log.of_kind(Tensor) if e.node}
    walk2 = [names.get(v.node) or v.grad_fn for v in log.of_kind(Visit) if v.call == 2]
    assert walk2 == ["L", "s", "r", "q", "c", "d", "p", "a", "b"]
    walk1 = [names.get(v.node) for v in log.of_kind(Visit) if v.call == 1]
    assert walk1 == ["c", "b", "a", "w"]
