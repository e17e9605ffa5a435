"""One caption size per clip (issue 19, item 10): every narration caption of a clip is set at
the same size, the largest at which all of them fit the bar, at every aspect. Before, a
two-line caption stepped down (26 -> 23.4 at 16:9, -> 18.95 at 1:1) while the one-line caption
before it stayed at 26, so the size jumped from caption to caption."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from scenes.draw.titles import TitleCues
from scenes.draw.visuals.caption import caption_size
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import default_theme

THEME = default_theme()


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
@pytest.mark.parametrize("name", ["graph_build", "backward_walk", "dynamic_graph", "reverse_mode"])
def test_every_narration_caption_is_set_at_one_size(name: str, aspect: str) -> None:
    _, plan = load_and_plan(storyboard_path(name))
    spec = THEME.aspect(aspect)
    scene = SimpleNamespace(plan=plan, spec=spec, theme=THEME)
    size = TitleCues._narration_size(scene)  # what _caption_in sets every narration caption at
    narration = [c for c in plan.captions if c.style == "caption"]
    own = [caption_size(c.text, spec.caption, THEME, None, c.lines)[0] for c in narration]
    assert size == min(own)  # the one that needs it most sets it
    assert all(caption_size(c.text, spec.caption, THEME, size, c.lines)[0] == size for c in narration)  # all fit
    assert size >= THEME.font_sizes.min_readable
