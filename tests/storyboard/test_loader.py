"""YAML loading: positions for every node, limits, and the typed model's messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scenes.storyboard import StoryboardError, schema_text
from engine.overrides import apply_overrides
from scenes.storyboard.program import ProgramPlace, defined_names
from scenes.storyboard.yamlsafe import MAX_BYTES, load_text

ROOT = Path(__file__).resolve().parents[2]


def test_positions_of_keys_and_values() -> None:
    doc = load_text("title: Hi\nbeats:\n  - visual: wavefront\n    pace: fast\n", "a.yaml")
    assert doc.pos[("beats", 0, "visual")] == (3, 13)
    assert doc.key_pos[("beats", 0, "pace")] == (4, 5)
    assert doc.at(("beats", 0, "missing")) == doc.pos[("beats", 0)]


def test_size_limit() -> None:
    with pytest.raises(StoryboardError, match="at most"):
        load_text("a: b\n" + "#" * MAX_BYTES, "big.yaml")


def test_billion_laughs_is_refused_before_expansion() -> None:
    bomb = "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\n"
    with pytest.raises(StoryboardError) as info:
        load_text(bomb, "bomb.yaml")
    assert "aliases (*a) are not allowed" in str(info.value)


def test_program_place_maps_lines_and_columns() -> None:
    assert ProgramPlace(first_line=4, indent=2).yaml_pos(3, 5) == (6, 7)


def test_defined_names_in_order() -> None:
    assert defined_names("import torch\nw = 1\ny = w * w\nw += 1\n") == ["w", "y"]


def test_set_writes_the_value_into_the_program_text() -> None:
    src = "import torch\nw1 = torch.tensor(1/3, requires_grad=True)\nw2 = 2.0\n"
    assert apply_overrides(src, {"w1": "0.5", "w2": "-1"}, "p.py") == (
        "import torch\nw1 = torch.tensor(0.5, requires_grad=True)\nw2 = -1\n")


def test_committed_schema_is_generated_from_the_model() -> None:
    committed = (ROOT / "scenes" / "schema" / "storyboard.schema.json").read_text()
    assert committed == schema_text()
    schema = json.loads(committed)
    beat = schema["$defs"]["Beat"]
    assert beat["additionalProperties"] is False
    assert "wavefront" in beat["properties"]["visual"]["enum"]
    assert schema["required"] == ["title", "program", "beats"]


def test_every_storyboard_points_at_the_schema() -> None:
    for path in sorted((ROOT / "scenes" / "storyboards").glob("*.yaml")):
        first = path.read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=../schema/storyboard.schema.json", path.name


@pytest.mark.parametrize("written,read", [
    ("1:30", "1:30"), ("190:20:30.15", "190:20:30.15"), ("yes", "yes"), ("No", "No"), ("on", "on"),
    ("off", "off"), ("y", "y"), ("017", 17), ("0o17", 15), ("0x1f", 31), ("1_000", "1_000"), ("0b10", "0b10"),
    ("2024-01-01", "2024-01-01"), ("=", "="), ("1e3", 1000.0), (".5", 0.5), ("-.inf", float("-inf")),
    ("true", True), ("False", False), ("~", None), ("null", None), ("", None), ("+5", 5), ("-0", 0),
])
def test_plain_scalars_are_read_as_yaml_1_2(written: str, read: object) -> None:
    """Once: YAML 1.1's reading made ``pass: 1:30`` the sexagesimal 90 and ``yes`` a boolean."""
    value = load_text(f"a: {written}\n", "a.yaml").data["a"]
    assert value == read and type(value) is type(read), (written, value)


def test_yaml_1_1_merge_keys_are_plain_keys() -> None:
    assert load_text("<<: {x: 1}\non: 3\n", "a.yaml").data == {"<<": {"x": 1}, "on": 3}


def test_a_number_too_long_for_python_is_located() -> None:
    with pytest.raises(StoryboardError, match=r"a\.yaml:2:4: YAML value: a number of 5000 digits"):
        load_text("b: 1\nc: " + "9" * 5000 + "\n", "a.yaml")
