"""A narrated clip, measured: its sound as long as its picture, at -16 LUFS under -1 dBTP, each
phrase starting with its caption, the same bytes when rendered again (and in processes), the
silent clip when the voice is off, Opus in the webm; an edit in one beat draws from there only."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import av
import numpy as np
import pytest

from scenes.render.sound import Recorder
from scenes.storyboard import load_and_plan
from scenes.voice.track import RATE, loudness, true_peak
from tests.audio.conftest import FPS, TINY, Narrated, render
from tests.audio.fakevoice import FakeVoice

# one worker for this module under pytest-xdist: its tests share a session-scoped fixture
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("narrated")]


def sound_of(clip: Path) -> tuple[list[str], np.ndarray, int]:
    """The clip's audio codecs, its samples and its video frames."""
    with av.open(str(clip)) as box:
        codecs = [s.codec_context.name for s in box.streams.audio]
        frames = sum(1 for _ in box.decode(video=0))
    samples = np.zeros(0, np.float32)
    if codecs:
        with av.open(str(clip)) as box:
            samples = np.concatenate([f.to_ndarray().reshape(-1) for f in box.decode(audio=0)])
    return codecs, samples, frames


def onsets(samples: np.ndarray, quiet: float = 0.05) -> np.ndarray:
    """When sound starts after at least ``quiet`` seconds of silence, by the energy of 10 ms
    windows (silence: 40 dB under the loudest window)."""
    step = RATE // 100
    energy = np.sqrt(np.mean(samples[:len(samples) // step * step].reshape(-1, step) ** 2, axis=1))
    loud = energy > energy.max() * 10 ** (-40 / 20)
    out, still = [], int(quiet * 100)
    for k in range(len(loud)):
        if loud[k] and not loud[max(0, k - still):k].any():
            out.append(k / 100)
    return np.array(out)


def test_the_sound_lasts_as_long_as_the_picture(narrated: Narrated) -> None:
    codecs, samples, frames = sound_of(narrated.clip)
    assert codecs == ["aac"]
    assert abs(len(samples) / RATE - frames / FPS) <= 1 / FPS
    with av.open(str(narrated.clip)) as box:
        audio, video = box.streams.audio[0], box.streams.video[0]
        assert abs(audio.duration * audio.time_base - video.duration * video.time_base) <= 1 / FPS


def test_loudness_and_true_peak(narrated: Narrated) -> None:
    samples = sound_of(narrated.clip)[1]
    assert loudness(samples) == pytest.approx(-16, abs=1)
    assert true_peak(samples) <= -1


def test_each_phrase_is_heard_as_its_caption_starts(narrated: Narrated) -> None:
    _, p = load_and_plan(str(narrated.storyboard), (), "walk", Recorder(FakeVoice()))
    heard = onsets(sound_of(narrated.clip)[1])
    assert len(p.captions) > 10
    for c in p.captions:
        assert np.min(np.abs(heard - c.start)) <= 0.25, (c.start, c.text)
    assert heard[0] == pytest.approx(p.captions[0].start, abs=0.25)  # nothing said before the first


def test_a_second_render_in_processes_is_the_same_clip(narrated: Narrated) -> None:
    """Byte for byte, sound and picture: the workers plan from the parent's phrase timings (the
    fake voice is not there for them to ask)."""
    r = render("scene", "storyboards/walk.yaml", "--voice", "fake", "--out", "again", *TINY, "-j", "2",
               cwd=narrated.home)
    assert r.returncode == 0, r.stderr
    assert (narrated.home / "again" / "walk.mp4").read_bytes() == narrated.clip.read_bytes()


def test_the_voice_off_is_the_silent_clip(narrated: Narrated) -> None:
    r = render("scene", "storyboards/walk.yaml", "--voice", "off", "--out", "silent", "--size", "256x144",
               "--fps", "5", "-j", "1", cwd=narrated.home)
    assert r.returncode == 0, r.stderr
    assert sound_of(narrated.home / "silent" / "walk.mp4")[0] == []
    assert "fake voice: 0 phrases synthesised" in r.stderr


def test_the_webm_says_it_in_opus(narrated: Narrated) -> None:
    r = render("scene", "storyboards/walk.yaml", "--voice", "fake", "--out", "out", "--format", "webm", *TINY,
               "-j", "1", cwd=narrated.home)
    assert r.returncode == 0, r.stderr
    assert "0 of 8 beats drawn" in r.stderr  # the mp4's beats, joined again
    codecs, samples, frames = sound_of(narrated.home / "out" / "walk.webm")
    assert codecs == ["opus"]
    assert abs(len(samples) / RATE - frames / FPS) <= 1 / FPS
    assert loudness(samples) == pytest.approx(-16, abs=1) and true_peak(samples) <= -1


def drawn_beats(stderr: str) -> list[int]:
    """The beats a render drew (its progress lines not marked cached), 1-based."""
    return [int(m.group(1)) for line in stderr.splitlines() if not line.endswith("(cached)")
            for m in [re.search(r": beat (\d+)/\d+ ", line)] if m]


def test_a_narration_edit_says_and_draws_its_beat_only(narrated: Narrated, tmp_path: Path) -> None:
    """Beat 5 says something else: only its changed phrase is synthesised (the others come from
    the speech cache) and only its segment is drawn. The beats after it start later in the clip,
    but their keys hold their own timing, not when they come: they are the cached segments."""
    home = tmp_path / "home"
    shutil.copytree(narrated.home, home, ignore=shutil.ignore_patterns("again", "silent"))
    board = home / "storyboards" / "walk.yaml"
    text = board.read_text()
    old = "so the gate is open and passes"
    assert text.count(old) == 1
    board.write_text(text.replace(old, "so the gate stays wide open and passes"))
    r = render("scene", "storyboards/walk.yaml", "--voice", "fake", "--out", "out", *TINY, "-j", "1", cwd=home)
    assert r.returncode == 0, r.stderr
    assert drawn_beats(r.stderr) == [5] and "1 of 8 beats drawn" in r.stderr, r.stderr
    assert "fake voice: 1 phrases synthesised" in r.stderr
    before, after = (load_and_plan(str(b), (), "walk", Recorder(FakeVoice()))[1]
                     for b in (narrated.storyboard, board))
    assert after.beats[5].start > before.beats[5].start  # the later beats did move
