"""`render scene|all --scheduler`: beats drawn on a Dask cluster this test starts on 127.0.0.1.

What must hold: the clip is byte for byte the one a local render makes; a worker killed mid-task
has its task run elsewhere and the clip is still right; a worker with other code is refused and
never used; the scheduler unreachable or lost is one line, exit 2, and the clip in place kept;
Ctrl-C cancels the cluster's tasks; without --scheduler Dask is never imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import pytest

from scenes.render.cluster_security import TIMEOUT_VARIABLE
from scenes.render.manifest import MANIFEST
from scenes.storyboard import load_and_plan, storyboard_path

# one worker for this module under pytest-xdist: its tests share a module-scoped fixture
pytestmark = pytest.mark.xdist_group("cluster")

ROOT = Path(__file__).resolve().parents[2]
RENDER = [sys.executable, "-m", "scenes.commands.main"]
TINY = ["--size", "256x144", "--fps", "5"]
LONG = "dynamic_graph"  # 19 beats: a task stopped at its second beat has most of its work ahead


def _beats(name: str) -> int:
    """The clip's beats as the render counts them (the takeaway's included)."""
    return len(load_and_plan(storyboard_path(name))[1].beats)


distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")


def run(*args: str, timeout: float = 300, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*RENDER, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env=None if env is None else {**os.environ, **env})


def alone(test: Callable[..., None]) -> Callable[..., None]:
    """A test that starts its own scheduler or cluster: a group of its own under pytest-xdist,
    so it runs beside the module's other tests rather than after them on the one worker."""
    return pytest.mark.xdist_group(test.__name__)(test)


def same_bytes(a: Path, b: Path) -> bool:
    return subprocess.run(["cmp", str(a), str(b)], capture_output=True).returncode == 0


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def listing(folder: Path) -> dict[str, str]:
    """Every file of ``folder`` but the cache, with its sha256: what `out/ as it was` means."""
    return {str(p.relative_to(folder)): digest(p) for p in sorted(folder.rglob("*"))
            if p.is_file() and ".segments" not in p.parts}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[object, Path]]:
    """Two worker processes of one thread each; (the LocalCluster, the workers' folder)."""
    from distributed import LocalCluster

    folder = tmp_path_factory.mktemp("workers")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, local_directory=str(folder)) as lc:
        yield lc, folder


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def scheduler() -> Iterator[tuple[str, subprocess.Popen]]:
    """A scheduler process of its own (a test kills it), and its address."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                             "--port", str(port), "--no-dashboard"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        yield f"tcp://127.0.0.1:{port}", proc
    finally:
        proc.kill()
        proc.wait()


@contextmanager
def worker(address: str, folder: Path, log: Path, env: dict[str, str] | None = None,
           cwd: Path = ROOT) -> Iterator[subprocess.Popen]:
    """One worker process (no nanny) of one thread, its stderr (the beats it draws) in ``log``."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                 "--no-nanny", "--no-dashboard", "--local-directory", str(folder)],
                                stdout=subprocess.DEVNULL, stderr=err, cwd=cwd, env=env)
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


def wait_for_workers(address: str, n: int) -> None:
    from distributed import Client

    with Client(address, timeout=60) as client:
        client.wait_for_workers(n, timeout=120)


def first_state(folder: Path, proc: subprocess.Popen) -> Path:
    """Wait until a worker under ``folder`` is drawing a beat (it saves the beat's starting state
    first); the task's folder. ``proc``, the render, must not end before that."""
    while proc.poll() is None:
        states = sorted(folder.rglob("gradreel-task-*/.segments/*.state"))
        if states:
            return states[0].parents[1]
        time.sleep(0.05)
    raise AssertionError(f"the render ended before a worker drew a beat: {proc.stderr.read() if proc.stderr else ''}")


def test_without_scheduler_dask_is_never_imported(tmp_path: Path) -> None:
    """Rendering modules, and an up-to-date clip asked with --scheduler (nothing to draw, so no
    cluster is reached, not even an address where nothing listens), leave Dask out."""
    from scenes.render.options import RenderOptions, outputs
    from scenes.render.pipeline import cache_key
    from scenes.storyboard.store import storyboard_path

    opts = RenderOptions(out=str(tmp_path))
    for kind, path in outputs("backward_walk", tmp_path, "mp4").items():
        path.write_text(cache_key(storyboard_path("backward_walk"), opts) + "\n" if kind == "key" else "")
    code = ("import sys; import scenes.render.pipeline, scenes.render.beats, scenes.render.pool, "
            "scenes.commands.scene; from scenes.commands.main import main; "
            f"rc = [main(['scene', 'backward_walk', '--out', {str(tmp_path)!r}, *a]) "
            "for a in ([], ['--scheduler', 'tcp://127.0.0.1:9'])]; "
            "print(rc, sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed'}))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.stderr.count("backward_walk: up to date") == 2, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[0, 0] []", r.stdout + r.stderr


def test_what_a_worker_returns_is_checked_before_it_is_written(tmp_path: Path) -> None:
    """A file whose bytes do not have the sha256 the reply gives, one named with a folder in it,
    and one the reply does not list are refused, and nothing is written."""
    from scenes.render.cluster import ClusterError
    from scenes.render.cluster_tasks import receive
    from scenes.render.options import RenderOptions

    opts = RenderOptions(out=str(tmp_path))
    name = "a" * 64 + ".mp4"
    good = b"segment bytes"

    def reply(files: dict[str, bytes]) -> str:
        return json.dumps({"worker": "tcp://w:1", "outcomes": [], "ledger": [],
                           "files": {n: hashlib.sha256(good).hexdigest() for n in files}})

    for files, says in (({name: b"segment byteZ"}, "damaged"), ({"../" + name: good}, "not a cache file"),
                        ({"key": good}, "not a cache file")):
        with pytest.raises(ClusterError, match=says):
            receive(reply(files), files, None, "clip", opts)  # type: ignore[arg-type]
    with pytest.raises(ClusterError, match="does not list"):
        receive(reply({}), {name: good}, None, "clip", opts)  # type: ignore[arg-type]
    assert not list(tmp_path.rglob("*.mp4")) and not (tmp_path.parent / name).exists()


def test_a_task_carries_where_each_held_segment_ends(tmp_path: Path) -> None:
    """After an edit before them, the later beats' starts are known here only by the segment
    before each (the digest of the picture it ends on): the task carries those digests, so the
    worker finds the beats cached without walking there with Manim."""
    from scenes.render.beats import BeatJob
    from scenes.render.clip_keys import ClipKeys, after
    from scenes.render.cluster_tasks import task_for
    from scenes.render.options import SEGMENTS, RenderOptions
    from scenes.storyboard import load_and_plan

    opts = RenderOptions(out=str(tmp_path), size=(256, 144), fps=5)
    checked, p = load_and_plan(str(ROOT / "scenes" / "storyboards" / "backward_walk.yaml"), opts.sets,
                               "backward_walk", None)
    keys = ClipKeys(opts, checked, p)
    folder = tmp_path / SEGMENTS
    folder.mkdir()
    held, ends = "1" * 64, "2" * 64
    (folder / f"{held}.mp4").write_bytes(b"segment")
    keys.states.put_digest(after(held), ends)
    last = len(keys.segs) - 1
    job = BeatJob("backward_walk.yaml", "backward_walk", opts.to_json(), 1, last)
    task, seed = task_for(job, checked.doc.text, keys, [True] * len(keys.segs), "code")
    assert held in json.loads(task)["job"]["held"]
    assert seed[f"{after(held)}.digest"] == ends.encode()


@pytest.mark.slow
def test_a_clip_drawn_on_the_cluster_is_the_local_clip(cluster, tmp_path: Path) -> None:
    """Byte for byte, clip and poster, for `render scene` and `render all`; then a last-beat edit
    sends the one beat to draw, its worker starting from the state stored here."""
    from tests.scene.test_beats import edited_last_beat

    lc, _ = cluster
    local, remote = tmp_path / "local", tmp_path / "remote"
    assert run("all", "backward_walk", "graph_build", "mlp", "-j", "1", "--out", str(local), *TINY).returncode == 0
    r = run("scene", "backward_walk", "--out", str(remote), *TINY, "--scheduler", lc.scheduler_address)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == str(remote / "backward_walk.mp4")
    assert "from tcp://127.0.0.1:" in r.stderr and "backward_walk: 8 of 8 beats drawn" in r.stderr
    r = run("all", "graph_build", "mlp", "--out", str(remote), *TINY, "--scheduler", lc.scheduler_address)
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.split()) == sorted(str(remote / f"{n}.mp4") for n in ("graph_build", "mlp"))
    for name in ("backward_walk", "graph_build", "mlp"):
        for suffix in (".mp4", ".png", ".srt", ".key"):
            assert same_bytes(local / f"{name}{suffix}", remote / f"{name}{suffix}"), f"{name}{suffix} differs"
    assert not [p for p in remote.rglob(".*") if p.name not in (".segments", MANIFEST)], "temporary files left"

    edited = edited_last_beat(tmp_path)
    r = run("scene", edited, "--out", str(remote), *TINY, "--scheduler", lc.scheduler_address)
    assert r.returncode == 0, r.stderr
    assert "beats 8-8 sent to the cluster" in r.stderr and ": 1 drawn, 0 cached" in r.stderr, r.stderr
    assert "backward_walk: 1 of 8 beats drawn, 7 from the cache" in r.stderr
    assert run("scene", edited, "--out", str(local), *TINY, "-j", "1").returncode == 0
    assert same_bytes(local / "backward_walk.mp4", remote / "backward_walk.mp4")


@pytest.mark.slow
def test_a_worker_killed_mid_task_has_its_task_drawn_elsewhere(cluster, tmp_path: Path) -> None:
    lc, folder = cluster
    local, remote = tmp_path / "local", tmp_path / "remote"
    assert run("scene", LONG, "--out", str(local), *TINY, "-j", "1").returncode == 0
    proc = subprocess.Popen([*RENDER, "scene", LONG, "--out", str(remote), *TINY, "--scheduler", lc.scheduler_address],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    task = first_state(folder, proc)
    pid = int(task.name.split("-pid")[1].split("-")[0])
    os.kill(pid, signal.SIGKILL)  # the worker drawing that task; its nanny starts a new one
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert same_bytes(local / f"{LONG}.mp4", remote / f"{LONG}.mp4")
    assert same_bytes(local / f"{LONG}.png", remote / f"{LONG}.png")
    n = _beats(LONG)
    assert f"{LONG}: {n} of {n} beats drawn" in err


@pytest.mark.slow
@alone
def test_a_worker_with_other_code_is_refused_and_never_used(tmp_path: Path) -> None:
    """A worker whose gradreel differs by one comment: alone, the render stops (exit 2, one line,
    nothing written); beside a worker with this code, it is named, and draws nothing."""
    other = tmp_path / "other"
    for folder in ("engine", "scenes"):
        shutil.copytree(ROOT / folder, other / folder, ignore=shutil.ignore_patterns("__pycache__"))
    with open(other / "scenes" / "render" / "cluster.py", "a") as f:
        f.write("# another version\n")
    env = {**os.environ, "PYTHONPATH": str(other)}
    out = tmp_path / "out"
    with scheduler() as (address, _), worker(address, tmp_path / "w1", tmp_path / "w1.log", env, other):
        wait_for_workers(address, 1)
        r = run("scene", "graph_build", "--out", str(out), *TINY, "--scheduler", address)
        assert r.returncode == 2, r.stderr
        assert "refused: it runs other gradreel code" in r.stderr
        assert r.stderr.strip().splitlines()[-1] == (f"render: the Dask scheduler at {address}: no worker runs this "
                                                     "machine's gradreel code (see README.md, 'Rendering on several "
                                                     "machines')")
        assert not out.exists()
        with worker(address, tmp_path / "w2", tmp_path / "w2.log"):
            wait_for_workers(address, 2)
            r = run("all", "graph_build", "mlp", "backward_walk", "--out", str(out), *TINY, "--scheduler", address)
    assert r.returncode == 0, r.stderr
    refused = [line for line in r.stderr.splitlines() if "refused" in line]
    assert len(refused) == 1, r.stderr
    bad = refused[0].split()[2]
    assert f"from {bad}" not in r.stderr and r.stderr.count("from tcp://") == 3, r.stderr  # a task per clip
    assert "beat " not in (tmp_path / "w1.log").read_text(), "the refused worker drew a beat"
    assert all(f"{n}: beat 1/" in (tmp_path / "w2.log").read_text() for n in ("graph_build", "mlp", "backward_walk"))


@pytest.mark.slow
@alone
def test_an_unreachable_scheduler_is_one_line_and_out_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "graph_build.mp4").write_text("the previous clip")
    before = listing(out)
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    quick = {TIMEOUT_VARIABLE: "2"}  # what is said does not depend on how long it waited
    r = run("scene", "graph_build", "--out", str(out), *TINY, "--scheduler", address, env=quick)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"render: cannot reach the Dask scheduler at {address}")
    assert listing(out) == before and sorted(p.name for p in out.iterdir()) == ["graph_build.mp4"]
    r = run("all", "graph_build", "mlp", "--out", str(out), *TINY, "--scheduler", address, env=quick)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "cannot reach" in r.stderr
    assert listing(out) == before


@pytest.mark.slow
@alone
def test_the_scheduler_lost_mid_render_is_one_line_and_the_clip_kept(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("scene", LONG, "--out", str(out), *TINY, "-j", "1").returncode == 0
    before = listing(out)
    with scheduler() as (address, sched), worker(address, tmp_path / "w", tmp_path / "w.log"):
        wait_for_workers(address, 1)
        proc = subprocess.Popen([*RENDER, "scene", LONG, "--force", "--out", str(out), *TINY, "--scheduler", address],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first_state(tmp_path / "w", proc)
        sched.kill()
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    said = [line for line in err.splitlines() if line.startswith("render: ") and "worker(s)" not in line]
    assert said == [f"render: lost the connection to the Dask scheduler at {address}; the clips in place were "
                    "left as they were"], err
    assert "Traceback" not in err
    assert listing(out) == before
    assert not [p for p in out.rglob(".*") if p.name not in (".segments", MANIFEST)], "temporary files left"


@pytest.mark.slow
@alone
def test_ctrl_c_cancels_the_tasks_on_the_cluster(tmp_path: Path) -> None:
    """The render exits 130, and its worker stops the task at its next beat, short of the last."""
    from distributed import Client

    out = tmp_path / "out"
    with scheduler() as (address, _), worker(address, tmp_path / "w", tmp_path / "w.log"):
        wait_for_workers(address, 1)
        proc = subprocess.Popen([*RENDER, "scene", LONG, "--out", str(out), *TINY, "--scheduler", address],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        task = first_state(tmp_path / "w", proc)
        os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err
        with Client(address, timeout=30) as client:
            for _ in range(600):  # the worker ends the task at its next beat and clears its folder
                if not task.exists() and not client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
                    break
                time.sleep(0.1)
            assert not client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)), "tasks left"
        assert not task.exists(), "the task went on drawing"
    drawn = (tmp_path / "w.log").read_text()
    n = _beats(LONG)
    assert f"{LONG}: beat 1/{n}" in drawn and f"{LONG}: beat {n}/{n}" not in drawn, drawn
    assert not (out / f"{LONG}.mp4").exists()


@pytest.mark.slow
@alone
def test_a_lone_worker_killed_mid_task_has_its_task_drawn_by_the_one_restarted(tmp_path: Path) -> None:
    """The task was allowed only the workers there when it was handed out; the worker its nanny
    starts again has another address, is checked, and is given the task."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, local_directory=str(tmp_path / "w")) as lc:
        proc = subprocess.Popen([*RENDER, "scene", "graph_build", "--out", str(tmp_path / "remote"), *TINY,
                                 "--scheduler", lc.scheduler_address],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        task = first_state(tmp_path / "w", proc)
        os.kill(int(task.name.split("-pid")[1].split("-")[0]), signal.SIGKILL)
        _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert run("scene", "graph_build", "--out", str(tmp_path / "local"), *TINY, "-j", "1").returncode == 0
    assert same_bytes(tmp_path / "local" / "graph_build.mp4", tmp_path / "remote" / "graph_build.mp4")


@pytest.mark.slow
@alone
def test_ctrl_c_in_render_all_cancels_every_clip_s_tasks(tmp_path: Path) -> None:
    """`render all` hands out the tasks of every clip at once, from a thread per clip: Ctrl-C
    leaves the scheduler with none of them, the workers' folders empty, and no clip in place
    but those finished before it. On a cluster of its own: the module's cluster has had a worker
    killed by an earlier test."""
    from distributed import Client, LocalCluster

    folder = tmp_path / "w"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, local_directory=str(folder)) as lc:
        wait_for_workers(lc.scheduler_address, 2)
        proc = subprocess.Popen([*RENDER, "all", "graph_build", "mlp", LONG, "--out", str(tmp_path / "out"), *TINY,
                                 "--scheduler", lc.scheduler_address], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        first_state(folder, proc)
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err
        assert err.strip().splitlines()[-1] == "render: interrupted; the clips already in place were left as they were"
        with Client(lc.scheduler_address, timeout=30) as client:
            for _ in range(600):  # each running task ends at its next beat and clears its folder
                left = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
                if not left and not list(folder.rglob("gradreel-task-*")):
                    break
                time.sleep(0.1)
        assert not left, "tasks left on the scheduler"
        assert not list(folder.rglob("gradreel-task-*")), "a task went on drawing"
    # a short clip whose every beat was drawn before Ctrl-C is put in place, as the message says;
    # every clip in place is one the render said it finished, and the long one is not among them
    done = {line.split(":")[0] for line in err.splitlines() if " beats drawn, " in line}
    made = {p.stem for p in (tmp_path / "out").glob("*.mp4")}
    assert not out.strip() and made <= done and LONG not in made, (made, done, err)


@pytest.mark.slow
def test_a_caption_edit_mid_clip_draws_that_beat_alone_on_the_cluster(cluster, tmp_path: Path) -> None:
    """After beat 2's caption changes, the later beats' starting pictures are unknown until a
    worker walks there; it is told which segments are held here, so it finds them cached, as a
    local render does, and draws beat 2 alone."""
    lc, _ = cluster
    text = (ROOT / "scenes" / "storyboards" / "backward_walk.yaml").read_text()
    old = "The loss, {L}, is on top."
    assert text.count(old) == 1
    (tmp_path / "edited").mkdir()
    edited = tmp_path / "edited" / "backward_walk.yaml"
    edited.write_text(text.replace(old, "The loss, {L}, is at the top."))
    remote, local = tmp_path / "remote", tmp_path / "local"
    assert run("scene", "backward_walk", "--out", str(remote), *TINY, "--scheduler", lc.scheduler_address).returncode == 0
    r = run("scene", str(edited), "--out", str(remote), *TINY, "--scheduler", lc.scheduler_address)
    assert r.returncode == 0, r.stderr
    assert "backward_walk: 1 of 8 beats drawn, 7 from the cache" in r.stderr, r.stderr
    assert run("scene", str(edited), "--out", str(local), *TINY, "-j", "1").returncode == 0
    assert same_bytes(local / "backward_walk.mp4", remote / "backward_walk.mp4")


@pytest.mark.slow
@alone
def test_a_clip_drawn_over_tls_with_the_certificates_of_cluster_certs(tmp_path: Path) -> None:
    """The default transport: a scheduler and a worker holding the certificates `render
    cluster-certs` made, the render finding them with --certs; the clip is the local clip."""
    from distributed import LocalCluster
    from distributed.security import Security

    certs = tmp_path / "certs"
    assert run("cluster-certs", str(certs)).returncode == 0
    member = {f"tls_{who}_{part}": str(certs / f"{part}.pem") for who in ("scheduler", "worker", "client")
              for part in ("cert", "key")}
    security = Security(tls_ca_file=str(certs / "ca.pem"), require_encryption=True, **member)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", protocol="tls",
                      security=security, dashboard_address=None, local_directory=str(tmp_path / "w")) as lc:
        assert lc.scheduler_address.startswith("tls://127.0.0.1:")
        r = run("scene", "graph_build", "--out", str(tmp_path / "remote"), *TINY, "--scheduler", lc.scheduler_address,
                "--certs", str(certs))
    assert r.returncode == 0, r.stderr
    assert "from tls://127.0.0.1:" in r.stderr and "graph_build: 7 of 7 beats drawn" in r.stderr, r.stderr
    assert run("scene", "graph_build", "--out", str(tmp_path / "local"), *TINY, "-j", "1").returncode == 0
    for suffix in (".mp4", ".png", ".srt", ".key"):
        assert same_bytes(tmp_path / "local" / f"graph_build{suffix}", tmp_path / "remote" / f"graph_build{suffix}")


@pytest.mark.slow
def test_a_narrated_clip_drawn_on_the_cluster_is_the_local_clip(cluster, tmp_path: Path) -> None:
    """The workers plan from the phrase timings the render hands them as JSON: the fake voice
    lives in the render's process only, so a worker that asked a voice would fail. Sound and
    picture are the local render's, byte for byte."""
    lc, _ = cluster
    fake = [sys.executable, "-m", "tests.audio.fakevoice", "scene", "backward_walk", "--voice", "fake", *TINY]
    local, remote = tmp_path / "local", tmp_path / "remote"
    r = subprocess.run([*fake, "--out", str(local), "-j", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([*fake, "--out", str(remote), "--scheduler", lc.scheduler_address], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "sent to the cluster" in r.stderr and "backward_walk: 8 of 8 beats drawn" in r.stderr
    import av

    with av.open(str(remote / "backward_walk.mp4")) as box:
        assert [s.codec_context.name for s in box.streams.audio] == ["aac"]
    assert same_bytes(local / "backward_walk.mp4", remote / "backward_walk.mp4")
