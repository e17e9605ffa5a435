"""The log's typed records: one per kind, the docs' fields, the JSON given back byte for byte, and
no reading an event by a string key anywhere in the scenes."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from engine import LogFormatError, read_log, run_program
from engine.events import REQUIRED
from engine.records import KINDS, Error, Tensor, Visit, as_dict, record_of

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((ROOT / "tests" / "engine" / "programs").glob("*.py"))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_records_give_back_the_json_the_engine_wrote(path: Path) -> None:
    log = run_program(path.read_text(encoding="utf-8"), path.name)
    text = log.to_jsonl()
    again = read_log(text)
    assert again.to_jsonl() == text
    for line, ev in zip(text.splitlines()[1:], again.events):
        assert json.dumps(as_dict(ev)) == json.dumps(json.loads(line))  # same keys, same order
        assert type(ev) is KINDS[json.loads(line)["kind"]]


def test_every_kind_of_the_contract_has_a_record_with_its_fields() -> None:
    assert set(KINDS) == set(REQUIRED)
    for kind, cls in KINDS.items():
        names = {f.name.rstrip("_") for f in dataclasses.fields(cls)}
        assert set(REQUIRED[kind]) <= names, kind


def test_an_error_outside_a_walk_has_no_node_in_its_json() -> None:
    log = run_program("import torch\nw = torch.tensor(1.)\nw.backward()\n", "p.py")
    err = log.of_kind(Error)[0]
    assert err.node is None and "node" not in as_dict(err)


def test_records_are_frozen_and_read_by_field_only() -> None:
    log = run_program("import torch\nw = torch.tensor(2., requires_grad=True)\n(w * w).backward()\n", "p.py")
    t, v = log.of_kind(Tensor)[0], log.of_kind(Visit)[0]
    assert (t.name, t.value, v.grad_in) == ("w", 2.0, 1.0)
    with pytest.raises(TypeError):
        t["name"]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.name = "v"  # type: ignore[misc]


def test_a_field_the_docs_make_optional_is_none_when_the_log_lacks_it() -> None:
    ev = record_of({"seq": 0, "kind": "tensor", "line": 1, "id": "t0", "name": None, "value": 1.0,
                    "exact": "1", "str": "tensor(1.)", "requires_grad": False, "is_leaf": True,
                    "grad_fn": None, "node": None, "edges": []})
    assert isinstance(ev, Tensor) and (ev.dtype, ev.op, ev.inputs, ev.span) == (None, None, None, None)


def test_an_unknown_kind_is_refused_naming_the_line() -> None:
    text = '{"format":"gradreel-events","version":1}\n{"seq":0,"kind":"teleport","line":1}\n'
    with pytest.raises(LogFormatError, match=r"^<log>:2: unknown event kind 'teleport'"):
        read_log(text)


# An event read by its kind string or a field's name (``ev["kind"] == "tensor"``, ``e.get("op")``).
# The scenes' other dicts (the inspector's items: ``i["kind"] == "text"``) are not events.
_BY_KEY = re.compile(r"""(\[["']kind["']\]|\.get\(["']kind["']\))\s*(==|!=|in)\s*\(?\s*["']("""
                     + "|".join(KINDS) + r""")["']""")


def test_no_scene_reads_an_event_by_its_kind_string() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for p in sorted((ROOT / "scenes").rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if _BY_KEY.search(line)]
    assert not found, "match the record classes of engine.records instead:\n" + "\n".join(found)
