"""Forward mode: one pass per weight, and its 36 derivatives equal reverse mode's 36 gradients."""

import re
from pathlib import Path

import pytest

from engine import ProgramError, run_program
from engine.records import Accumulate, ForwardPass, Jvp, Tangent, Visit
from tests.conftest import needs_torch

MLP = (Path(__file__).parent / "programs" / "mlp.py").read_text()


def test_mlp_forward_mode_equals_reverse_mode() -> None:
    log = run_program(MLP, "mlp.py", forward_mode="L")
    grads = {a.name: a for a in log.of_kind(Accumulate)}
    jvps = {j.name: j for j in log.of_kind(Jvp)}
    assert len(grads) == len(jvps) == 36
    assert [p.pass_ for p in log.of_kind(ForwardPass)] == list(range(1, 37))
    for name, acc in grads.items():
        assert jvps[name].exact == acc.after_exact is not None, name
        assert jvps[name].value == pytest.approx(acc.after, rel=1e-6), name
    assert len(log.of_kind(Visit)) == 109  # 73 ops + 36 AccumulateGrads, one sweep


def test_passes_follow_leaf_creation_order_and_touch_only_what_depends_on_the_seed() -> None:
    log = run_program(MLP, "mlp.py", forward_mode="L")
    assert [p.name for p in log.of_kind(ForwardPass)][:3] == ["w1_0_0", "w1_0_1", "w1_0_2"]
    first = [t for t in log.of_kind(Tangent) if t.pass_ == 1]
    last = [t for t in log.of_kind(Tangent) if t.pass_ == 36]
    assert len(last) < len(first)  # w3_3 reaches only the last layer


def test_unknown_root_is_refused() -> None:
    with pytest.raises(ProgramError, match="no tensor named Q"):
        run_program(MLP, "mlp.py", forward_mode="Q")


@pytest.mark.slow
@needs_torch
def test_mlp_forward_mode_matches_torch_func_jvp() -> None:
    import torch
    from torch.func import jvp

    def number(text: str) -> float:
        a, _, b = text.partition("/")
        return float(a) / float(b) if b else float(a)

    values = dict(re.findall(r"^(\w+) = torch\.tensor\(([-\d./]+)", MLP, re.M))
    weights = [k for k in values if k.startswith("w")]
    x = [torch.tensor(number(values[f"x{i}"])) for i in range(4)]

    def loss(*ws):
        w = dict(zip(weights, ws))
        h1 = [sum((w[f"w1_{i}_{j}"] * x[j] for j in range(1, 4)), w[f"w1_{i}_0"] * x[0]).relu() for i in range(4)]
        h2 = [sum((w[f"w2_{i}_{j}"] * h1[j] for j in range(1, 4)), w[f"w2_{i}_0"] * h1[0]).relu() for i in range(4)]
        yh = sum((w[f"w3_{j}"] * h2[j] for j in range(1, 4)), w["w3_0"] * h2[0])
        return (yh - torch.tensor(number(values["y"]))) ** 2

    primals = tuple(torch.tensor(number(values[k])) for k in weights)
    log = run_program(MLP, "mlp.py", forward_mode="L")
    ours = {j.name: j.value for j in log.of_kind(Jvp)}
    for k, name in enumerate(weights):
        tangents = tuple(torch.tensor(1.0 if i == k else 0.0) for i in range(len(weights)))
        _, d = jvp(loss, primals, tangents)
        assert ours[name] == pytest.approx(d.item(), rel=1e-6), name


def test_forward_mode_passes_times_operations_are_bounded_before_the_first_pass() -> None:
    """Once: forward mode had no bound (one pass per input over every op: 15,000 inputs reached
    6 GB in 40 s). 400 inputs summed take 400 passes over 400 additions, past 100,000."""
    source = ("import torch\nws = []\nfor i in range(400):\n    ws.append(torch.tensor(1.0, requires_grad=True))\n"
              "L = sum(ws)\n")
    log = run_program(source, "p.py", forward_mode="L")
    assert log.limit is not None and log.limit.line == 5
    assert "forward mode needs 400 passes (one per input) over 400 operations" in str(log.limit)
    assert "fewer inputs" in str(log.limit)
    assert not log.of_kind(ForwardPass) and log.events[-1].type == "OperationLimit"


def test_forward_mode_within_the_bound_runs() -> None:
    source = ("import torch\nws = []\nfor i in range(300):\n    ws.append(torch.tensor(1.0, requires_grad=True))\n"
              "L = sum(ws)\n")
    log = run_program(source, "p.py", forward_mode="L")
    assert log.limit is None and len(log.of_kind(Jvp)) == 300
