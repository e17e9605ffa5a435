"""Peers that are no good scheduler at the ``--scheduler`` address: each ends the render with
one line and exit 2 within its time bound, runs nothing it sent, and allocates nothing it claims.

What lives here: fake peers on 127.0.0.1 (plain sockets in a thread of this test: garbage, an
HTTP server, silence, a 12 GiB frame, Dask's handshake with a pickled payload, a TLS peer of
another CA), a real scheduler frozen at connect and mid-render, Ctrl-C while it is frozen, and
workers of this code that reply badly. Why apart: these start servers and processes, and the
scheduler's timeout (``--scheduler-timeout``) is what they lean on. Every peer stops with its test.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import pytest

from tests.hostile.harness import HANG_BOUND, RENDER, ROOT, TINY, one_line, render

pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")
pytestmark = pytest.mark.xdist_group("cluster_peers")  # its own peers: beside the cluster tests, not after them

BOUND = 3.0
"""The --scheduler-timeout these tests give (seconds)."""
SLACK = 15.0
"""What a render may take beyond its bound: starting Python and importing Dask."""
CLIP = "graph_build"


def _frames(msg: object) -> bytes:
    """``msg`` as Dask's TCP comm sends it: its total length, then its frames."""
    from distributed.protocol.core import dumps
    from distributed.protocol.utils import pack_frames

    packed = pack_frames(dumps(msg))
    return struct.pack("Q", len(packed)) + packed


class _Opens:
    """Unpickled, it creates its file: the proof that a pickle from the peer ran."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self) -> tuple:
        return open, (self.path, "w")


def _pickled(marker: Path) -> bytes:
    from distributed.protocol.serialize import ToPickle

    return _frames({"op": "stream-start", "status": "OK", "payload": ToPickle(_Opens(marker))})


def _handshake() -> bytes:
    return _frames({"compression": None, "python": tuple(sys.version_info[:3]), "pickle-protocol": 5})


@contextmanager
def peer(behave: Callable[[socket.socket, threading.Event], None],
         wrap: ssl.SSLContext | None = None) -> Iterator[int]:
    """A server on 127.0.0.1 that meets each connection with ``behave``; its port. Every
    connection, and the server, is closed when the block ends."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop, conns = threading.Event(), []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except (TimeoutError, OSError):
                continue
            conns.append(conn)
            threading.Thread(target=meet, args=(conn,), daemon=True).start()

    def meet(conn: socket.socket) -> None:
        try:
            conn.settimeout(BOUND + SLACK)
            behave(wrap.wrap_socket(conn, server_side=True) if wrap else conn, stop)
        except OSError:
            pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        for conn in conns:
            conn.close()
        server.close()


def hold(conn: socket.socket, stop: threading.Event) -> None:
    """Say nothing more, and keep the connection open until the test ends."""
    stop.wait(BOUND + SLACK + HANG_BOUND)


def send(data: bytes, then: Callable = hold) -> Callable[[socket.socket, threading.Event], None]:
    def behave(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(data)
        then(conn, stop)
    return behave


def answer_with(data: bytes) -> Callable[[socket.socket, threading.Event], None]:
    """Dask's handshake, then ``data`` as the answer to whatever the client asks first."""
    def behave(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(_handshake())
        conn.recv(1 << 16)
        time.sleep(0.2)  # the client's request after its handshake
        conn.sendall(data)
        hold(conn, stop)
    return behave


_PEAK = ("import resource, subprocess, sys\n"
         "code = subprocess.call(sys.argv[2:])\n"
         "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
         "sys.exit(code)")
"""Runs a command and writes its peak resident memory (KiB) to a file: the peak of that one
process, which `resource.RUSAGE_CHILDREN` of the test's own process is not (it is the largest of
every child the worker ever waited for, a render of another test's included)."""


def timed(*args: str, env: dict[str, str] | None = None, limit: int | None = None
          ) -> tuple[subprocess.CompletedProcess, float, int]:
    """``render ARGS`` in a subprocess with its address space limited to ``limit`` bytes: the
    result, the seconds it took, and its peak resident memory in bytes."""
    def bound() -> None:
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    with tempfile.TemporaryDirectory() as folder:
        peak_file = Path(folder) / "peak"
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-c", _PEAK, str(peak_file), *RENDER, *args], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, preexec_fn=bound)
        try:
            out, err = proc.communicate(timeout=HANG_BOUND)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            raise AssertionError(f"render still running after {HANG_BOUND} s: {err[-2000:]}") from None
        peak = int(peak_file.read_text())
    return (subprocess.CompletedProcess(proc.args, proc.returncode, out, err), time.monotonic() - start, peak * 1024)


def scene_on(address: str, out: Path, *more: str) -> list[str]:
    return ["scene", CLIP, "--out", str(out), *TINY, "--scheduler", address, "--scheduler-timeout", str(BOUND), *more]


@pytest.mark.parametrize("kind, behave, says", [
    ("garbage", send(bytes(range(256)) * 16), "cannot reach the Dask scheduler"),
    ("an HTTP server", send(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                           then=lambda conn, stop: conn.close()), "cannot reach the Dask scheduler"),
    ("silence", hold, f"no answer in {BOUND:g} s"),
    ("Dask's handshake, then silence", answer_with(b""), "cannot reach the Dask scheduler"),
])
def test_a_peer_that_is_no_scheduler_is_one_line_in_bounded_time(kind: str, behave: Callable, says: str,
                                                                  tmp_path: Path) -> None:
    with peer(behave) as port:
        r, seconds, _ = timed(*scene_on(f"tcp://127.0.0.1:{port}", tmp_path / "out"))
    one_line(r, f"tcp://127.0.0.1:{port}", says)
    assert seconds < BOUND + SLACK, (kind, seconds)
    assert not (tmp_path / "out" / f"{CLIP}.mp4").exists()


def test_a_peer_claiming_a_12_gib_frame_is_not_given_the_memory(tmp_path: Path) -> None:
    """The claimed size is never allocated: the render stays far below it (and below an
    address-space limit a third of it), and says so in one line."""
    claim = send(struct.pack("Q", 12 << 30) + b"\0" * 64)
    with peer(claim) as port:
        r, seconds, peak = timed(*scene_on(f"tcp://127.0.0.1:{port}", tmp_path / "out"), limit=4 << 30)
    one_line(r, f"tcp://127.0.0.1:{port}")
    assert seconds < BOUND + SLACK
    assert peak < 1 << 30, f"peak resident memory {peak >> 20} MiB"


@pytest.mark.parametrize("when", ["in the handshake", "in the first answer"])
def test_a_pickled_payload_from_the_peer_does_not_run(when: str, tmp_path: Path) -> None:
    """On loopback plain TCP, where Dask itself would unpickle it: refused unloaded, named."""
    marker = tmp_path / "ran"
    payload = _pickled(marker)
    with peer(send(payload) if when == "in the handshake" else answer_with(payload)) as port:
        r, seconds, _ = timed(*scene_on(f"tcp://127.0.0.1:{port}", tmp_path / "out"))
    assert not marker.exists(), "the peer's pickle ran in render"
    one_line(r, "a pickled io.open, which gradreel does not load")
    assert seconds < BOUND + SLACK


def test_over_tls_a_peer_without_the_cluster_s_certificate_is_refused_unread(tmp_path: Path) -> None:
    """A TLS peer whose certificate another CA signed (it would send the pickle next), and a
    plain-TCP one, at a tls:// address: the TLS handshake fails, nothing is decoded."""
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    for folder in (ours, theirs):
        assert render("cluster-certs", str(folder)).returncode == 0
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(theirs / "cert.pem", theirs / "key.pem")
    marker = tmp_path / "ran"
    for wrap in (context, None):
        with peer(send(_pickled(marker)), wrap=wrap) as port:
            r, seconds, _ = timed(*scene_on(f"tls://127.0.0.1:{port}", tmp_path / "out", "--certs", str(ours)))
        one_line(r, f"tls://127.0.0.1:{port}", "TLS")
        assert seconds < BOUND + SLACK
    assert not marker.exists()


@pytest.mark.parametrize("address, says", [
    ("", "--scheduler needs an address"),
    ("ucx://127.0.0.1:8786", "not ucx://"),
    ("127.0.0.1:8786", "tls://127.0.0.1:8786"),
    ("tcp://0.0.0.0:8786", "--insecure-scheduler"),  # not loopback; and before the fix, no traffic leaves
    ("tcp://127.0.0.1", "with a port"),
])
def test_an_address_that_cannot_be_used_is_said_before_any_work(address: str, says: str, tmp_path: Path) -> None:
    r = render("scene", CLIP, "--out", str(tmp_path / "out"), *TINY, "--scheduler", address)
    one_line(r, says)
    r = render("all", CLIP, "--out", str(tmp_path / "out"), *TINY, "--scheduler", address)
    one_line(r, says)
    assert not (tmp_path / "out").exists()


def test_tls_without_certificates_says_how_to_make_them(tmp_path: Path) -> None:
    r = render("scene", CLIP, "--out", str(tmp_path / "out"), *TINY, "--scheduler", "tls://127.0.0.1:8786",
               env={"GRADREEL_CLUSTER_CERTS": str(tmp_path / "none")})
    one_line(r, str(tmp_path / "none" / "ca.pem"), "render cluster-certs")


def test_the_time_bound_comes_from_the_environment(tmp_path: Path) -> None:
    with peer(hold) as port:
        r, seconds, _ = timed("scene", CLIP, "--out", str(tmp_path / "out"), *TINY,
                              "--scheduler", f"tcp://127.0.0.1:{port}", env={"GRADREEL_SCHEDULER_TIMEOUT": "1"})
    one_line(r, "no answer in 1 s")
    assert seconds < 1 + SLACK


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(port: int, proc: subprocess.Popen) -> None:
    """Wait (bounded) until something accepts on ``port``."""
    deadline = time.monotonic() + HANG_BOUND
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the scheduler did not start")


@contextmanager
def scheduler() -> Iterator[tuple[str, subprocess.Popen]]:
    """A real Dask scheduler on 127.0.0.1 (the test freezes it); its address."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                             "--port", str(port), "--no-dashboard"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        _listening(port, proc)
        yield f"tcp://127.0.0.1:{port}", proc
    finally:
        proc.send_signal(signal.SIGCONT)
        proc.kill()
        proc.wait()


@contextmanager
def worker(address: str, folder: Path, *more: str, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen]:
    """One worker process of this checkout's code (no nanny, one thread), in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "worker.log", "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                 "--no-nanny", "--no-dashboard", "--local-directory", str(folder), *more],
                                stdout=subprocess.DEVNULL, stderr=log, cwd=ROOT,
                                env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    try:
        from distributed import Client

        with Client(address, timeout=60) as client:
            client.wait_for_workers(1, timeout=HANG_BOUND)
        yield proc
    finally:
        proc.kill()
        proc.wait()


def drawing(folder: Path, proc: subprocess.Popen) -> None:
    """Wait until the worker under ``folder`` is drawing a beat (the render must still run)."""
    deadline = time.monotonic() + HANG_BOUND
    while proc.poll() is None and time.monotonic() < deadline:
        if list(folder.rglob("gradreel-task-*/.segments/*.state")):
            return
        time.sleep(0.05)
    raise AssertionError(f"no beat was drawn: {proc.stderr.read() if proc.stderr else ''}")


def test_a_scheduler_frozen_at_connect_is_one_line_in_bounded_time(tmp_path: Path) -> None:
    with scheduler() as (address, sched):
        sched.send_signal(signal.SIGSTOP)  # the kernel still accepts; nothing answers
        r, seconds, _ = timed(*scene_on(address, tmp_path / "out"))
    one_line(r, address, f"no answer in {BOUND:g} s")
    assert seconds < BOUND + SLACK


@pytest.mark.slow
@pytest.mark.parametrize("command, then", [("scene", "wait"), ("all", "ctrl-c")])
def test_a_scheduler_frozen_mid_render_ends_it_in_bounded_time(command: str, then: str, tmp_path: Path) -> None:
    """Waited out: one line and exit 2; Ctrl-C a few seconds into the freeze: exit 130 at once,
    though nothing answers the cancellation. Either way no clip is written."""
    out = tmp_path / "out"
    names = ["dynamic_graph"] if command == "scene" else ["dynamic_graph", "graph_build"]
    with scheduler() as (address, sched), worker(address, tmp_path / "w"):
        proc = subprocess.Popen([*RENDER, command, *names, "--out", str(out), *TINY, "--scheduler", address,
                                 "--scheduler-timeout", str(BOUND)], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        drawing(tmp_path / "w", proc)
        sched.send_signal(signal.SIGSTOP)
        start = time.monotonic()
        if then == "ctrl-c":
            time.sleep(BOUND - 1)  # the render is waiting on the frozen scheduler by then
            start = time.monotonic()
            proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=HANG_BOUND)
        finally:
            proc.kill()
        seconds = time.monotonic() - start
    if then == "ctrl-c":
        assert proc.returncode == 130, err
        assert seconds < 10, seconds
        assert err.strip().splitlines()[-1].startswith("render: interrupted")
    else:
        said = [line for line in err.splitlines() if line.startswith("render: ") and "worker(s)" not in line]
        assert proc.returncode == 2 and said == [f"render: the Dask scheduler at {address} stopped answering "
                                                 f"(nothing for {BOUND:g} s; --scheduler-timeout); the clips "
                                                 "in place were left as they were"], err
        assert seconds < BOUND + SLACK, seconds
    assert "Traceback" not in err
    assert not (out / "dynamic_graph.mp4").exists()


BAD_WORKER = '''
"""A worker's preload: this checkout's code, whose task replies as the file $BAD_REPLY says."""
import json
import os

import scenes.render.cluster_tasks as cluster


def draw_remote(task_json, seed):
    kind = open(os.environ["BAD_REPLY"]).read()
    if kind == "not json":
        return "{'outcomes': [", {}
    if kind == "another shape":
        return json.dumps({"worker": "w\\x1b[2J", "files": [], "outcomes": {"index": "1"}, "ledger": 7}), {}
    if kind == "not a pair":
        return 12
    if kind == "an object":
        return object()
    raise ValueError(kind)


cluster.draw_remote = draw_remote
'''


@pytest.mark.slow
def test_a_worker_of_this_code_with_a_bad_reply_is_one_line(tmp_path: Path) -> None:
    """Its reply is not JSON, JSON of another shape (and an escape sequence), not a pair, an
    object that msgpack cannot carry, or the task raised: one line, exit 2, nothing written."""
    preload, choice = tmp_path / "bad_worker.py", tmp_path / "reply"
    preload.write_text(BAD_WORKER)
    with scheduler() as (address, _), worker(address, tmp_path / "w", "--preload", str(preload),
                                             env={"BAD_REPLY": str(choice)}):
        for kind, says in (("not json", "is not JSON"), ("another shape", "in another shape than gradreel's"),
                           ("not a pair", "replied with int"), ("an object", "could not be read"),
                           ("raises", "a task failed on a worker")):
            choice.write_text(kind)
            r = render(*scene_on(address, tmp_path / "out"))
            said = [line for line in r.stderr.splitlines()  # but the progress lines
                    if "worker(s) of the Dask scheduler" not in line and "sent to the cluster" not in line]
            assert r.returncode == 2 and len(said) == 1 and says in said[0], (kind, r.stderr)
            assert "Traceback" not in r.stderr and "\x1b" not in r.stderr, r.stderr
            assert not (tmp_path / "out" / f"{CLIP}.mp4").exists()
