"""The pydantic model: its errors in the project's words, its values as before, kept off the fast path.

The expected texts below are what the hand-written checker said for the same files (the broken
corpus covers the common mistakes; these are the shapes it does not).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scenes.storyboard import Beat, Numbers, Storyboard
from scenes.storyboard.errors import ErrorList
from scenes.storyboard.modelcheck import INVALID, check
from scenes.storyboard.yamlsafe import load_text

ROOT = Path(__file__).resolve().parents[2]

BOARD = """title: T
program: |
  w = 1
beats:
  - visual: code_and_graph_build
    lines: 1
    narration: hi
"""

CASES = {
    "- a\n": "1:1: storyboard must be a mapping of keys, got a list",
    BOARD.replace("lines: 1", "lines: [1, 2, 3]"): "6:12: lines must be a list [a, b], got 3 items (at beats[0].lines)",
    BOARD.replace("lines: 1", "lines: [1]"): "6:12: lines must be a list [a, b], got 1 items (at beats[0].lines)",
    BOARD.replace("lines: 1", "lines: {a: 1}"): "6:12: lines must be a whole number or a list [a, b] (at beats[0].lines)",
    BOARD.replace("lines: 1", "lines: true"): "6:12: lines must be a whole number, got True (at beats[0].lines)",
    BOARD.replace("lines: 1", "lines: '2'"): "6:12: lines must be a whole number, got '2' (at beats[0].lines)",
    BOARD.replace("lines: 1", "steps: 3"): "6:12: steps must be a list [a, b] (at beats[0].steps)",
    BOARD.replace("lines: 1", "steps: [0, 1]"): "6:13: steps must be at least 1, got 0 (at beats[0].steps[0])",
    BOARD.replace("lines: 1", "zzz: 1"): "6:5: unknown key 'zzz' in beat 1; allowed: visual, narration, lines, backward, "
                                         "visits, steps, accumulations, reset, branch, passes, pass, pace, emphasis, dim, "
                                         "focus, grad_none, unit, check, asks, title (at beats[0].zzz)",
    BOARD.replace("narration: hi", "narration: ' '"): "7:16: narration must not be empty (at beats[0].narration)",
    BOARD.replace("lines: 1", "emphasis: [~]"): "6:16: emphasis must be text, got nothing (at beats[0].emphasis[0])",
    BOARD.replace("beats:", "numbers: [1]\nbeats:"):
        "4:10: numbers must be 'fraction', 'decimal', 'torch', 'sig' or 'sci' or a mapping (at numbers)",
    BOARD.replace("beats:", "numbers: {places: 2.0}\nbeats:"): "4:19: places must be a whole number, got 2.0 (at numbers.places)",
    BOARD.replace("beats:", "numbers: {stile: x}\nbeats:"):
        "4:11: unknown key 'stile' in numbers; did you mean 'style'? (at numbers.stile)",
    BOARD.replace("title: T", "title: 2024.01"): "1:8: title must be text, got 2024.01 (at title)",
}


@pytest.mark.parametrize("text", CASES, ids=range(len(CASES)))
def test_model_errors_in_the_checkers_words(text: str) -> None:
    errors = ErrorList("b.yaml")
    assert check(load_text(text, "b.yaml"), (), Storyboard, errors) is INVALID
    assert [str(p) for p in errors.problems] == [f"b.yaml:{CASES[text]}"]


def test_a_bad_beat_is_not_also_an_empty_list() -> None:
    """pydantic counts a tuple's valid items for min_length; one bad beat is one problem."""
    errors = ErrorList("b.yaml")
    check(load_text(BOARD.replace("lines: 1", "pace: quick"), "b.yaml"), (), Storyboard, errors)
    assert [p.path for p in errors.problems] == ["beats[0].pace"]


def test_values_are_frozen_tuples_with_defaults() -> None:
    board = check(load_text(BOARD.replace("lines: 1", "lines: [1, 1]\n    emphasis: [w]"), "b.yaml"), (),
                  Storyboard, ErrorList("b.yaml"))
    beat = board.beats[0]
    assert isinstance(board.beats, tuple) and beat.lines == (1, 1) and beat.emphasis == ("w",)
    assert beat.pace == "normal" and beat.span_key() == "lines" and board.number_style == Numbers()
    assert Numbers("decimal", 2) == Numbers(style="decimal", places=2) and hash(beat) == hash(beat.model_copy())
    with pytest.raises(Exception):
        beat.pace = "fast"  # type: ignore[misc]
    with pytest.raises(Exception):
        Beat(visual="output", narration="x", colour="red")  # type: ignore[call-arg]


def test_the_up_to_date_path_does_not_import_pydantic() -> None:
    """`render scene` on an up-to-date clip builds the parser and finds the file; neither may pay
    for the model (pydantic), which only a load needs."""
    code = ("import sys; from scenes.commands.main import build_parser; build_parser(); "
            "from scenes.storyboard import StoryboardError, find_storyboards, storyboard_path; "
            "storyboard_path('backward_walk'); find_storyboards(); "
            "print(sorted(m for m in sys.modules if m.startswith(('pydantic', 'scenes.storyboard.model'))))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "[]", r.stdout + r.stderr

