"""Render clips in a few long-lived processes (``render all -j N``).

Why a queue of clips per process instead of one process per clip: each process pays Python's
start and Manim's import (about 1.5 s of one core) once, not once per clip, and whichever
process is free takes the next clip, the costliest first (a warm one, forked from
``scenes.commands.warm_server``, pays neither). A worker (``python -m scenes.render.queue OPTION...``, started through
``scenes.commands.warm_client``) reads storyboard files from stdin, one per line, and renders each as ``render scene FILE
OPTION...`` would; after each it prints ``DONE_MARK STATUS`` on stdout, where the parent waits
for it before sending the next file. Progress goes to stderr, as from ``render scene``.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from queue import Queue
from typing import IO, Callable

from scenes.render.workers import close_input, stopped_on_error
from scenes.commands.warm_client import worker_command

DONE_MARK = "\x1egradreel-done"
"""Starts the line a worker prints after each clip (a record separator, which no path holds)."""


def render_queued(files: list[str], options: list[str], jobs: int, out: IO[str],
                  work: Callable[[str], int] | None = None) -> int:
    """Render ``files`` in ``jobs`` worker processes with the ``render scene`` ``options``;
    each clip's path is written to ``out`` as its worker finishes it. Returns the worst status.
    ``work``: an estimate of a file's cost; the costliest go first (the longest-first rule, so
    that no process is left with a long clip while the others are done). It is worked out while
    the workers start, which takes longer."""
    done: Queue[tuple[int, int | None]] = Queue()  # (worker, status of a clip; None: it exited)
    procs = [subprocess.Popen([*worker_command("scenes.render.queue"), *options], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, bufsize=1)
             for _ in range(min(jobs, len(files)))]
    status, busy = 0, set()
    with stopped_on_error(procs):
        waiting = sorted(files, key=work, reverse=True) if work is not None else list(files)  # a stable sort
        for k, proc in enumerate(procs):
            threading.Thread(target=_read, args=(k, proc, out, done), daemon=True).start()
            if _feed(proc, waiting):
                busy.add(k)
        while busy:
            k, result = done.get()
            if k not in busy:  # a worker that was told to stop has exited
                continue
            busy.discard(k)
            status = max(status, 1 if result is None else result)
            if result is not None and _feed(procs[k], waiting):
                busy.add(k)
        for proc in procs:
            close_input(proc)
            proc.wait()
    if waiting:
        print(f"render: not rendered, as every worker stopped: {', '.join(waiting)}", file=sys.stderr)
        status = max(status, 1)
    return max([status] + [1 for p in procs if p.returncode != 0])


def _feed(proc: subprocess.Popen, waiting: list[str]) -> bool:
    """Send the next file to a free worker (True), or tell it there is none left (False)."""
    if not waiting:
        close_input(proc)
        return False
    assert proc.stdin is not None
    try:
        proc.stdin.write(waiting[0] + "\n")
        proc.stdin.flush()
    except OSError:  # the worker died after its last clip: the file goes to another
        return False
    waiting.pop(0)
    return True


def _read(k: int, proc: subprocess.Popen, out: IO[str], done: Queue) -> None:
    """Pass a worker's clip paths on and report each clip it finishes; when it exits, say so
    (a worker that dies in the middle of a clip leaves that clip unfinished)."""
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith(DONE_MARK):
                done.put((k, int(line.split()[1])))
                continue
            try:
                out.write(line)
                out.flush()
            except (OSError, ValueError):  # `render all | head -1`: the rest goes unread
                pass
    finally:
        proc.wait()
        done.put((k, None))


def main(options: list[str]) -> int:
    """The worker: ``render scene FILE *options`` for each FILE read from stdin. A clip that
    fails is reported (status 1, its traceback on stderr) and the worker goes on to the next."""
    import traceback

    from scenes.commands.main import main as render

    try:
        for line in sys.stdin:
            try:
                status = render(["scene", line.rstrip("\n"), *options])
            except SystemExit as exc:  # argparse rejecting an option
                status = exc.code if isinstance(exc.code, int) else 2
            except Exception:
                traceback.print_exc()
                print(f"render: {line.strip()} failed (above)", file=sys.stderr)
                status = 1
            sys.stdout.write(f"{DONE_MARK} {status}\n")
            sys.stdout.flush()
    except KeyboardInterrupt:  # between clips: nothing half-written
        return 130
    return 0


if __name__ == "__main__":
    from scenes.exit import exit_now

    exit_now(main(sys.argv[1:]))
