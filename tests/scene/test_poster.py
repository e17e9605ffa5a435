"""The poster frame never catches a caption mid-fade or a piece of a cut narration.

Read from each clip's plan (its caption events), as ``render`` picks the frame: at the poster's
time every caption on screen is fully in (not fading in or out) and is the whole of its beat's
narration, or no caption is on screen; and the picture is finished (no cue still running), when
the clip has such a moment after its last cue.
"""

from __future__ import annotations

from collections import Counter

import pytest

from scenes.render.poster import poster_time
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import default_theme
from tests.clips import CLIPS

FADE = default_theme().timings.caption_fade


@pytest.mark.parametrize("fps", [5, 15, 60])
@pytest.mark.parametrize("name", CLIPS)
def test_the_poster_shows_a_whole_caption_or_none(name: str, fps: int) -> None:
    _, plan = load_and_plan(storyboard_path(name))
    t = poster_time(plan, FADE, fps)
    assert round(t * fps) == pytest.approx(t * fps)  # on a frame
    assert 0 <= t < plan.duration
    pieces = Counter((c.beat, c.style) for c in plan.captions)
    on = [c for c in plan.captions if c.start <= t <= c.end]
    for c in on:
        assert c.start + FADE < t < c.end - FADE, f"{c.text!r} fading at {t}"
        assert pieces[(c.beat, c.style)] == 1, f"{c.text!r} is a piece of a cut narration"
    done = max(c.start + c.duration for c in plan.cues if c.kind != "title")
    assert t >= done  # every clip has a calm moment once its picture is finished


def test_a_clip_with_no_calm_moment_late_takes_the_latest_before() -> None:
    """One caption cut in two pieces covers the end: the poster falls back to a calm moment
    before the last cue, never on a piece."""
    from types import SimpleNamespace as NS

    caps = [NS(beat=0, style="caption", start=0.0, end=2.0), NS(beat=1, style="caption", start=2.0, end=4.0),
            NS(beat=1, style="caption", start=4.0, end=6.0)]
    plan = NS(cues=[NS(kind="node_appear", start=0.0, duration=5.0)], captions=caps, duration=6.0)
    t = poster_time(plan, FADE, 10)
    assert FADE < t < 2.0 - FADE
