"""Backtick-quoted code in narration: the code font on screen (scenes/draw/visuals/caption.py),
a code span in the article, and no backticks in the .srt and .vtt, where a player shows them."""

from __future__ import annotations

from scenes.publish.prose import code_html, inline_escape, marked
from scenes.storyboard.captions import srt, vtt
from scenes.storyboard.chapters import Chapter, chapters_vtt
from scenes.storyboard.plan import CaptionSpan

SAID = "The local rule is `1 - o**2`, times {o.grad}."
FILLED = "The local rule is `1 - o**2`, times 0.5."


def test_the_srt_and_vtt_carry_no_backticks() -> None:
    spans = [CaptionSpan(1, 0.0, 2.0, FILLED, 0, lines=("The local rule is `1 - o**2`,", "times 0.5.")),
             CaptionSpan(2, 2.0, 3.0, "Then `a < b` holds.", 0)]
    for text in (srt(spans), vtt(spans)):
        assert "`" not in text
        assert "The local rule is 1 - o**2,\ntimes 0.5." in text
    assert "Then a &lt; b holds." in vtt(spans)
    assert "`" not in chapters_vtt([Chapter(0.0, 1.0, "Why `retain_graph`", (0,))])


def test_the_article_sets_quoted_code_as_code() -> None:
    assert marked(SAID, ["0.5"], FILLED) == "The local rule is `1 - o**2`, times `0.5`."
    assert inline_escape("a `x * y` and *b*") == "a `x * y` and \\*b\\*"
    assert str(code_html("`a < b` & c")) == "<code>a &lt; b</code> &amp; c"
    assert "\\`" not in marked("Call `y.backward()` twice.", [], "Call `y.backward()` twice.")
