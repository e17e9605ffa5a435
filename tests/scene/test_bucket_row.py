"""The tokens waiting for a bucket stand in one row beside it, in sight, until its fill.

dynamic_graph 16:9's last walk (h/emptyQ slid its graph at home size into the column the pane
frees): the row of 1/27 waiting for w's bucket stood level with the bucket's middle, the walk's
next, closer view carried it out of the frame, and the next two tokens settled apart at other
heights (112-119 s). The row stands level with the bucket's top
(`scenes.draw.rides.TokenRides._to_row`), and a camera move carries where a token rests with it
(`scenes.draw.ways.carry_rests`).
"""

from __future__ import annotations

import pytest

from scenes.draw.collisions import MIN_OPACITY
from scenes.draw.rides import arrow_id
from scenes.render.bucket_sum import meetings
from scenes.render.camera_plan import plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frames looked at

RIDE = 3.0  # a token's ride down its edge and on to the row (`TokenRides._on_to_bucket`: 2 s + 1 s)


def test_the_tokens_wait_in_one_row_by_the_bucket() -> None:
    """From the last 1/27's landing to the fill, the four tokens waiting for w's bucket are all
    seen, at one height (1 px), side by side."""
    checked, shared = load_and_plan(storyboard_path("dynamic_graph"))
    plan = plan_at(checked, shared, "16:9")  # with the walk camera's moves
    met = meetings(plan)[-1]  # the loop's four 1/27 in w's bucket
    leaf = met.bucket.split(":", 1)[1]
    fill = next(c for c in plan.cues if c.kind == "bucket_fill" and abs(c.start - met.start) < 1e-9)
    last = max(c.start for c in plan.cues if c.kind == "grad_travel" and len(c.ids) > 1
               and c.ids[1] == fill.ids[0] and c.start < met.start)  # the last ride to w's node
    opts = RenderOptions(aspect="16:9")
    fps = fps_of(opts)
    times = [last + RIDE + 0.2 + 0.5 * k for k in range(int((met.start - 0.1 - last - RIDE - 0.2) / 0.5) + 1)]
    assert len(times) >= 2, times
    for smp, t in zip(inspect_clip(checked, plan, opts, frames=[round(t * fps) for t in times]), times):
        toks = sorted((i["bbox"] for i in smp["items"] if i["role"] == "badge"
                       and i.get("id") == arrow_id(met.bucket, leaf) and i["opacity"] >= MIN_OPACITY),
                      key=lambda b: b[0])
        assert len(toks) == len(met.terms), (t, toks)
        heights = [(b[1] + b[3]) / 2 for b in toks]
        assert max(heights) - min(heights) <= 1.0, (t, toks)
        assert all(a[2] <= b[0] + 1.0 for a, b in zip(toks, toks[1:])), (t, toks)  # side by side, not over each other

