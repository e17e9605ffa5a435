"""The event log as a file format: byte-identical, golden, and read back with checks."""

import json
from pathlib import Path

import pytest

from engine import LogFormatError, read_log, run_program
from engine.events import REQUIRED
from engine.records import Accumulate, as_dict

ROOT = Path(__file__).resolve().parents[2]
SEED = Path(__file__).parent / "programs" / "seed.py"
GOLDEN = ROOT / "assets" / "golden" / "seed.events.jsonl"


def test_same_program_same_bytes() -> None:
    src = (Path(__file__).parent / "programs" / "mixed_ops.py").read_text()
    assert run_program(src, "m.py").to_jsonl() == run_program(src, "m.py").to_jsonl()


def test_golden_seed_log() -> None:
    """Regenerate after an intended change with:
    .venv/bin/render log tests/engine/programs/seed.py > assets/golden/seed.events.jsonl"""
    got = run_program(SEED.read_text(), "tests/engine/programs/seed.py").to_jsonl()
    assert got == GOLDEN.read_text(encoding="utf-8")


def test_every_event_has_the_contract_fields() -> None:
    log = run_program((Path(__file__).parent / "programs" / "mixed_ops.py").read_text(), "m.py")
    kinds = set()
    for i, ev in enumerate(log.events):
        assert ev.seq == i and isinstance(ev.line, int) and ev.line >= 1
        for f in REQUIRED.get(ev.kind, ()):
            assert f in as_dict(ev), (ev.kind, f)
        kinds.add(ev.kind)
    assert {"tensor", "update", "backward", "visit", "accumulate", "grad_reset", "branch", "print",
            "warning", "error"} <= kinds


def test_non_finite_values_are_strings() -> None:
    log = run_program("import torch\nw = torch.tensor(0., requires_grad=True)\nL = w.log()\nL.backward()\n", "p.py")
    L = log.tensor("L")
    assert L.value == "-inf" and L.str == "tensor(-inf, grad_fn=<LogBackward0>)"
    assert log.of_kind(Accumulate)[0].after == "inf"
    text = log.to_jsonl()
    assert "Infinity" not in text and "NaN" not in text


def test_reader_round_trip_and_refusals(tmp_path: Path) -> None:
    text = run_program(SEED.read_text(), "seed.py").to_jsonl()
    log = read_log(text)
    assert log.to_jsonl() == text
    lines = text.splitlines()
    header = json.loads(lines[0])
    header["version"] = 2
    with pytest.raises(LogFormatError, match="version 2 is not supported"):
        read_log("\n".join([json.dumps(header)] + lines[1:]))
    broken = json.loads(lines[3])
    del broken["str"]
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join(lines[:3] + [json.dumps(broken)] + lines[4:]) + "\n")
    with pytest.raises(LogFormatError, match=r"x.jsonl:4: tensor event without str"):
        read_log(path)
