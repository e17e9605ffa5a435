"""``voice:`` and ``say:`` in a storyboard and ``voice:`` in course.yaml: checked, and a bad value
is one located problem saying what to write."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from scenes.publish.course import Course
from scenes.storyboard import StoryboardError
from scenes.storyboard.validate import load

ROOT = Path(__file__).resolve().parents[2]
BOARD = (ROOT / "scenes" / "storyboards" / "graph_build.yaml").read_text()


def _board(tmp_path: Path, extra: str) -> Path:
    file = tmp_path / "clip.yaml"
    file.write_text(BOARD.replace("\nprogram: |", f"\n{extra}\nprogram: |", 1))
    return file


def test_voice_and_say_are_read(tmp_path: Path) -> None:
    board = load(str(_board(tmp_path, 'voice: draft\nsay: {ReLU: "ray loo"}'))).storyboard
    assert board.voice == "draft" and board.say == {"ReLU": "ray loo"}
    assert load(str(ROOT / "scenes" / "storyboards" / "graph_build.yaml")).storyboard.voice is None


def test_an_unknown_voice_is_located(tmp_path: Path) -> None:
    file = _board(tmp_path, "voice: nerual")
    line = 1 + BOARD.split("\nprogram: |")[0].count("\n") + 1
    with pytest.raises(StoryboardError) as err:
        load(str(file))
    assert re.fullmatch(rf".*clip\.yaml:{line}:8: unknown voice 'nerual'; did you mean 'neural'\? \(one of: neural, "
                        r"draft, recorded, off, or a path to a piper model ending in \.onnx\) \(at voice\)", str(err.value))


def test_a_missing_model_and_a_say_of_several_words(tmp_path: Path) -> None:
    with pytest.raises(StoryboardError) as err:
        load(str(_board(tmp_path, 'voice: voices/mine.onnx\nsay: {"grad fn": "gradient function"}')))
    text = str(err.value)
    assert "voice: no model file 'voices/mine.onnx'" in text and "relative to the storyboard" in text
    assert "say: the key 'grad fn' is several words" in text


def test_the_course_voice(tmp_path: Path) -> None:
    (tmp_path / "storyboards").mkdir()
    (tmp_path / "storyboards" / "build.yaml").write_text(BOARD)
    (tmp_path / "course.yaml").write_text("title: T\nclips: [build]\nvoice: draft\n")
    assert Course.of(tmp_path / "storyboards").voice == "draft"
    (tmp_path / "course.yaml").write_text("title: T\nclips: [build]\nvoice: loud\n")
    with pytest.raises(StoryboardError, match=r"course\.yaml:3:8: unknown voice 'loud'"):
        Course.of(tmp_path / "storyboards")


def test_the_command_exits_2_without_a_traceback(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "scenes.commands.main", "check", str(_board(tmp_path, "voice: 3"))],
                         capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "voice must be text, got 3" in run.stderr + run.stdout


def test_the_storyboard_voice_wins_then_the_course_then_neural(tmp_path: Path, monkeypatch) -> None:
    from scenes.voice.registry import DEFAULT_VOICE, ENV_VOICE, choose

    monkeypatch.delenv(ENV_VOICE, raising=False)
    assert choose("off", tmp_path / "sb", "draft", tmp_path) == ("off", tmp_path / "sb")
    assert choose(None, tmp_path / "sb", "m.onnx", tmp_path) == ("m.onnx", tmp_path)
    assert choose(None, tmp_path / "sb") == (DEFAULT_VOICE, tmp_path / "sb") == ("neural", tmp_path / "sb")
