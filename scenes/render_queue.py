"""Render clips in a few long-lived processes (``render all -j N``).

Why a queue of clips per process instead of one process per clip: each process pays Python's
start and Manim's import (about 1.5 s of one core) once, not once per clip, and whichever
process is free takes the next clip. A worker (``python -m scenes.render_queue OPTION...``)
reads storyboard files from stdin, one per line, and renders each as ``render scene FILE
OPTION...`` would; after each it prints ``DONE_MARK STATUS`` on stdout, where the parent waits
for it before sending the next file. Progress goes to stderr, as from ``render scene``.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from queue import Queue
from typing import IO

DONE_MARK = "\x1egradreel-done"
"""Starts the line a worker prints after each clip (a record separator, which no path holds)."""


def render_queued(files: list[str], options: list[str], jobs: int, out: IO[str]) -> int:
    """Render ``files`` in ``jobs`` worker processes with the ``render scene`` ``options``;
    each clip's path is written to ``out`` as its worker finishes it. Returns the worst status."""
    waiting = list(files)
    done: Queue[tuple[int, int | None]] = Queue()  # (worker, status; None when it exited)
    procs = [subprocess.Popen([sys.executable, "-m", "scenes.render_queue", *options], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, bufsize=1)
             for _ in range(min(jobs, len(files)))]
    readers = [threading.Thread(target=_read, args=(k, p, out, done), daemon=True) for k, p in enumerate(procs)]
    status, busy = 0, set()
    try:
        for k, proc in enumerate(procs):
            readers[k].start()
            if _feed(proc, waiting):
                busy.add(k)
        while busy:
            k, result = done.get()
            if k not in busy:  # an idle worker that exited
                continue
            busy.discard(k)
            status = max(status, 1 if result is None else result)
            if result is not None and _feed(procs[k], waiting):
                busy.add(k)
        for proc in procs:
            if proc.stdin and not proc.stdin.closed:
                proc.stdin.close()
        for proc in procs:
            proc.wait()
    except BaseException:
        for proc in procs:  # an interrupt lets each worker delete its half-written files
            proc.send_signal(signal.SIGINT)
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        raise
    if waiting:  # every worker failed
        print(f"render: not rendered, as the workers stopped: {', '.join(waiting)}", file=sys.stderr)
    return max([status] + [1 for p in procs if p.returncode not in (0, None)] + [1 for _ in waiting[:1]])


def _feed(proc: subprocess.Popen, waiting: list[str]) -> bool:
    """Send the next file to a free worker (True), or tell it there is none left (False)."""
    assert proc.stdin is not None
    if not waiting:
        proc.stdin.close()
        return False
    proc.stdin.write(waiting.pop(0) + "\n")
    proc.stdin.flush()
    return True


def _read(k: int, proc: subprocess.Popen, out: IO[str], done: Queue) -> None:
    """Pass a worker's clip paths on, and report each clip it finishes (and its exit)."""
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith(DONE_MARK):
            done.put((k, int(line.split()[1])))
        else:
            out.write(line)
            out.flush()
    if proc.wait() != 0:  # a crash in the middle of a clip: that clip is not coming
        done.put((k, None))


def main(options: list[str]) -> int:
    """The worker: ``render scene FILE *options`` for each FILE read from stdin."""
    from scenes.cli import main as render

    for line in sys.stdin:
        try:
            status = render(["scene", line.rstrip("\n"), *options])
        except SystemExit as exc:  # argparse rejecting an option
            status = exc.code if isinstance(exc.code, int) else 2
        sys.stdout.write(f"{DONE_MARK} {status}\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    from scenes.cli import exit_now

    exit_now(main(sys.argv[1:]))
