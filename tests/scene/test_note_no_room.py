"""A visit's note with no spot of its own nor any free spot in the frame but left of the badges
waiting, where only the run a number would read on (`reading.reading_back`) is taken.

tanh_sgd_lists 16:9, the first walk's visit of ``W2[1] * h[1]`` (t9) at the right edge, the walk's
camera 1.45x closer: its note (394 px wide) had no spot beside it, and none free in the frame,
the badges waiting at the top (``0.5399``) keeping off it 86 px of room on their left; it went to
the spot that covers least of the cards, over ``out``/AddBackward0 and ``mul`` (26.4-28.0 s). The
runs are kept off first, then, before a spot over the cards, not (`VisitNotes.place`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scenes.draw.collisions import collisions
from scenes.render.camera_plan import load_and_plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions

pytestmark = pytest.mark.slow  # plays one lesson without drawing up to the visit

LESSON = Path(__file__).parents[1] / "storyboard" / "lessons" / "tanh_sgd_lists.yaml"


def test_a_note_with_no_room_of_its_own_keeps_off_the_cards() -> None:
    """From the t9 visit to the next, no row of its note and no product of it (the tokens for
    t3 and t7, waiting there or riding off) lies over another card or its words."""
    checked, plan = load_and_plan_at(str(LESSON), aspect="16:9")
    visits = [c for c in plan.cues if c.kind == "visit"]
    n = next(k for k, c in enumerate(visits) if c.ids[1] == "t9")
    start, end = visits[n].start, visits[n + 1].start
    at = [round(start + k / 15, 3) for k in range(int((end - start) * 15))]
    looked = 0
    for s in inspect_clip(checked, plan, RenderOptions(aspect="16:9", fps=15), at=at):
        mine = [i for i in s["items"] if i.get("id") == "note:t9" or str(i.get("id", "")).endswith("->t9")]
        looked += bool(mine)
        found = [c.describe() for c in collisions(s["items"], s["frame"]) if any(i in mine for i in (c.a, c.b))]
        assert found == [], f"{s['time']:.2f} s: {found}"
    assert looked, "the visit's note was not looked at: the test no longer looks at what it means to"
