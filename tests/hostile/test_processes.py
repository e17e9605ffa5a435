"""Processes: a killed render leaves no worker drawing and no media folder behind.

What lives here: kill -9 of a render with a worker pool, and the sweep of a dead render's media
folder. Why apart: these start and kill processes and read /proc.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.harness import HANG_BOUND, RENDER, ROOT, TINY

def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"spawn_main" in cmdline:
            out.append(int(stat.parent.name))
    return out


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs Linux pidfds")
def test_a_worker_whose_parent_is_killed_stops_at_once_and_writes_nothing(tmp_path: Path) -> None:
    """kill -9 of ``render scene -j 2``: its worker used to draw on for seconds and write one
    more segment. The wait for the worker's end is on its pidfd, bounded by the harness."""
    import select
    import signal

    out = tmp_path / "out"
    proc = subprocess.Popen([*RENDER, "scene", "backward_walk", "-j", "2", "--force", "--out", str(out), *TINY],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stderr is not None
    workers: list[int] = []
    for line in proc.stderr:  # the worker draws the later beats: wait until it has begun one
        workers = _children(proc.pid)
        if workers and any(f"beat {k}/" in line for k in range(5, 9)) and "(cached)" not in line:
            break
    assert workers, "no worker process was started"
    fds = [os.pidfd_open(w) for w in workers]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=HANG_BOUND)
    written = sorted(p.name for p in (out / ".segments").iterdir() if not p.name.startswith("."))
    for fd in fds:
        ready, _, _ = select.select([fd], [], [], 5.0)
        assert ready, "the worker is still running after its parent was killed"
        os.close(fd)
    assert sorted(p.name for p in (out / ".segments").iterdir() if not p.name.startswith(".")) == written


def test_a_killed_renders_media_folder_is_swept_by_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scenes.render.beats import MEDIA_PREFIX, sweep_media_folders

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / f"{MEDIA_PREFIX}pid{dead.pid}-abc").mkdir()
    (tmp_path / f"{MEDIA_PREFIX}pid{os.getpid()}-def").mkdir()
    sweep_media_folders()
    assert [p.name for p in tmp_path.iterdir()] == [f"{MEDIA_PREFIX}pid{os.getpid()}-def"]
