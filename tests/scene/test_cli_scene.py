"""`render scene` from the outside: exit codes, one-line errors, up to date in under a second,
and a render killed with SIGKILL mid-way leaves the previous clip intact."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RENDER = [sys.executable, "-m", "scenes.cli"]
TINY = ["--size", "256x144", "--fps", "5"]


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*RENDER, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def test_unknown_storyboard_is_one_line_exit_2(tmp_path: Path) -> None:
    r = run("scene", "backward_wlak", "--out", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "backward_wlak" in r.stderr and "did you mean 'backward_walk'" in r.stderr
    assert not list(tmp_path.iterdir())


def test_bad_set_is_located_exit_2(tmp_path: Path) -> None:
    r = run("scene", "backward_walk", "--set", "w1", "--out", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.startswith("scenes/storyboards/backward_walk.yaml:") and r.stderr.count("\n") == 1


def test_render_then_up_to_date_then_kill_leaves_clip(tmp_path: Path) -> None:
    first = run("scene", "graph_build", "--out", str(tmp_path), *TINY)
    assert first.returncode == 0, first.stderr
    clip = tmp_path / "graph_build.mp4"
    assert first.stdout.strip().splitlines()[-1] == str(clip)
    assert "beat 2/" in first.stderr
    good = digest(clip)

    t0 = time.monotonic()
    again = run("scene", "graph_build", "--out", str(tmp_path), *TINY)
    assert time.monotonic() - t0 < 1.0 + 0.5  # the interpreter's own start is part of this
    assert again.returncode == 0 and "up to date" in again.stderr
    assert again.stdout.strip().splitlines()[-1] == str(clip)

    proc = subprocess.Popen([*RENDER, "scene", "graph_build", "--force", "--out", str(tmp_path), *TINY],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:  # wait until Manim is drawing, then kill it hard
        if "beat 3/" in line:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert digest(clip) == good
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".mp4"] == ["graph_build.mp4"]
