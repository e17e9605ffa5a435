"""Which voice a render uses, and what of it enters the keys (no render: cheap)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenes.render.options import RenderOptions
from scenes.render.pipeline import cache_key
from scenes.render.sound import table_from_json, table_json, table_speaker, voice_for, with_voice
from scenes.storyboard import storyboard_path
from scenes.voice.registry import DEFAULT_VOICE, ENV_VOICE, VOICES
from tests.audio.fakevoice import Entry, FakeVoice


def test_the_command_line_then_the_storyboard_then_the_course_then_the_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VOICE, raising=False)
    (tmp_path / "storyboards").mkdir()
    board = tmp_path / "storyboards" / "a.yaml"
    board.write_text("title: a\n")
    assert voice_for(str(board), None) == DEFAULT_VOICE == "neural"
    (tmp_path / "course.yaml").write_text("title: c\nvoice: draft\n")
    assert voice_for(str(board), None) == "draft"
    board.write_text("title: a\nvoice: 'off'\n")
    assert voice_for(str(board), None) == "off"
    board.write_text("title: a\n")
    (tmp_path / "course.yaml").write_text("title: c\n")
    monkeypatch.setenv(ENV_VOICE, "draft")  # $GRADREEL_VOICE: below the storyboard and the course
    assert voice_for(str(board), None) == "draft"
    assert voice_for(str(board), "neural") == "neural"


def test_the_voice_enters_the_clips_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another voice is another clip; the same voice, the same key; off, the silent clip's."""
    monkeypatch.setitem(VOICES, "fake", Entry(FakeVoice()))
    walk = storyboard_path("backward_walk")
    silent, said = (cache_key(walk, RenderOptions(voice=v)) for v in ("off", "fake"))
    assert silent != said == cache_key(walk, RenderOptions(voice="fake"))
    opts = with_voice(walk, RenderOptions(voice="fake"))
    assert (opts.voice, opts.voice_key) == ("fake", "fake-1")
    assert RenderOptions().frame_json() == with_voice(walk, RenderOptions(voice="off")).frame_json()


def test_the_timings_travel_as_json_and_a_missing_phrase_stops() -> None:
    voice = FakeVoice()
    table = {t: voice.timing(t) for t in ("the loss is 4/9.", "Mul: w1 gets 8/3.")}
    back = table_from_json(table_json(table))
    assert back == table
    speak = table_speaker(back)
    assert speak("Mul: w1 gets 8/3.") == table["Mul: w1 gets 8/3."]
    with pytest.raises(RuntimeError, match="changed during the render"):
        speak("another phrase")


def test_a_storyboards_unknown_voice_is_one_located_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scenes.commands.main import main

    text = Path(storyboard_path("backward_walk")).read_text()
    board = tmp_path / "bad.yaml"
    board.write_text("voice: nope\n" + text)
    assert main(["scene", str(board), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:1:8: unknown voice 'nope'" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out" / "bad.mp4").exists()
