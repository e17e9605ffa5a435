"""Storyboards for the next lessons (a training loop, a tanh neuron, a network with lists): they
pass ``render check`` against real PyTorch, and their captions say what PyTorch computes."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import pytest

from engine.records import Loop, Number, Tensor, Update
from scenes.commands.storyboard import main
from scenes.storyboard import StoryboardError, load, plan_of
from tests.conftest import needs_torch
from tests.clips import LESSONS


@needs_torch
@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lesson_checks_against_pytorch(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(path)]) == 0
    assert "PyTorch agrees" in capsys.readouterr().out


def _captions(path: Path) -> list[str]:
    """Each beat's narration as its captions show it (a long one is several caption events)."""
    from scenes.storyboard.chapters import beat_texts

    return beat_texts(plan_of(load(str(path))))


@needs_torch
def test_sgd_passes_show_each_steps_own_numbers() -> None:
    import torch

    w, x, y = torch.tensor(0.5, requires_grad=True), torch.tensor(2.0), torch.tensor(3.0)
    losses, grads, after_first = [], [], None
    for step in range(3):
        loss = (w * x - y) ** 2
        loss.backward()
        losses.append(loss.item())
        grads.append(w.grad.item())
        with torch.no_grad():
            w -= 0.1 * w.grad
        after_first = w.item() if after_first is None else after_first
        w.grad = None
    caps = _captions(Path(__file__).parent / "lessons" / "sgd_loop.yaml")

    def number(text: str, before: str, after: str) -> float:
        return float(Fraction(text.split(before, 1)[1].split(after, 1)[0].strip()))

    assert number(caps[2], "is", ".") == pytest.approx(losses[0], rel=1e-5)
    assert number(caps[4], "w is now", ".") == pytest.approx(after_first, rel=1e-5)
    assert number(caps[6], "the loss is", ".") == pytest.approx(losses[1], rel=1e-5)
    assert number(caps[7], "down to", ".") == pytest.approx(losses[2], rel=1e-5)
    assert number(caps[8], "went from", " to") == pytest.approx(losses[0], rel=1e-5)
    assert number(caps[8], "w.grad from", " to") == pytest.approx(grads[0], rel=1e-5)
    assert float(Fraction(caps[8].rsplit(" to ", 1)[1].rstrip("."))) == pytest.approx(grads[2], rel=1e-5)


def test_a_span_in_a_loop_without_a_pass_names_the_passes(tmp_path: Path) -> None:
    text = (Path(__file__).parent / "lessons" / "sgd_loop.yaml").read_text().replace("    pass: 2\n", "")
    (tmp_path / "no_pass.yaml").write_text(text)
    with pytest.raises(StoryboardError) as info:
        load(str(tmp_path / "no_pass.yaml"))
    (problem,) = info.value.problems
    assert "which ran 3 times: add pass: N (1 to 3)" in str(problem)
    assert problem.path == "beats[6]"


def test_pass_selects_only_that_runs_events() -> None:
    checked = load(str(Path(__file__).parent / "lessons" / "sgd_loop.yaml"))
    beats = checked.storyboard.beats
    one, two = (checked.index.select(b) for b in (beats[2], beats[6]))
    assert [e.kind for e in one] == [e.kind for e in two]
    assert [e.name for e in one if isinstance(e, Tensor)][-1] == "loss"
    assert max(e.seq for e in one) < min(e.seq for e in two)


def test_names_key_names_an_unnamed_result() -> None:
    caps = _captions(Path(__file__).parent / "lessons" / "tanh_neuron.yaml")
    assert caps[1].startswith("x1 times w1 is -6.0000;")


def test_names_key_refuses_an_expression_the_program_lacks(tmp_path: Path) -> None:
    text = (Path(__file__).parent / "lessons" / "tanh_neuron.yaml").read_text()
    (tmp_path / "t.yaml").write_text(text.replace('"x1*w1": x1w1', '"x1*w3": x1w1, "b": n'))
    with pytest.raises(StoryboardError) as info:
        load(str(tmp_path / "t.yaml"))
    got = sorted(str(p).split(": ", 1)[1] for p in info.value.problems)
    assert any("no expression 'x1*w3' in the program makes a tensor" in g for g in got)
    assert any("the program already has a 'n'" in g for g in got)


def test_python_number_and_code_quotes_in_narration() -> None:
    caps = _captions(Path(__file__).parent / "lessons" / "sgd_loop.yaml")
    assert caps[1].endswith("the learning rate is 1/10.")
    assert "`(w * x - y) ** 2`" in caps[2]


def test_code_pane_marks_the_pass_each_beat_shows() -> None:
    checked = load(str(Path(__file__).parent / "lessons" / "sgd_loop.yaml"))
    cues = [c for c in plan_of(checked).cues if c.kind == "loop_pass"]
    marks = [(c.beat, c.line, c.text("count"), c.text("total")) for c in cues]
    # beats 3-6 are pass 1 (one mark), 7 and 8 passes 2 and 3; the closing title card clears it
    assert marks == [(2, 6, "1", "3"), (6, 6, "2", "3"), (7, 6, "3", "3"), (8, None, None, None)]
    for c in cues[:-1]:
        assert all(isinstance(checked.index.events[s.seq], Loop) for s in c.strings)


def test_steps_by_name_select_the_same_visits_as_by_number(tmp_path: Path) -> None:
    from scenes.storyboard import storyboard_path

    text = Path(storyboard_path("backward_walk")).read_text()
    assert "steps: [3, 4]" in text and "steps: [6, 7]" in text
    (tmp_path / "named.yaml").write_text(text.replace("steps: [3, 4]", "steps: [yh, w2]")
                                         .replace("steps: [6, 7]", "steps: [z, w1]"))
    by_number, by_name = load(storyboard_path("backward_walk")), load(str(tmp_path / "named.yaml"))
    for i in (4, 6):
        picked = by_name.index.select(by_name.storyboard.beats[i])
        assert picked and picked == by_number.index.select(by_number.storyboard.beats[i])
    (tmp_path / "bad.yaml").write_text(text.replace("steps: [3, 4]", "steps: [w2, yh]")
                                       .replace("steps: [6, 7]", "steps: [q, w1]"))
    with pytest.raises(StoryboardError) as info:
        load(str(tmp_path / "bad.yaml"))
    got = [str(p) for p in info.value.problems]
    assert any("the walk reaches yh (visit 3) before w2 (visit 4)" in g for g in got), got
    assert any("visits no node of 'q'; it visits, in order: L, " in g for g in got), got


def test_check_without_pytorch_warns_that_nothing_was_compared(monkeypatch, capsys) -> None:
    import scenes.oracle.check as oracle

    monkeypatch.setattr(oracle, "torch_available", lambda: False)
    monkeypatch.setenv("PATH", "/nonexistent")  # no python3 on PATH that has torch either
    monkeypatch.delenv("GRADREEL_TORCH_PYTHON", raising=False)
    assert main(["check", str(LESSONS[0])]) == 0
    out, err = capsys.readouterr()
    assert "not compared" in out
    assert "nothing was compared" in err and "-m pip install -e '" in err and "[oracle]'" in err


def test_scripts_render_check_asks_for_the_oracle_extra(tmp_path: Path) -> None:
    """scripts/render passes "oracle" to ensure_venv for check (not with --no-torch or
    --torch-python, nor for other commands); ensure_venv itself is what scripts/test runs,
    stubbed here."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    fake = tmp_path / "scripts"
    fake.mkdir()
    (fake / "render").write_text((root / "scripts" / "render").read_text())
    (fake / "_bootstrap.sh").write_text('VENV=/nonexistent\nensure_venv() { echo "extras=[$1]"; exit 0; }\n')
    env = {k: v for k, v in os.environ.items() if k != "GRADREEL_TORCH_PYTHON"}
    got = {args: subprocess.run(["bash", str(fake / "render"), *args.split()], capture_output=True,
                                text=True, env=env).stdout.strip()
           for args in ("check x", "check --no-torch x", "scene x", "check --torch-python /usr/bin/python3 x")}
    assert got == {"check x": "extras=[oracle]", "check --no-torch x": "extras=[]", "scene x": "extras=[]",
                   "check --torch-python /usr/bin/python3 x": "extras=[]"}


def test_schema_written_beside_storyboards_outside_the_checkout(tmp_path: Path, capsys) -> None:
    import json

    from scenes.storyboard import schema_text

    assert main(["schema", "--write", str(tmp_path)]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("# yaml-language-server: $schema=")
    target = (tmp_path / line.split("$schema=", 1)[1]).resolve()  # resolved from the storyboard's folder
    assert target.parent == tmp_path.resolve() and target.read_text() == schema_text()
    assert json.loads(target.read_text())["title"] == "gradreel storyboard"
    assert main(["schema", "--write", str(tmp_path / "missing")]) == 2


@needs_torch
def test_loss_curve_plots_each_pass_of_the_loop() -> None:
    import torch

    w, x, y = torch.tensor(0.5, requires_grad=True), torch.tensor(2.0), torch.tensor(3.0)
    losses = []
    for step in range(3):
        loss = (w * x - y) ** 2
        loss.backward()
        losses.append(loss.item())
        with torch.no_grad():
            w -= 0.1 * w.grad
        w.grad = None
    checked = load(str(Path(__file__).parent / "lessons" / "sgd_loop.yaml"))
    cues = [c for c in plan_of(checked).cues if c.kind.startswith("curve_")]
    axes, points = cues[0], cues[1:]
    assert axes.kind == "curve_axes" and axes.text("name") == "loss" and axes.text("total") == "3"
    assert [p.text("count") for p in points] == ["1", "2", "3"]
    got = [float(checked.index.events[p.seqs[0]].value) for p in points]
    assert got == pytest.approx(losses, rel=1e-6)
    assert [float(Fraction(p.text("value"))) for p in points] == pytest.approx(losses, rel=1e-5)


def test_loss_curve_needs_no_pass_but_other_visuals_do(tmp_path: Path) -> None:
    text = (Path(__file__).parent / "lessons" / "sgd_loop.yaml").read_text()
    (tmp_path / "t.yaml").write_text(text.replace("  - visual: loss_curve\n", "  - visual: code_and_graph_build\n"))
    with pytest.raises(StoryboardError) as info:
        load(str(tmp_path / "t.yaml"))
    assert "which ran 3 times" in str(info.value.problems[0]) and info.value.problems[0].path == "beats[9]"


@needs_torch
def test_update_step_writes_the_arithmetic_pytorch_does() -> None:
    import torch

    w = torch.tensor(0.5, requires_grad=True)
    loss = (w * torch.tensor(2.0) - torch.tensor(3.0)) ** 2
    loss.backward()
    before, grad = w.item(), w.grad.item()
    with torch.no_grad():
        w -= 0.1 * w.grad
    checked = load(str(Path(__file__).parent / "lessons" / "sgd_loop.yaml"))
    (step,) = [c for c in plan_of(checked).cues if c.kind == "update_step"]
    got = {s.role: s for s in step.strings}
    assert float(Fraction(got["before"].text)) == pytest.approx(before)
    assert float(Fraction(got["grad"].text)) == pytest.approx(grad)
    assert float(Fraction(got["after"].text)) == pytest.approx(w.item(), rel=1e-6)
    assert got["op"].text == "-" and got["factor"].text == "1/10"
    assert isinstance(checked.index.events[got["factor"].seq], Number)  # lr = 0.1, exactly 1/10


def test_the_steps_arithmetic_is_not_a_node_of_the_graph() -> None:
    from scenes.layout.graph import graph_from_events

    checked = load(str(Path(__file__).parent / "lessons" / "sgd_loop.yaml"))
    events = checked.index.events
    updates = [e for e in events if isinstance(e, Update)]
    operands = {e.inputs[1] for e in updates}
    assert len(updates) == 3 and all(checked.index.tensor_event[t].op == "mul" for t in operands)
    items = {it.id for it in graph_from_events(events).items}
    assert not operands & items
    assert {e.id for e in events if isinstance(e, Tensor) and e.name == "loss"} <= items


@needs_torch
def test_micrograd_readme_says_what_micrograd_prints() -> None:
    """micrograd's README example, written in torch: the captions carry the numbers its README
    prints (g = 24.7041, a.grad = 138.8338, b.grad = 645.5773), to the lesson's two places."""
    import torch

    a, b = torch.tensor(-4.0, requires_grad=True), torch.tensor(2.0, requires_grad=True)
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    assert (round(g.item(), 4), round(a.grad.item(), 4), round(b.grad.item(), 4)) == (24.7041, 138.8338, 645.5773)
    caps = _captions(Path(__file__).parent / "lessons" / "micrograd_readme.yaml")
    assert f"g = {g.item():.2f}" in caps[2]
    assert f"`a.grad` is {a.grad.item():.2f} and `b.grad` is {b.grad.item():.2f}" in caps[4]


@needs_torch
def test_sigmoid_and_weighted_sum_captions_carry_pytorchs_gradients() -> None:
    """The log loss's gradient at z is p - y, and each weight of a weighted sum gets its input."""
    import torch

    x, y = torch.tensor(1.5), torch.tensor(1.0)
    w, b = torch.tensor(0.8, requires_grad=True), torch.tensor(-0.5, requires_grad=True)
    p = (w * x + b).sigmoid()
    loss = -(y * p.log() + (1 - y) * (1 - p).log())
    loss.backward()
    caps = _captions(Path(__file__).parent / "lessons" / "sigmoid_logloss.yaml")
    assert f"is {p.item() - 1.0:.3f}." in caps[3]
    assert f"`w.grad` is {w.grad.item():.3f} (x times it) and `b.grad` is {b.grad.item():.3f}" in caps[4]
    caps = _captions(Path(__file__).parent / "lessons" / "weighted_sum4.yaml")
    assert caps[3].startswith("w1.grad is 1, w2.grad is -2, w3.grad is 3 and w4.grad is 1/2")
