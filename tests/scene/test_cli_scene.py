"""`render scene` from the outside: exit codes, one-line errors, up to date in under a second,
and a render killed with SIGKILL mid-way leaves the previous clip intact."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from scenes.render import manifest

ROOT = Path(__file__).resolve().parents[2]
RENDER = [sys.executable, "-m", "scenes.commands.main"]
TINY = ["--size", "256x144", "--fps", "5"]


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*RENDER, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def test_unknown_storyboard_is_one_line_exit_2(tmp_path: Path) -> None:
    r = run("scene", "backward_wlak", "--out", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "backward_wlak" in r.stderr and "did you mean 'backward_walk'" in r.stderr
    assert not list(tmp_path.iterdir())


def test_bad_set_is_located_exit_2(tmp_path: Path) -> None:
    r = run("scene", "backward_walk", "--set", "w1", "--out", str(tmp_path))
    assert r.returncode == 2
    assert r.stderr.startswith("scenes/storyboards/backward_walk.yaml:") and r.stderr.count("\n") == 1


@pytest.mark.slow
def test_render_then_up_to_date_then_kill_leaves_clip(tmp_path: Path) -> None:
    first = run("scene", "graph_build", "--out", str(tmp_path), *TINY)
    assert first.returncode == 0, first.stderr
    clip = tmp_path / "graph_build.mp4"
    assert first.stdout.strip().splitlines()[-1] == str(clip)
    assert "beat 2/" in first.stderr
    good = digest(clip)

    again = run("scene", "graph_build", "--out", str(tmp_path), *TINY)
    assert again.returncode == 0 and "up to date" in again.stderr
    assert again.stdout.strip().splitlines()[-1] == str(clip)

    proc = subprocess.Popen([*RENDER, "scene", "graph_build", "--force", "--out", str(tmp_path), *TINY],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:  # wait until Manim is drawing, then kill it hard
        if "beat 3/" in line:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert digest(clip) == good
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".mp4"] == ["graph_build.mp4"]


@pytest.mark.slow
def test_up_to_date_check_does_not_import_manim(tmp_path: Path) -> None:
    """The cheap path: deciding that nothing is out of date must not pay for importing Manim."""
    first = run("scene", "graph_build", "--out", str(tmp_path), *TINY)
    assert first.returncode == 0, first.stderr
    code = ("import sys; from scenes.commands.main import main; rc = main(['scene', 'graph_build', '--out', "
            f"{str(tmp_path)!r}, '--size', '256x144', '--fps', '5']); "
            "print('manim imported' if 'manim' in sys.modules else 'manim not imported', rc)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.stdout.strip().splitlines()[-1] == "manim not imported 0", r.stdout + r.stderr


LONG = "dynamic_graph"  # 18 beats: interrupted at beat 2, most of the work is still ahead


def _interrupt_early(tmp_path: Path, sig: int) -> subprocess.Popen:
    # a shell's background job (as CI may be) starts with SIGINT ignored, and Python then leaves
    # it ignored: give the child the default disposition, as a terminal's Ctrl-C would find it
    proc = subprocess.Popen([*RENDER, "scene", LONG, "--force", "--out", str(tmp_path), *TINY],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr is not None
    for line in proc.stderr:
        if "beat 2/" in line:
            break
    os.kill(proc.pid, sig)
    proc.wait(timeout=60)
    return proc


@pytest.mark.slow
def test_sigint_leaves_the_previous_clip_and_cleans_up(tmp_path: Path) -> None:
    first = run("scene", LONG, "--out", str(tmp_path), *TINY)
    assert first.returncode == 0, first.stderr
    clip = tmp_path / f"{LONG}.mp4"
    previous = "1\n00:00:00,000 --> 00:00:01,000\nthe previous captions\n"  # as gradreel writes them
    (tmp_path / f"{LONG}.srt").write_text(previous)  # would be replaced by a finished render
    manifest.settle(tmp_path, {f"{LONG}.srt": manifest.Version.of(tmp_path / f"{LONG}.srt")})  # as gradreel's
    good = digest(clip)
    proc = _interrupt_early(tmp_path, signal.SIGINT)
    assert proc.returncode == 130
    assert digest(clip) == good
    assert (tmp_path / f"{LONG}.srt").read_text() == previous
    assert not [p.name for p in tmp_path.iterdir()
                if p.name.startswith(".") and p.name not in (".segments", manifest.MANIFEST)]


@pytest.mark.slow
def test_what_a_killed_render_left_is_swept_by_the_next(tmp_path: Path) -> None:
    first = run("scene", LONG, "--out", str(tmp_path), *TINY)
    assert first.returncode == 0, first.stderr
    _interrupt_early(tmp_path, signal.SIGKILL)
    assert [p for p in tmp_path.iterdir() if p.name.startswith(f".{LONG}-pid")]
    again = run("scene", LONG, "--force", "--out", str(tmp_path), *TINY)
    assert again.returncode == 0, again.stderr
    assert not [p.name for p in tmp_path.iterdir()
                if p.name.startswith(".") and p.name not in (".segments", manifest.MANIFEST)]


@pytest.mark.slow
def test_render_all_named_clips_two_at_a_time(tmp_path: Path) -> None:
    r = run("all", "graph_build", "mlp", "-j", "2", "--out", str(tmp_path), *TINY)
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.split()) == sorted(str(tmp_path / f"{n}.mp4") for n in ("graph_build", "mlp"))
    assert sorted(p.name for p in tmp_path.glob("*.mp4")) == ["graph_build.mp4", "mlp.mp4"]


@pytest.mark.slow
def test_render_all_in_two_processes_goes_on_past_a_bad_storyboard(tmp_path: Path) -> None:
    """Three clips for two workers: one worker renders two; a bad file is reported with its
    line, gives status 2, and the clips after it are still rendered."""
    bad = tmp_path / "broken.yaml"
    bad.write_text("title: x\nbeats: 3\n")
    out = tmp_path / "out"
    r = run("all", str(bad), "graph_build", "leaf_nodes", "-j", "2", "--out", str(out), *TINY)
    assert r.returncode == 2
    assert "broken.yaml:" in r.stderr
    assert sorted(r.stdout.split()) == sorted(str(out / f"{n}.mp4") for n in ("graph_build", "leaf_nodes"))
    assert sorted(p.name for p in out.glob("*.mp4")) == ["graph_build.mp4", "leaf_nodes.mp4"]


def test_render_all_hands_out_the_costliest_clip_first() -> None:
    """Longest first: a worker that frees up takes the clip with the most work left, so no
    process is still drawing a long clip while the others are done. One worker thread here,
    which takes the tasks in the order handed out."""
    from concurrent.futures import ThreadPoolExecutor

    from scenes.render.pool import run_all

    with ThreadPoolExecutor(max_workers=1) as pool:
        cost = {"a": 240, "b": 282, "c": 277, "d": 272}.get
        assert [item for item, _ in run_all(pool, str.upper, ["a", "b", "c", "d"], cost=cost)] == ["b", "c", "d", "a"]
        got = list(run_all(pool, str.upper, ["a", "b", "c"]))
    assert got == [("a", "A"), ("b", "B"), ("c", "C")], "without an estimate, the order given"


@pytest.mark.slow
def test_the_work_of_a_clip_is_its_moving_frames(tmp_path: Path) -> None:
    """What ``render all`` orders clips by: frames in which something moves (a held frame is
    drawn once), so fewer than the clip has, and more at a higher frame rate; a storyboard that
    cannot be planned comes first, as its worker reports it at once."""
    from scenes.render.options import RenderOptions
    from scenes.render.pipeline import count_frames, drawn_frames
    from scenes.storyboard import storyboard_path

    file = storyboard_path("graph_build")
    at5, at15 = drawn_frames(file, RenderOptions(fps=5)), drawn_frames(file, RenderOptions())
    assert 0 < at5 < at15
    r = run("scene", "graph_build", "--out", str(tmp_path), *TINY)
    assert r.returncode == 0, r.stderr
    assert at5 < count_frames(tmp_path / "graph_build.mp4") * 0.75, "held frames counted as drawn"
    bad = tmp_path / "broken.yaml"
    bad.write_text("title: x\nbeats: 3\n")
    assert drawn_frames(str(bad), RenderOptions()) == sys.maxsize
    assert drawn_frames(str(tmp_path / "missing.yaml"), RenderOptions()) == sys.maxsize


def test_a_render_all_task_reports_a_failed_clip(monkeypatch, capsys) -> None:
    """`render all -j N` tasks: a clip that raises is status 1 (traceback on stderr) and no path;
    the worker then takes the next clip, so one bad clip costs only itself."""
    import scenes.commands.scene as scene

    def fake(file, opts, farm=None):
        if file == "b.yaml":
            raise RuntimeError("encoder failed")
        return 0, Path(opts.out) / f"{file}.mp4"

    monkeypatch.setattr(scene, "_render_clip", fake)
    opts = scene.RenderOptions(out="o").to_json()
    assert [scene.render_task(f, opts) for f in ("a.yaml", "b.yaml", "c.yaml")] == [
        (0, "o/a.yaml.mp4"), (1, None), (0, "o/c.yaml.mp4")]
    err = capsys.readouterr().err
    assert "RuntimeError: encoder failed" in err and "b.yaml failed" in err


def test_an_up_to_date_clip_imports_neither_the_engine_nor_the_model(tmp_path: Path) -> None:
    """The no-op path reads the key and hashes the inputs; it runs no program and loads no
    storyboard, so numpy, the interpreter, pydantic and Manim stay out of the process."""
    from scenes.render.options import RenderOptions, outputs
    from scenes.render.pipeline import cache_key
    from scenes.storyboard.store import storyboard_path

    for voice, heavy in (("off", "[]"), ("neural", "['numpy']")):  # a voice's key is its model's: numpy
        opts = RenderOptions(out=str(tmp_path), voice=voice)
        for kind, path in outputs("backward_walk", tmp_path, "mp4").items():
            path.write_text(cache_key(storyboard_path("backward_walk"), opts) + "\n" if kind == "key" else "")
        code = (f"import sys; from scenes.commands.main import main; rc = main(['scene', 'backward_walk', '--out', "
                f"{str(tmp_path)!r}, '--voice', {voice!r}]); print(rc, sorted({{m.split('.')[0] for m in sys.modules}} "
                "& {'numpy', 'pydantic', 'manim', 'torch'}), 'engine.interpreter' in sys.modules)")
        r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert "backward_walk: up to date" in r.stderr, r.stderr
        assert r.stdout.strip().splitlines()[-1] == f"0 {heavy} False", r.stdout + r.stderr


def test_each_aspect_names_its_outputs_so_they_share_a_folder(tmp_path: Path) -> None:
    from scenes.render.options import ASPECTS, outputs

    names = {aspect: {p.name for p in outputs("walk", tmp_path, "mp4", aspect).values()} for aspect in ASPECTS}
    assert names["16:9"] == {"walk.mp4", "walk.png", "walk.srt", "walk.vtt", "walk.events.jsonl", "walk.key"}
    assert names["9:16"] == {"walk.9x16.mp4", "walk.9x16.png", "walk.9x16.srt", "walk.9x16.vtt",
                             "walk.9x16.events.jsonl", "walk.9x16.key"}
    assert {n.split(".")[1] for n in names["1:1"]} == {"1x1"}
    assert not names["16:9"] & names["9:16"] and not names["9:16"] & names["1:1"]


@pytest.mark.slow
def test_a_clip_at_two_aspects_keeps_both_in_one_folder(tmp_path: Path) -> None:
    small = tmp_path / "small.yaml"
    small.write_text("title: Small\nprogram: |\n  import torch\n  w = torch.tensor(2.0)\n"
                     "beats:\n  - visual: code_and_graph_build\n    lines: 2\n    narration: \"w is {w}.\"\n")
    out = tmp_path / "out"
    for aspect in ("16:9", "9:16"):
        r = run("scene", str(small), "--aspect", aspect, "--out", str(out), *TINY)
        assert r.returncode == 0, r.stderr
    wide, tall = out / "small.mp4", out / "small.9x16.mp4"
    assert wide.exists() and tall.exists() and (out / "small.9x16.png").exists()
    assert run("scene", str(small), "--out", str(out), *TINY).stderr.strip().endswith("small: up to date")
