"""The broken corpus: every file must give exactly the problems its ``# expect:`` lines list.

Each file in broken/ ends with ``# expect: LINE:COL: message (at path)`` lines (comments, so they
do not shift positions); a ``# set: NAME=VALUE`` line at the top is passed as ``--set``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from scenes.commands.storyboard import main
from scenes.storyboard import StoryboardError, load

BROKEN = sorted((Path(__file__).parent / "broken").glob("*.yaml"))


def _expectations(path: Path) -> tuple[list[str], list[str]]:
    text = path.read_text()
    return re.findall(r"(?m)^# expect: (.*)$", text), re.findall(r"(?m)^# set: (.*)$", text)


def test_corpus_is_large_enough() -> None:
    assert len(BROKEN) >= 30


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_storyboard_gives_its_messages(path: Path) -> None:
    expected, sets = _expectations(path)
    assert expected, f"{path.name} lists no expected message"
    with pytest.raises(StoryboardError) as info:
        load(str(path), sets=sets)
    got = [str(p) for p in info.value.problems]
    prefix = os.path.relpath(path) + ":"
    assert all(g.startswith(prefix) for g in got)
    assert sorted(g[len(prefix):] for g in got) == sorted(expected)
    for line in expected:  # every message is located: LINE:COL: words
        assert re.match(r"^\d+:\d+: \S", line)


def test_all_errors_of_a_file_at_once() -> None:
    path = next(p for p in BROKEN if "many_errors" in p.stem)
    with pytest.raises(StoryboardError) as info:
        load(str(path))
    assert len(info.value.problems) == 4
    assert {p.path for p in info.value.problems} == {
        "beats[0].pace", "beats[1].backward", "beats[1].narration", "beats[2].emphasis[0]"}


def test_check_exits_2_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = next(p for p in BROKEN if "unknown_visual" in p.stem)
    assert main(["check", "--no-torch", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip().splitlines() == [f"{os.path.relpath(path)}:10:13: unknown visual 'wavefornt'; did you mean 'wavefront'? "
                                        "(one of: title_card, code_and_graph_build, backward_graph, wavefront, "
                                        "accumulate, reset, branch, output, network, network_backward, network_forward, update, loss_curve) "
                                        "(at beats[0].visual)"]
    assert list(tmp_path.iterdir()) == []


def test_set_on_the_command_line_is_located(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "backward_walk", "--set", "w9=1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("backward_walk.yaml:5:3: program line 1: --set w9: the program sets no number named w9; "
                        "names it sets: x, w1, w2, y (at program)")


def test_log_of_a_storyboard_with_wrong_narration_is_printed_whole(capsys: pytest.CaptureFixture[str]) -> None:
    """Once: ``render log FILE.yaml`` printed only the problems, exit 2, when a narration was wrong:
    the log an author needs to fix it was withheld. Now the whole log is on stdout (as for a
    program file), the problems on stderr, exit 1; a program that does not run still refuses."""
    from engine import run_program
    from scenes.commands.main import main as render

    path = next(p for p in BROKEN if "grad_while_the_walk" in p.stem)
    assert render(["log", str(path)]) == 1
    out, err = capsys.readouterr()
    source = load_program(path)
    assert out == run_program(source, f"{path.stem}.py").to_jsonl()
    lines = err.strip().splitlines()
    assert lines[0].startswith("the program ran and its whole log is above; the storyboard has 3 problems")
    assert lines[1:] == [f"{os.path.relpath(path)}:{e}" for e in sorted(_expectations(path)[0])]
    refused = next(p for p in BROKEN if "program_unsupported" in p.stem)
    assert render(["log", str(refused)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1


def load_program(path: Path) -> str:
    """The ``program:`` block of a storyboard file, as its YAML reads it."""
    import yaml

    return yaml.safe_load(path.read_text())["program"]
