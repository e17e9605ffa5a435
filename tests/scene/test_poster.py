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


def test_a_noted_graph_box_is_read_back_only_for_its_frame_and_as_numbers(tmp_path) -> None:
    """The box noted beside a cached segment is data from disk: read back for the frame it was
    noted at, as four finite numbers; any other file (another frame, text, a true for a frame
    number, a NaN, a folder) is not known, and the poster is then found by playing the clip."""
    from scenes.render import poster_box

    seg = tmp_path / "k.mp4"
    poster_box.save(seg, 12, (1.0, 2.0, 30.5, 40.0))
    assert poster_box.load(seg, 12) == (True, (1.0, 2.0, 30.5, 40.0))
    assert poster_box.load(seg, 11) == (False, None)
    poster_box.save(seg, 3, None)
    assert poster_box.load(seg, 3) == (True, None)
    for bad in ('{"frame": 1, "box": ["1", 2, 3, 4]}', '{"frame": true, "box": null}', "[1]", "{",
                '{"frame": 1, "box": [1, 2, 3]}', '{"frame": 1, "box": [1, 2, 3, NaN]}'):
        poster_box.box_path(seg).write_text(bad)
        assert poster_box.load(seg, 1) == (False, None), bad
    poster_box.box_path(seg).unlink()
    poster_box.box_path(seg).mkdir()
    assert poster_box.load(seg, 1) == (False, None)
