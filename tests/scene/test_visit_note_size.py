"""A visit's rule reads as large as the cards it is about, where they are drawn large.

Review 6, item 9: grad_accumulation 16:9 wrote ``w: 1 × 3 =`` at ~10.7 px beside 91 px cards
whose values read at ~30 px (15.6-20 s): the rule, the point of the clip, in the smallest type
on screen. A note is first set at the cards' value size, then smaller as its room requires
(`VisitNotes._value_sizes`), before the theme's note size.
"""

from __future__ import annotations

import pytest

from scenes.draw.collisions import MIN_OPACITY, glyph_height
from scenes.render.camera_plan import plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import default_theme

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frame looked at

F = default_theme().font_sizes


@pytest.mark.parametrize("aspect", ["16:9"])  # at 9:16 the only room is over y: the theme's size (below)
def test_the_rule_reads_with_the_cards_values(aspect: str) -> None:
    """At 9:16 the rule stands over y's card, where larger rows would stand in its edges' way
    and the 3 leaving them for the left edge would cross ``mul`` and ``MulBackward0``
    (`test_token_rides`): there it keeps the theme's size, as before."""
    checked, plan = load_and_plan(storyboard_path("grad_accumulation"))
    plan = plan_at(checked, plan, aspect)  # as the clip is drawn at the aspect (its camera's and whole's cues)
    rule = next(c for c in plan.cues if c.kind == "local_rule")
    visit = next(c for c in plan.cues if c.kind == "visit" and c.ids[0] == rule.ids[0] and c.start == rule.start)
    card = visit.ids[1]
    opts = RenderOptions(aspect=aspect)
    at = next(c.start for c in plan.cues if c.kind == "grad_travel" and c.start > rule.start)  # before it rides
    (smp,) = list(inspect_clip(checked, plan, opts, frames=[round(at * fps_of(opts)) - 1]))
    shown = [i for i in smp["items"] if i["opacity"] >= MIN_OPACITY]
    rows = [glyph_height(i) for i in shown if i["role"] == "note" and i.get("id") == f"note:{card}"
            and "×" in (i["text"] or "") and any(ch.isdigit() for ch in i["text"])]
    values = [glyph_height(i) for i in shown if i["role"] == "value" and i.get("id") == card]
    assert rows and values, (rows, values)
    assert min(rows) >= F.min_glyph_main_px  # as large as a value's least, at the least
    assert min(rows) >= min(values) / 2, (rows, values)  # not a third of the values beside it
