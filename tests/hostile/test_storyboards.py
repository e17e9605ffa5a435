"""Hostile storyboards: refused where the problem is, with what was expected.

What lives here: storyboards past their bounds (beats, narration, checklist, clip length),
control characters, a thousand problems, names that are globs. Why apart: each is a YAML file
(in tests/hostile/storyboards/ or written by the test) checked by ``render check``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.harness import CORPUS, ROOT, one_line, render

@pytest.mark.parametrize("name,words", [
    ("many_beats", "300 beats; a clip may have at most 200"),
    ("long_narration", "narration is 700 characters; at most 600"),
    ("control_chars", "U+0007"),
    ("forward_mode_code", "forward_mode: 'y; import os' is not a name"),
    ("forward_mode_unknown", "forward_mode_unknown.yaml:2:15: forward_mode: the program ends with no tensor "
                             "named loss (it ends with w, y)"),
    ("range_step_zero", "ValueError: range() arg 3 must not be zero"),
    ("names_value_number", "2:16: names: the value of 'w*x' must be text, got 3"),
    ("names_empty_key", "names_empty_key.yaml:2:13: names: a key must not be empty"),
    ("names_list", "2:8: names must be a mapping of keys to values, got a list"),
])
def test_a_storyboard_outside_the_bounds_is_refused_where_it_is(name: str, words: str) -> None:
    r = render("check", str(CORPUS / "storyboards" / f"{name}.yaml"), "--no-torch")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"tests/hostile/storyboards/{name}.yaml:" in r.stderr and words in r.stderr, r.stderr


def _checklist_board(tmp_path: Path, items: list[str]) -> Path:
    """A storyboard whose checklist is ``items``, one a line, the first on line 3."""
    rows = "".join(f"  - {json.dumps(item)}\n" for item in items)
    board = tmp_path / "checks.yaml"
    board.write_text(f"title: Checks\nchecklist:\n{rows}program: |\n  import torch\n  w = torch.tensor(1.0)\n"
                     "beats:\n  - visual: title_card\n    narration: \"Hi\"\n    check: 1\n")
    return board


@pytest.mark.parametrize("items,where,words", [
    (["ok", "x" * 10_000], "checks.yaml:4:5:", "checklist item 2 is 10000 characters; at most 30"),
    (["ok", "x" * 31], "checks.yaml:4:5:", "checklist item 2 is 31 characters; at most 30"),
    ([f"item {k}" for k in range(10_000)], "checks.yaml:3:3:", "10000 items; a checklist may have at most 8"),
    (["ok", "ring\a"], "checks.yaml:4:5:", "checklist item 2 holds the control character U+0007"),
])
def test_a_checklist_outside_the_bounds_is_refused_at_its_item(tmp_path: Path, items: list[str], where: str,
                                                               words: str) -> None:
    """Once: an item of 10,000 characters, 10,000 items, or a BEL in an item were accepted (the list
    is drawn on screen, in one corner: it must fit the narrowest frame)."""
    one_line(render("check", str(_checklist_board(tmp_path, items)), "--no-torch"), where, words)


@pytest.mark.parametrize("aspect", ["9:16", "1:1"])
def test_a_checklist_at_its_bounds_is_accepted_and_fits_the_narrowest_frame(tmp_path: Path, aspect: str) -> None:
    """Each of the most items, each of the most of the widest letter, is inside the frame."""
    from scenes.storyboard.inputcheck import MAX_CHECKLIST_ITEM_CHARS, MAX_CHECKLIST_ITEMS

    items = [f"{k}" + "W" * (MAX_CHECKLIST_ITEM_CHARS - 1) for k in range(1, MAX_CHECKLIST_ITEMS + 1)]
    board = _checklist_board(tmp_path, items)
    r = render("inspect", str(board), "--aspect", aspect, "--at", "1.5")
    assert r.returncode == 0, r.stderr
    sample = json.loads(r.stdout.splitlines()[0])
    width, height = sample["frame"]
    rows = [it["bbox"] for it in sample["items"] if it.get("text") in items]
    assert len(rows) == MAX_CHECKLIST_ITEMS, sample["items"]
    assert all(0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height for x0, y0, x1, y1 in rows), rows


def test_control_characters_are_refused_in_every_text_and_raw_in_the_file(tmp_path: Path) -> None:
    text = (CORPUS / "storyboards" / "control_chars.yaml").read_text()
    r = render("check", str(CORPUS / "storyboards" / "control_chars.yaml"), "--no-torch")
    assert "U+0007" in r.stderr and "U+001B" in r.stderr  # the title's and the narration's
    raw = tmp_path / "raw.yaml"
    raw.write_text(text.replace("\\a", "\a"))
    one_line(render("check", str(raw), "--no-torch"), "raw.yaml:1:", "U+0007")


def test_a_message_quoting_the_storyboard_escapes_its_control_characters(tmp_path: Path) -> None:
    """Once: ``emphasis: ["\\e[2J"]`` was quoted raw in "is not a name the program defines": the
    terminal cleared its screen, and a U+202E turned the rest of the line around."""
    text = (ROOT / "scenes/storyboards/graph_build.yaml").read_text()
    board = tmp_path / "esc.yaml"
    board.write_text(text.replace("emphasis: [w1, w2]", 'emphasis: ["\\e[2Jw1", "\\u202ew2"]', 1))
    r = render("check", str(board), "--no-torch")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "\x1b" not in r.stderr and "\u202e" not in r.stderr, r.stderr
    assert "'\\x1b[2Jw1' is not a name" in r.stderr and "'\\u202ew2' is not a name" in r.stderr, r.stderr


def test_a_file_of_a_thousand_problems_shows_the_first_and_counts_the_rest(tmp_path: Path) -> None:
    """Once: 60,000 aliases (or a narration of 590 ``{``) printed a line each, 60,000 lines."""
    from scenes.storyboard.errors import MAX_SHOWN

    board = tmp_path / "many.yaml"
    board.write_text("a: &a x\nb: [" + ",".join(["*a"] * 1000) + "]\n")
    r = render("check", str(board), "--no-torch")
    lines = r.stderr.splitlines()
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(lines) == MAX_SHOWN + 1, r.stderr[-2000:]
    assert "anchors (&a)" in lines[0] and all("aliases (*a) are not allowed" in line for line in lines[1:-1])
    assert lines[-1].endswith(f"many.yaml: {1001 - MAX_SHOWN} more problems, not shown; fix those above first")


def test_a_clip_planned_too_long_is_refused(tmp_path: Path) -> None:
    from scenes.storyboard.loaded import MAX_CLIP_SECONDS

    words = "the gradient walks back through every node and adds up " * 10
    beats = "".join(f'  - visual: title_card\n    narration: "{words[:590]}"\n' for _ in range(150))
    board = tmp_path / "long.yaml"
    board.write_text("title: Long\nprogram: |\n  import torch\n  w = torch.tensor(1.0)\nbeats:\n" + beats)
    r = render("check", str(board), "--no-torch")
    assert r.returncode == 2 and f"at most {MAX_CLIP_SECONDS:.0f} s" in r.stderr, r.stderr


def test_render_check_goes_on_to_the_next_storyboard() -> None:
    """Once: the first storyboard's ValueError traceback ended the run before B was checked."""
    r = render("check", str(CORPUS / "storyboards" / "range_step_zero.yaml"),
               str(CORPUS / "storyboards" / "shadow_square.yaml"), "--no-torch")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "range() arg 3" in r.stderr and "ok shadow_square" in r.stdout


def test_render_log_pretty_escapes_control_characters() -> None:
    r = render("log", str(CORPUS / "printed" / "control_print.py"), "--pretty")
    assert r.returncode == 0
    assert not any(c in r.stdout for c in "\a\x1b\x7f")
    assert "ring\\x07 \\x1b[31mred\\x7f" in r.stdout


def test_a_storyboard_named_like_a_glob_renders(tmp_path: Path) -> None:
    """``render scene './*.yaml'`` of a file called ``*.yaml``: its name was a bad glob pattern."""
    from scenes.render.pipeline import _sweep_leftovers

    (tmp_path / ".other-pid999999999").mkdir()
    _sweep_leftovers(tmp_path, "*")  # the pattern is the name itself, not a wildcard
    assert (tmp_path / ".other-pid999999999").exists()
    (tmp_path / ".*-pid999999999").mkdir()
    _sweep_leftovers(tmp_path, "*")
    assert not (tmp_path / ".*-pid999999999").exists()
