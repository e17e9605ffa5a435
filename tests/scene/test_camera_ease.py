"""The walk camera's moves set off and stop eased, as a whole (review 7 item 5): a way in two
parts (shift, then scale) began its second part at full speed, after a creep of the first
(backward_walk 16:9 at 34.27 s: 1.5 to 19 px a frame at 1080p60), or ended its first part at
full speed under the second (39.5 s, 46.5 s)."""

from __future__ import annotations

import pytest

from scenes.draw.fade_times import settled
from scenes.draw.ways import ways
from scenes.layout.focus import Zoom
from scenes.render.camera_plan import load_and_plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.render.ramps import EASE_FPS, RAMP, jolts
from scenes.storyboard import storyboard_path
from scenes.storyboard.cues import CAMERA_MOVES

STEPS = 240
"""Frames of a move played at `EASE_FPS` for four seconds: finer than any move's."""


def _speeds(way, rate, box) -> list[float]:
    """How far each of ``box``'s corners is carried from one of `STEPS` frames to the next, the farther."""
    def at(t: float) -> list[tuple[float, float]]:
        z = way(rate(t))
        return [z.point((box[0], box[1])), z.point((box[2], box[3]))]

    out, last = [], at(0.0)
    for k in range(1, STEPS + 1):
        now = at(k / STEPS)
        out.append(max(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 for a, b in zip(now, last)))
        last = now
    return out


@pytest.mark.parametrize("z", [Zoom(2.0, (0.0, 0.0), (3.0, -1.0)), Zoom(0.5, (1.0, 2.0), (-2.0, 0.5)),
                               Zoom(1.8, (-1.0, 0.5), (-0.8, 0.4))])
def test_every_way_sets_off_and_stops_eased(z: Zoom) -> None:
    """On every way a glide may take (straight, or two parts round a pane), played as the walk's
    camera plays it (`settled`, with fades before and after), a card's speed changes smoothly
    from still to its fastest and back: no step changes it by a tenth of its fastest at
    `STEPS` frames a move (a start at speed changes it by all of it)."""
    rate = settled(0.2, 0.8)
    for n, way in enumerate(ways(z)):
        for box in [(0.0, 0.0, 1.0, 0.5), (-3.0, 1.0, -2.0, 1.5)]:
            v = _speeds(way, rate, box)
            peak = max(v)
            changes = [abs(b - a) for a, b in zip([0.0, *v], [*v, 0.0])]
            assert max(changes) < 0.1 * peak, (n, box, max(changes) / peak)


@pytest.mark.slow  # plays the clip's scene through its walk
@pytest.mark.parametrize("name", ["backward_walk", "leaf_nodes"])
def test_a_clips_camera_moves_set_off_and_stop_eased(name: str) -> None:
    """Every camera move of the clip, read frame by frame at `EASE_FPS` from what it shows (the
    cards' boxes, `scenes.render.ramps.jolts`): no frame's speed differs from the frame before's
    by more than `RAMP` of the move's fastest."""
    checked, plan = load_and_plan_at(storyboard_path(name), aspect="16:9")
    moves = [(c.start, c.start + c.duration) for c in plan.cues if c.kind in CAMERA_MOVES]
    assert moves
    frames = sorted({k for a, b in moves for k in range(round(a * EASE_FPS) - 1, round(b * EASE_FPS) + 3)})
    samples = inspect_clip(checked, plan, RenderOptions(aspect="16:9", fps=EASE_FPS), frames=frames)
    found = [j.describe() for j in jolts(samples, moves)]
    assert not found, f"over {RAMP:.2f} of the fastest frame: " + "; ".join(found)
