"""Beats drawn on a Dask cluster: ``render scene|all --scheduler tls://HOST:PORT``.

Why Dask: a course is dozens of clips, and an author with a few machines should not wait for
one. Dask distributed farms out independent Python tasks and its ``Client`` gives a
``concurrent.futures`` executor, so the cluster stands in for the local pool
(:mod:`scenes.render.pool`) and the tasks stay what they are there: a job as JSON text in, JSON
text out. Only this module and those beside it named ``cluster_*`` import Dask, and only
``--scheduler`` imports them.

What a worker gets and gives back (:mod:`scenes.render.cluster_tasks`): it shares no disk with
this machine, so a task carries the storyboard's text, the segment keys this machine already
holds and the stored files its beats start from; the worker returns every file it made as bytes,
named, with their sha256 in its JSON reply, each checked here and written atomically into
``out/.segments``; the clip is joined here, byte for byte the clip a local render makes.

Whom the client talks to, and what it loads back, is :mod:`scenes.render.cluster_security`'s:
mutual TLS by default, and nothing but plain data. Workers must run this very code: the code
digest (:mod:`scenes.render.code_version`) of every worker is asked first, and one with other
code is named, refused and never given a task. A worker that dies mid-task has the task run
again elsewhere by the scheduler; a scheduler unreachable, silent or lost ends the render with
one line and exit 2 within the time bound; Ctrl-C cancels the tasks handed out. Connecting,
and what a failed connection is said to be, is :mod:`scenes.render.cluster_connect`'s.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, wait
from functools import partial
from typing import Any, Callable, TypeVar

from scenes.render.beats import BeatJob, BeatOutcome, Loaded, render_range, text_sha256
from scenes.render.clip_keys import ClipKeys
from scenes.render.cluster_security import ClusterError, Unloadable, UnpicklingGuard, printable, said
from scenes.render.cluster_tasks import draw_remote, receive, task_for
from scenes.render.code_version import code_digest
from scenes.render.options import RenderOptions, fps_of

NO_WORKER_SECONDS = 60.0
"""How long tasks wait for a worker to come back when every worker they could run on is gone."""
WATCH_SECONDS = 1.0
"""How often, while waiting for tasks, the client checks that the scheduler still answers."""
STOP_SECONDS = 3.0
"""At most how long cancelling the tasks, and closing the client, may take once the render stops."""

T = TypeVar("T")


def bounded(call: Callable[[], T], seconds: float, late: Callable[[], ClusterError]) -> T:
    """``call()``, or ``late()`` raised when it has not returned within ``seconds``: a peer that
    stops answering cannot hold the render. The call goes on in a daemon thread, which the
    process's exit ends. Ctrl-C interrupts the wait."""
    box: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # handed to the waiting thread
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=run, name="gradreel-cluster-call", daemon=True).start()
    if not done.wait(seconds):
        raise late()
    if "error" in box:
        raise box["error"]
    return box["value"]


class Cluster:
    """A connected Dask client, the workers found to run this machine's code, and the executor
    that hands them tasks (restricted to those workers). Every call that waits for the
    scheduler gives up after ``seconds`` (``--scheduler-timeout``)."""

    def __init__(self, client: Any, address: str, log: Callable[[str], None], seconds: float,
                 guard: UnpicklingGuard) -> None:
        self.client, self.address, self.log, self.seconds, self.guard = client, address, log, seconds, guard
        self.code = code_digest()
        self.verdicts: dict[str, str | None] = {}  # worker -> None (usable) or why it is refused
        self.futures: list[Future] = []
        self.allowed: dict[Future, tuple[set[str], tuple]] = {}  # the workers a task may run on, and the task
        self.tasks: dict[Future, Any] = {}  # the Dask future of each task
        self.stopping = False
        self.lock = threading.Lock()

    def ask(self, call: Callable[[], T]) -> T:
        """``call()`` to the scheduler: an answer within ``seconds``, or a ClusterError; an
        answer that is not plain data (a pickle naming code) is refused unloaded."""
        try:
            return bounded(call, self.seconds, self.silent)
        except ClusterError:
            raise
        except Unloadable as exc:
            raise self.refused(str(exc)) from None
        except (OSError, TimeoutError, CancelledError) as exc:
            raise self.lost() from exc

    def there(self) -> list[str]:
        """The workers the scheduler knows now."""
        return list(self.ask(lambda: self.client.scheduler_info(n_workers=-1))["workers"])

    def workers(self) -> list[str]:
        """The workers there now whose code is this machine's; a worker not seen before is asked
        its code digest once, and one with other code is named on stderr and left out."""
        with self.lock:
            there = self.there()
            new = [w for w in there if w not in self.verdicts]
            if new:
                for worker, answer in self.digests(new).items():
                    self.verdicts[worker] = _refusal(answer, self.code)
                    if self.verdicts[worker] is not None:
                        self.log(f"render: worker {printable(worker)} refused: {self.verdicts[worker]}")
            good = [w for w in there if self.verdicts.get(w, "gone") is None]
        if not good:
            why = "no worker is connected" if not there else "no worker runs this machine's gradreel code"
            raise ClusterError(f"the Dask scheduler at {self.address}: {why} (see README.md, "
                               "'Rendering on several machines')")
        return good

    def digests(self, workers: list[str]) -> dict[str, Any]:
        """Each worker's answer to "your code digest?"; a worker whose answer cannot be loaded (an
        exception, which Dask pickles) is asked alone, and named with why."""
        try:
            answers = self.ask(lambda: self.client.run(code_digest, workers=workers, on_error="return"))
        except ClusterError:
            if not self.guard.forget():
                raise
            if len(workers) == 1:
                return {workers[0]: Unloadable("an exception")}
            return {w: a for worker in workers for w, a in self.digests([worker]).items()}
        return answers if isinstance(answers, dict) else {}

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """``fn(*args)`` on one of the workers there now that run this code; a concurrent future
        of its result (or of why there is none: the result read within the time bound)."""
        if self.stopping:  # cancelled while this clip was being planned
            raise CancelledError
        allowed = self.workers()
        task = self.client.submit(fn, *args, workers=allowed, allow_other_workers=False, pure=False)
        future: Future = Future()
        with self.lock:
            self.futures.append(future)
            self.allowed[future] = set(allowed), (fn, *args)
            self.tasks[future] = task  # held: Dask forgets a task whose future is dropped
        task.add_done_callback(partial(self.settle, future))
        return future

    def settle(self, future: Future, task: Any) -> None:
        """Dask's callback, in a thread of its own, once ``task`` is done: its result, fetched
        within the time bound, or why not (a reply Dask cannot read), into ``future``. Dask's
        own executor would leave the future pending for ever when the fetch fails."""
        if not future.set_running_or_notify_cancel():
            return  # cancelled here
        try:
            future.set_result(task.result(timeout=self.seconds))
        except BaseException as exc:  # the waiting thread says what it means
            future.set_exception(exc)

    def orphans(self, futures: set[Future]) -> list[Future]:
        """Those of ``futures`` none of whose allowed workers is still there (a worker that is
        restarted comes back under another address): they would wait for ever."""
        there = set(self.there())
        with self.lock:
            return [f for f in futures if not f.done() and not self.allowed[f][0] & there]

    def again(self, future: Future) -> Future:
        """The task of an orphaned ``future``, handed to the workers there now."""
        self.drop([future])
        with self.lock:
            call = self.allowed[future][1]
        return self.submit(*call)

    def cancel(self) -> None:
        """Cancel every task handed out and not finished (a running one stops at its next beat)."""
        self.stopping = True
        with self.lock:
            futures = list(self.futures)
        self.drop(futures)

    def drop(self, futures: list[Future]) -> None:
        """Cancel ``futures`` here at once, and their tasks on the cluster for at most
        STOP_SECONDS (Dask waits for the scheduler to agree, and a frozen one never does)."""
        for future in futures:
            future.cancel()
        with self.lock:
            tasks = [self.tasks[f] for f in futures if f in self.tasks]
        if tasks:
            try:
                bounded(lambda: self.client.cancel(tasks), min(STOP_SECONDS, self.seconds), self.silent)
            except Exception:  # the scheduler gone or frozen: its tasks go with it
                pass

    def lost(self) -> ClusterError:
        return ClusterError(f"lost the connection to the Dask scheduler at {self.address}; "
                            "the clips in place were left as they were")

    def silent(self) -> ClusterError:
        return ClusterError(f"the Dask scheduler at {self.address} stopped answering (nothing for "
                            f"{self.seconds:g} s; --scheduler-timeout); the clips in place were left as they were")

    def refused(self, what: str) -> ClusterError:
        if what.endswith(".KilledWorker"):  # the scheduler's own verdict, pickled as exceptions are
            return ClusterError("a task was lost with the worker running it too many times (the scheduler "
                                "sent a pickled KilledWorker); see the workers' logs")
        return ClusterError(f"the Dask scheduler at {self.address} sent {what}, which gradreel does not load "
                            "(only plain data comes back from a cluster): a task failed on a worker in a way "
                            "gradreel does not catch, or the peer is not a gradreel cluster; see the workers' logs")

    def result(self, future: Future) -> tuple[Any, Any]:
        """A task's result; the scheduler gone is a ClusterError, a task killed with its worker
        too often (the scheduler retries it elsewhere first) as well."""
        try:
            result = future.result()
        except CancelledError:
            if self.stopping:
                raise
            raise self.lost() from None
        except Unloadable as exc:
            raise self.refused(str(exc)) from None
        except TimeoutError:
            raise self.silent() from None
        except Exception as exc:
            if type(exc).__name__ == "KilledWorker":
                raise ClusterError(f"a task was lost with the worker running it too many times "
                                   f"({said(exc)}); see the workers' logs") from None
            if exc.args and isinstance(exc.args[0], bytes):  # Dask's wrapping of a pickle it did not load
                raise ClusterError("the scheduler or a worker reported a failure as a pickled exception, which is "
                                   "not loaded here; see their logs (the scheduler needs this gradreel too)") from None
            raise ClusterError(f"a worker's reply could not be read ({said(exc)}); see the workers' logs") from None
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            raise ClusterError(f"a worker replied with {type(result).__name__}, not gradreel's reply; "
                               "its gradreel differs from this machine's")
        return result[0], result[1]

    def wait_any(self, pending: dict[Future, Any]) -> set[Future]:
        """Block until one of the ``pending`` tasks is done, checking that the scheduler still
        answers; a task whose workers are all gone is handed out again (in ``pending``)."""
        alone_since = None  # when the last worker went (a nanny restarting one takes a few seconds)
        while True:
            done, _ = wait(set(pending), timeout=WATCH_SECONDS, return_when=FIRST_COMPLETED)
            if done:
                return done
            if self.stopping:
                raise CancelledError
            if self.guard.refusal() is not None:  # in Dask's own reading thread, which cannot say it
                raise self.refused(self.guard.refusal() or "")
            if self.client.status not in ("running", "newly-created"):
                raise self.lost()
            orphans = self.orphans(set(pending))
            if not orphans:
                alone_since = None
                continue
            try:
                self.workers()
            except ClusterError:
                alone_since = alone_since or time.monotonic()
                if time.monotonic() - alone_since > NO_WORKER_SECONDS:
                    raise
                continue
            for future in orphans:
                pending[self.again(future)] = pending.pop(future)

    def draw_clip(self, storyboard_file: str, name: str, opts: RenderOptions, loaded: Loaded,
                  keys: ClipKeys, log: Callable[[str], None]) -> tuple[list[BeatOutcome], list]:
        """The beats of one clip: each range with beats to draw is a task for the cluster, each
        range without one is found in the cache here (no Manim). Returns outcomes and ledger."""
        from scenes.render.pipeline import split_beats

        stale = keys.stale()
        planned_from = text_sha256(loaded.checked)
        ranges = split_beats(keys.segs, len(self.workers()), fps_of(opts), stale)
        outcomes: list[BeatOutcome] = []
        ledgers: dict[int, list] = {}
        pending: dict[Future, tuple[int, int]] = {}
        for a, b, remote in _parts(ranges, stale):
            job = BeatJob(storyboard_file, name, opts.to_json(), a, b, planned_from, timings=loaded.timings)
            if not remote:  # every segment in the cache: nothing to draw
                more, ledgers[a], _ = render_range(job, log, loaded, keys=keys)
                outcomes += more
                continue
            task, seed = task_for(job, loaded.checked.doc.text, keys, stale, self.code)
            log(f"{name}: beats {a + 1}-{b + 1} sent to the cluster")
            pending[self.submit(draw_remote, task, seed)] = (a, b)
        try:
            while pending:
                for future in self.wait_any(pending):
                    a, b = pending.pop(future)
                    reply, files = self.result(future)
                    more, ledgers[a], worker = receive(reply, files, keys, name, opts)
                    outcomes += more
                    drawn = sum(o.rendered for o in more)
                    log(f"{name}: beats {a + 1}-{b + 1} from {worker}: {drawn} drawn, {len(more) - drawn} cached")
        except BaseException:  # this clip cannot be made: its other tasks are not wanted
            self.drop(list(pending))
            raise
        outcomes.sort(key=lambda o: o.index)
        assert [o.index for o in outcomes] == list(range(len(keys.segs)))
        return outcomes, next((ledgers[a] for a in sorted(ledgers, reverse=True) if ledgers[a]), [])


def _parts(ranges: list[tuple[int, int]], stale: list[bool]) -> list[tuple[int, int, bool]]:
    """Each range cut to its beats from the first to draw to the last (a task for the cluster,
    True), and the cached beats before and after (found here, False).

    >>> _parts([(0, 3), (4, 5)], [False, True, True, False, False, False])
    [(0, 0, False), (1, 2, True), (3, 3, False), (4, 5, False)]
    """
    out = []
    for a, b in ranges:
        todo = [k for k in range(a, b + 1) if stale[k]]
        if not todo:
            out.append((a, b, False))
            continue
        out += [(a, todo[0] - 1, False)] if todo[0] > a else []
        out.append((todo[0], todo[-1], True))
        out += [(todo[-1] + 1, b, False)] if todo[-1] < b else []
    return out


def _refusal(answer: Any, code: str) -> str | None:
    """Why a worker that answered ``answer`` to "your code digest?" cannot draw for this machine."""
    if isinstance(answer, str) and answer == code:
        return None
    if isinstance(answer, str):
        return (f"it runs other gradreel code (code digest {printable(answer[:12])}, this machine's {code[:12]}); "
                "install the same version of gradreel there and restart it")
    if isinstance(answer, Unloadable):
        return ("it cannot run gradreel (it answered with a pickled exception, which is not loaded here: "
                "see its log); install gradreel there")
    if isinstance(answer, BaseException):
        return f"it cannot run gradreel ({said(answer)}); install gradreel there"
    return f"it cannot run gradreel (it answered {type(answer).__name__}); install gradreel there"
