"""A bucket's sum is written by its bucket, nearer it than any other card on screen.

Review 4, item 4: at 9:16 dynamic_graph wrote w's sum ``1/27 + 1/27 + 1/27 + 1/27 = 4/27``
above the top card ``h = 1/81``, 380 px from w's bucket, where it read as h's value: the spot
beside the bucket was judged nearer the places of cards no longer on screen (the freed graphs'
in the clip's layout), and a one-row sum is wider than the room beside the bucket. The note is
judged by the cards drawn (`OnScreen.shown_layout`) and wraps two terms a line where one row
has no room (`scenes.draw.bucket_notes.wrapped`).
"""

from __future__ import annotations

import pytest

from scenes.draw.collisions import MIN_OPACITY
from scenes.render.bucket_sum import meetings, written
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of, pixel_size
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import default_theme

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frame looked at


def _gap(a: list[float], b: list[float]) -> float:
    dx = max(0.0, a[0] - b[2], b[0] - a[2])
    dy = max(0.0, a[1] - b[3], b[1] - a[3])
    return (dx * dx + dy * dy) ** 0.5


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_sum_is_written_by_its_bucket(aspect: str) -> None:
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    met = meetings(plan)[-1]  # the three-pass walk's four 1/27 in w's bucket
    opts = RenderOptions(aspect=aspect)
    spec = default_theme().aspect(aspect)
    (smp,) = list(inspect_clip(checked, plan, opts, frames=[round((met.end + 1.0) * fps_of(opts))]))
    items = smp["items"]
    assert met.text in written(met.bucket, items)
    lines = [i["bbox"] for i in items if i["role"] == "note" and i.get("id") == f"note:{met.bucket}"
             and i["opacity"] >= MIN_OPACITY]
    note = [min(b[0] for b in lines), min(b[1] for b in lines), max(b[2] for b in lines), max(b[3] for b in lines)]
    (bucket,) = [i["bbox"] for i in items if i["role"] == "bucket" and i.get("id") == met.bucket]
    cards = [i for i in items if i["role"] == "card" and i["opacity"] >= MIN_OPACITY]
    own = _gap(note, bucket)
    assert all(own < _gap(note, c["bbox"]) for c in cards if c["id"] != met.bucket.split(":")[1]), \
        (own, [(c["id"], _gap(note, c["bbox"])) for c in cards])
    width, height = pixel_size(opts, (spec.pixel_width, spec.pixel_height))
    assert own < 0.1 * max(width, height)  # beside it, not across the frame


def test_a_named_sum_stays_through_the_next_fills() -> None:
    """cubic_fit3 fills d's bucket, then c's, b's and a's, one after another; "`a.grad` is
    41.3594 and `d.grad` is 2.3750." comes up after them. Each fill took the sum before it away,
    so d's ``5.0000 + -1.1250 + -1.5000 = 2.3750`` was gone by the time the caption named it: a
    sum a caption names stays until that caption ends (`bucket_notes.named_past`), and a's is
    written beside it."""
    checked, plan = load_and_plan("tests/storyboard/lessons/cubic_fit3.yaml")
    named = [m for m in meetings(plan) if m.named is not None]
    assert len(named) == 2  # d's and a's
    opts = RenderOptions(aspect="1:1")
    at = (named[0].named[0] + named[0].named[1]) / 2
    (smp,) = list(inspect_clip(checked, plan, opts, frames=[round(at * fps_of(opts))]))
    for met in named:
        assert met.text in written(met.bucket, smp["items"]), (met.bucket, at)
