"""A destination that will not take a file is one line and exit 2, and loses nothing.

The four commands that write (`render scene`, `article`, `site`, `schema --write`) against a
full disk, a read-only file system, a folder of /proc or /sys that takes no file, and a file-size
limit. How a full disk is made: a small tmpfs mounted in a mount namespace of the test's own
(`unshare -rm`, no root needed and the machine's mounts untouched), filled with a file of zeros,
so that the write really fails with ENOSPC where gradreel writes; skipped where unshare cannot
mount. A file-size limit (RLIMIT_FSIZE, set in the child only: EFBIG, as Python ignores
SIGXFSZ) runs everywhere, and reaches the same path by another errno.
"""

from __future__ import annotations

import os
import resource
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.harness import (HANG_BOUND, RENDER, ROOT, TINY, can_mount_in_a_namespace, in_namespace,
                                   one_line, render)

needs_namespace = pytest.mark.skipif(not sys.platform.startswith("linux") or not can_mount_in_a_namespace(),
                                     reason="needs `unshare -rm` to mount a tmpfs or a read-only folder of its own")

COMMANDS = {
    "scene": ["scene", "graph_build", "--out", "out", "--force", *TINY],
    "article": ["article", "graph_build", "--out", "out", *TINY],  # its key removed: the article is written
    "site": ["site", "out", "--force"],
    "schema": ["schema", "--write", "sb"],
}
"""Each command as the tests run it, from a folder holding ``out/`` (rendered) and ``sb/``."""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """graph_build's clip, article and the site, rendered once (tiny), beside an empty ``sb/``;
    the article's key removed, so that `render article` writes it again."""
    root = tmp_path_factory.mktemp("rendered")
    (root / "storyboards").mkdir()  # a course of one clip: the site says nothing of the others
    shutil.copy(ROOT / "scenes/storyboards/graph_build.yaml", root / "storyboards")
    (root / "course.yaml").write_text("title: One clip\nclips:\n  - graph_build\n")
    r = render("all", "graph_build", "--out", "out", "--article", "--site", *TINY, cwd=root)
    assert r.returncode == 0, r.stderr[-2000:]
    (root / "out" / "graph_build" / "article.key").unlink()
    (root / "sb").mkdir()
    return root


def _listing(folder: str) -> str:
    """A shell command printing every file under ``folder`` with its sha256, the beat cache aside."""
    return f"find {folder} -path '*/.segments' -prune -o -type f -print0 | sort -z | xargs -0 -r sha256sum"


def _errors(stderr: str) -> list[str]:
    """What stderr says besides the progress of a render (a beat drawn, a clip up to date)."""
    return [line for line in stderr.splitlines()
            if not line.startswith(("graph_build: beat", "graph_build: up to date"))]


def _one_error(r: subprocess.CompletedProcess, *words: str) -> None:
    """Exit 2 and, besides progress, one line on stderr saying each of ``words``; no traceback."""
    errors = _errors(r.stderr)
    assert r.returncode == 2 and "Traceback" not in r.stderr, (r.returncode, r.stderr[-2000:])
    assert len(errors) == 1, r.stderr
    assert all(w in errors[0] for w in words), (words, errors)


@needs_namespace
@pytest.mark.slow
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_full_disk_is_one_line_and_loses_nothing(rendered: Path, tmp_path: Path, command: str) -> None:
    """Once: an OSError 28 traceback under `render site`, `render article` and `render schema --write`."""
    disk = tmp_path / "disk"
    disk.mkdir()
    script = (f"set -e; mount -t tmpfs -o size=24m tmpfs {disk}; cp -a {rendered}/out {rendered}/sb {rendered}/storyboards {rendered}/course.yaml {disk}/; "
              f"cd {disk}; {_listing('out')}; echo ---; cat /dev/zero > fill 2>/dev/null || true; set +e; "
              f"$RENDER {shlex.join(COMMANDS[command])}; echo status=$?; {_listing('out')}; echo ---; "
              f"find . -name '*.tmp*' -o -name '*-pid*' -o -path ./sb/storyboard.schema.json")
    r = in_namespace(script, cwd=ROOT)
    before, _, rest = r.stdout.partition("---\n")
    status, _, rest = rest.partition("\n")
    after, _, leftovers = rest.partition("---\n")
    assert status == "status=2", (r.stdout, r.stderr[-2000:])
    errors = _errors(r.stderr)
    assert len(errors) == 1 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert errors[0].startswith("render: cannot write ") and "no space left on the device" in errors[0], errors
    assert after == before and before.count("\n") > 10
    assert leftovers.split() == [], leftovers


@needs_namespace
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_read_only_destination_is_one_line(rendered: Path, tmp_path: Path, command: str) -> None:
    """Once: `render schema --write` into a read-only folder was a PermissionError traceback."""
    shutil.copytree(rendered, tmp_path / "c", symlinks=True)
    folder = "sb" if command == "schema" else "out"
    script = (f"set -e; mount --bind {folder} {folder}; mount -o remount,bind,ro {folder}; set +e; "
              f"$RENDER {shlex.join(COMMANDS[command])}")
    r = in_namespace(script, cwd=tmp_path / "c")
    one_line(r, "cannot write", "read-only file system")


@pytest.mark.parametrize("place", ["/proc", "/sys/kernel"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_folder_that_takes_no_file_is_one_line(tmp_path: Path, command: str, place: str) -> None:
    """Once: `render schema --write /proc` (or /sys/kernel) was a traceback."""
    args = [place if a in ("out", "sb") else a for a in COMMANDS[command]]
    one_line(render(*args, cwd=tmp_path), f"{place}: cannot write there")


def test_schema_write_to_an_empty_name_is_refused(tmp_path: Path) -> None:
    """Once: `render schema --write ""` wrote into the current folder."""
    one_line(render("schema", "--write", "", cwd=tmp_path), "--write needs a folder")
    assert list(tmp_path.iterdir()) == []


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.mark.parametrize("command", ["article", "site", "schema"])
def test_a_file_size_limit_is_one_line_and_loses_nothing(rendered: Path, tmp_path: Path, command: str) -> None:
    """Every file each writes here is larger than 4 KiB but the key (a still, a style sheet, the
    schema), so each fails part way, after the checks, as on a full disk."""
    shutil.copytree(rendered, tmp_path / "c", symlinks=True)
    before = {p: p.read_bytes() for p in (tmp_path / "c").rglob("*") if p.is_file()}
    r = subprocess.run([*RENDER, *COMMANDS[command]], cwd=tmp_path / "c", capture_output=True, text=True,
                       timeout=HANG_BOUND, preexec_fn=_limit_file_size,
                       env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"})
    _one_error(r, "cannot write ", "larger than the device or this process may write")
    assert "cannot write out:" not in r.stderr  # the file, not only the folder
    after = {p: p.read_bytes() for p in (tmp_path / "c").rglob("*") if p.is_file()}
    assert after == before
