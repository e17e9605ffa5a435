"""Outputs are never inputs: a render writes only where it may and over what it made.

What lives here: an --out or site folder that is a file, a device, the storyboards' folder or
another's page; a full disk. Why apart: these check what is on disk after a refusal, that
nothing already there (a storyboard, a photo, an index.html) is lost.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.harness import HANG_BOUND, ROOT, TINY, can_mount_in_a_namespace, one_line, render

@pytest.mark.parametrize("out,words", [
    ("afile", "--out afile: a file, not a directory"),
    ("afile/sub", "afile is a file, not a directory"),
    ("/dev/null", "a character device, not a directory"),
    ("/proc/x", "cannot write there"),
])
@pytest.mark.parametrize("command", ["scene", "all"])
def test_an_out_that_is_no_writable_folder_is_refused_before_the_program_runs(
        tmp_path: Path, out: str, words: str, command: str) -> None:
    (tmp_path / "afile").write_text("mine\n")
    target = ["graph_build"] if command == "scene" else []
    r = render(command, *target, "--out", out, cwd=tmp_path)
    one_line(r, words)
    assert (tmp_path / "afile").read_text() == "mine\n"


@pytest.mark.parametrize("args,words", [
    (["article", "graph_build", "--out", "afile"], "--out afile: a file, not a directory"),
    (["article", "graph_build", "--out", "afile/sub"], "afile is a file, not a directory"),
    (["site", "afile"], "site folder afile: a file, not a directory"),
    (["site", "/dev/null"], "site folder /dev/null: a character device, not a directory"),
])
def test_an_article_or_site_folder_that_is_no_folder_is_refused(tmp_path: Path, args: list[str],
                                                                words: str) -> None:
    """Once: a FileExistsError traceback from mkdir (render article after rendering the clip)."""
    (tmp_path / "afile").write_text("mine\n")
    one_line(render(*args, cwd=tmp_path), words)
    assert (tmp_path / "afile").read_text() == "mine\n"


def test_a_render_never_overwrites_its_storyboard(tmp_path: Path) -> None:
    board = tmp_path / "clip.srt"
    text = (ROOT / "scenes/storyboards/graph_build.yaml").read_text()
    board.write_text(text)
    one_line(render("scene", "./clip.srt", "--out", ".", *TINY, cwd=tmp_path), "overwrite its input")
    assert board.read_text() == text


def test_a_render_never_overwrites_a_file_it_did_not_make(tmp_path: Path) -> None:
    (tmp_path / "graph_build.png").write_text("my holiday photo\n")
    one_line(render("scene", "graph_build", "--out", str(tmp_path), *TINY), "not a poster gradreel made")
    assert (tmp_path / "graph_build.png").read_text() == "my holiday photo\n"


@pytest.mark.parametrize("command", ["scene", "article"])
def test_an_out_that_is_the_storyboards_folder_is_refused(tmp_path: Path, command: str) -> None:
    """Once: ``render article sb/clip.yaml --out sb`` wrote the clip, its .segments and the
    article's folder among the storyboards."""
    (tmp_path / "sb").mkdir()
    (tmp_path / "sb" / "clip.yaml").write_text((ROOT / "scenes/storyboards/graph_build.yaml").read_text())
    one_line(render(command, "sb/clip.yaml", "--out", "sb", *TINY, cwd=tmp_path),
             "--out sb: the folder of the storyboard sb/clip.yaml", "choose another --out")
    assert sorted(p.name for p in (tmp_path / "sb").iterdir()) == ["clip.yaml"]


@pytest.mark.parametrize("board,out,words", [
    ("clip/clip.md", ".", "clip: holds the storyboard clip/clip.md"),
    ("out/clip/deep/clip.yaml", "out", "out/clip: holds the storyboard out/clip/deep/clip.yaml"),
])
def test_an_article_never_overwrites_its_storyboard(tmp_path: Path, board: str, out: str, words: str) -> None:
    """Once: ``render article clip/clip.md --out .`` replaced the storyboard by the article's
    markdown, ``clip/clip.md`` (the article's folder is ``OUT/NAME``)."""
    text = (ROOT / "scenes/storyboards/graph_build.yaml").read_text()
    (tmp_path / board).parent.mkdir(parents=True)
    (tmp_path / board).write_text(text)
    one_line(render("article", board, "--out", out, *TINY, cwd=tmp_path), words, "choose another --out")
    assert (tmp_path / board).read_text() == text


def test_an_article_folder_holding_other_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "out" / "graph_build").mkdir(parents=True)
    (tmp_path / "out" / "graph_build" / "notes.txt").write_text("mine\n")
    one_line(render("article", "graph_build", "--out", "out", *TINY, cwd=tmp_path),
             "out/graph_build: holds notes.txt, which no article writes")
    assert (tmp_path / "out" / "graph_build" / "notes.txt").read_text() == "mine\n"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["graph_build"]


def test_a_site_folder_that_is_the_storyboards_folder_is_refused(tmp_path: Path) -> None:
    """Once: ``render site course/storyboards`` wrote an empty course page among the storyboards."""
    (tmp_path / "storyboards").mkdir()
    (tmp_path / "storyboards" / "clip.yaml").write_text((ROOT / "scenes/storyboards/graph_build.yaml").read_text())
    one_line(render("site", "storyboards", cwd=tmp_path), "site folder storyboards: the folder of the storyboards",
             "the folder holding the clips")
    assert [p.name for p in (tmp_path / "storyboards").iterdir()] == ["clip.yaml"]


@pytest.mark.parametrize("args,page", [(["site", "."], "index.html"),
                                       (["article", "graph_build", "--out", ".", *TINY], "graph_build/index.html")])
def test_a_page_never_overwrites_an_index_html_it_did_not_make(tmp_path: Path, args: list[str], page: str) -> None:
    """Once: ``render site DIR`` replaced the folder's own index.html by the course page."""
    (tmp_path / page).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / page).write_text("<!doctype html><p>my home page</p>\n")
    one_line(render(*args, cwd=tmp_path), f"{page}: not a page gradreel made")
    assert (tmp_path / page).read_text() == "<!doctype html><p>my home page</p>\n"


def test_a_render_at_another_aspect_never_overwrites_a_file_it_did_not_make(tmp_path: Path) -> None:
    """Once: the outputs were checked at 16:9 only; ``--aspect 9:16`` wrote over ``NAME.9x16.png``."""
    (tmp_path / "graph_build.9x16.png").write_text("my holiday photo\n")
    for command in ("scene", "article"):
        one_line(render(command, "graph_build", "--aspect", "9:16", "--out", str(tmp_path), *TINY),
                 "graph_build.9x16.png: not a poster gradreel made")
    assert (tmp_path / "graph_build.9x16.png").read_text() == "my holiday photo\n"


@pytest.mark.slow
def test_an_article_at_another_aspect_shows_that_clip(tmp_path: Path) -> None:
    """Once: ``render article NAME --aspect 9:16`` rendered the 9:16 clip, then looked for the 16:9
    one's key: a FileNotFoundError traceback."""
    from scenes.render.guard import PAGE_MARK

    r = render("article", "graph_build", "--aspect", "9:16", "--out", str(tmp_path), "--size", "144x256",
               "--fps", "5")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    page = tmp_path / "graph_build" / "index.html"
    assert r.stdout.strip().endswith(str(page)) and PAGE_MARK in page.read_text()  # how a page is known as ours
    assert (tmp_path / "graph_build" / "graph_build.mp4").read_bytes() == (tmp_path / "graph_build.9x16.mp4").read_bytes()


def test_write_atomic_leaves_no_temp_file_on_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scenes import atomic

    target = tmp_path / "x.state"
    target.write_bytes(b"old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full)
    with pytest.raises(OSError):
        atomic.write_atomic(target, b"new" * 1000)
    assert [p.name for p in tmp_path.iterdir()] == ["x.state"] and target.read_bytes() == b"old"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux") or not can_mount_in_a_namespace(),
                    reason="needs unshare -rm to mount a small tmpfs")
def test_a_full_disk_is_one_line_and_leaves_no_temp_file(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    script = (f"mount -t tmpfs -o size=1m tmpfs {disk} && "
              f"{sys.executable} -m scenes.commands.main scene graph_build --out {disk}/out {' '.join(TINY)}; "
              f"echo status=$?; find {disk} -name '.*' -o -name '*tmp*'")
    r = subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=ROOT, capture_output=True, text=True,
                       timeout=HANG_BOUND * 2, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "status=2" in r.stdout, (r.stdout, r.stderr[-2000:])
    errors = [line for line in r.stderr.splitlines() if not line.startswith("graph_build: beat")]
    assert len(errors) == 1 and "no space left" in errors[0] and "Traceback" not in r.stderr, r.stderr[-2000:]
    leftovers = [line for line in r.stdout.splitlines() if line.strip() and not line.startswith("status=")
                 and not line.endswith("/.segments")]
    assert leftovers == [], leftovers
