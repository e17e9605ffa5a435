"""The takeaway's recap board adds to the closing picture and covers none of it: no card, text
or bucket (those it always kept off), and no arrow (once: grad_accumulation's board lay over
both y -> w arrows, missing_gradient's over x's edges)."""

from __future__ import annotations

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene up to its last frame


def _meets(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("name", ["grad_accumulation", "missing_gradient"])
@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_recap_covers_no_arrow(name: str, aspect: str) -> None:
    checked, plan = load_and_plan(storyboard_path(name))
    opts = RenderOptions(aspect=aspect)
    (sample,) = inspect_clip(checked, plan, opts, frames=[round(plan.duration * fps_of(opts)) - 1])
    items = [i for i in sample["items"] if i["opacity"] >= 0.1]
    boards = [i for i in items if i["role"] == "recap"]
    assert boards
    arrows = [i for i in items if i["role"] in ("arrow", "arrowhead")]
    assert [(b["text"], a["id"]) for b in boards for a in arrows if _meets(b["bbox"], a["bbox"])] == []
