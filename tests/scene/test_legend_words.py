"""The legend names each colour by its meaning (docs/visual-grammar.md, "Red is the loss").

A first-viewer review: missing_gradient draws L2 red (a second loss, in the loss's colour for its
third check, "which loss?") under a legend whose red read "backward() starts here", untrue of
L2, which backward() never ran from. The legend's words name the role the colour means, as the
theme's ``meanings`` do: every card meaning on screen has a legend entry starting with its name.
"""

from __future__ import annotations

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene up to its walk


@pytest.mark.parametrize("aspect", ["9:16", "1:1"])
def test_the_legend_names_each_card_colour_by_its_meaning(aspect: str) -> None:
    """In missing_gradient's walk from L1 (where its legend shows: 16:9 has no corner for one),
    with L1 and L2 both red, each meaning the cards are drawn in (weight, input, result, loss)
    is the first word of a legend entry on screen."""
    checked, plan = load_and_plan(storyboard_path("missing_gradient"))
    beat = next(b for b in plan.beats if b.visual == "wavefront")
    [sample] = inspect_clip(checked, plan, RenderOptions(aspect=aspect), at=[beat.start + beat.duration / 2])
    shown = [i for i in sample["items"] if i["opacity"] > 0.5]
    meanings = {i["meaning"] for i in shown if i["role"] == "card" and i.get("meaning")}
    firsts = {(i.get("text") or "").split(" ")[0].rstrip(",") for i in shown if i["role"] == "label"}
    assert "loss" in meanings and len(meanings) >= 4, meanings
    assert meanings <= firsts, (meanings - firsts, sorted(firsts))
