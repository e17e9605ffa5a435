"""A pass that records a freed graph again is seen freeing it first (issue 39 item 3; review 4:
grad_accumulation's second and third passes, 27.1 s and 57.2 s, were y's card shrinking and
regrowing in place in 0.4 s, MulBackward0 spilling out of the small box: a blink, not "the old
graph is freed, then a new one is recorded").

What must hold, at every aspect the clip is made in: while the new card is made, there is a
moment when the old card still shows, dimmed, and its arrows from w are gone (it is seen freed),
with the new card not in yet; and later the new card stands alone in that place, wired to w."""

from __future__ import annotations

import pytest

from scenes.draw.collisions import MIN_OPACITY
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.storyboard.timings import BLINK
from scenes.theme import default_theme

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frames looked at


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_old_graph_is_seen_freed_before_the_new_pass_grows(aspect: str) -> None:
    checked, plan = load_and_plan(storyboard_path("grad_accumulation"))
    again = [c for c in plan.cues if c.kind == "node_appear" and c.strings and any(
        s.role == "name" and s.text == "y" for s in c.strings)][1:]
    assert again  # the second and third passes
    first = again[0]
    old, new = "t1", first.ids[0]
    mid, done = first.start + BLINK, first.start + first.duration + 0.05  # seen freed a blink in
    s_mid, s_done = inspect_clip(checked, plan, RenderOptions(aspect=aspect), at=[mid, done])

    def shown(sample: dict, ident: str, role: str) -> list[dict]:
        return [i for i in sample["items"] if i["id"] == ident and i["role"] == role and i["opacity"] >= MIN_OPACITY
                and i["bbox"][2] - i["bbox"][0] > 1.0]  # a card about to grow is a point

    dim = default_theme().opacity.dimmed
    cards = shown(s_mid, old, "card")
    assert cards and all(c["opacity"] <= 1.0 - dim / 2 for c in cards), (mid, cards)  # the old card, dimmed
    assert not [i for i in s_mid["items"] if i["role"] == "arrow" and i["opacity"] >= MIN_OPACITY
                and i["id"] and old in i["id"].split("->")], mid  # its arrows gone
    assert not shown(s_mid, new, "card"), mid  # the new card not in yet
    assert shown(s_done, new, "card") and not shown(s_done, old, "card"), done
