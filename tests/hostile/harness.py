"""The hostile tests' harness: run ``render`` as a user would and check its one-line refusal.

Why a module and not a conftest: the tests call these (``render``, ``one_line``) and read the
constants (``CORPUS``, the folder of hostile files beside this one), so they import them by name.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "hostile"
RENDER = [sys.executable, "-m", "scenes.commands.main"]
TINY = ["--size", "256x144", "--fps", "5"]
HANG_BOUND = 120.0
"""Seconds a subprocess gets before the harness calls it hung (each takes a few seconds)."""


MEMORY_BOUND = 2 << 30
"""Bytes of address space a ``render(..., bounded=True)`` subprocess gets: far more than any
refusal needs, far less than the runaway it guards against."""


def _bound_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))


def render(*args: str, cwd: Path = ROOT, timeout: float = HANG_BOUND, stdin: int | None = None,
           env: dict[str, str] | None = None, bounded: bool = False) -> subprocess.CompletedProcess:
    """``render ARGS`` in a subprocess from ``cwd``, this checkout first on the path;
    ``bounded``: within :data:`MEMORY_BOUND` bytes, so that a runaway fails instead of filling memory."""
    return subprocess.run([*RENDER, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          stdin=stdin, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                          preexec_fn=_bound_memory if bounded else None)


def one_line(r: subprocess.CompletedProcess, *words: str) -> None:
    """Exit 2, one line on stderr, no traceback, and the line says each of ``words``."""
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    assert r.stderr.count("\n") == 1, r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)


def can_mount_in_a_namespace() -> bool:
    """Whether ``unshare -rm`` gives a mount namespace of our own here (to mount a small tmpfs,
    or a folder read-only, without touching the machine's mounts)."""
    try:
        return subprocess.run(["unshare", "-rm", "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def in_namespace(script: str, cwd: Path = ROOT, timeout: float = HANG_BOUND * 2) -> subprocess.CompletedProcess:
    """``sh -c script`` in a mount namespace of its own (``unshare -rm``), this checkout first on
    the path; ``$RENDER`` in the script runs ``render``."""
    return subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1",
                                                "RENDER": " ".join(RENDER)})
