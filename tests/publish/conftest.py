"""A course rendered once for the page tests: two tiny clips with their articles and the site,
in an author's own folder (course.yaml, storyboards/, out/) outside this checkout."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RENDER = [sys.executable, "-m", "scenes.commands.main"]
TINY = ["--size", "426x240", "--fps", "10"]
COURSE = "title: A course of my own\nclips:\n  - walk\n  - build\n"


def render(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*RENDER, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="session")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The author's folder, with out/ holding both clips, their articles and index.html."""
    home = tmp_path_factory.mktemp("course")
    (home / "storyboards").mkdir()
    shutil.copy(ROOT / "scenes" / "storyboards" / "backward_walk.yaml", home / "storyboards" / "walk.yaml")
    shutil.copy(ROOT / "scenes" / "storyboards" / "graph_build.yaml", home / "storyboards" / "build.yaml")
    (home / "course.yaml").write_text(COURSE)
    for name in ("build", "walk"):
        r = render("article", f"storyboards/{name}.yaml", "--out", "out", *TINY, cwd=home)
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip().splitlines()[-1] == f"out/{name}/index.html"
    r = render("site", "out", cwd=home)
    assert r.returncode == 0, r.stderr
    return home
