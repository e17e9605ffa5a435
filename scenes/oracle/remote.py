"""PyTorch where it is: in this process, or in another Python talked to over JSON.

``render check`` compares the engine with real PyTorch. gradreel's own environment may have no
torch while another Python has it (a system ``python3``, a conda env): :func:`find_torch` picks,
in order, the Python named by ``--torch-python`` or ``$GRADREEL_TORCH_PYTHON``, this process, or
``python3`` / ``python`` on PATH. Another Python runs :func:`serve` (``python -c BOOT ROOT``): it
reads one JSON request on stdin (the program, already checked against the subset here, and the
method spellings to call) and writes one JSON reply on stdout, the trace of
:mod:`scenes.oracle.run` with its tuples and int-keyed dicts tagged so that they come back as they
were. JSON and never pickle: nothing read from the other side can run code here. The other Python
needs only torch, not numpy nor the engine (``scenes.oracle.run`` imports neither at its top).

:func:`trace` also runs PyTorch with ``ATEN_CPU_CAPABILITY=default`` (its kernels without
vector instructions), which is how ``render check`` tells a one-ulp difference of PyTorch's own
vectorised kernels from a disagreement.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENV = "GRADREEL_TORCH_PYTHON"
ROOT = Path(__file__).resolve().parents[2]
BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from scenes.oracle.remote import serve; serve()"
PROBE = ("import importlib.util, importlib.metadata, sys\n"
         "sys.stdout.write(importlib.metadata.version('torch') if importlib.util.find_spec('torch') else '')")
TIMEOUT = 600.0  # seconds for one program's run in another Python


class TorchUnavailable(Exception):
    """A named Python cannot serve as the oracle (missing, not a Python, no torch, it failed);
    the message says which and what to do."""


@dataclass(frozen=True)
class TorchAt:
    """Where PyTorch is: ``python`` None for this process, else that interpreter; its version."""

    python: str | None
    version: str
    found_by: str = "this environment"  # "--torch-python", "$GRADREEL_TORCH_PYTHON" or "PATH"

    def label(self) -> str:
        """``torch 2.13.0`` or ``torch 2.4.1 at /usr/bin/python3 (named by --torch-python)``, for
        what ``render check`` says."""
        if self.python is None:
            return f"torch {self.version}"
        why = ("found on PATH: this environment has no PyTorch" if self.found_by == "PATH"
               else f"named by {self.found_by}")
        return f"torch {self.version} at {self.python} ({why})"


def probe(python: str) -> str | None:
    """The torch version another Python has, without importing torch there (that takes seconds);
    None when it has none or cannot be run."""
    try:
        done = subprocess.run([python, "-c", PROBE], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


def here() -> TorchAt | None:
    """This process's torch, if it is importable (not imported: only found)."""
    import importlib.metadata
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        return None
    try:
        return TorchAt(None, importlib.metadata.version("torch"))
    except importlib.metadata.PackageNotFoundError:
        return TorchAt(None, "(version unknown)")


def find_torch(named: str | None = None, *, in_process: bool | None = None) -> TorchAt | None:
    """The PyTorch ``render check`` compares with, or None. ``named`` (``--torch-python``, else
    ``$GRADREEL_TORCH_PYTHON``) must have torch, or :class:`TorchUnavailable` says why; without
    one, this process's torch (``in_process``: whether it has one, when the caller already
    knows), then the first of ``python3``, ``python`` on PATH that has it."""
    where = "--torch-python" if named else f"${ENV}"
    named = named or os.environ.get(ENV) or None
    if named:
        path = shutil.which(named) or (named if Path(named).is_file() else None)
        if path is None:
            raise TorchUnavailable(f"{where} {named}: no such program; name a Python that has PyTorch, "
                                   "e.g. --torch-python /usr/bin/python3")
        version = probe(path)
        if version is None:
            raise TorchUnavailable(f"{where} {named}: this Python cannot import torch; install it there "
                                   f"({path} -m pip install torch) or name another")
        return TorchAt(path, version, where)
    mine = here() if in_process is None else (here() if in_process else None)
    if mine is not None:
        return mine
    me = os.path.realpath(sys.executable)
    for name in ("python3", "python"):
        path = shutil.which(name)
        if path is None or os.path.realpath(path) == me:
            continue
        version = probe(path)
        if version is not None:
            return TorchAt(path, version, "PATH")
    return None


def trace(at: TorchAt, source: str, filename: str, capability: str | None = None,
          visits: bool = True) -> list[tuple]:
    """The trace of ``source`` (checked against the subset) run on the PyTorch ``at``, each
    visit with its gradients (``visits``); ``capability`` sets ``ATEN_CPU_CAPABILITY`` (a fresh
    process: torch reads it on import)."""
    if at.python is None and capability is None:
        from scenes.oracle.run import torch_trace

        return torch_trace(source, filename, visits)
    from engine.optable import METHODS
    from scenes.oracle.run import EXTRA_METHODS

    python = at.python or sys.executable
    env = dict(os.environ)
    if capability is not None:
        env["ATEN_CPU_CAPABILITY"] = capability
    request = json.dumps({"source": source, "filename": filename, "methods": sorted(METHODS | EXTRA_METHODS),
                          "visits": visits})
    try:
        done = subprocess.run([python, "-c", BOOT, str(ROOT)], input=request, capture_output=True,
                              text=True, env=env, timeout=TIMEOUT)
    except (OSError, subprocess.SubprocessError) as exc:
        raise TorchUnavailable(f"{python} could not run the program on PyTorch: {exc}") from None
    try:
        reply = json.loads(done.stdout) if done.returncode == 0 else None
    except json.JSONDecodeError:
        reply = None
    if not isinstance(reply, dict) or "trace" not in reply:
        last = (done.stderr.strip().splitlines() or ["no reply"])[-1]
        raise TorchUnavailable(f"{python} could not run the program on PyTorch: {last}")
    return [decode(entry) for entry in reply["trace"]]


def encode(v: Any) -> Any:
    """A trace value as JSON data: tuples and dicts tagged (``{"tuple": [...]}``, ``{"dict":
    [[k, v], ...]}``) so that :func:`decode` gives back tuples and int keys."""
    if isinstance(v, tuple):
        return {"tuple": [encode(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": [[encode(k), encode(x)] for k, x in v.items()]}
    if isinstance(v, list):
        return [encode(x) for x in v]
    return v


def decode(v: Any) -> Any:
    """The inverse of :func:`encode`."""
    if isinstance(v, dict) and set(v) == {"tuple"}:
        return tuple(decode(x) for x in v["tuple"])
    if isinstance(v, dict) and set(v) == {"dict"}:
        return {decode(k): decode(x) for k, x in v["dict"]}
    if isinstance(v, list):
        return [decode(x) for x in v]
    return v


def serve() -> None:
    """The other Python's side: one request on stdin, one reply on stdout. The program's own
    output (there is none: the trace records prints) cannot mix into the reply, as stdout is
    held aside while it runs."""
    from scenes.oracle.run import checked_trace

    request = json.loads(sys.stdin.read())
    out, sys.stdout = sys.stdout, sys.stderr
    try:
        got = checked_trace(request["source"], request["filename"], frozenset(request["methods"]),
                            bool(request.get("visits")))
    finally:
        sys.stdout = out
    json.dump({"trace": [encode(entry) for entry in got]}, out, allow_nan=False)
