"""Articles and the site on disk: self-contained folders, every number the clip's, rebuilt only
when what they show changed, and a course folder outside this checkout."""

from __future__ import annotations

import html
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import av
import pytest

from scenes.publish.article import takeaway
from scenes.publish.prose import beat_prose
from scenes.publish.site import clip_seconds
from scenes.storyboard import load_and_plan
from scenes.storyboard.chapters import beat_chapters
from tests.publish.conftest import TINY, render

# one worker for this module under pytest-xdist: its tests share a session-scoped fixture
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("course")]


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.refs += [v for k, v in attrs if k in ("src", "href", "poster") and v]


def refs(page: Path) -> list[str]:
    parser = _Refs()
    parser.feed(page.read_text())
    return parser.refs


def test_an_article_folder_holds_everything_it_loads(course: Path) -> None:
    folder = course / "out" / "walk"
    for ref in refs(folder / "index.html"):
        if ref.startswith(("#", "data:")):
            continue
        assert "://" not in ref and not ref.startswith("/"), ref
        assert (folder / ref.split("#")[0]).is_file(), ref
    names = {p.name for p in folder.iterdir()}
    assert {"index.html", "walk.md", "walk.mp4", "walk.png", "walk.vtt", "walk.chapters.vtt", "gradreel.css"} <= names
    shown = sorted({s.figure for s in load_and_plan(str(course / "storyboards" / "walk.yaml"))[0].storyboard.article
                    if s.figure})
    assert sorted(n for n in names if n.startswith("beat-")) == [f"beat-{k:02d}.svg" for k in shown]
    assert (folder / "walk.vtt").read_text() == (course / "out" / "walk.vtt").read_text()


def test_the_clip_has_a_chapter_per_beat_and_a_vtt_beside_its_srt(course: Path) -> None:
    _, p = load_and_plan(str(course / "storyboards" / "walk.yaml"), (), "walk")
    with av.open(str(course / "out" / "walk.mp4")) as box:
        titles = [c["metadata"]["title"] for c in box.chapters()]
    assert titles == [c.title for c in beat_chapters(p)]
    srt, vtt = (course / "out" / "walk.srt").read_text(), (course / "out" / "walk.vtt").read_text()
    assert vtt.startswith("WEBVTT") and vtt.count(" --> ") == srt.count(" --> ") == len(p.captions)


def test_each_figure_the_article_shows_is_a_vector_figure(course: Path) -> None:
    """The walk's article shows the figures of beats 1, 6 and 7 (its ``article:`` names them):
    each has its SVG file, inline in the page too, and the Markdown links it; no still is left."""
    folder = course / "out" / "walk"
    page, md = (folder / "index.html").read_text(), (folder / "walk.md").read_text()
    shown = [s.figure for s in load_and_plan(str(course / "storyboards" / "walk.yaml"))[0].storyboard.article
             if s.figure]
    assert shown == [1, 6, 7]
    for k in shown:
        svg = (folder / f"beat-{k:02d}.svg").read_text()
        assert svg.startswith("<svg") and f'id="fig-{k}-title"' in page
        assert f"](beat-{k:02d}.svg)" in md
    assert page.count('<svg class="figure"') == len(shown) + 1  # and the stepping one
    assert not list(folder.glob("*.png")) or [p.name for p in folder.glob("*.png")] == ["walk.png"]


def test_the_site_lists_the_course_in_its_order(course: Path) -> None:
    page = (course / "out" / "index.html").read_text()
    assert "<title>A course of my own</title>" in page
    assert "<p>Why the <em>graph</em> runs backward.</p>\n<p>Then <code>L.backward()</code> again.</p>" in page
    titles = re.findall(r'<h2><span class="n">\d+\.</span> <a class="anchor" href="([^"]+)">([^<]+)</a></h2>', page)
    assert [href for href, _ in titles] == ["walk/index.html", "build/index.html"]
    assert titles[0][1] == "L.backward() walks the graph in reverse"
    board, p = load_and_plan(str(course / "storyboards" / "walk.yaml"))
    point = takeaway(board.storyboard, p, beat_prose(board.storyboard, p))
    assert "w1.grad is 8/3 and w2.grad is 4/9" in point and f'<p class="point">{html.escape(point)}</p>' in page
    seconds = int(clip_seconds(course / "out" / "walk.mp4", p.duration))  # as said by its voice
    assert f"{seconds // 60}:{seconds % 60:02d}" in page and 'href="walk.mp4"' in page  # its duration
    assert "2 short clips" in page and "each with a written version" in page
    for ref in refs(course / "out" / "index.html"):
        assert ref.startswith(("data:", "#")) or (course / "out" / ref).is_file(), ref


def test_a_thumbnail_is_the_graph_not_the_whole_frame(course: Path) -> None:
    """Once, a clip's thumbnail was its poster: the whole frame, the code pane taking half of it,
    at 88 px wide on a phone a blur. Now it is the poster cropped to the clip's graph, in one
    shape for every clip, linked at its own size, with nothing of the code pane left in it."""
    import numpy as np
    from PIL import Image
    from scipy import ndimage

    from scenes.publish.thumbs import THUMB_SHAPE, crop_box, subject_box
    from scenes.render import poster_box
    from scenes.theme import load_theme

    out = course / "out"
    page = (out / "index.html").read_text()
    imgs = re.findall(r'<img class="thumb" src="([^"]+)" alt="" width="(\d+)" height="(\d+)"', page)
    assert [src for src, _, _ in imgs] == ["walk.thumb.png", "build.thumb.png"]
    board, p = load_and_plan(str(course / "storyboards" / "walk.yaml"))
    with Image.open(out / "walk.png") as poster, Image.open(out / "walk.thumb.png") as thumb:
        frame, small = np.asarray(poster.convert("RGB"), dtype=int), np.asarray(thumb.convert("RGB"), dtype=int)
        assert (thumb.width, thumb.height) == (int(imgs[0][1]), int(imgs[0][2]))
        assert abs(thumb.width / thumb.height - THUMB_SHAPE) < 0.01 and thumb.width < poster.width
    with Image.open(out / "walk.png") as poster:
        noted = poster_box.read_chunk(poster.text.get(poster_box.CHUNK))
    theme, size = load_theme(), (frame.shape[1], frame.shape[0])
    subject = subject_box(board, p, theme, size, noted)
    x0, crop = round(subject[0]), crop_box(subject, size)
    gap = theme.spacing.item_gap * size[1] / theme.aspect("16:9").frame_height  # subject_box's, round the graph
    ink = lambda a: int((np.abs(a - frame[0, 0]).sum(axis=2) > 24).sum())  # noqa: E731  (drawn pixels)
    assert ink(frame[:, : x0 // 2]) > 0.05 * frame[:, : x0 // 2, 0].size  # left of the graph: the code pane...
    # ...of which the thumbnail shows nothing left of the graph's cards (a graph wider than the
    # thumbnail's shape is cropped at its box: then only the gap round it)
    left = max(1, round((x0 + gap / 2 - crop[0]) * small.shape[1] / (crop[2] - crop[0])))
    assert ink(small[:, :left]) == 0
    drawn = np.abs(frame - frame[0, 0]).sum(axis=2) > 24
    things, _ = ndimage.label(ndimage.binary_dilation(drawn, np.ones((5, 13), bool)))  # a line of words: one
    beside = np.setdiff1d(np.unique(things[:, :x0]), [0])  # what reaches left of the graph's box (a board)
    assert ink(small) >= 0.95 * int((drawn & ~np.isin(things, beside)).sum())  # the whole graph,
    # larger, at the same width on the page (the graph grown before the recap spans three quarters of
    # the frame: 74 % of its area at the poster, from half or less when it stood beside the board)
    assert small[..., 0].size <= 0.8 * frame[..., 0].size


def test_the_render_notes_in_the_poster_where_it_draws_the_graph(course: Path) -> None:
    """The site crops a thumbnail to the graph where the poster's frame draws it. Once, it found
    that place by playing each clip again up to the poster (tens of seconds a clip, at every
    site build); the render that drew the frame now notes the box in the poster, and it is the
    box the clip played again gives."""
    from PIL import Image

    from scenes.publish.thumbs import subject_box
    from scenes.render import poster_box
    from scenes.theme import load_theme

    noted = {}
    for name in ("walk", "build"):
        with Image.open(course / "out" / f"{name}.png") as poster:
            noted[name] = poster_box.read_chunk(poster.text.get(poster_box.CHUNK)), poster.size
        assert noted[name][0][0] and noted[name][0][1] is not None, name
    board, p = load_and_plan(str(course / "storyboards" / "walk.yaml"))
    (box, size), theme = noted["walk"], load_theme()
    assert subject_box(board, p, theme, size, box) == subject_box(board, p, theme, size)


def test_the_site_says_written_versions_only_when_there_are(course: Path, tmp_path: Path) -> None:
    """An author's course whose clips have no article yet: no article link, and the page does not
    promise written versions; with one of two, it says one."""
    home = tmp_path / "c"
    shutil.copytree(course, home)
    site = home / "out" / "index.html"
    shutil.rmtree(home / "out" / "build")
    assert render("site", "out", cwd=home).returncode == 0
    assert "1 of them with a written version" in site.read_text()
    assert "build/index.html" not in refs(site) and "walk/index.html" in refs(site)
    shutil.rmtree(home / "out" / "walk")
    assert render("site", "out", cwd=home).returncode == 0
    page = site.read_text()
    assert "written version" not in page and "articles" not in page and "Read the article" not in page
    assert [r for r in refs(site) if r.endswith(".html")] == []


def test_pages_are_written_again_only_when_what_they_show_changed(course: Path, tmp_path: Path) -> None:
    home = tmp_path / "c"
    shutil.copytree(course, home)
    page, site = home / "out" / "walk" / "index.html", home / "out" / "index.html"
    again = render("all", "--help", cwd=home)  # the options exist
    assert "--article" in again.stdout and "--site" in again.stdout
    assert 'href="../index.html"' not in page.read_text()
    r = render("article", "storyboards/walk.yaml", "--out", "out", *TINY, "--no-portrait", cwd=home)  # the course page is new
    assert r.returncode == 0 and "walk: up to date" in r.stderr and "walk: article written" in r.stderr
    assert 'href="../index.html"' in page.read_text()
    assert render("site", "out", cwd=home).returncode == 0  # it lists the article, whose key changed
    before = page.stat().st_mtime_ns, site.stat().st_mtime_ns
    r = render("article", "storyboards/walk.yaml", "--out", "out", *TINY, "--no-portrait", cwd=home)
    assert r.returncode == 0 and "walk: up to date" in r.stderr and "walk: article up to date" in r.stderr
    r = render("site", "out", cwd=home)
    assert r.returncode == 0 and "site: up to date" in r.stderr
    assert (page.stat().st_mtime_ns, site.stat().st_mtime_ns) == before

    board = home / "storyboards" / "walk.yaml"
    board.write_text(board.read_text().replace("nobody wrote a derivative down", "no derivative was written down"))
    r = render("article", "storyboards/walk.yaml", "--out", "out", *TINY, "--no-portrait", cwd=home)
    assert r.returncode == 0, r.stderr
    assert "walk: article written" in r.stderr and "no derivative was written down" in page.read_text()
    r = render("site", "out", cwd=home)
    assert r.returncode == 0 and "site: 2 clips" in r.stderr  # it shows the clip, which changed


def test_a_bad_course_file_is_one_located_line(course: Path, tmp_path: Path) -> None:
    home = tmp_path / "c"
    shutil.copytree(course, home)
    (home / "course.yaml").write_text("title: Mine\nclips:\n  - walk\n  - wlak\n")
    r = render("site", "out", cwd=home)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert re.match(r".*course\.yaml:4:5: no storyboard 'wlak' in .*did you mean 'walk'", r.stderr)


def test_a_gif_has_no_article(course: Path) -> None:
    r = render("article", "storyboards/walk.yaml", "--out", "out", "--format", "gif", *TINY, cwd=course)
    assert r.returncode == 2 and "use --format mp4 or webm, not gif" in r.stderr and r.stderr.count("\n") == 1


def test_articles_link_the_course_and_only_the_neighbours_that_exist(course: Path) -> None:
    """The course is walk then build; build was rendered first, so walk's page links its next
    article, build's has no previous (walk did not exist yet), and neither links the course page
    (render site came after); the .md says the same."""
    out = course / "out"
    walk, build = (out / "walk" / "index.html").read_text(), (out / "build" / "index.html").read_text()
    assert 'href="../build/index.html" rel="next">The forward pass builds the graph →' in walk
    assert 'rel="prev"' not in walk and 'rel="prev"' not in build and 'rel="next"' not in build
    assert "Part of A course of my own" in walk and "Part of A course of my own" in build
    assert 'href="../index.html"' not in walk
    for page in ("walk", "build"):
        for ref in refs(out / page / "index.html"):
            assert ref.startswith(("#", "data:")) or (out / page / ref.split("#")[0]).is_file(), ref
    md = (out / "walk" / "walk.md").read_text()
    assert "Next: [The forward pass builds the graph](../build/index.html)" in md and "Previous:" not in md
