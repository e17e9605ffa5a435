"""The sound track as numbers: phrases where their captions start, -16 LUFS, no true peak over
-1 dBTP, the length asked to the sample; and each container's codec (no render: a few frames)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scenes.voice.cache import SpeechCache
from scenes.voice.track import RATE, Phrase, loudness, mix, normalised, resampled, sound_track, true_peak
from tests.audio.fakevoice import FakeVoice


def test_phrases_start_at_their_captions_and_the_track_lasts_as_asked() -> None:
    voice = FakeVoice()
    track = mix([Phrase(0.5, "one two"), Phrase(2.0, "three")], voice.speech, 3 * RATE + 7)
    assert len(track) == 3 * RATE + 7 and track.dtype == np.float32
    loud = np.flatnonzero(np.abs(track) > 1e-4) / RATE
    assert loud[0] == pytest.approx(0.5, abs=0.01)
    assert np.abs(track[round(1.5 * RATE):round(2.0 * RATE)]).max() < 1e-4  # the gap between the phrases
    assert np.abs(track[round(2.0 * RATE):round(2.1 * RATE)]).max() > 1e-3


def test_the_voices_rate_is_brought_to_48k() -> None:
    tone = np.sin(2 * np.pi * 440 * np.arange(22_050) / 22_050).astype(np.float32)
    out = resampled(tone, 22_050)
    assert len(out) == RATE
    spectrum = np.abs(np.fft.rfft(out))
    assert np.argmax(spectrum) * RATE / len(out) == pytest.approx(440, abs=2)


def test_loudness_and_true_peak_of_a_quiet_track() -> None:
    track = sound_track([Phrase(0.2, "a quiet phrase said twice"), Phrase(3.0, "and again here")],
                        FakeVoice(), 6.0)
    assert loudness(track) == pytest.approx(-16, abs=0.2)
    assert true_peak(track) <= -1.0


def test_peaks_are_limited_without_losing_the_loudness() -> None:
    """Clicks far above the speech: brought to the loudness alone they would peak over 0 dBTP."""
    track = sound_track([Phrase(0.2, "a phrase with peaks in it"), Phrase(3.0, "said over some clicks")],
                        FakeVoice(), 6.0)
    track[::4000] += 0.9  # one-sample clicks: their true peak lies between samples as well
    assert true_peak(track * 10 ** ((-16 - loudness(track)) / 20)) > 0
    out = normalised(track)
    assert loudness(out) == pytest.approx(-16, abs=0.5)
    assert true_peak(out) <= -1.0


def test_silence_stays_silent() -> None:
    assert not normalised(np.zeros(RATE, np.float32)).any()


def test_overlapping_phrases_are_limited_where_they_meet() -> None:
    """Each phrase is levelled alone; where two are said at once, their sum would peak over the
    ceiling unless it is limited there."""
    voice = FakeVoice()
    alone = sound_track([Phrase(0.2, "one phrase said loud")], voice, 3.0)
    both = sound_track([Phrase(0.2, "one phrase said loud"), Phrase(0.2, "one phrase said loud")], voice, 3.0)
    assert true_peak(2 * alone) > -1.0
    assert true_peak(both) <= -1.0


def test_a_levelled_phrase_is_kept_beside_its_speech(tmp_path: Path) -> None:
    """Levelled once: another process (its memory empty) reads it from the voice's cache, the
    same samples, without saying it again."""
    from scenes.voice import track

    first = FakeVoice(SpeechCache(tmp_path))
    made = sound_track([Phrase(0.1, "kept levelled")], first, 2.0)
    track._LEVELLED.clear()
    again = FakeVoice(SpeechCache(tmp_path))
    assert np.array_equal(sound_track([Phrase(0.1, "kept levelled")], again, 2.0), made)
    assert first.said == ["kept levelled"] and again.said == []
