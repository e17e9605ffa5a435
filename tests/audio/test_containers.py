"""The track in each container, joined from segments (a few frames each, no render): AAC in the
mp4, Opus in the webm, none in the gif; the sound as long as the picture, kept across the joins."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from scenes.video.audio import encode_track
from scenes.video.encoder import SegmentWriter
from scenes.video.formats import FORMATS
from scenes.voice.track import RATE, Phrase, sound_track
from tests.audio.fakevoice import FakeVoice

FPS = 10
FRAMES = (13, 21, 9)


@pytest.fixture(scope="module")
def parts(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("segments")
    out = []
    for k, n in enumerate(FRAMES):
        writer = SegmentWriter(folder / f"{k}.mp4", 64, 48, FPS, {"preset": "veryfast", "bf": "0"})
        writer.put(np.full((48, 64, 4), 40 * k, np.uint8), repeat=n)
        writer.close()
        out.append(writer.path)
    return out


def track() -> np.ndarray:
    """A phrase said across the first join (at 1.3 s)."""
    return sound_track([Phrase(0.4, "said across the join of two beats")], FakeVoice(), sum(FRAMES) / FPS)


def decoded(clip: Path) -> tuple[list[str], np.ndarray, float]:
    """The clip's audio codecs, its samples, and its video's length in seconds."""
    with av.open(str(clip)) as box:
        codecs = [s.codec_context.name for s in box.streams.audio]
        video = sum(1 for _ in box.decode(video=0)) / FPS
    with av.open(str(clip)) as box:
        samples = (np.concatenate([f.to_ndarray().reshape(-1) for f in box.decode(audio=0)]) if codecs
                   else np.zeros(0, np.float32))
    return codecs, samples, video


@pytest.mark.parametrize("fmt, codec", [("mp4", "aac"), ("webm", "opus")])
def test_each_container_carries_its_codec_as_long_as_the_video(parts: list[Path], tmp_path: Path,
                                                               fmt: str, codec: str) -> None:
    clip = tmp_path / f"clip.{fmt}"
    wanted = track()
    FORMATS[fmt].write(parts, clip, [], FPS, encode_track(wanted, fmt))
    codecs, samples, video = decoded(clip)
    assert codecs == [codec]
    assert video == sum(FRAMES) / FPS
    assert abs(len(samples) / RATE - video) <= 1 / FPS
    # the phrase across the join is whole, in time (the codec's delay taken out): no gap, no click
    join = round(FRAMES[0] / FPS * RATE)
    near = slice(join - RATE // 10, join + RATE // 10)
    assert np.abs(wanted[near]).max() > 0.05  # said there
    error = np.sqrt(np.mean((samples[near] - wanted[near]) ** 2)) / np.sqrt(np.mean(wanted[near] ** 2))
    assert error < 0.1


def test_a_gif_and_a_silent_clip_have_no_sound(parts: list[Path], tmp_path: Path) -> None:
    FORMATS["gif"].write(parts, tmp_path / "clip.gif", [], FPS, None)  # the render gives a gif no track
    assert not FORMATS["gif"].sound
    FORMATS["mp4"].write(parts, tmp_path / "clip.mp4", [], FPS, None)
    assert decoded(tmp_path / "clip.mp4")[0] == []


def test_the_mp4_says_the_tracks_exact_length(parts: list[Path], tmp_path: Path) -> None:
    """AAC pads its last frame; the container's edit list keeps the track to its samples."""
    FORMATS["mp4"].write(parts, tmp_path / "clip.mp4", [], FPS, encode_track(track(), "mp4"))
    with av.open(str(tmp_path / "clip.mp4")) as box:
        audio, video = box.streams.audio[0], box.streams.video[0]
        assert audio.duration * audio.time_base == Fraction(sum(FRAMES), FPS) == video.duration * video.time_base
