"""The warm server: a render handed to it makes what a cold render makes, answers as one would
(status, stdout, stderr), passes Ctrl-C on, and a server serves only its own code, folder and
environment.

Each test that starts a server gives it a socket folder of its own (XDG_RUNTIME_DIR) and stops
it at the end; GRADREEL_SERVER=on makes a render start one without a terminal.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

from scenes.commands import warm_client
from scenes.render import code_version
from scenes.commands.warm_server import ready_pids
from scenes.storyboard import STORYBOARD_DIR

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--size", "256x144", "--fps", "5"]


def _render(args: list[str], env: dict[str, str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scenes.commands.main", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, **kw)


def _log(folder: Path) -> str:
    return "".join(p.read_text() for p in folder.glob("gradreel-*/*.log"))


def _wait_until_ready(folder: Path, timeout: float = 120) -> int:
    """The pid of the server in ``folder`` once it listens."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        pids = ready_pids(_log(folder))
        if pids:
            return pids[0]
        time.sleep(0.1)
    raise AssertionError(f"no warm server became ready; its log: {_log(folder)!r}")


def _stop_servers_of(folder: Path) -> None:
    """SIGTERM every process started for ``folder``'s socket (ready or not): nothing outlives a test."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if str(folder).encode() in cmdline.read_bytes():
                os.kill(int(cmdline.parent.name), signal.SIGTERM)
        except (OSError, ValueError):
            pass


@pytest.fixture
def served() -> Iterator[tuple[dict[str, str], Path]]:
    """An environment whose renders use a server of their own, and the folder of its socket
    (short: a socket's path must fit in 108 bytes, and pytest's tmp_path is long)."""
    folder = Path(tempfile.mkdtemp(prefix="grw-"))
    env = dict(os.environ, GRADREEL_SERVER="on", XDG_RUNTIME_DIR=str(folder), GRADREEL_SERVER_IDLE="120")
    try:
        yield env, folder
    finally:
        _stop_servers_of(folder)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_warm_render_makes_the_clip_a_cold_one_makes_and_answers_the_same(served, tmp_path: Path) -> None:
    env, folder = served
    cold = _render(["scene", "backward_walk", *TINY, "-j", "2", "--out", str(tmp_path / "cold")], env)
    assert cold.returncode == 0, cold.stderr
    assert "keeping a warm render process" in cold.stderr
    _wait_until_ready(folder)

    warm = _render(["scene", "backward_walk", *TINY, "-j", "2", "--out", str(tmp_path / "warm")], env)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout.strip() == str(tmp_path / "warm" / "backward_walk.mp4")
    assert "keeping a warm render process" not in warm.stderr  # one was there: none started
    log = _log(folder)
    assert f"runs scenes.commands.main scene backward_walk {' '.join(TINY)} -j 2 --out {tmp_path / 'warm'}" in log
    assert "runs scenes.render.beats" in log  # the second process of -j 2 was forked warm too
    for suffix in (".mp4", ".png", ".srt", ".events.jsonl"):
        made = [(tmp_path / side / f"backward_walk{suffix}").read_bytes() for side in ("cold", "warm")]
        assert made[0] == made[1], suffix

    again = _render(["scene", "backward_walk", *TINY, "--out", str(tmp_path / "warm")], env)
    assert (again.returncode, again.stderr) == (0, "backward_walk: up to date\n")

    missing = _render(["scene", "no_such_clip", *TINY], env)
    assert missing.returncode == 2
    assert "no such storyboard 'no_such_clip'" in missing.stderr
    bad = _render(["scene", "backward_walk", "-q", "bogus"], env)
    assert bad.returncode == 2 and "invalid choice: 'bogus'" in bad.stderr
    helped = _render(["scene", "--help"], env)
    assert helped.returncode == 0 and helped.stdout.startswith("usage: render scene")
    assert _log(folder).count("runs scenes.commands.main scene") == 5

    clips = ["graph_build", "grad_accumulation"]
    both = {side: _render(["all", *clips, *TINY, "-j", "2", "--out", str(tmp_path / f"all_{side}")],
                          dict(env, GRADREEL_SERVER="off") if side == "cold" else env) for side in ("cold", "warm")}
    assert [b.returncode for b in both.values()] == [0, 0], both["warm"].stderr
    assert sorted(both["warm"].stdout.split()) == sorted(str(tmp_path / "all_warm" / f"{c}.mp4") for c in clips)
    assert _log(folder).count("runs scenes.render.queue") == 2  # each worker of `render all -j 2`, warm
    for clip in clips:
        assert (tmp_path / "all_cold" / f"{clip}.mp4").read_bytes() == (tmp_path / "all_warm" / f"{clip}.mp4").read_bytes()


def _interrupted(args: list[str], env: dict[str, str], ignore_sigint: bool = False) -> tuple[int, str]:
    """Start ``render ARGS``, send it SIGINT once its first beat is being drawn, and return its
    status and the rest of its stderr."""
    proc = subprocess.Popen([sys.executable, "-m", "scenes.commands.main", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore_sigint else None)
    try:
        assert proc.stderr is not None
        for line in proc.stderr:  # drawing has begun, in the server's child
            if "beat 1/" in line:
                break
        proc.send_signal(signal.SIGINT)
        _, rest = proc.communicate(timeout=120)
    finally:
        proc.kill()
    return proc.returncode, rest


def test_ctrl_c_reaches_the_warm_render_unless_the_client_ignores_it(served, tmp_path: Path) -> None:
    env, folder = served
    # the server is started by a render that ignores SIGINT (as a job started with & does)
    starter = subprocess.run([sys.executable, "-m", "scenes.commands.main", "scene", "grad_accumulation", *TINY, "--out",
                              str(tmp_path / "first")], cwd=ROOT, env=env, capture_output=True, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN), timeout=300)
    assert starter.returncode == 0, starter.stderr
    _wait_until_ready(folder)
    big = ["scene", "backward_walk", "--size", "640x360", "-j", "1"]

    status, rest = _interrupted([*big, "--out", str(tmp_path / "cut")], env)
    assert status == 130, rest
    assert "interrupted" in rest
    assert not (tmp_path / "cut" / "backward_walk.mp4").exists()

    status, rest = _interrupted([*big, "--out", str(tmp_path / "kept")], env, ignore_sigint=True)
    assert status == 0, rest  # as a cold render that ignores SIGINT: it goes on to the end
    assert (tmp_path / "kept" / "backward_walk.mp4").exists()
    assert _log(folder).count("runs scenes.commands.main scene backward_walk") == 2


def test_a_server_serves_one_folder_environment_and_code(served, tmp_path: Path, monkeypatch) -> None:
    _, folder = served
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    here = warm_client.socket_path("code")
    assert warm_client.socket_path("other code") != here
    monkeypatch.setenv("GRADREEL_SERVER", "on")  # how a server is used is not what it serves
    monkeypatch.setenv("SHLVL", "7")
    assert warm_client.socket_path("code") == here
    monkeypatch.setenv("THEME_SOMETHING", "x")
    assert warm_client.socket_path("code") != here
    monkeypatch.delenv("THEME_SOMETHING")
    monkeypatch.chdir(tmp_path)
    assert warm_client.socket_path("code") != here
    assert here.parent == folder / f"gradreel-{os.getuid()}"
    assert here.parent.stat().st_mode & 0o777 == 0o700
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder / ("long" * 30)))  # no socket path fits: the temp folder
    monkeypatch.setattr(tempfile, "tempdir", str(folder / "tmp"))
    (folder / "tmp").mkdir()
    assert warm_client.socket_path("code").parent == folder / "tmp" / f"gradreel-{os.getuid()}"
    (folder / "tmp" / f"gradreel-{os.getuid()}").rmdir()
    (folder / "tmp" / f"gradreel-{os.getuid()}").symlink_to(folder / f"gradreel-{os.getuid()}")
    with pytest.raises(PermissionError):  # a link, even to a folder of this user's, is not taken
        warm_client.socket_path("code")


def test_the_code_stamp_and_digest_follow_every_source_file_and_no_storyboard(tmp_path: Path, monkeypatch) -> None:
    for folder in code_version.CODE_FOLDERS:
        (tmp_path / folder / "sub").mkdir(parents=True)
        (tmp_path / folder / "sub" / "m.py").write_text("x = 1\n")
    (tmp_path / "scenes" / "storyboards").mkdir()
    board = tmp_path / "scenes" / "storyboards" / "clip.yaml"
    board.write_text("title: one\n")
    monkeypatch.setattr(code_version, "ROOT", tmp_path)

    def both() -> tuple[str, str]:
        code_version.code_digest.cache_clear()
        return code_version.code_stamp(), code_version.code_digest()

    first = both()
    board.write_text("title: two, an author's edit\n")  # data, keyed by the clip and its beats
    assert both() == first
    (tmp_path / "scenes" / ".#m.py").symlink_to("user@host.1234:1700000000")  # Emacs, while a file is unsaved
    assert both() == first
    (tmp_path / "scenes" / "sub" / "m.py").write_text("x = 22\n")
    second = both()
    assert second[0] != first[0] and second[1] != first[1]
    (tmp_path / "engine" / "new.py").write_text("")
    third = both()
    assert third[0] != second[0] and third[1] != second[1]
    code_version.code_digest.cache_clear()


def test_the_storyboards_in_the_checkout_are_not_code() -> None:
    files = code_version.source_files()
    assert files and all(f.suffix == ".py" for f in files)
    assert not [f for f in files if STORYBOARD_DIR in f.parents]


def test_no_server_is_started_or_asked_when_off_or_without_a_terminal(tmp_path: Path) -> None:
    for mode in ("off", "auto"):
        env = dict(os.environ, GRADREEL_SERVER=mode, XDG_RUNTIME_DIR=str(tmp_path))
        done = _render(["scene", "backward_walk", *TINY, "-j", "1", "--out", str(tmp_path / mode)], env)
        assert done.returncode == 0, done.stderr
        assert "warm" not in done.stderr
    assert not list(tmp_path.glob("gradreel-*/*.sock"))


def _server_pids(folder: Path) -> list[int]:
    return [int(c.parent.name) for c in Path("/proc").glob("[0-9]*/cmdline")
            if _read(c).startswith(sys.executable.encode()) and b"scenes.commands.warm_server" in _read(c)
            and str(folder).encode() in _read(c) and "State:\tZ" not in _read(c.parent / "status").decode()]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def test_an_idle_server_exits_and_takes_its_socket_with_it(served, tmp_path: Path) -> None:
    env, folder = served
    env["GRADREEL_SERVER_IDLE"] = "0"
    assert _render(["list"], env).returncode == 0  # not a render: no server
    assert not _server_pids(folder) and not list(folder.glob("gradreel-*/*"))
    done = _render(["scene", "backward_walk", *TINY, "-j", "1", "--out", str(tmp_path / "o")], env)
    assert "keeping a warm render process" in done.stderr
    assert _server_pids(folder)  # started before the render ended: importing, or listening already
    end = time.monotonic() + 60
    while time.monotonic() < end and (_server_pids(folder) or list(folder.glob("gradreel-*/*"))):
        time.sleep(0.2)
    assert not _server_pids(folder), "an idle server did not exit"
    assert not list(folder.glob("gradreel-*/*")), "an idle server left its socket, log or lock"


def test_workers_import_gradreel_from_a_folder_with_a_scenes_package_of_its_own(tmp_path: Path) -> None:
    """A course folder may hold a ``scenes`` package of the author's own (their Manim scenes).
    Plain ``python -m`` would import that one in every worker of ``-j N`` and in the warm server,
    so that no render with workers could run from there; they start with ``-P``."""
    (tmp_path / "scenes").mkdir()
    (tmp_path / "scenes" / "__init__.py").write_text("raise SystemExit('the author’s own scenes package')\n")
    env = {**os.environ, "GRADREEL_SERVER": "off"}
    done = subprocess.run([*warm_client.worker_command("no_such_module")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert "author’s own" not in done.stderr
    assert done.returncode == 1 and "usage: python -m scenes.commands.warm_client MODULE" in done.stderr, done.stderr
