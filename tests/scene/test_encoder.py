"""The encoder's output depends on the frames and the settings only, not on the machine.

Why it matters: segments are cached and joined by stream copy, so a clip rendered with its beats
spread over processes, or on a machine with more cores, must be made of the same bytes.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from scenes.video.encoder import SegmentWriter


def _encode(path: Path) -> bytes:
    height, width = 144, 256
    yy, xx = np.mgrid[0:height, 0:width]
    writer = SegmentWriter(path, width, height, 15, {"preset": "veryfast", "crf": "19", "bf": "0"})
    for k in range(6):
        frame = np.zeros((height, width, 4), np.uint8)
        frame[..., 0], frame[..., 1], frame[..., 2], frame[..., 3] = (xx + 9 * k) % 256, yy, (xx * yy + k) % 256, 255
        writer.put(frame, 2)
    writer.close()
    return path.read_bytes()


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs two cores (and Linux's affinity calls) to compare with one")
def test_a_segment_is_the_same_bytes_on_one_core_as_on_all(tmp_path: Path) -> None:
    """x264 left to PyAV's default encodes one slice per core, so the bytes (and the slices'
    edges in the picture) changed with the cores the process may use."""
    cores = os.sched_getaffinity(0)
    everywhere = _encode(tmp_path / "all.mp4")
    os.sched_setaffinity(0, {min(cores)})
    try:
        one = _encode(tmp_path / "one.mp4")
    finally:
        os.sched_setaffinity(0, cores)
    assert everywhere == one
    assert b"threads=1 " in one  # x264's settings, as it writes them into the stream


@pytest.mark.parametrize("quality", ["low", "medium", "high"])
def test_every_quality_reaches_x264_with_whole_pixel_motion_and_no_b_frames(tmp_path: Path, quality: str) -> None:
    """The settings go to x264 as strings that PyAV could drop unread: without ``subme=0`` x264
    costs twice the CPU at medium, and B-frames would break joining segments by timestamp shifts."""
    from scenes.render.options import RenderOptions, encoder_options

    writer = SegmentWriter(tmp_path / "q.mp4", 64, 64, 15, encoder_options(RenderOptions(quality=quality)))
    writer.put(np.full((64, 64, 4), 200, np.uint8), 3)
    writer.close()
    written = (tmp_path / "q.mp4").read_bytes()
    assert b" subme=0 " in written and b" bframes=0 " in written  # x264's settings, as it writes them


def test_each_frame_comes_out_as_it_went_in_while_frames_are_reused(tmp_path: Path) -> None:
    """YUV frames x264 has finished with are refilled for later ones: a frame refilled too soon
    would show a later picture in an earlier one's place. Thirty greys, some held, each must
    come out in order and as many times as it was put. Each is put once a frame has come back
    to be refilled, so that the second at least is a refill."""
    import time

    import av

    height, width = 144, 256
    writer = SegmentWriter(tmp_path / "greys.mp4", width, height, 15, {"preset": "veryfast", "crf": "19", "bf": "0"})
    repeats = [1 + (k % 3 == 0) * 2 for k in range(30)]
    for k, repeat in enumerate(repeats):
        writer.put(np.full((height, width, 4), (20 + 7 * k, 20 + 7 * k, 20 + 7 * k, 255), np.uint8), repeat)
        deadline = time.monotonic() + 30
        while writer._spare.empty() and time.monotonic() < deadline:
            time.sleep(0.001)
    writer.close()
    assert writer._spare.qsize() < len(repeats), "no frame was refilled"
    with av.open(str(tmp_path / "greys.mp4")) as box:
        lumas = [float(f.to_ndarray(format="gray").mean()) for f in box.decode(box.streams.video[0])]
    runs: list[list[float]] = []
    for y in lumas:
        if runs and abs(y - runs[-1][0]) < 3:
            runs[-1].append(y)
        else:
            runs.append([y])
    assert [len(r) for r in runs] == repeats
    assert all(b[0] > a[0] for a, b in zip(runs, runs[1:])), "a later grey came out before an earlier one"
