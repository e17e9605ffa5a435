"""Hand a render to a warm gradreel process (``scenes.warm_server``) instead of starting cold.

Why: a fresh ``render scene`` spends about 1.4 s on Python's start and Manim's import before it
draws a frame; for an edit that redraws one beat, that is most of the wait. A warm server has
imported everything once and forks a child per render, so each render starts from the same
state a fresh process would reach, minus the wait. The child gets this process's standard
input, output and error (passed over a Unix socket), its working folder, environment and
arguments, so what it prints, the files it writes and its exit status are those of a render run
here. Ctrl-C and other signals sent to this process are passed on to the child's process group.

When a server is used: ``GRADREEL_SERVER=off`` never; ``on`` always, starting one if none is
running; unset, one that is running is used, and one is started only for a person at a terminal
(stderr is a TTY), so scripts and CI leave no process behind. A server serves one checkout, one
working folder and one environment (they are in its socket's name), exits once gradreel's code
changes, and after ``GRADREEL_SERVER_IDLE`` seconds without a request (default 1800).

    render scene backward_walk    # cold, then starts a server (one line on stderr says so)
    render scene backward_walk    # forked from the server: starts drawing at once

This module is imported before anything heavy: the standard library only.
"""

from __future__ import annotations

import array
import hashlib
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
"""The checkout this code is from: its engine/ and scenes/ are what a server has imported."""
CODE_FOLDERS = ("engine", "scenes")
SERVED_MODULES = ("scenes.cli", "scenes.render_queue", "scenes.render_beats")
"""What a server runs: each module's ``main(argv) -> int``, as ``python -m MODULE ARGV...`` would."""
VOLATILE_ENV = ("_", "OLDPWD", "PWD", "SHLVL")
"""Environment variables left out of a server's key, with GRADREEL_SERVER*: they differ between
shells for no reason that matters to a render (PWD is the working folder, in the key itself)."""
IDLE_SECONDS = 1800.0
HEADER = struct.Struct("!I")
"""A request is its JSON's length, then the JSON; the three descriptors ride on the first bytes."""


def mode() -> str:
    """``on``, ``off`` or ``auto`` (unset), from GRADREEL_SERVER."""
    value = os.environ.get("GRADREEL_SERVER", "auto").strip().lower()
    return value if value in ("on", "off") else "auto"


def code_stamp() -> str:
    """What tells this checkout's code, and the Python it runs on, from another version: the
    path, size and modification time of each .py file under engine/ and scenes/, the
    interpreter, and the site-packages folder (which changes when a package is installed).
    Stat only, no reading: about a millisecond."""
    digest = hashlib.sha256(f"{sys.executable}\n{sys.version}\n".encode())
    paths = [p for folder in CODE_FOLDERS for p in (ROOT / folder).rglob("*.py")]
    site = [Path(p) for p in sys.path if p.endswith("site-packages") and os.path.isdir(p)]
    for path in sorted(paths) + site + [ROOT / "pyproject.toml"]:
        try:
            st = path.stat()
        except OSError:
            continue
        digest.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:24]


def socket_path(code: str) -> Path:
    """Where the server for this code, working folder and environment listens. The folder is
    this user's alone (0700): a socket there accepts this user only."""
    env = sorted((k, v) for k, v in os.environ.items() if k not in VOLATILE_ENV and not k.startswith("GRADREEL_SERVER"))
    key = hashlib.sha256(json.dumps([code, os.getcwd(), env]).encode()).hexdigest()[:20]
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    folder = Path(base) / f"gradreel-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    if folder.stat().st_uid != os.getuid() or folder.stat().st_mode & 0o077:
        raise PermissionError(f"{folder} is not this user's own folder")
    return folder / f"{key}.sock"


def delegate(module: str, argv: list[str]) -> int | None:
    """Run ``module.main(argv)`` in a warm server's child and return its exit status, or None
    when there is no server to ask (or GRADREEL_SERVER=off): then the caller runs it itself."""
    if mode() == "off":
        return None
    try:
        code = code_stamp()
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(str(socket_path(code)))
    except OSError:
        return None
    with conn:
        request = json.dumps({"module": module, "argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
        try:
            conn.sendmsg([HEADER.pack(len(request)) + request],
                         [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [0, 1, 2]))])
        except OSError:
            return None
        return _await(conn)


def _await(conn: socket.socket) -> int | None:
    """Pass signals on until the child reports its status. None if the server never started a
    child (the caller then runs the command itself: nothing of it has run)."""
    sent: list[int] = []

    def forward(signum: int, _frame: object) -> None:
        sent.append(signum)
        try:
            conn.sendall(f"signal {signum}\n".encode())
        except OSError:
            pass

    previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)}
    started = False
    try:
        for line in conn.makefile("r", encoding="ascii"):
            word, _, value = line.partition(" ")
            if word == "started":
                started = True
            elif word == "status":
                return int(value)
    except (OSError, ValueError):
        pass
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if not started:
        return None
    if sent:  # the child was ended by the signal passed on, before it could answer
        return 128 + sent[-1]
    print("render: the warm render process ended without an exit status (killed?)", file=sys.stderr)
    return 1


def start_server(say: Callable[[str], None] = lambda line: print(line, file=sys.stderr)) -> None:
    """Start a server in the background for the next render, if GRADREEL_SERVER says so (see
    the module's docstring). It detaches from this terminal and session; its log is beside its
    socket. Costs this process a fork and exec, a few ms."""
    if mode() == "off" or (mode() == "auto" and not sys.stderr.isatty()):
        return
    try:
        code = code_stamp()
        path = socket_path(code)
        log = open(path.with_suffix(".log"), "ab")
    except OSError:
        return
    with log:
        subprocess.Popen([sys.executable, "-m", "scenes.warm_server", str(path), code], cwd=os.getcwd(),
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, close_fds=True)
    idle = os.environ.get("GRADREEL_SERVER_IDLE", f"{IDLE_SECONDS:.0f}")
    say(f"render: keeping a warm render process for the next render ({idle} s idle at most; "
        "GRADREEL_SERVER=off: never)")


def main(argv: list[str]) -> int:
    """``python -m scenes.warm_client MODULE ARGS...``: run a served module warm if a server is
    up, else in this process. For the worker processes of ``render all`` and ``render scene -j N``."""
    module, args = argv[0], argv[1:]
    if module not in SERVED_MODULES:
        raise SystemExit(f"scenes.warm_client: {module!r} is not one of {', '.join(SERVED_MODULES)}")
    status = delegate(module, args)
    if status is None:
        import importlib

        status = importlib.import_module(module).main(args)
    return status


if __name__ == "__main__":
    from scenes.cli import exit_now

    exit_now(main(sys.argv[1:]))
