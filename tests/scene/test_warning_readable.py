"""A warning the caption speaks of reads as a value does, and stays while the caption speaks.

A first-viewer review: missing_gradient's ``UserWarning`` (printed as ``z.grad`` of a non-leaf is
read) was set at the code's size, 10.3 px at 16:9 and 10.7 px at 9:16 and 1:1 (854x480), under the
theme's ``min_glyph_main_px`` (11) that values and names keep, while the caption says "PyTorch
warns". The frame checks measure a text's whole box, which for a wrapped warning is two or three
rows tall, so they passed it: here one row is measured (its share of the box, as the font sets it).
"""

from __future__ import annotations

import pytest

from scenes.draw.collisions import glyph_height
from scenes.draw.visuals.glyphs import label
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import load_theme

pytestmark = pytest.mark.slow  # plays the clip's scene to its second check

THEME = load_theme()


def _row_px(item: dict) -> float:
    """The glyph height of a wrapped text's first row: its box's share of the item's box, as the
    font sets one row against all of them."""
    rows = item["text"].split("\n")
    mono, size = THEME.fonts.mono, THEME.font_sizes.code
    share = label(rows[0], mono, size, "#ffffff").height / label(item["text"], mono, size, "#ffffff").height
    return glyph_height({"bbox": [0.0, 0.0, 0.0, (item["bbox"][3] - item["bbox"][1]) * share], "text": rows[0]})


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
def test_the_warning_reads_as_a_value_while_the_caption_speaks_of_it(aspect: str) -> None:
    checked, plan = load_and_plan(storyboard_path("missing_gradient"))
    spoken = [c for c in plan.captions if "warn" in c.text.lower()]
    assert spoken, [c.text for c in plan.captions]
    at = [t for c in spoken for t in (c.start + 0.3, (c.start + c.end) / 2, c.end - 0.1)]
    samples = inspect_clip(checked, plan, RenderOptions(aspect=aspect), at=at)
    for sample in samples:
        warned = [i for i in sample["items"] if i["role"] == "console" and i.get("meaning") == "error"
                  and i["opacity"] > 0.5]
        assert len(warned) == 1, (sample["time"], [i.get("text") for i in sample["items"] if i["role"] == "console"])
        px = _row_px(warned[0])
        assert px >= THEME.font_sizes.min_glyph_main_px, (sample["time"], px, warned[0]["text"])
        assert 0 <= warned[0]["bbox"][0] and warned[0]["bbox"][2] <= sample["frame"][0], warned[0]["bbox"]
