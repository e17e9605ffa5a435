"""The voices: the same bytes for the same phrase, word times in order, one Word per written
token, a cache hit that synthesises nothing, an author's own model, and unknown names refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from scenes.voice.base import Voice, VoiceError, pronunciation
from scenes.voice.cache import SpeechCache
from scenes.voice.neural import joe_model
from scenes.voice.registry import voice_for

PHRASE = "So `w1.grad` = 4/9, then -0.37!"


@pytest.mark.parametrize("which", ["neural", "drafted"])
def test_same_bytes_twice_in_any_order(which: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    voice: Voice = request.getfixturevalue(which)
    first = voice.speech(PHRASE)
    other = type(voice).__new__(type(voice))
    other.__dict__.update(voice.__dict__, cache=SpeechCache(tmp_path))
    other.speech("Something else first, so any state of the engine moves.")
    again = other.speech(PHRASE)
    assert len(list(tmp_path.rglob("*.wav"))) == 2  # both were synthesised, not read back
    assert first.samples.tobytes() == again.samples.tobytes() and first.timing == again.timing


@pytest.mark.parametrize("which", ["neural", "drafted"])
def test_word_times_in_order_one_per_token(which: str, request: pytest.FixtureRequest) -> None:
    voice: Voice = request.getfixturevalue(which)
    speech = voice.speech(PHRASE)
    words = speech.timing.words
    assert [w.text for w in words] == PHRASE.split()
    assert speech.timing.duration == pytest.approx(len(speech.samples) / speech.rate)
    times = [t for w in words for t in (w.start, w.end)]
    assert times == sorted(times) and 0.0 <= times[0] and times[-1] <= speech.timing.duration
    said = voice.said(voice.spoken(PHRASE).text)
    assert said.spans is not None and len(said.spans) == len(voice.spoken(PHRASE).words)  # the voice's own times
    assert speech.samples.dtype == np.float32 and np.abs(speech.samples).max() <= 1.0


def test_a_cache_hit_synthesises_nothing(tmp_path: Path, drafted: Voice) -> None:
    calls: list[str] = []
    voice = type(drafted).__new__(type(drafted))
    voice.__dict__.update(drafted.__dict__, cache=SpeechCache(tmp_path))
    real = voice.synth
    voice.synth = lambda text: calls.append(text) or real(text)  # type: ignore[method-assign]
    a = voice.speech("the loss is 4/9")
    b = voice.speech("the loss is 4/9")
    assert calls == ["the loss is four ninths"] and a.samples.tobytes() == b.samples.tobytes()
    voice.speech("the loss is 8/3")
    assert len(calls) == 2


def test_say_changes_what_is_said(tmp_path: Path) -> None:
    voice = voice_for("draft", tmp_path, say={"ReLU": "ray loo"}, cache=SpeechCache(tmp_path))
    assert voice is not None and voice.spoken("a ReLU").text == "a ray loo"


def test_an_authors_own_model(tmp_path: Path, neural: Voice) -> None:
    (tmp_path / "voices").mkdir()
    model = tmp_path / "voices" / "mine.onnx"
    shutil.copyfile(joe_model(), model)
    shutil.copyfile(f"{joe_model()}.json", f"{model}.json")
    own = voice_for("voices/mine.onnx", tmp_path, cache=SpeechCache(tmp_path / "cache"))
    assert own is not None and own.name == "model:mine.onnx" and own.key() != neural.key()
    speech = own.speech("the loss is 4/9")
    assert [w.text for w in speech.timing.words] == ["the", "loss", "is", "4/9"]
    assert speech.samples.tobytes() == neural.speech("the loss is 4/9").samples.tobytes()  # same model, same noise


def test_unknown_names_and_missing_models_say_what_to_write(tmp_path: Path) -> None:
    with pytest.raises(VoiceError, match=r"unknown voice 'nerual'; did you mean 'neural'\? \(one of: neural, draft, off"):
        voice_for("nerual", tmp_path)
    with pytest.raises(VoiceError, match="no model file 'gone.onnx'"):
        voice_for("gone.onnx", tmp_path)
    (tmp_path / "m.onnx").write_bytes(b"x")
    with pytest.raises(VoiceError, match="no m.onnx.json beside it"):
        voice_for("m.onnx", tmp_path)
    assert voice_for("off", tmp_path) is None


def test_the_theme_table_reaches_the_voice(drafted: Voice) -> None:
    assert drafted.spoken("`yh`").text == " ".join(pronunciation().code["yh"].split())
