"""Hand a render to a warm gradreel process (``scenes.commands.warm_server``) instead of starting cold.

Why: a fresh ``render scene`` spends about 1.4 s on Python's start and Manim's import before it
draws a frame; for an edit that redraws one beat, that is most of the wait. A warm server has
imported everything once and forks a child per render, so each render starts from the same
state a fresh process would reach, minus the wait. The child gets this process's standard
input, output and error (passed over a Unix socket), its working folder, environment, umask,
CPUs and arguments, so what it prints, the files it writes and its exit status are those of a
render run here (a child killed outright, as by the kernel's OOM killer, gives status 1). Ctrl-C, and SIGTERM, SIGHUP and SIGQUIT, sent to this process are passed on to the child's
process group (Ctrl-Z is not: it stops this process only).

When a server is used: ``GRADREEL_SERVER=off`` never; ``on`` always, starting one if none is
running; unset, one that is running is used, and one is started only when stderr is a terminal
(a person, or a script run at one), so CI, cron and redirected runs leave no process behind. A server serves one checkout, one
working folder and one environment (they are in its socket's name), exits once gradreel's code
changes, and after ``GRADREEL_SERVER_IDLE`` seconds without a request (default 1800).

    render scene backward_walk    # cold, then starts a server (one line on stderr says so)
    render scene backward_walk    # forked from the server: starts drawing at once

This module is imported before anything heavy: the standard library (and scenes.render.code_version) only.
"""

from __future__ import annotations

import array
import hashlib
import json
import os
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

from scenes.render.code_version import code_stamp

SERVED_MODULES = ("scenes.commands.main", "scenes.render.queue", "scenes.render.beats")
"""What a server runs: each module's ``main(argv) -> int``, as ``python -m MODULE ARGV...`` would."""
VOLATILE_ENV = ("_", "OLDPWD", "PWD", "SHLVL", "COLUMNS", "LINES", "WINDOWID", "TERM_SESSION_ID", "ITERM_SESSION_ID",
                "TMUX_PANE", "KITTY_WINDOW_ID", "WEZTERM_PANE", "ALACRITTY_WINDOW_ID", "GNOME_TERMINAL_SCREEN",
                "STY", "WINDOW", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "SSH_AUTH_SOCK", "GPG_TTY")
"""Environment variables left out of a server's key, with GRADREEL_SERVER* and VSCODE_*: they
differ between shells and terminal tabs for no reason that matters to a render (the child gets
the client's values all the same; PWD is the working folder, in the key itself). A variable
missing here costs memory, not correctness: another server, and MAX_SERVERS bounds them."""
MAX_SERVERS = 4
"""Servers of one user at once: a render finding this many running starts no other."""
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
"""Signals passed on to the child, unless this process ignores them (then the child does too)."""
IDLE_SECONDS = 1800.0
HEADER = struct.Struct("!I")
"""A request is its JSON's length, then the JSON; the three descriptors ride on the first bytes."""
MAX_SOCKET_PATH = 100
"""A Unix socket's path must fit in 108 bytes; a longer one falls back to the temp folder."""


def mode() -> str:
    """``on``, ``off`` or ``auto`` (unset), from GRADREEL_SERVER."""
    value = os.environ.get("GRADREEL_SERVER", "auto").strip().lower()
    return value if value in ("on", "off") else "auto"


def socket_path(code: str) -> Path:
    """Where the server for this code, working folder, environment and process limits listens
    (niceness, resource limits and control group, which a child inherits from its server and
    could not undo). The folder is this user's alone (0700, not a link)."""
    env = sorted((k, v) for k, v in os.environ.items()
                 if k not in VOLATILE_ENV and not k.startswith(("GRADREEL_SERVER", "VSCODE_")))
    key = hashlib.sha256(json.dumps([code, os.getcwd(), env, _limits()]).encode())
    name = f"gradreel-{os.getuid()}/{key.hexdigest()[:20]}.sock"
    path = Path(os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()) / name
    if len(str(path)) > MAX_SOCKET_PATH:
        path = Path(tempfile.gettempdir()) / name
        if len(str(path)) > MAX_SOCKET_PATH:
            raise OSError(f"no socket path under {MAX_SOCKET_PATH} bytes: {path}")
    path.parent.mkdir(mode=0o700, exist_ok=True)
    st = os.lstat(path.parent)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise PermissionError(f"{path.parent} is not this user's own folder")
    return path


def _limits() -> list:
    """Niceness, resource limits and control group: what a forked child would take from its server."""
    import resource

    limits: list = [os.getpriority(os.PRIO_PROCESS, 0)]
    limits += [resource.getrlimit(getattr(resource, name)) for name in sorted(dir(resource)) if name.startswith("RLIMIT_")]
    try:
        limits.append(Path("/proc/self/cgroup").read_text())
    except OSError:
        pass
    return limits


def same_user(conn: socket.socket) -> bool:
    """The process at the other end of ``conn`` runs as this user (where the system says so)."""
    if not hasattr(socket, "SO_PEERCRED"):
        return True  # not Linux: the folder's 0700 is the guard
    _pid, uid, _gid = struct.unpack("iII", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("iII")))
    return uid == os.getuid()


def delegate(module: str, argv: list[str]) -> int | None:
    """Run ``module.main(argv)`` in a warm server's child and return its exit status, or None
    when there is no server to ask (or GRADREEL_SERVER=off): then the caller runs it itself."""
    if mode() == "off":
        return None
    try:
        for fd in (0, 1, 2):  # a closed one: the socket would take its number and be passed on
            os.fstat(fd)
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError:
        return None
    with conn:
        try:
            conn.connect(str(socket_path(code_stamp())))
        except OSError:
            return None
        if not same_user(conn):
            return None
        cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        ignored = [int(s) for s in FORWARDED if signal.getsignal(s) == signal.SIG_IGN]
        request = json.dumps({"module": module, "argv": argv, "cwd": os.getcwd(), "env": dict(os.environ),
                              "umask": _umask(), "cpus": cpus, "ignored": ignored}).encode()
        message = HEADER.pack(len(request)) + request
        try:
            sent = conn.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [0, 1, 2]))])
            conn.sendall(message[sent:])
        except OSError:
            return None
        return _await(conn)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _await(conn: socket.socket) -> int | None:
    """Pass signals on until the child reports its status. None if the server never started a
    child (the caller then runs the command itself: nothing of it has run). A signal before the
    child has started ends the wait: a server that hangs does not hold Ctrl-C."""
    sent: list[int] = []
    started = False

    def forward(signum: int, _frame: object) -> None:
        sent.append(signum)
        try:
            conn.sendall(f"signal {signum}\n".encode())
            if not started:  # the child, if it starts, sees the end of the connection: interrupted
                conn.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    previous = {s: signal.signal(s, forward) for s in FORWARDED if signal.getsignal(s) != signal.SIG_IGN}
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
    if sent:  # ended by the signal passed on before it could answer (or before it started)
        return 128 + sent[-1]
    if not started:
        return None
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
        if _answers(path) or sum(map(_answers, path.parent.glob("*.sock"))) >= MAX_SERVERS:
            return  # one is up (it could not take this render: that was said on stderr), or enough are
        log = open(path.with_suffix(".log"), "ab")
    except OSError:
        return
    with log:
        subprocess.Popen([*python_module("scenes.commands.warm_server"), str(path), code], cwd=os.getcwd(),
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, close_fds=True)
    idle = os.environ.get("GRADREEL_SERVER_IDLE", f"{IDLE_SECONDS:.0f}")
    say(f"render: keeping a warm render process for the next render ({idle} s idle at most; "
        "GRADREEL_SERVER=off: never)")


def _answers(path: Path) -> bool:
    """A server listens on ``path``."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def python_module(module: str) -> list[str]:
    """``python -P -m MODULE``: gradreel's module, wherever the author runs it. Why -P: plain
    ``-m`` puts the working folder first on the import path, and an author's course folder may
    well hold a ``scenes`` package of its own (Manim scenes), which would then be imported in
    place of ours in every worker."""
    return [sys.executable, "-P", "-m", module]


def worker_command(module: str) -> list[str]:
    """The command of a worker process running ``python -m MODULE``: forked warm from a server
    when one is up, as a plain ``python -m MODULE`` when none is (see ``main``)."""
    return [*python_module("scenes.commands.warm_client"), module]


def main(argv: list[str]) -> int:
    """``python -m scenes.commands.warm_client MODULE ARGS...``: run a served module warm if a server is
    up, else in this process. For the worker processes of ``render all`` and ``render scene -j N``."""
    if not argv or argv[0] not in SERVED_MODULES:
        raise SystemExit(f"usage: python -m scenes.commands.warm_client MODULE ARG...; MODULE is one of {', '.join(SERVED_MODULES)}")
    module, args = argv[0], argv[1:]
    status = delegate(module, args)
    if status is None:
        import importlib

        status = importlib.import_module(module).main(args)
    return status


if __name__ == "__main__":
    from scenes.exit import exit_now

    exit_now(main(sys.argv[1:]))
