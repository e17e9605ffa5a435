"""The subcommands (plan, list, schema, check), number styles, narration parsing, doctests."""

from __future__ import annotations

import doctest
import importlib
import json

import pytest

from scenes.commands.storyboard import main
from scenes.storyboard import Numbers, schema
from scenes.storyboard.placeholders import parse
from scenes.storyboard.numfmt import show, torch_str
from scenes.oracle.check import torch_available

MODULES = ["errors", "yamlsafe", "modelcheck", "numfmt", "narration", "nograd", "program", "timings", "captions"]


@pytest.mark.parametrize("module", MODULES)
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(f"scenes.storyboard.{module}"))
    assert result.failed == 0


def test_plan_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "backward_walk"]) == 0
    table = capsys.readouterr().out
    assert table.splitlines()[0].startswith("L.backward() walks the graph in reverse: ")
    assert "bucket_fill" in table and "after='8/3'@25" in table
    assert main(["plan", "backward_walk", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["title"] == "L.backward() walks the graph in reverse"
    assert main(["plan", "grad_accumulation", "--srt"]) == 0
    assert capsys.readouterr().out.startswith("1\n00:00:00,000 --> ")


def test_plan_beats_prints_each_beat_once_end_to_end(capsys: pytest.CaptureFixture[str]) -> None:
    """``--beats``: one row per beat, contiguous from 0 to the clip's end, numbered from 1, named
    by the beat's title (else its own narration); the times are the plan's (the JSON's beats), not retyped."""
    assert main(["plan", "backward_walk", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["plan", "backward_walk", "--beats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{data['title']}: {data['duration']:.2f} s, {len(data['beats'])} beats"
    rows = [line.split(maxsplit=4) for line in lines[3:]]
    assert len(rows) == len(data["beats"]) == 8  # seven beats and the takeaway
    assert [int(r[2]) for r in rows] == list(range(1, 9))
    assert [r[3] for r in rows] == [b["visual"] for b in data["beats"]]
    assert [float(r[0]) for r in rows] == [round(b["start"], 2) for b in data["beats"]]
    assert [float(r[1]) for r in rows[:-1]] == [float(r[0]) for r in rows[1:]]
    assert float(rows[0][0]) == 0.0 and float(rows[-1][1]) == round(data["duration"], 2)
    assert rows[5][4] == "Mul sends w1 its gradient"  # the beat's title:
    assert rows[7][4] == "Each node multiplied the gradient from above by its local derivative"  # the takeaway's phrase


def test_list_shows_title_and_duration(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [r.split()[0] for r in rows] == ["backward_graph", "backward_walk", "dynamic_graph", "grad_accumulation",
                                            "graph_build", "leaf_nodes", "missing_gradient", "mlp", "reverse_mode"]
    assert "L.backward() walks the graph in reverse" in rows[1] and rows[1].split()[1].endswith("s")


def test_schema_command_prints_the_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == schema()


@pytest.mark.skipif(not torch_available(), reason="torch not installed")
def test_check_all_agrees_with_pytorch(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    out = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("  ")]  # not what folded
    assert len(out) == 9 and all(line.endswith("PyTorch agrees") for line in out)


def test_number_styles() -> None:
    assert show(0.444444477558136, "4/9", Numbers("fraction")) == "4/9"
    assert show(0.7615941762924194, None, Numbers("fraction")) == "0.7616"  # tanh: no exact shadow
    assert show(0.444444477558136, "4/9", Numbers("decimal", 2)) == "0.44"
    assert show(2.6666667461395264, "8/3", Numbers("torch")) == "tensor(2.6667)"
    assert [torch_str(v) for v in (12.0, -0.0, 1e-05, "nan")] == ["tensor(12.)", "tensor(-0.)",
                                                                   "tensor(1.0000e-05)", "tensor(nan)"]


def test_narration_words_may_hold_names_with_digits() -> None:
    found, problems = parse("w1 and w2 feed x²; the bucket of w1 holds {w1.grad}")
    assert problems == [] and [p.ref for p in found] == ["w1.grad"]
    assert parse("it is 0.5 now")[1][0][1].startswith("narration types the number '0.5'")
