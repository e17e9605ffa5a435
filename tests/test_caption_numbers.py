"""A number a caption names is on screen while the caption is: every caption event of the nine clips.

For each caption event of the plan (:mod:`scenes.storyboard.caption_events`), the numbers filled
from its narration's placeholders (``span.strings``, :mod:`scenes.storyboard.narration`) must each
be shown, as the same text, by an item that is not a caption event's own line (caption, title or
takeaway: :mod:`scenes.draw.shown_numbers`),
at 16:9, sampled as ``render inspect`` does at the caption's first frame and at its last.

Why the last frame bounds it (the issue: "a number appears on screen no later than the caption
names it"): the plan starts a caption at the start of the cue that brings its number, so on the
caption's first frame that number is fading in from nothing and cannot be read yet; the caption
keeps naming it until it ends, so a number that has not come by the caption's last frame never
appears while the caption names it, and one that was there at its first frame (shown by an
earlier beat, still readable) counts too. Sampling two frames per caption, not every frame,
keeps this within the suite's time: the picture between them is the collision test's to watch.

The first part checks the checker on synthetic samples, without a clip.
"""

from __future__ import annotations

import math

import pytest

from scenes.draw.shown_numbers import MIN_SHOWN, numbers_of, shows, unshown
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.render.camera_plan import load_and_plan_at
from scenes.storyboard.caption_events import CaptionSpan
from scenes.storyboard.placeholders import Shown
from tests.clips import CLIPS


def _span(text: str, *numbers: str, start: float = 1.0, end: float = 3.0) -> CaptionSpan:
    return CaptionSpan(1, start, end, text, 0, tuple(Shown(n, 1, "value", "caption") for n in numbers))


def _sample(time: float, *items: tuple[str, str, float]) -> dict:
    return {"time": time, "frame": [854, 480], "items": [
        {"kind": "text", "role": role, "text": text, "bbox": [0, 0, 1, 1], "opacity": op, "id": None}
        for role, text, op in items]}


def test_a_number_is_found_as_a_whole_number_only() -> None:
    assert shows("w1_0_0  -0.0754", "-0.0754")
    assert not shows("w1_0_0  0.0754", "-0.0754")
    assert not shows("-0.0754", "0.0754")
    assert not shows("0.16195", "0.1619") and not shows("10.1619", "0.1619")
    assert not shows("14/9", "4/9") and shows("L = 4/9.", "4/9")
    assert shows("tensor(12.)", "12.")
    assert numbers_of([Shown("MulBackward0", 1, "grad_fn", "caption"), Shown("tensor(0.4444)", 2, "str", "caption")]) \
        == ["0.4444"]


def test_a_caption_number_no_item_shows_is_reported() -> None:
    span = _span("Its loss is 0.1619.", "0.1619")
    for role in ("caption", "title", "takeaway"):  # the caption events' own lines do not count
        assert [u.number for u in unshown([span], [_sample(1.0, (role, "Its loss is 0.1619.", 1.0))])] == ["0.1619"]
    assert unshown([span], [_sample(3.0, ("value", "0.1619", 1.0))]) == []  # by the caption's end
    assert unshown([span], [_sample(1.0, ("value", "0.1619", MIN_SHOWN))]) == []
    dimmed = _sample(2.0, ("value", "0.1619", MIN_SHOWN - 0.1))
    later = _sample(3.5, ("value", "0.1619", 1.0))  # after the caption: too late
    assert len(unshown([span], [dimmed, later])) == 1
    assert unshown([_span("No number here.")], []) == []


def caption_frames(plan, fps: int) -> list[int]:
    """The first and last frame of every caption span of the plan that names a number."""
    frames: set[int] = set()
    for span in plan.captions:
        if numbers_of(span.strings):
            first = math.ceil(span.start * fps - 1e-9)
            frames |= {first, max(first, math.ceil(span.end * fps) - 1)}
    return sorted(frames)


@pytest.mark.slow  # plays each clip without drawing, looking at two frames per caption
@pytest.mark.parametrize("name", CLIPS)
def test_every_number_a_caption_names_is_on_screen(name: str) -> None:
    checked, plan = load_and_plan_at(storyboard_path(name), aspect="16:9")
    opts = RenderOptions(aspect="16:9")
    samples = list(inspect_clip(checked, plan, opts, frames=caption_frames(plan, fps_of(opts))))
    missing = unshown(plan.captions, samples)
    assert not missing, f"{name}: {len(missing)} numbers named but not shown:\n" + \
        "\n".join(u.describe() for u in missing)
