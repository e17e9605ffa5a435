"""``render watch``: a render now, and one after each saved change, in one long-lived process.

What must hold: a change is rendered once it is complete (not while a file is half written), an
unchanged file is not rendered again, bad input is reported and the watch goes on, and Ctrl-C
ends it with status 0.
"""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from scenes.commands.watch import watch
from scenes.storyboard import storyboard_path


def test_a_change_is_rendered_once_two_looks_agree(tmp_path: Path) -> None:
    board = tmp_path / "a.yaml"
    board.write_text("one")
    looks: list[int] = []
    renders: list[str] = []
    # what happens to the file at each pause of the watch: nothing, a save written in two steps
    # (two looks disagree, then agree), nothing, a second save
    script = {2: "two (half", 3: "two (whole)", 7: "three"}

    def wait(seconds: float) -> None:
        looks.append(1)
        if len(looks) in script:
            board.write_text(script[len(looks)])

    watch([str(board)], lambda: renders.append(board.read_text()), wait, renders=3)
    assert renders == ["one", "two (whole)", "three"]


def _lines(stream, into: queue.Queue) -> None:
    for line in stream:
        into.put(line.rstrip("\n"))


@pytest.mark.slow
def test_watch_renders_each_saved_edit_reports_bad_input_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    text = Path(storyboard_path("backward_walk")).read_text()
    old = "w1.grad is {w1.grad} and"  # in the takeaway, the last beat
    assert text.count(old) == 1
    board = tmp_path / "backward_walk.yaml"
    board.write_text(text)
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "scenes.commands.main", "watch", str(board), "--size", "256x144",
                             "--fps", "5", "-j", "1", "--out", str(out)], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            # Ctrl-C as a terminal delivers it, even when this run was started in the
                            # background (a shell then starts its jobs with SIGINT ignored)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    said: queue.Queue[str] = queue.Queue()
    errors: queue.Queue[str] = queue.Queue()
    readers = [threading.Thread(target=_lines, args=(stream, into), daemon=True)
               for stream, into in ((proc.stdout, said), (proc.stderr, errors))]
    for reader in readers:
        reader.start()

    def error_line(containing: str) -> str:
        while True:
            line = errors.get(timeout=300)
            if containing in line:
                return line

    try:
        assert said.get(timeout=300) == str(out / "backward_walk.mp4")
        first = (out / "backward_walk.srt").read_text()
        board.write_text(text.replace(old, "w1.grad is {w1.grad} and {w1.grad is and"))  # a bad edit
        assert "backward_walk.yaml:" in error_line("unmatched '{'")
        board.write_text(text.replace(old, "w1.grad is {w2.grad} and"))
        assert said.get(timeout=300) == str(out / "backward_walk.mp4")
        assert "1 of 8 beats drawn" in error_line("beats drawn")
        second = (out / "backward_walk.srt").read_text()
        assert first != second and first.replace("w1.grad is 8/3 and", "w1.grad is 4/9 and") == second
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
        assert "stopped watching" in error_line("stopped watching")
    finally:
        proc.kill()
    readers[0].join(timeout=60)  # everything the watch said is in ``said`` now
    assert said.empty(), "a render without a change"


def test_a_long_lived_process_plans_with_the_theme_as_saved(tmp_path: Path, monkeypatch) -> None:
    """``render watch`` plans again after the theme is saved: the timings must follow the file."""
    import scenes.theme
    from scenes.storyboard import default_timings

    theme = tmp_path / "theme.yaml"
    text = scenes.theme.DEFAULT_THEME_PATH.read_text()
    theme.write_text(text)
    monkeypatch.setattr(scenes.theme, "DEFAULT_THEME_PATH", theme)
    before = default_timings().node_appear
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("node_appear:"))
    theme.write_text(text.replace(line, line.split(":")[0] + f": {before * 2}"))
    assert default_timings().node_appear == before * 2


def test_a_worker_refuses_a_storyboard_saved_after_the_plan(tmp_path: Path) -> None:
    """A save during a render must not give a clip made of two texts: a beat worker whose
    storyboard is not the one the parent planned from stops with a message."""

    import pytest

    from scenes.render.beats import BeatJob, render_range
    from scenes.render.options import RenderOptions

    board = tmp_path / "backward_walk.yaml"
    board.write_text(Path(storyboard_path("backward_walk")).read_text())
    job = BeatJob(str(board), "backward_walk", RenderOptions(out=str(tmp_path)).to_json(), 7, 7, "0" * 64)
    with pytest.raises(RuntimeError, match="changed during the render"):
        render_range(job, lambda s: None)


def test_a_bad_theme_is_one_line_and_status_2(tmp_path: Path, monkeypatch, capsys) -> None:
    """`render scene` (and so each render of a watch) names the theme file instead of a traceback."""
    import scenes.render.pipeline
    import scenes.theme
    from scenes.commands.main import main

    theme = tmp_path / "theme.yaml"
    theme.write_text("colors: [unclosed\n")
    monkeypatch.setattr(scenes.theme, "DEFAULT_THEME_PATH", theme)
    assert main(["scene", "backward_walk", "--size", "64x36", "--fps", "5", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"render: {theme}:2:1: not valid YAML: expected ',' or ']', but got '<stream end>'"]
