"""Hostile command lines: special files and options out of range are refused in one line.

What lives here: a FIFO, a directory, a symlink loop or a device given as a storyboard or
program; a program not UTF-8 or one flat megabyte long; options that cannot apply or are out of
range. Why apart: these are what the command line is given, not what a storyboard says.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.hostile.harness import one_line, render

@pytest.fixture
def specials(tmp_path: Path) -> dict[str, Path]:
    """A FIFO, a directory, a symlink loop and a device, each named as a storyboard and a program."""
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    (tmp_path / "dir.yaml").mkdir()
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop2.yaml")
    (tmp_path / "loop2.yaml").symlink_to(tmp_path / "loop.yaml")
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    return {"fifo": fifo, "dir": tmp_path / "dir.yaml", "loop": tmp_path / "loop.yaml",
            "fifo.py": tmp_path / "fifo.py", "zero.py": tmp_path / "zero.py"}


@pytest.mark.parametrize("command", ["plan", "check", "scene", "article", "inspect", "log"])
@pytest.mark.parametrize("kind,words", [("fifo", "FIFO"), ("dir", "directory"), ("loop", "symlink loop")])
def test_a_storyboard_that_is_no_regular_file_is_named(specials, tmp_path: Path, command: str, kind: str,
                                                       words: str) -> None:
    """Once: render plan on a FIFO blocked for ever; scene and article said 'no such storyboard'."""
    extra = ["--out", str(tmp_path / "out")] if command in ("scene", "article") else []
    r = render(command, str(specials[kind]), *extra, stdin=subprocess.DEVNULL)
    one_line(r, words)


@pytest.mark.parametrize("kind,words", [("fifo.py", "FIFO"), ("zero.py", "character device")])
def test_a_program_that_is_no_regular_file_is_refused_before_reading(specials, kind: str, words: str) -> None:
    """Once: a FIFO blocked for ever, and /dev/zero was read to 7 GB before the size check."""
    one_line(render("log", str(specials[kind])), words)


def test_a_non_utf8_program_names_its_line(tmp_path: Path) -> None:
    p = tmp_path / "p.py"
    p.write_bytes(b"import torch\nw = torch.tensor(1.)\nprint('caf\xe9')\n")
    one_line(render("log", str(p)), f"{p}:3:11:", "not UTF-8", "0xe9")


def test_a_flat_megabyte_expression_is_located_at_its_line(tmp_path: Path) -> None:
    p = tmp_path / "flat.py"
    p.write_text("import torch\nx = " + "1+" * 400_000 + "1\n")
    one_line(render("log", str(p)), f"{p}:2:1:", "line 2")


def test_render_plan_refuses_two_forms_at_once() -> None:
    """Once: ``render plan NAME --json --srt`` printed the JSON and said nothing of --srt."""
    r = render("plan", "graph_build", "--json", "--srt")
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stdout == "", r.stderr
    assert "argument --srt: not allowed with argument --json" in r.stderr.splitlines()[-1], r.stderr


@pytest.mark.parametrize("args,words", [
    (["--forward-mode", "L"], "--forward-mode L: for a program file; a storyboard gives forward_mode: in its YAML"),
    (["--max-ops", "3"], "--max-ops 3: for a program file; a storyboard's program runs under the bound of 100000"),
    (["--max-ops", "0"], "--max-ops 0: for a program file"),
])
def test_render_log_of_a_storyboard_refuses_the_options_it_cannot_apply(args: list[str], words: str) -> None:
    """Once: ``render log graph_build --max-ops 3`` (or ``--forward-mode L``) printed the whole
    log as if the option had not been given."""
    one_line(render("log", "graph_build", *args), words)


@pytest.mark.parametrize("args,words", [
    (["--size", "0x0"], "--size: '0x0' is not WIDTHxHEIGHT with even numbers from 16 to 3840"),
    (["--size", "100000x100000"], "'100000x100000' is not WIDTHxHEIGHT"),
    (["-j", "-3"], "-j/--jobs: '-3' is not a whole number of processes"),
    (["-j", "x"], "-j/--jobs: 'x' is not a whole number of processes"),
])
@pytest.mark.parametrize("command", ["scene", "all"])
def test_a_frame_size_or_process_count_out_of_range_is_refused(tmp_path: Path, command: str, args: list[str],
                                                              words: str) -> None:
    """Once: ``--size 0x0`` was a ZeroDivisionError traceback from Manim's camera, 100000x100000
    a 37 GiB allocation, and ``-j -3`` was taken as -j 1."""
    target = ["graph_build"] if command == "scene" else ["graph_build", "mlp"]
    r = render(command, *target, *args, "--force", "--out", str(tmp_path))
    assert r.returncode == 2 and "Traceback" not in r.stderr and words in r.stderr.splitlines()[-1], r.stderr
    assert list(tmp_path.iterdir()) == []
