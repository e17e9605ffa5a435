"""Nothing an author wrote is overwritten, and no two clips share an output's name.

Every file gradreel writes into an output folder is recorded in that folder's list
(``.gradreel-files``, :mod:`scenes.render.manifest`); a file there that the list does not record,
or that changed since, is refused by name before anything is written. Why apart from
test_outputs: these start from a folder already rendered (one render, copied by each test).
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from tests.hostile.harness import ROOT, TINY, one_line, render

BOARD = ROOT / "scenes/storyboards/graph_build.yaml"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """graph_build's clip and article and the course's site, rendered once (tiny): what a course
    author's out/ holds after `render all --article --site`."""
    root = tmp_path_factory.mktemp("rendered")
    r = render("all", "graph_build", "--out", "out", "--article", "--site", *TINY, cwd=root)
    assert r.returncode == 0, r.stderr[-2000:]
    return root / "out"


def _copy(rendered: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(rendered, out, symlinks=True)
    return out


def _files(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` but the beat cache, with its sha256."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and ".segments" not in p.parts}


@pytest.mark.parametrize("name,what", [("graph_build.md", "not an article gradreel made"),
                                       ("gradreel.css", "not a style sheet gradreel made")])
def test_an_article_never_overwrites_an_authors_file(tmp_path: Path, name: str, what: str) -> None:
    """Once: `render article` replaced the author's own OUT/NAME/NAME.md and gradreel.css, exit 0
    (only index.html was checked)."""
    mine = tmp_path / "out" / "graph_build" / name
    mine.parent.mkdir(parents=True)
    mine.write_text("my own notes\n")
    one_line(render("article", "graph_build", "--out", "out", *TINY, cwd=tmp_path),
             f"out/graph_build/{name}: {what}", "move it away")
    assert mine.read_text() == "my own notes\n"
    assert _files(tmp_path / "out") == {f"graph_build/{name}": hashlib.sha256(b"my own notes\n").hexdigest()}


@pytest.mark.parametrize("name", ["graph_build.md", "gradreel.css", "index.html", "beat-02.svg"])
def test_an_article_never_overwrites_a_file_changed_since_gradreel_wrote_it(rendered: Path, tmp_path: Path,
                                                                             name: str) -> None:
    out = _copy(rendered, tmp_path)
    (out / "graph_build" / name).write_text("<!-- my edit -->\n")
    before = _files(out)
    one_line(render("article", "graph_build", "--out", "out", "--force", *TINY, cwd=tmp_path),
             f"out/graph_build/{name}: changed since gradreel wrote it", "move it away")
    assert _files(out) == before


@pytest.mark.parametrize("changed", [False, True])
def test_a_site_never_overwrites_an_authors_style_sheet(rendered: Path, tmp_path: Path, changed: bool) -> None:
    """Once: `render site` replaced the author's DIR/gradreel.css, exit 0."""
    out = _copy(rendered, tmp_path) if changed else tmp_path / "out"
    out.mkdir(exist_ok=True)
    (out / "gradreel.css").write_text("body { color: hotpink; }\n")
    before = _files(out)
    one_line(render("site", "out", "--force", cwd=tmp_path),
             "out/gradreel.css: " + ("changed since gradreel wrote it" if changed
                                     else "not a style sheet gradreel made"))
    assert _files(out) == before


def test_everything_rendered_again_twice_keeps_working(rendered: Path, tmp_path: Path) -> None:
    """What gradreel wrote it replaces: the whole course again, forced, then once more up to date."""
    out = _copy(rendered, tmp_path)
    for extra in (["--force"], ["--force"], []):
        r = render("all", "graph_build", "--out", "out", "--article", "--site", *TINY, *extra, cwd=tmp_path)
        assert r.returncode == 0, r.stderr[-2000:]
    assert "graph_build: article up to date" in r.stderr and "site: up to date" in r.stderr
    assert (out / "graph_build" / "graph_build.md").read_text().startswith("# ")


def test_a_list_of_files_that_is_not_gradreels_is_refused(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / ".gradreel-files").write_text('{"format": "gradreel-files", "files": {"x": [1]}}\n')
    one_line(render("site", "out", cwd=tmp_path), "out/.gradreel-files: not gradreel's list")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".gradreel-files"]


def test_schema_write_never_overwrites_an_authors_file(tmp_path: Path) -> None:
    mine = tmp_path / "storyboard.schema.json"
    mine.write_text('{"title": "my own schema"}\n')
    one_line(render("schema", "--write", ".", cwd=tmp_path), "storyboard.schema.json: not a schema gradreel made")
    assert mine.read_text() == '{"title": "my own schema"}\n'
    mine.unlink()
    for _ in range(2):  # its own it replaces
        r = render("schema", "--write", ".", cwd=tmp_path)
        assert r.returncode == 0 and mine.read_text().startswith("{"), r.stderr


@pytest.mark.parametrize("file,words", [
    ("walk.9x16.yaml", ["the storyboard's name 'walk.9x16' ends in '.9x16'", "--aspect 9:16 writes walk.9x16.mp4",
                        "walk_9x16.yaml"]),
    ("walk.1X1.yaml", ["ends in '.1X1'", "rename the file"]),
    (".site.yaml", ["the storyboard's name '.site' starts with a dot", ".site.key", "site.yaml"]),
])
@pytest.mark.parametrize("command", ["scene", "article", "check"])
def test_a_name_that_another_clips_outputs_have_is_refused(tmp_path: Path, file: str, words: list[str],
                                                           command: str) -> None:
    """Once: `x.9x16.yaml` and `x.yaml --aspect 9:16` wrote the same mp4, png, srt, vtt, key and
    log over each other; a storyboard `.site.yaml` shared the site's key file."""
    (tmp_path / "sb").mkdir()
    (tmp_path / "sb" / file).write_text(BOARD.read_text())
    args = ["--no-torch"] if command == "check" else ["--out", "out", *TINY]
    r = render(command, f"sb/{file}", *args, cwd=tmp_path)
    one_line(r, f"sb/{file}:1:1:", *words)
    assert not (tmp_path / "out").exists()
