"""Beats drawn on a Dask cluster: ``render scene|all --scheduler tcp://HOST:PORT``.

Why Dask: a course is dozens of clips, and an author with a few machines should not wait for
one. Dask distributed farms out independent Python tasks and its ``Client`` gives a
``concurrent.futures`` executor, so the cluster stands in for the local pool
(:mod:`scenes.render.pool`) and the tasks stay what they are there: a job as JSON text in, JSON
text out. Only this module imports Dask, and only ``--scheduler`` imports this module.

What a worker gets and gives back: it shares no disk with this machine, so a task carries the
storyboard's text, the segment keys this machine already holds and the stored files (digests, the
nearest starting state) its beats start from; the worker draws into a folder of its own and
returns every file it made as bytes, named, with their sha256 in the JSON reply. Here each is
checked (a plain name, the right hash, the segment key this machine works out for the beat) and
written atomically into ``out/.segments``; the clip is joined here, byte for byte the clip a local
render makes. Beat states travel as opaque bytes: their format is ``scenes.render.states``'s.

Workers must run this very code: the code digest (:mod:`scenes.render.code_version`) of every
worker is asked first, and one with other code is named, refused and never given a task. A worker
that dies mid-task has the task run again elsewhere by the scheduler; the scheduler unreachable
or lost ends the render with one line and exit 2; Ctrl-C cancels the tasks handed out.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sys
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, wait
from contextlib import contextmanager
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, Callable, Iterator

from scenes.atomic import write_atomic
from scenes.render.beats import BeatJob, BeatOutcome, ClipKeys, render_range, text_sha256
from scenes.render.code_version import code_digest
from scenes.render.options import SEGMENTS, RenderOptions, fps_of, segment_path
from scenes.render.pool import submit

CONNECT_SECONDS = 5.0
"""How long to try to reach the scheduler (and wait for a first worker) before giving up."""
NO_WORKER_SECONDS = 60.0
"""How long tasks wait for a worker to come back when every worker they could run on is gone."""
WATCH_SECONDS = 1.0
"""How often, while waiting for tasks, the client checks that the scheduler is still there."""
FILE_NAME = re.compile(r"[0-9a-f]{64}(\.[a-z0-9]{1,12}){1,2}")
"""What a file a worker returns may be called: a hash and a suffix, nothing with a folder in it."""


class ClusterError(Exception):
    """The cluster cannot render: one line for the user, exit status 2, nothing in out/ changed."""


class Cluster:
    """A connected Dask client, the workers found to run this machine's code, and the executor
    that hands them tasks (restricted to those workers)."""

    def __init__(self, client: Any, address: str, log: Callable[[str], None]) -> None:
        self.client, self.address, self.log = client, address, log
        self.code = code_digest()
        self.verdicts: dict[str, str | None] = {}  # worker -> None (usable) or why it is refused
        self.futures: list[Future] = []
        self.allowed: dict[Future, tuple[set[str], tuple]] = {}  # the workers a task may run on, and the task
        self.stopping = False
        self.lock = threading.Lock()

    def workers(self) -> list[str]:
        """The workers there now whose code is this machine's; a worker not seen before is asked
        its code digest once, and one with other code is named on stderr and left out."""
        with self.lock:
            try:
                there = list(self.client.scheduler_info()["workers"])
            except Exception as exc:
                raise self.lost() from exc
            new = [w for w in there if w not in self.verdicts]
            if new:
                answers = self.client.run(code_digest, workers=new, on_error="return")
                for worker in new:
                    self.verdicts[worker] = _refusal(answers.get(worker), self.code)
                    if self.verdicts[worker] is not None:
                        self.log(f"render: worker {worker} refused: {self.verdicts[worker]}")
            good = [w for w in there if self.verdicts[w] is None]
        if not good:
            why = "no worker is connected" if not there else "no worker runs this machine's gradreel code"
            raise ClusterError(f"the Dask scheduler at {self.address}: {why} (see README.md, "
                               "'Rendering on several machines')")
        return good

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        if self.stopping:  # cancelled while this clip was being planned
            raise CancelledError
        allowed = self.workers()
        pool = self.client.get_executor(workers=allowed, allow_other_workers=False, pure=False)
        future = submit(pool, fn, *args)
        with self.lock:
            self.futures.append(future)
            self.allowed[future] = set(allowed), (fn, *args)
        return future

    def orphans(self, futures: set[Future]) -> list[Future]:
        """Those of ``futures`` none of whose allowed workers is still there (a worker that is
        restarted comes back under another address): they would wait for ever."""
        try:
            there = set(self.client.scheduler_info()["workers"])
        except Exception as exc:
            raise self.lost() from exc
        with self.lock:
            return [f for f in futures if not f.done() and not self.allowed[f][0] & there]

    def again(self, future: Future) -> Future:
        """The task of an orphaned ``future``, handed to the workers there now."""
        future.cancel()
        with self.lock:
            call = self.allowed[future][1]
        return self.submit(*call)

    def cancel(self) -> None:
        """Cancel every task handed out and not finished (a running one stops at its next beat)."""
        self.stopping = True
        with self.lock:
            futures = list(self.futures)
        for future in futures:
            future.cancel()

    def lost(self) -> ClusterError:
        return ClusterError(f"lost the connection to the Dask scheduler at {self.address}; "
                            "the clips in place were left as they were")

    def result(self, future: Future) -> Any:
        """A task's result; the scheduler gone is a ClusterError, a task killed with its worker
        too often (the scheduler retries it elsewhere first) as well."""
        from distributed import KilledWorker

        try:
            return future.result()
        except CancelledError:
            if self.stopping:
                raise
            raise self.lost() from None
        except KilledWorker as exc:
            raise ClusterError(f"a task was lost with the worker running it too many times ({exc}); "
                               "see the workers' logs") from None

    def wait_any(self, pending: dict[Future, Any]) -> set[Future]:
        """Block until one of the ``pending`` tasks is done, checking that the scheduler is still
        connected; a task whose workers are all gone is handed out again (in ``pending``)."""
        alone_since = None  # when the last worker went (a nanny restarting one takes a few seconds)
        while True:
            done, _ = wait(set(pending), timeout=WATCH_SECONDS, return_when=FIRST_COMPLETED)
            if done:
                return done
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

    def draw_clip(self, storyboard_file: str, name: str, opts: RenderOptions, loaded: tuple[Any, Any],
                  keys: ClipKeys, log: Callable[[str], None]) -> tuple[list[BeatOutcome], list]:
        """The beats of one clip: each range with beats to draw is a task for the cluster, each
        range without one is found in the cache here (no Manim). Returns outcomes and ledger."""
        from scenes.render.pipeline import split_beats

        stale = keys.stale()
        planned_from = text_sha256(loaded[0])
        ranges = split_beats(keys.segs, len(self.workers()), fps_of(opts), stale)
        outcomes: list[BeatOutcome] = []
        ledgers: dict[int, list] = {}
        pending: dict[Future, tuple[int, int]] = {}
        for a, b, remote in _parts(ranges, stale):
            job = BeatJob(storyboard_file, name, opts.to_json(), a, b, planned_from)
            if not remote:  # every segment in the cache: nothing to draw
                more, ledgers[a], _ = render_range(job, log, loaded, keys=keys)
                outcomes += more
                continue
            task, seed = _task(job, loaded[0].doc.text, keys, stale, self.code)
            log(f"{name}: beats {a + 1}-{b + 1} sent to the cluster")
            pending[self.submit(draw_remote, task, seed)] = (a, b)
        try:
            while pending:
                for future in self.wait_any(pending):
                    a, b = pending.pop(future)
                    reply, files = self.result(future)
                    more, ledgers[a], worker = _receive(reply, files, keys, name, opts)
                    outcomes += more
                    drawn = sum(o.rendered for o in more)
                    log(f"{name}: beats {a + 1}-{b + 1} from {worker}: {drawn} drawn, {len(more) - drawn} cached")
        except BaseException:  # this clip cannot be made: its other tasks are not wanted
            for future in pending:
                future.cancel()
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
        return (f"it runs other gradreel code (code digest {answer[:12]}, this machine's {code[:12]}); "
                "install the same version of gradreel there and restart it")
    return f"it cannot run gradreel ({type(answer).__name__}: {answer}); install gradreel there"


@contextmanager
def cluster(address: str, log: Callable[[str], None] = lambda s: print(s, file=sys.stderr)) -> Iterator[Cluster]:
    """Connect to the scheduler at ``address`` (a ClusterError when it cannot be reached within
    CONNECT_SECONDS) and check its workers' code; when the block ends in an error or Ctrl-C,
    the tasks handed out are cancelled, and the client is closed either way."""
    from distributed import Client

    for name in ["distributed", *(n for n in list(logging.root.manager.loggerDict) if n.startswith("distributed."))]:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)  # what went wrong is said once, as one line

    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address} ({exc})") from None
    farm = Cluster(client, address, log)
    try:
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError):
            pass  # workers() names what is missing
        farm.log(f"render: {len(farm.workers())} worker(s) of the Dask scheduler at {address}")
        yield farm
    except BaseException:
        farm.cancel()
        raise
    finally:
        try:
            client.close(timeout=2)
        except Exception:  # the scheduler gone: nothing left to close
            pass


def _task(job: BeatJob, text: str, keys: ClipKeys, stale: list[bool], code: str) -> tuple[str, dict[str, bytes]]:
    """A range's task: its JSON (the job, the storyboard's text, this machine's code digest, the
    segment keys held here) and the stored files its worker starts from (the known digests of
    its beats, and every file of the nearest stored state at or before its first beat to draw)."""
    opts = RenderOptions.from_json(job.options)
    folder = Path(opts.out) / SEGMENTS
    seed: dict[str, bytes] = {}
    held: set[str] = set()
    if not opts.force:
        digests = {k: keys.states.digest(keys.pre[k]) for k in range(job.first, job.last + 1)}
        if None in digests.values():  # a key known once its worker gets there: any segment held here
            held = {p.stem for p in folder.glob("*.mp4") if FILE_NAME.fullmatch(p.name)}
        for k, digest in digests.items():
            if digest is not None:
                seed[f"{keys.pre[k]}.digest"] = digest.encode()
                if not stale[k]:
                    held.add(keys.key(k, digest))
        first = next(k for k in range(job.first, job.last + 1) if stale[k])
        for j in range(first, 0, -1):
            if keys.states.has_state(keys.pre[j]):
                for f in folder.glob(f"{keys.pre[j]}.*"):
                    if f.suffix != ".digest" and FILE_NAME.fullmatch(f.name):
                        seed[f.name] = f.read_bytes()
                break
    task = {"code": code, "job": asdict(job), "storyboard": text, "held": sorted(held)}
    return json.dumps(task), seed


def _receive(reply_json: str, files: dict[str, bytes], keys: ClipKeys, name: str,
             opts: RenderOptions) -> tuple[list[BeatOutcome], list, str]:
    """Check and store what a worker returned: every file named plainly, of the sha256 the reply
    gives, written atomically into out/.segments; then every beat's segment must be the one this
    machine's keys name (else the worker's code, theme or fonts differ from this machine's)."""
    reply = json.loads(reply_json)
    worker = str(reply["worker"])
    sums: dict[str, str] = reply["files"]
    if set(sums) != set(files):
        raise ClusterError(f"worker {worker} returned files its reply does not list")
    folder = Path(opts.out) / SEGMENTS
    folder.mkdir(parents=True, exist_ok=True)
    for file_name, data in files.items():
        if not FILE_NAME.fullmatch(file_name) or not isinstance(data, bytes):
            raise ClusterError(f"worker {worker} returned a file named {file_name!r}, not a cache file")
        if hashlib.sha256(data).hexdigest() != sums[file_name]:
            raise ClusterError(f"worker {worker}: {file_name} arrived damaged (its sha256 differs)")
    for file_name, data in files.items():
        write_atomic(folder / file_name, data)
    outcomes = [BeatOutcome(**o) for o in reply["outcomes"]]
    for o in outcomes:
        digest = keys.states.digest(keys.pre[o.index])
        if digest is None or keys.key(o.index, digest) != o.key or not segment_path(Path(opts.out), o.key).exists():
            raise ClusterError(f"worker {worker} drew beat {o.index + 1} of {name} as another clip: its "
                               "gradreel, theme or fonts differ from this machine's")
    return outcomes, [(t, s) for t, s in reply["ledger"]], worker


_one_at_a_time = threading.Lock()
"""Manim's config is one per process: a worker with several threads draws one task at a time."""


class TaskCancelled(Exception):
    """The client cancelled this task (Ctrl-C, or another task failed)."""


def draw_remote(task_json: str, seed: dict[str, bytes]) -> tuple[str, dict[str, bytes]]:
    """A cluster worker's task: draw one range of beats in a folder of its own, starting from the
    seeded files, and return the JSON reply (outcomes, ledger, this worker, each file's sha256)
    with every file it made, as bytes. Refuses to draw with code other than the client's."""
    from distributed import get_worker

    task = json.loads(task_json)
    if task["code"] != code_digest():
        raise RuntimeError(f"worker {get_worker().address} runs other gradreel code than the client")
    job = BeatJob(**task["job"])
    # in the worker's own folder, which Dask clears when the worker ends, or after it is killed
    with _one_at_a_time, tempfile.TemporaryDirectory(prefix=f"gradreel-task-pid{os.getpid()}-",
                                                     dir=get_worker().local_directory) as scratch:
        board = Path(scratch) / f"{job.name}.yaml"
        board.write_text(task["storyboard"])
        folder = Path(scratch) / SEGMENTS
        folder.mkdir()
        for file_name, data in seed.items():
            (folder / Path(file_name).name).write_bytes(data)
        opts = replace(RenderOptions.from_json(job.options), out=scratch)
        mine = replace(job, storyboard=str(board), options=opts.to_json())
        held = set(task["held"])
        outcomes, ledger, _ = render_range(mine, lambda s: print(s, file=sys.stderr, flush=True),
                                           check=_stop_if_cancelled, held=held.__contains__)
        files = {f.name: f.read_bytes() for f in sorted(folder.iterdir())
                 if not f.name.startswith(".") and f.read_bytes() != seed.get(f.name)}
    reply = {"outcomes": [o.__dict__ for o in outcomes], "ledger": ledger, "worker": get_worker().address,
             "files": {n: hashlib.sha256(d).hexdigest() for n, d in files.items()}}
    return json.dumps(reply), files


def _stop_if_cancelled() -> None:
    """Between beats: stop when the client has cancelled this task (the scheduler has released it)."""
    from distributed import get_worker
    from distributed.worker import thread_state

    key = getattr(thread_state, "key", None)
    if key is None:  # not run as a Dask task
        return
    task = get_worker().state.tasks.get(key)
    if task is None or task.state in ("cancelled", "released", "forgotten"):
        raise TaskCancelled("cancelled by the client")
