"""The clip's containers: mp4 with its index first and a chapter per beat, VP9 webm with the
same frames and chapters, and a gif for slides (one palette, at most 480p, the clip's timing)."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np
import pytest

from scenes.render.options import FORMATS
from scenes.video.encoder import SegmentWriter
from scenes.video.formats import FORMATS as TABLE, gif_size

FPS = 15
MARKS = [(0.0, 1.0, "First beat"), (1.0, 3.0, "Second beat: 4/9")]


@pytest.fixture
def segments(tmp_path: Path) -> list[Path]:
    """Two segments, 1 s and 2 s of frames (each second another grey), 960x540 as a 540p clip."""
    parts = []
    for k, seconds in enumerate((1, 2)):
        part = tmp_path / f"seg{k}.mp4"
        writer = SegmentWriter(part, 960, 540, FPS, {"preset": "veryfast", "crf": "19", "bf": "0"})
        for s in range(seconds):
            frame = np.full((540, 960, 4), 255, np.uint8)
            frame[..., :3] = 40 + 60 * (k + s)
            frame[100:200, 100 + 40 * s:300, :3] = (200, 80, 30)
            writer.put(frame, FPS)
        writer.close()
        parts.append(part)
    return parts


def test_render_offers_the_formats_of_the_table() -> None:
    assert FORMATS == tuple(TABLE) and FORMATS[0] == "mp4" and {"webm", "gif"} <= set(FORMATS)


def test_mp4_has_its_index_first_and_a_chapter_per_beat(segments: list[Path], tmp_path: Path) -> None:
    clip = tmp_path / "clip.mp4"
    TABLE["mp4"].write(segments, clip, MARKS, FPS)
    head = clip.read_bytes()
    assert head.index(b"moov") < head.index(b"mdat")  # faststart: a browser plays before it has it all
    with av.open(str(clip)) as box:
        chapters = box.chapters()
        assert [c["metadata"]["title"] for c in chapters] == ["First beat", "Second beat: 4/9"]
        assert [float(c["start"] * c["time_base"]) for c in chapters] == [0.0, 1.0]
        assert sum(1 for _ in box.decode(box.streams.video[0])) == 3 * FPS


def test_webm_is_vp9_with_the_same_frames_and_chapters(segments: list[Path], tmp_path: Path) -> None:
    clip = tmp_path / "clip.webm"
    TABLE["webm"].write(segments, clip, MARKS, FPS)
    with av.open(str(clip)) as box:
        stream = box.streams.video[0]
        assert stream.codec_context.name in ("vp9", "libvpx-vp9")
        frames = [f.time for f in box.decode(stream)]
        assert len(frames) == 3 * FPS and abs(frames[-1] - (3 * FPS - 1) / FPS) < 1e-3
        assert [c["metadata"]["title"] for c in box.chapters()] == ["First beat", "Second beat: 4/9"]


def _sub_blocks(data: bytes, i: int) -> int:
    while data[i]:
        i += data[i] + 1
    return i + 1


def _local_palettes(data: bytes) -> list[bool]:
    """For each picture of a GIF file, whether it carries a colour table of its own."""
    assert data[:6] in (b"GIF87a", b"GIF89a") and data[10] & 0x80  # a global colour table
    i, found = 13 + 3 * (2 << (data[10] & 7)), []
    while data[i] != 0x3B:
        if data[i] == 0x21:  # an extension: label, then sub-blocks
            i = _sub_blocks(data, i + 2)
        else:
            assert data[i] == 0x2C
            packed = data[i + 9]
            found.append(bool(packed & 0x80))
            i += 10 + (3 * (2 << (packed & 7)) if packed & 0x80 else 0)
            i = _sub_blocks(data, i + 1)  # the LZW code size, then the picture's sub-blocks
    return found


def test_gif_is_at_most_480p_with_one_palette_and_the_clips_timing(segments: list[Path], tmp_path: Path) -> None:
    from PIL import Image

    clip = tmp_path / "clip.gif"
    TABLE["gif"].write(segments, clip, MARKS, FPS)
    with Image.open(clip) as gif:
        assert gif.size == (854, 480) == gif_size(960, 540)
        delays = []
        for k in range(gif.n_frames):
            gif.seek(k)
            delays.append(gif.info["duration"])
    assert len(delays) == 3  # the held frames of each second are one picture each
    assert sum(delays) == 3000
    assert _local_palettes(clip.read_bytes()) == [False, False, False]  # the clip's one palette, for all
    assert gif_size(480, 854) == (480, 854) and gif_size(1920, 1080) == (854, 480)


@pytest.mark.parametrize("name", list(TABLE))
def test_each_format_starts_with_the_signature_its_entry_declares(name: str, segments: list[Path], tmp_path: Path) -> None:
    """The render recognises a clip it wrote by the first bytes its format's entry declares."""
    clip = tmp_path / f"clip.{name}"
    TABLE[name].write(segments, clip, MARKS, FPS)
    at, magic = TABLE[name].signature
    assert clip.read_bytes()[at:at + len(magic)] == magic
