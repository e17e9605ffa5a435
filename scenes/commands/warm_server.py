"""A warm gradreel process: imports Manim and the drawing modules once, then forks a child per
render that ``scenes.commands.warm_client`` hands it (see there for why, and when one is started).

    python -m scenes.commands.warm_server SOCKET CODE_STAMP     (started by warm_client.start_server)

Each child is forked from a server that has done nothing but import, so every render starts
from the same state, as a fresh process would; renders never see each other. A child takes the
client's standard streams, working folder, environment and arguments, leads its own process
group (a signal the client passes on reaches the child's workers too, as Ctrl-C in a terminal
reaches every process of the command), and reports ``started`` and then ``status N``. If the
client goes away mid-render, the child is interrupted as by Ctrl-C: outputs are renamed into
place only when complete, so nothing half-written is left.

The server exits after GRADREEL_SERVER_IDLE seconds without a request, or within
CHECK_SECONDS of gradreel's code changing (a client of the new code looks for another socket).
"""

from __future__ import annotations

import fcntl
import gc
import io
import json
import os
import signal
import socket
import sys
import threading
import time
import traceback
from pathlib import Path

from scenes.render.code_version import code_digest, code_stamp
from scenes.commands.warm_client import FORWARDED, HEADER, IDLE_SECONDS, SERVED_MODULES, same_user

CHECK_SECONDS = 5.0
"""How often an idle server looks at the code (and reaps its finished children)."""
GRACE_SECONDS = 15.0
"""A child whose client went away is interrupted, then killed (with its workers) if it has not
ended this long after (longer than an interrupted render takes to stop its own workers)."""
MAX_REQUEST = 1 << 24
READY = "ready on"
"""In the server's log line once it listens: ``warm server PID: ready on SOCKET`` (`ready_pids`)."""


def ready_pids(log: str) -> list[int]:
    """The pids of the servers a log (or several) says are listening: for tools that start one
    and must stop it (the tests, the bench)."""
    return [int(line.split()[2].rstrip(":")) for line in log.splitlines()
            if line.startswith("warm server ") and f": {READY} " in line]


def serve(path: Path, code: str, idle: float) -> int:
    """Listen on ``path`` until idle or stale. Only one server per socket: the first to hold
    the lock beside it; any other exits at once."""
    lock = open(path.with_suffix(".lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0
    if code_stamp() != code:  # changed between the client's look and this start
        return 0
    _import_everything()
    if code_stamp() != code:  # changed while importing: what was imported may be either
        return 0
    gc.freeze()  # a child's collections then leave the imported objects' pages shared, not copied
    if threading.active_count() != 1:  # a Python thread's half-done state would be forked
        print(f"warm server: threads after import: {threading.enumerate()}; not serving", flush=True)
        return 1
    signal.signal(signal.SIGTERM, _stop)  # `kill PID`: exit through the clean-up below
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    path.unlink(missing_ok=True)  # a server that died left it: we hold the lock
    try:
        listener.bind(str(path))
    except OSError as exc:
        print(f"warm server: cannot listen on {path}: {exc}", flush=True)
        return 1
    os.chmod(path, 0o600)
    listener.listen(16)
    listener.settimeout(CHECK_SECONDS)
    print(f"warm server {os.getpid()}: {READY} {path}", flush=True)
    children: set[int] = set()
    last = time.monotonic()
    server = os.getpid()
    try:
        while True:
            children -= _reaped(children)
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                if code_stamp() != code or (not children and time.monotonic() - last > idle):
                    return 0
                continue
            last = time.monotonic()
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # until the child has its own handler
            pid = os.fork()
            if pid == 0:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
                status = 1
                try:
                    listener.close()
                    lock.close()
                    status = _child(conn)
                finally:  # never back into this loop: the child is not the server
                    os._exit(status)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
            conn.close()
            children.add(pid)
    finally:  # idle or stale: nothing in its log is news (a failed start keeps it, for a look)
        if os.getpid() == server:
            for left in (path, path.with_suffix(".log"), path.with_suffix(".lock")):
                left.unlink(missing_ok=True)
        listener.close()


def _stop(_signum: int, _frame: object) -> None:
    raise SystemExit(0)


def _import_everything() -> None:
    """What a render needs, imported before any fork so no child pays for it."""
    import scenes.commands.main
    import scenes.render.queue  # noqa: F401  (render_pipeline and render_beats come with the commands)
    from scenes.commands.watch import import_drawing

    scenes.commands.main.build_parser()  # imports every command's module
    import_drawing()
    code_digest()  # once per process, over the code just imported


def _reaped(children: set[int]) -> set[int]:
    done = set()
    for pid in children:
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                done.add(pid)
        except ChildProcessError:
            done.add(pid)
    return done


def _child(conn: socket.socket) -> int:
    """Run one request in this forked child; returns the exit status."""
    log = os.dup(1)  # the server's log: for what goes wrong before the client's streams are ours
    try:
        request, fds = _receive(conn)
        if not same_user(conn) or len(fds) != 3 or request.get("module") not in SERVED_MODULES:
            return 2
        os.setpgid(0, 0)
        os.umask(request["umask"])
        if request["cpus"] is not None and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, request["cpus"])
        for signum in FORWARDED:  # as a fresh process has them, less those the client ignores
            default = signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL
            signal.signal(signum, signal.SIG_IGN if signum in request["ignored"] else default)
        for target, fd in enumerate(fds):
            if fd != target:
                os.dup2(fd, target)
                os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        _reopen_streams()
        sys.argv = [request["module"], *request["argv"]]
        conn.sendall(f"started {os.getpid()}\n".encode())
        os.write(log, f"warm server: {os.getpid()} runs {request['module']} {' '.join(request['argv'])}\n".encode())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        os.write(log, traceback.format_exc().encode())
        return 1  # nothing was started: the client renders in its own process
    finished = threading.Event()
    threading.Thread(target=_pass_signals, args=(conn, finished), daemon=True).start()
    status = _run(request["module"], request["argv"])
    finished.set()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    try:
        conn.sendall(f"status {status}\n".encode())
    except OSError:
        pass
    return status


def _receive(conn: socket.socket) -> tuple[dict, list[int]]:
    """The request's JSON and the three descriptors that came with it."""
    data, ancillary, _, _ = conn.recvmsg(1 << 16, socket.CMSG_LEN(3 * 4))
    fds: list[int] = []
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds += list(memoryview(payload).cast("i"))
    if len(data) < HEADER.size:
        raise ValueError("short request")
    size = HEADER.unpack_from(data)[0]
    if size > MAX_REQUEST:
        raise ValueError(f"request of {size} bytes")
    data = data[HEADER.size:]
    while len(data) < size:
        more = conn.recv(size - len(data))
        if not more:
            raise ValueError("request cut short")
        data += more
    return json.loads(data), fds


def _reopen_streams() -> None:
    """sys.stdin, sys.stdout and sys.stderr over the client's descriptors, set up as Python set up
    the server's (the environment, which decides encoding, errors and buffering, is the same);
    stdout is line-buffered on a terminal, as Python does."""
    def reopen(fd: int, mode: str, like: io.TextIOWrapper, **kw) -> io.TextIOWrapper:
        return io.TextIOWrapper(open(fd, mode + "b", closefd=False), encoding=like.encoding, errors=like.errors,
                                newline="\n", write_through=like.write_through, **kw)

    sys.stdin = reopen(0, "r", sys.__stdin__ or sys.__stdout__)
    sys.stdout = reopen(1, "w", sys.__stdout__, line_buffering=os.isatty(1) or sys.__stdout__.line_buffering)
    sys.stderr = reopen(2, "w", sys.__stderr__, line_buffering=True)


def _pass_signals(conn: socket.socket, finished: threading.Event) -> None:
    """Deliver each signal the client passes on to this child's process group; if the client
    goes away before the render is finished, interrupt it as Ctrl-C would."""
    try:
        for line in conn.makefile("r", encoding="ascii"):
            word, _, value = line.partition(" ")
            if word == "signal" and value.strip().isdigit() and not finished.is_set():
                os.killpg(0, int(value))
    except (OSError, ValueError):
        pass
    if not finished.is_set():
        os.killpg(0, signal.SIGINT)
        if not finished.wait(GRACE_SECONDS):  # stuck: end it and its workers
            os.killpg(0, signal.SIGKILL)


def _run(module: str, argv: list[str]) -> int:
    """``module.main(argv)``, with the exit status a ``python -m module`` process would have."""
    import importlib

    try:
        return int(importlib.import_module(module).main(argv) or 0)
    except SystemExit as exc:  # argparse: --help, or a bad option
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BaseException:
        traceback.print_exc()
        return 1


if __name__ == "__main__":
    idle = float(os.environ.get("GRADREEL_SERVER_IDLE", IDLE_SECONDS))
    sys.exit(serve(Path(sys.argv[1]), sys.argv[2], idle))
