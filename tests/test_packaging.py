"""`pip install .` (not editable) gives a working `render`: the wheel holds every subpackage and
the package data (theme, schema, example storyboards), and renders a storyboard that lives in a
folder outside the checkout, run from that folder so the checkout is not importable.

Why a venv that borrows this one's packages: the wheel is installed with --no-deps into a fresh
venv whose only path to Manim, PyAV and torch is a .pth line naming this interpreter's
site-packages (a path line: the .pth files there, such as an editable install's hook, do not
run). Nothing is downloaded, and the gradreel imported is the wheel's copy, which is asserted.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("engine", "scenes", "pyproject.toml", "README.md")

# one worker for this module under pytest-xdist: its tests share a module-scoped fixture
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("packaging")]


def _pip(*args: str, cwd: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                       cwd=cwd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with gradreel installed from a wheel built from a copy of the sources (an
    in-tree build would write build/ and *.egg-info into the checkout)."""
    tmp = tmp_path_factory.mktemp("packaging")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, src / name)
    _pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(tmp / "dist"),
         str(src), cwd=tmp)
    [wheel] = (tmp / "dist").glob("gradreel-*.whl")
    env = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    site = Path(subprocess.run([str(env / "bin" / "python"), "-c",
                                "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    here = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (site / "gradreel_test_deps.pth").write_text("".join(f"{p}\n" for p in here))
    _pip("--python", str(env / "bin" / "python"), "install", "--no-deps", "--no-index", "-q",
         str(wheel), cwd=tmp)
    return env


def _run(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_installed_copy_is_imported_and_digests_only_its_own_code(venv: Path, tmp_path: Path) -> None:
    """The wheel's engine and scenes are what runs, with every subpackage and the package data;
    the code digest covers exactly their sources (so it equals the checkout's)."""
    code = ("import engine, scenes, scenes.draw.visuals, scenes.render.code_version as cv; "
            "from pathlib import Path; "
            "print(Path(engine.__file__).parent); print(Path(scenes.__file__).parent); "
            "print(len(cv.source_files())); print(cv.code_digest())")
    r = _run(venv, str(venv / "bin" / "python"), "-c", code, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    engine_dir, scenes_dir, count, digest = r.stdout.split()
    assert Path(engine_dir).is_relative_to(venv) and Path(scenes_dir).is_relative_to(venv)
    for data in ("theme.yaml", "schema/storyboard.schema.json", "storyboards/graph_build.yaml"):
        assert (Path(scenes_dir) / data).is_file(), data
    from scenes.render import code_version
    assert int(count) == len(code_version.source_files())
    assert digest == code_version.code_digest()

    schema = _run(venv, str(venv / "bin" / "render"), "schema", cwd=tmp_path)
    assert schema.returncode == 0, schema.stderr
    assert schema.stdout == (Path(scenes_dir) / "schema" / "storyboard.schema.json").read_text()
    listed = _run(venv, str(venv / "bin" / "render"), "list", cwd=tmp_path)
    assert listed.returncode == 0 and "graph_build" in listed.stdout, listed.stderr


def test_installed_render_draws_a_storyboard_outside_the_checkout(venv: Path, tmp_path: Path) -> None:
    import av

    board = tmp_path / "mine" / "forward.yaml"
    board.parent.mkdir()
    shutil.copy2(ROOT / "scenes" / "storyboards" / "graph_build.yaml", board)
    r = _run(venv, str(venv / "bin" / "render"), "scene", str(board), "--out", "clips",
             "--size", "256x144", "--fps", "5", cwd=board.parent)
    assert r.returncode == 0, r.stderr
    clip = board.parent / "clips" / "forward.mp4"
    assert r.stdout.strip().splitlines()[-1] == "clips/forward.mp4"
    with av.open(str(clip)) as container:
        frames = [f for f in container.decode(video=0)]
    assert len(frames) > 10 and (frames[0].width, frames[0].height) == (256, 144)
