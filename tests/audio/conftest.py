"""One narrated clip for the sound tests: ``backward_walk`` said by the fake voice
(:mod:`tests.audio.fakevoice`), rendered once per session at a tiny size, in a folder of its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from scenes.voice.cache import CACHE_ENV

ROOT = Path(__file__).resolve().parents[2]
FAKE = [sys.executable, "-m", "tests.audio.fakevoice"]
"""`render` with ``--voice fake`` known (in the render's process only)."""
TINY = ["--size", "426x240", "--fps", "10"]
FPS = 10


def render(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``render ARGS`` in ``cwd`` with the fake voice, its speech cached in ``cwd/speech``."""
    return subprocess.run([*FAKE, *args], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT), CACHE_ENV: str(cwd / "speech")})


@dataclass(frozen=True)
class Narrated:
    home: Path
    """The author's folder: storyboards/walk.yaml, out/."""
    clip: Path
    stderr: str

    @property
    def storyboard(self) -> Path:
        return self.home / "storyboards" / "walk.yaml"


@pytest.fixture(scope="session")
def narrated(tmp_path_factory: pytest.TempPathFactory) -> Narrated:
    home = tmp_path_factory.mktemp("narrated")
    (home / "storyboards").mkdir()
    shutil.copy(ROOT / "scenes" / "storyboards" / "backward_walk.yaml", home / "storyboards" / "walk.yaml")
    r = render("scene", "storyboards/walk.yaml", "--voice", "fake", "--out", "out", *TINY, "-j", "1", cwd=home)
    assert r.returncode == 0, r.stderr
    return Narrated(home, home / "out" / "walk.mp4", r.stderr)
