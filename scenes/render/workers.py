"""Run one clip's beats in several processes (``render scene NAME -j N``).

Why processes: Manim draws with one Python thread, so a second core only helps a second
interpreter. The parent draws the first contiguous range of beats itself (it has the storyboard
and plan loaded already, so it saves a worker's start, about 1.5 s of a core); each other range
goes to a worker (``python -m scenes.render.beats``, through ``scenes.commands.warm_client``: warm
when a server is running), which applies the beats before it without
drawing. All write their segments into the shared cache; the parent joins them. Worker progress
lines are passed on as they come; an interrupt stops them all.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import threading
from dataclasses import asdict
from typing import Any, Callable, Iterator


def run_workers(jobs: list[Any], log: Callable[[str], None],
                here: Callable[[Any, Callable[[], None]], list[Any]]) -> tuple[list[Any], list[tuple[str, int | None]]]:
    """Draw ``jobs[0]`` in this process with ``here`` (it returns that range's outcomes, and calls
    the check it is given before each beat it draws, which raises once a worker has failed) while
    one worker per other job draws the rest; wait for all. Returns the outcomes in beat order and the
    display ledger of the last worker (the strings it drew, after those of the state it started from)."""
    from scenes.render.beats import BeatOutcome

    from scenes.commands.warm_client import worker_command

    procs = [subprocess.Popen(worker_command("scenes.render.beats"), stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in jobs[1:]]
    relays, readers = [], []
    answers = [""] * len(procs)

    def read(k: int) -> None:
        stdout = procs[k].stdout
        answers[k] = stdout.read() if stdout else ""

    with stopped_on_error(procs):
        for k, (proc, job) in enumerate(zip(procs, jobs[1:])):
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(asdict(job)))
            proc.stdin.close()
            for target, args, started in ((_relay, (proc, log), relays), (read, (k,), readers)):
                thread = threading.Thread(target=target, args=args, daemon=True)
                thread.start()
                started.append(thread)
        outcomes: list[Any] = list(here(jobs[0], lambda: raise_if_failed(procs)))
        for proc, relay, reader in zip(procs, relays, readers):
            proc.wait()
            relay.join()
            reader.join()
            for stream in (proc.stdout, proc.stderr):  # read to the end: a watch renders for hours
                if stream is not None:
                    stream.close()
    ledger: list[tuple[str, int | None]] = []
    for proc, answer in zip(procs, answers):
        if proc.returncode != 0:
            raise RuntimeError(f"a beat worker exited with status {proc.returncode}")
        reply = json.loads(answer)
        outcomes += [BeatOutcome(**o) for o in reply["outcomes"]]
        ledger = [(t, s) for t, s in reply["ledger"]]
    return sorted(outcomes, key=lambda o: o.index), ledger


def raise_if_failed(procs: list[Any]) -> None:
    """Raise if a worker has ended with an error: the parent, between its own beats, stops
    instead of drawing on (for half a minute at 1080p60) towards a clip that cannot be made."""
    for proc in procs:
        status = proc.poll()
        if status not in (None, 0):
            raise RuntimeError(f"a beat worker exited with status {status}")


@contextlib.contextmanager
def stopped_on_error(procs: list[subprocess.Popen]) -> Iterator[None]:
    """Run the block; if it raises (Ctrl-C included), stop the workers first (``stop_workers``)."""
    try:
        yield
    except KeyboardInterrupt:
        stop_workers(procs, grace=1.0)
        raise
    except BaseException:
        stop_workers(procs, grace=0.0)
        raise


def stop_workers(procs: list[subprocess.Popen], grace: float) -> None:
    """End the workers so that each deletes its half-written files: Ctrl-C in a terminal has
    reached them already, so they get ``grace`` seconds before an interrupt of their own (a
    second one could cut their cleanup short); any still running 10 s later is killed."""
    import time

    for proc in procs:
        close_input(proc)
    deadline = time.monotonic() + grace
    for proc in procs:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGINT)
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def close_input(proc: subprocess.Popen) -> None:
    """Close a worker's stdin (its end of input), if it is still open."""
    try:
        if proc.stdin and not proc.stdin.closed:
            proc.stdin.close()
    except OSError:  # the worker is gone
        pass


def _relay(proc: subprocess.Popen, log: Callable[[str], None]) -> None:
    assert proc.stderr is not None
    for line in proc.stderr:
        log(line.rstrip("\n"))
