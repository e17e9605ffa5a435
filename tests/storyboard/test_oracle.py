"""``render check`` against PyTorch where it is: another Python over JSON, a disagreement said in
the program's names, and PyTorch's own one-ulp difference between its CPU kernels told apart
from a disagreement. The traces of PyTorch's side are made from the engine's here (changed by
so many ulps), so these tests need no torch but the two marked ``needs_torch``."""

from __future__ import annotations

import struct
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import scenes.oracle.check as oracle
from engine import run_program
from engine.records import Event
from scenes.commands.storyboard import main
from scenes.oracle import remote
from scenes.oracle.check import WITHIN_ULP, compare
from scenes.oracle.traces import engine_trace
from scenes.oracle.verdict import first_difference, ulps
from tests.clips import LESSONS
from tests.conftest import needs_torch

SOURCE = """import torch
x = torch.tensor(0.7, requires_grad=True)
y = x.tanh()
loss = y * 3
loss.backward()
print(x.grad)
"""


def _next(v: float, steps: int) -> float:
    """``v`` moved ``steps`` float32 ulps away from zero."""
    bits = struct.unpack("<I", struct.pack("<f", v))[0] + steps
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _traces(entry: str, steps: int) -> tuple[object, list[tuple], list[Event], list[tuple]]:
    """The log, the engine's trace and its events, and a copy with the first ``entry`` entry's
    first float (a tensor's value, a visit's first gradient sent, a grads entry's first) moved."""
    log = run_program(SOURCE, "p.py")
    sources: list[Event] = []
    ours = engine_trace(log, sources, visits=True)
    theirs = list(ours)
    at = next(i for i, e in enumerate(ours) if e[0] == entry and (entry != "tensor" or e[1] == 1))
    e = ours[at]
    if entry == "tensor":
        theirs[at] = (*e[:3], _next(e[3], steps), *e[4:])
    elif entry == "visit":
        theirs[at] = (*e[:4], (_next(e[4][0], steps), *e[4][1:]))
    else:
        k = next(iter(e[1]))
        theirs[at] = ("grads", {**e[1], k: _next(e[1][k], steps)})
    return log, ours, sources, theirs


def test_a_disagreement_names_the_tensor_its_line_both_values_and_ulps() -> None:
    log, ours, sources, theirs = _traces("tensor", 2)
    found = first_difference(log, ours, sources, theirs)
    assert found is not None and (found.line, found.ulps) == (3, 2)
    assert found.message().startswith("PyTorch disagrees on y, made on line 3: gradreel 0.6043677")
    assert found.message().endswith(", 2 ulps apart")
    log, ours, sources, theirs = _traces("grads", 1)
    found = first_difference(log, ours, sources, theirs)
    assert found is not None and found.line == 5
    assert found.message().startswith("PyTorch disagrees on x.grad, as line 5 left it: gradreel 1.9")
    log, ours, sources, theirs = _traces("visit", 3)
    found = first_difference(log, ours, sources, theirs)
    assert found is not None and (found.line, found.ulps) == (4, 3)
    assert found.subject == "the gradient loss's MulBackward0 sends to y (made on line 4; backward call 1, line 5)"


def test_ulps_count_float32_steps_across_zero() -> None:
    assert [ulps(1.0, _next(1.0, 1)), ulps(-0.0, 0.0), ulps(_next(0.0, 1), -_next(0.0, 1)), ulps(1.0, "nan")] \
        == [1, 0, 2, None]


@pytest.mark.parametrize("steps,default_agrees,agrees", [(1, True, True), (1, False, False), (2, True, False)])
def test_one_ulp_of_pytorchs_vectorised_kernel_is_agreement(monkeypatch, steps: int, default_agrees: bool,
                                                           agrees: bool) -> None:
    """One ulp where PyTorch's plain kernels (ATEN_CPU_CAPABILITY=default) agree bit for bit is
    PyTorch's own difference; two ulps, or a difference the plain kernels show too, is not."""
    log, ours, _, moved = _traces("visit", steps)

    def fake_trace(at, source, filename, capability=None, visits=True):
        return ours if capability == "default" and default_agrees else moved
    monkeypatch.setattr(remote, "trace", fake_trace)
    verdict = compare(SimpleNamespace(log=log), SOURCE, "p.py", remote.TorchAt(None, "test"))
    assert (verdict.differences == []) == agrees
    if agrees:
        assert verdict.note.startswith(f"PyTorch {WITHIN_ULP} (the gradient loss's MulBackward0 sends to y")
    else:
        (d,) = verdict.differences
        plain = " (with ATEN_CPU_CAPABILITY=default PyTorch agrees bit for bit: its vectorised kernel " \
                "parts from its plain one here by more than 1 ulp)" if default_agrees else ""
        assert d.line == 4 and d.message.endswith(f"{steps} ulp{'s' * (steps > 1)} apart{plain}")


def test_the_wire_gives_back_tuples_and_int_keys() -> None:
    trace = [("tensor", 0, "tensor(1.)", 1.0, None, (("acc", 0), None)), ("grads", {0: None, 3: 0.5}),
             ("branch", True), ("visit", 1, ("inner", ("op", 2, 0), 1), 1.0, (None, -0.25))]
    assert [remote.decode(e) for e in remote.encode(trace)] == trace


def test_a_named_python_without_torch_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    fake = tmp_path / "python-without-torch"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    assert main(["check", str(LESSONS[0]), "--torch-python", str(fake)]) == 2
    assert capsys.readouterr().err == (f"render check: --torch-python {fake}: this Python cannot import torch; "
                                       f"install it there ({fake} -m pip install torch) or name another\n")
    monkeypatch.setenv(remote.ENV, str(tmp_path / "missing"))
    with pytest.raises(remote.TorchUnavailable, match=r"^\$GRADREEL_TORCH_PYTHON .*missing: no such program"):
        remote.find_torch(None)


@needs_torch
def test_check_uses_the_pytorch_of_another_python(monkeypatch, capsys) -> None:
    """gradreel's environment without torch, another Python with it: that one is run, over JSON,
    and its trace is the one this process's torch gives."""
    from scenes.oracle.run import torch_trace

    here = remote.TorchAt(sys.executable, "test")
    assert remote.trace(here, SOURCE, "p.py", visits=False) == torch_trace(SOURCE, "p.py")
    monkeypatch.setattr(oracle, "torch_available", lambda: False)
    monkeypatch.setenv(remote.ENV, sys.executable)
    assert main(["check", str(LESSONS[0])]) == 0
    out, err = capsys.readouterr()
    assert "PyTorch agrees" in out and f"at {sys.executable} (named by $GRADREEL_TORCH_PYTHON)" in err


def test_without_torch_here_a_python_on_path_that_has_it_is_used(tmp_path: Path, monkeypatch) -> None:
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\necho 9.9.9\n")  # answers the probe as a Python with torch 9.9.9 would
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv(remote.ENV, raising=False)
    at = remote.find_torch(None, in_process=False)
    assert at == remote.TorchAt(str(fake), "9.9.9", "PATH")
    assert at.label() == f"torch 9.9.9 at {fake} (found on PATH: this environment has no PyTorch)"


def test_other_differences_are_said_in_the_programs_words() -> None:
    log = run_program(SOURCE, "p.py")
    sources: list[Event] = []
    ours = engine_trace(log, sources, visits=True)

    def differing(change) -> str:
        theirs = [change(e) for e in ours]
        found = first_difference(log, ours, sources, theirs)
        assert found is not None
        return found.message()
    assert differing(lambda e: (*e[:4], "MulBackward0", e[5]) if e[:2] == ("tensor", 1) else e) == (
        "PyTorch disagrees on y, made on line 3: gradreel grad_fn TanhBackward0, PyTorch grad_fn MulBackward0")
    assert differing(lambda e: (*e[:5], (("acc", 0), None)) if e[:2] == ("tensor", 2) else e) == (
        "PyTorch disagrees on loss, made on line 4: gradreel edges to y's grad_fn, none, PyTorch edges to "
        "x's AccumulateGrad, none")
    assert differing(lambda e: ("print", "tensor(2.)") if e[0] == "print" else e) == (
        "PyTorch disagrees on what line 6 prints: gradreel 'tensor(1.9042)', PyTorch 'tensor(2.)'")
    assert first_difference(log, ours, sources, ours[:-1]).message() == (
        f"PyTorch disagrees on what follows line 6: gradreel goes on with {ours[-1]!r}, PyTorch ends there")


NETWORK = """import torch
x = [torch.tensor(0.5), torch.tensor(-1.5)]
W1 = [[torch.tensor(0.6, requires_grad=True), torch.tensor(-0.4, requires_grad=True)],
      [torch.tensor(0.3, requires_grad=True), torch.tensor(0.8, requires_grad=True)]]
b1 = [torch.tensor(0.1, requires_grad=True), torch.tensor(-0.2, requires_grad=True)]
W2 = [torch.tensor(0.7, requires_grad=True), torch.tensor(-0.5, requires_grad=True)]
b2 = torch.tensor(0.05, requires_grad=True)
y = torch.tensor(1.0)
params = [W1[0][0], W1[0][1], W1[1][0], W1[1][1], b1[0], b1[1], W2[0], W2[1], b2]
for step in range(3):
    h = []
    for j in range(2):
        z = W1[j][0] * x[0] + W1[j][1] * x[1] + b1[j]
        h.append(z.tanh())
    out = W2[0] * h[0] + W2[1] * h[1] + b2
    loss = (out - y) ** 2
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.1 * p.grad
    for p in params:
        p.grad = None
"""


@needs_torch
def test_a_trained_tanh_network_agrees_on_any_cpu() -> None:
    """The network of issue 40: on a CPU whose PyTorch takes a vectorised tanh backward (AVX2,
    AVX-512) it differs from the plain kernels by one ulp, which is agreement within 1 ulp;
    elsewhere it agrees bit for bit. Never a disagreement."""
    verdict = compare(SimpleNamespace(log=run_program(NETWORK, "net.py")), NETWORK, "net.py")
    assert verdict.differences == []
    assert verdict.note == "PyTorch agrees" or verdict.note.startswith(f"PyTorch {WITHIN_ULP} (the gradient h[1]'s")
