"""One pool for all rendering work: the beats of one clip and the clips of a course.

Why a pool: Manim draws with one Python thread, so a second core only helps a second
interpreter. Every piece of parallel work is a task handed to a ``concurrent.futures.Executor``;
the local one is a process pool (:func:`local_pool`), and anything with the same interface (a
cluster's executor) can stand in. A task's arguments and results are plain text: options and
jobs go out as JSON, and what comes back is read with ``json``
(``scenes.render.beats.read_reply``), never as objects.

Workers are started with ``spawn``: a fresh interpreter each, so no thread of the parent (the
encoder's) is copied half-way; each imports Manim once and then serves any number of tasks.
Ctrl-C reaches every process of the terminal's group; a worker drops it while it waits for a
task and stops the task it is drawing (which deletes its half-written files). When the parent
stops for any other reason it interrupts its workers the same way; when it is killed outright,
the kernel kills its workers at once (a parent-death signal).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")

_busy = False
"""In a worker: whether it is running a task (an interrupt then stops the task)."""


def _on_interrupt(signum: int, frame: Any) -> None:
    if _busy:
        raise KeyboardInterrupt


def _worker_start() -> None:
    signal.signal(signal.SIGINT, _on_interrupt)
    _die_with_parent()


def _die_with_parent() -> None:
    """Have the kernel kill this worker the moment its parent dies (even by ``kill -9``), so that
    it neither draws on nor writes a file no render will use. Linux only (``prctl``); elsewhere
    a worker finds out when it next talks to its parent."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:  # it died before prctl took hold
        os._exit(1)


def _run(fn: Callable[..., T], *args: Any) -> T:
    """A task as a worker runs it: interruptible while it runs, and its output flushed."""
    global _busy
    _busy = True
    try:
        return fn(*args)
    finally:
        _busy = False
        for stream in (sys.stdout, sys.stderr):
            stream.flush()


@contextmanager
def local_pool(workers: int) -> Iterator[Executor]:
    """A process pool of ``workers`` fresh interpreters, shut down when the block ends; if the
    block raises, the tasks still running are interrupted first and the queued ones dropped."""
    pool = ProcessPoolExecutor(max_workers=max(1, workers), mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_start)
    try:
        yield pool
    except BaseException:
        interrupt_workers()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def interrupt_workers() -> None:
    """Send SIGINT to this process's worker processes (those running a task stop it)."""
    for child in multiprocessing.active_children():
        if child.pid is None:  # not started yet
            continue
        try:
            os.kill(child.pid, signal.SIGINT)
        except ProcessLookupError:
            pass


def submit(pool: Executor, fn: Callable[..., T], *args: Any) -> "Future[T]":
    """Hand ``fn(*args)`` to the pool (``fn`` a module-level function, its arguments plain data)."""
    return pool.submit(_run, fn, *args)


def raise_if_failed(futures: Iterable[Future]) -> None:
    """Raise the error of a task that has failed: the parent, between its own beats, stops
    instead of drawing on towards a clip that cannot be made."""
    for future in futures:
        error = future.exception() if future.done() and not future.cancelled() else None
        if error is not None:
            raise error


def run_all(pool: Executor, fn: Callable[..., T], items: list[Any], *args: Any,
            cost: Callable[[Any], int] | None = None) -> Iterator[tuple[Any, T]]:
    """``fn(item, *args)`` for every item, the costliest first (so that no worker is left with
    a long task while the others are done), yielding (item, result) as each finishes."""
    order = sorted(items, key=cost, reverse=True) if cost is not None else list(items)  # a stable sort
    futures = {submit(pool, fn, item, *args): item for item in order}
    for future in as_completed(futures):
        yield futures[future], future.result()
