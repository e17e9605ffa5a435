"""One caption size (issue 19, item 10): every narration caption is set at the one size of its
aspect, which only the bar and the reading rules decide (two lines of 42 characters fit), so
that no caption of the nine clips needs a smaller one. Before, each caption was sized by itself:
a two-line caption stepped down (26 -> 23.4 at 16:9, -> 18.95 at 1:1) beside one-line ones at 26.
"""

from __future__ import annotations

import pytest

from scenes.draw.context import DrawContext
from scenes.draw.network import NetworkDiagram
from scenes.draw.titles import Titles
from scenes.draw.visuals.caption import caption_size, narration_size
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import default_theme
from tests.clips import CLIPS

THEME = default_theme()


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
def test_every_narration_caption_fits_at_the_one_size(aspect: str) -> None:
    spec = THEME.aspect(aspect)
    size = narration_size(spec.caption, THEME)
    ctx = DrawContext(None, [], None, THEME, spec, None)  # no plan or layout: the size reads neither
    assert Titles(ctx, NetworkDiagram(ctx)).narration_size == size  # what caption_in sets
    assert THEME.font_sizes.min_readable <= size <= THEME.font_sizes.caption
    for name in CLIPS:
        _, plan = load_and_plan(storyboard_path(name))
        for c in plan.captions:
            if c.style == "caption":
                assert caption_size(c.text, spec.caption, THEME, size, c.lines)[0] == size, (name, c.text)


def test_the_size_is_what_two_full_lines_need() -> None:
    """The largest step at which two lines fit the 16:9 bar: a step up would not."""
    spec = THEME.aspect("16:9")
    size = narration_size(spec.caption, THEME)
    up = size / THEME.proportions.caption_shrink_step
    two = "A caption line of ordinary words, quite full " * 2
    assert caption_size(two, spec.caption, THEME, up)[0] < up
