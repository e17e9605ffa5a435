"""Damaged rectangles: a frame of a play is redrawn, and converted to YUV, only where it changed.

What must hold: the frames are those of a whole redraw, bit for bit, both out of the encoder (a
rectangle pasted into the frame before) and out of the player (only the shapes reaching into the
rectangle drawn over the restored background).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scenes.video.damage import PixelRect, damage
from scenes.video.encoder import WHOLE, SegmentWriter
from scenes.render.options import RenderOptions
from scenes.render.pipeline import render_storyboard
from scenes.storyboard import storyboard_path


def decoded(path: Path) -> list[np.ndarray]:
    import av

    with av.open(str(path)) as box:
        return [f.to_ndarray(format="yuv420p") for f in box.decode(box.streams.video[0])]


def test_damage_is_the_union_grown_to_the_grid_and_kept_in_the_frame() -> None:
    assert damage([None, None], 100, 60) is None
    assert damage([PixelRect(17, 3, 20, 9), None, PixelRect(40, 50, 70, 90)], 100, 60) == PixelRect(16, 0, 80, 60)
    assert damage([PixelRect(-30, -30, -1, -1)], 100, 60) is None  # wholly off the frame
    assert damage([PixelRect(90, 10, 99, 20)], 100, 60) == PixelRect(80, 0, 100, 32)


@pytest.mark.parametrize("share", [0.05, 0.45], ids=["crop", "past-whole"])
def test_a_rectangle_handed_to_the_encoder_gives_the_frames_of_whole_ones(tmp_path: Path, share: float) -> None:
    """Smooth pictures with a changed patch, encoded once as whole frames and once as the patch
    alone: the same YUV (x264 is deterministic, so the same decoded frames). A patch larger than
    WHOLE of the frame takes the whole-frame conversion; a small one is converted as a crop."""
    width, height = 320, 192
    yy, xx = np.mgrid[0:height, 0:width]
    first = np.zeros((height, width, 4), np.uint8)
    first[..., 0], first[..., 1], first[..., 2], first[..., 3] = xx % 256, yy, (xx + yy) % 256, 255
    side = int(np.sqrt(share * width * height)) // 16 * 16
    assert (side * side > WHOLE * width * height) == (share > WHOLE)
    rect = PixelRect(48, 32, 48 + side, 32 + side)
    frames = [first]
    for k in range(3):
        nxt = frames[-1].copy()
        nxt[rect.slices()] = (nxt[rect.slices()].astype(np.int32) * (k + 2) // 3 + 40 * k).clip(0, 255).astype(np.uint8)
        nxt[rect.y0 + 5: rect.y0 + 9, rect.x0:rect.x1, 1] = 255  # a sharp edge inside the patch
        frames.append(nxt)

    whole = SegmentWriter(tmp_path / "whole.mp4", width, height, 15, {"preset": "ultrafast", "bf": "0"})
    for f in frames:
        whole.put(f.copy(), 2)
    whole.put(frames[-1].copy(), 1)
    whole.close()
    patched = SegmentWriter(tmp_path / "patched.mp4", width, height, 15, {"preset": "ultrafast", "bf": "0"})
    patched.put(frames[0].copy(), 2)
    for f in frames[1:]:
        patched.put(f[rect.slices()].copy(), 2, rect)
    patched.put(np.zeros((0, 0, 4), np.uint8), 1, PixelRect(0, 0, 0, 0))  # nothing changed
    patched.close()

    a, b = decoded(tmp_path / "whole.mp4"), decoded(tmp_path / "patched.mp4")
    assert len(a) == len(b) == 9
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[0], a[-1])


def test_the_first_frame_of_a_segment_must_be_whole(tmp_path: Path) -> None:
    writer = SegmentWriter(tmp_path / "s.mp4", 64, 64, 15, {"preset": "ultrafast"})
    with pytest.raises(ValueError, match="first frame must be whole"):
        writer.put(np.zeros((16, 16, 4), np.uint8), 1, PixelRect(0, 0, 16, 16))
    writer.abort()


@pytest.mark.slow
def test_a_clip_drawn_in_rectangles_equals_one_redrawn_whole(tmp_path: Path, monkeypatch) -> None:
    """backward_walk has every kind of play: the code bar sliding under the program text, cards
    growing, the wavefront, numbers flying to buckets, captions fading over the graph."""
    import scenes.video.player

    drawn: list[PixelRect] = []
    put = SegmentWriter.put

    def spy(self, rgba, repeat=1, at=None):
        if at is not None and at.area():
            drawn.append(at)
        return put(self, rgba, repeat, at)

    monkeypatch.setattr(SegmentWriter, "put", spy)
    opts = dict(size=(320, 180), fps=15, force=True)
    render_storyboard(storyboard_path("backward_walk"), "backward_walk",
                      RenderOptions(out=str(tmp_path / "rects"), **opts), log=lambda s: None)
    # the walk's camera redraws the whole graph as it moves; the rest are small patches
    assert sum(r.area() < 320 * 180 / 4 for r in drawn) > 100

    monkeypatch.setattr(scenes.video.player, "drawable", lambda shape: False)  # every frame drawn whole
    drawn.clear()
    render_storyboard(storyboard_path("backward_walk"), "backward_walk",
                      RenderOptions(out=str(tmp_path / "whole"), **opts), log=lambda s: None)
    assert drawn == []

    a, b = decoded(tmp_path / "rects" / "backward_walk.mp4"), decoded(tmp_path / "whole" / "backward_walk.mp4")
    assert len(a) == len(b) > 300
    assert [i for i, (x, y) in enumerate(zip(a, b)) if not np.array_equal(x, y)] == []
