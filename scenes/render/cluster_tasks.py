"""What a cluster task carries to a worker, what the worker does with it, and what comes back.

Why its own module: this is the data that crosses between machines, one side of it run by the
worker (:func:`draw_remote`), the other checked here (:func:`receive`), so both halves of the
format are read together. A task is JSON text and named bytes; its reply is JSON text (outcomes,
ledger, the worker, each file's sha256, or the error that stopped it) and named bytes: plain
data that msgpack carries, never a pickled object (see :mod:`scenes.render.cluster_security`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
import threading
import traceback
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from scenes.atomic import write_atomic
from scenes.render.beats import BeatJob, BeatOutcome, render_range
from scenes.render.clip_keys import ClipKeys, after
from scenes.render.cluster_security import ClusterError, printable, said
from scenes.render.code_version import code_digest
from scenes.render.options import SEGMENTS, RenderOptions, segment_path

FILE_NAME = re.compile(r"[0-9a-f]{64}(\.[a-z0-9]{1,12}){1,2}")
"""What a file a worker returns may be called: a hash and a suffix, nothing with a folder in it."""


def task_for(job: BeatJob, text: str, keys: ClipKeys, stale: list[bool], code: str) -> tuple[str, dict[str, bytes]]:
    """A range's task: its JSON (the job with the segment keys held here, the storyboard's text,
    this machine's code digest) and the stored files its worker starts from (the known digests of
    its beats, the digest of the picture each held segment ends on, and every file of the nearest
    stored state at or before its first beat to draw). The end digests let a worker find, without
    Manim, the start of a beat that follows a held one after an edit before it changed its
    prefix; without them it would walk there, and a walk need not reach the key a drawing did."""
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
        for key in held:  # where each held segment ends: the next beat's start, found without Manim
            ends = keys.states.digest(after(key))
            if ends is not None:
                seed[f"{after(key)}.digest"] = ends.encode()
        first = next(k for k in range(job.first, job.last + 1) if stale[k])
        for j in range(first, 0, -1):
            if keys.states.has_state(keys.pre[j]):
                for f in folder.glob(f"{keys.pre[j]}.*"):
                    if f.suffix != ".digest" and FILE_NAME.fullmatch(f.name):
                        seed[f.name] = f.read_bytes()
                break
    task = {"code": code, "job": asdict(replace(job, held=tuple(sorted(held)))), "storyboard": text}
    return json.dumps(task), seed


def receive(reply_json: Any, files: Any, keys: ClipKeys, name: str,
             opts: RenderOptions) -> tuple[list[BeatOutcome], list, str]:
    """Check and store what a worker returned: every file named plainly, of the sha256 the reply
    gives, written atomically into out/.segments; then every beat's segment must be the one this
    machine's keys name (else the worker's code, theme or fonts differ from this machine's)."""
    worker, sums, outcomes, ledger = _reply(reply_json, files)
    if set(sums) != set(files):
        raise ClusterError(f"worker {worker} returned files its reply does not list")
    folder = Path(opts.out) / SEGMENTS
    folder.mkdir(parents=True, exist_ok=True)
    for file_name, data in files.items():
        if not isinstance(file_name, str) or not FILE_NAME.fullmatch(file_name) or not isinstance(data, bytes):
            raise ClusterError(f"worker {worker} returned a file named {printable(repr(file_name))}, not a cache file")
        if hashlib.sha256(data).hexdigest() != sums[file_name]:
            raise ClusterError(f"worker {worker}: {file_name} arrived damaged (its sha256 differs)")
    for file_name, data in files.items():
        write_atomic(folder / file_name, data)
    for o in outcomes:
        digest = keys.states.digest(keys.pre[o.index]) if 0 <= o.index < len(keys.pre) else None
        if digest is None or keys.key(o.index, digest) != o.key or not segment_path(Path(opts.out), o.key).exists():
            raise ClusterError(f"worker {worker} drew beat {o.index + 1} of {name} as another clip: its "
                               "gradreel, theme or fonts differ from this machine's")
    return outcomes, ledger, worker


def _reply(reply_json: Any, files: Any) -> tuple[str, dict[str, str], list[BeatOutcome], list]:
    """A worker's reply read as data of the shape :func:`draw_remote` writes, or a ClusterError
    saying what is wrong with it (in one line, whatever the worker put in it)."""
    try:
        reply = json.loads(reply_json) if isinstance(reply_json, (str, bytes)) else None
    except ValueError as exc:
        raise ClusterError(f"a worker's reply is not JSON ({said(exc)}); its gradreel differs from this "
                           "machine's") from None
    if not isinstance(reply, dict) or not isinstance(reply.get("worker"), str):
        raise ClusterError("a worker's reply is not gradreel's (no worker named in it); its gradreel differs "
                           "from this machine's")
    worker = printable(reply["worker"], 80)
    if "error" in reply:
        raise ClusterError(f"worker {worker} could not draw: {printable(str(reply['error']))}")
    sums, outcomes, ledger = reply.get("files"), reply.get("outcomes"), reply.get("ledger")
    fields = {"index": int, "key": str, "frames": int, "rendered": bool}
    if not (isinstance(files, dict) and isinstance(sums, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in sums.items())
            and isinstance(outcomes, list) and isinstance(ledger, list)
            and all(isinstance(o, dict) and o.keys() == fields.keys()
                    and all(type(o[f]) is t for f, t in fields.items()) for o in outcomes)
            and all(isinstance(e, list) and len(e) == 2 and isinstance(e[0], str)
                    and (e[1] is None or type(e[1]) is int) for e in ledger)):
        raise ClusterError(f"worker {worker} replied in another shape than gradreel's (files, outcomes, "
                           "ledger); its gradreel differs from this machine's")
    return worker, sums, [BeatOutcome(**o) for o in outcomes], [(t, n) for t, n in ledger]


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
        return json.dumps({"worker": get_worker().address, "error": "it runs other gradreel code than the client"}), {}
    try:
        return _draw(task, seed)
    except TaskCancelled:
        raise
    except Exception as exc:  # said in the reply: an exception would travel as a pickle, which is not read
        print(traceback.format_exc(), file=sys.stderr, flush=True)
        return json.dumps({"worker": get_worker().address, "error": said(exc)}), {}


def _draw(task: dict[str, Any], seed: dict[str, bytes]) -> tuple[str, dict[str, bytes]]:
    """The range of ``task`` drawn in a folder of its own: the reply and the files made."""
    from distributed import get_worker

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
        outcomes, ledger, _ = render_range(mine, lambda s: print(s, file=sys.stderr, flush=True),
                                           check=_stop_if_cancelled)
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
