"""An article's transcript: what the clip says, on the page, where the author's own sections
leave the narration out (a page written from the plan is the narration already)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from scenes.storyboard import load_and_plan

# one worker for this module under pytest-xdist: its tests share a session-scoped fixture
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("course")]


def _text(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text()))


def test_an_authored_article_has_every_phrase_of_the_clip_in_its_transcript(course: Path) -> None:
    board, p = load_and_plan(str(course / "storyboards" / "walk.yaml"), (), "walk")
    assert board.storyboard.article  # the author's sections: the narration is not on the page otherwise
    page = (course / "out" / "walk" / "index.html").read_text()
    assert page.count('id="transcript"') == 1
    section = _text(course / "out" / "walk" / "index.html").split("Transcript", 1)[1]
    for c in p.captions:
        plain = c.text.replace("`", "").strip()
        assert plain in " ".join(section.split()), plain
    markdown = (course / "out" / "walk" / "walk.md").read_text()
    assert "## Transcript" in markdown


def test_an_article_written_from_the_plan_has_no_second_copy(course: Path) -> None:
    assert 'id="transcript"' not in (course / "out" / "build" / "index.html").read_text()


def test_the_articles_clip_is_said(tmp_path: Path) -> None:
    """An article rendered with a voice (the draft voice: instant) plays its clip with its sound."""
    import shutil

    import av

    from tests.publish.conftest import ROOT, TINY, render

    (tmp_path / "storyboards").mkdir()
    shutil.copy(ROOT / "scenes" / "storyboards" / "graph_build.yaml", tmp_path / "storyboards" / "build.yaml")
    r = render("article", "storyboards/build.yaml", "--out", "out", *TINY, "--voice", "draft", "--no-portrait",
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    with av.open(str(tmp_path / "out" / "build" / "build.mp4")) as box:
        assert [s.codec_context.name for s in box.streams.audio] == ["aac"]
