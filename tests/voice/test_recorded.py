"""The author's own voice: recordings aligned to the neural voice, cut into phrases, refused when
missing, and how well the alignment finds the words (the neural voice reading slower plays the
author, its own word times the truth)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scenes.commands.problems import report
from scenes.storyboard.errors import StoryboardError
from scenes.storyboard.loaded import plan_of
from scenes.storyboard.recordings import bind
from scenes.storyboard.validate import Checked, load
from scenes.voice.align import align
from scenes.voice.base import Voice, pronunciation
from scenes.voice.cache import SpeechCache
from scenes.voice.neural import NeuralVoice, joe_model, pace
from scenes.voice.recorded import FORMATS, RecordedVoice, Unreadable, read
from scenes.voice.registry import voice_for
from scenes.voice.speech import Speech, Timing, Word

pytestmark = pytest.mark.xdist_group("voice")  # one worker loads the neural voice and says the narration

NARRATION = ("When a value feeds several paths, its gradient is the sum over the paths. "
             "Each path sends its share; the bucket adds them up.")
SLOWER = round(1.3 * pace(), 2)
"""The \"recording\": the neural voice at 1.3 times its pace (the theme's, `scenes.voice.neural.pace`)."""
BOARD = """title: Two paths
program: |
  import torch
  w = torch.tensor(3., requires_grad=True)
  y = w * w
  y.backward()
beats:
  - visual: code_and_graph_build
    lines: [2, 3]
    narration: "{narration}"
  - visual: wavefront
    backward: 1
    narration: "The bucket now holds {{w.grad}}."
"""


@pytest.fixture(scope="session")
def readings(neural: Voice, tmp_path_factory: pytest.TempPathFactory) -> tuple[Speech, Speech]:
    """The narration at the neural voice's own pace (the reference) and slower (the "recording")."""
    slow = NeuralVoice("neural", joe_model(), pronunciation(), SpeechCache(tmp_path_factory.mktemp("slow")),
                       length_scale=SLOWER)
    return neural.speech(NARRATION), slow.speech(NARRATION)


def test_alignment_finds_the_words_of_a_slower_reading(readings: tuple[Speech, Speech]) -> None:
    ref, rec = readings
    got = align(rec.samples, rec.rate, ref)
    assert [w.text for w in got.words] == NARRATION.split()
    error = _errors(got, rec.timing)
    print(f"\naligned word starts of a {SLOWER} length_scale reading: median error {np.median(error):.3f} s, "
          f"worst {error.max():.3f} s")
    assert np.median(error) < 0.1 and error.max() < 0.3


def test_alignment_finds_the_words_around_the_authors_pauses(readings: tuple[Speech, Speech]) -> None:
    """The slower reading as an author records it: a second of silence before it, and half a
    second more between its sentences. Stretching the reference evenly misses by most of that."""
    ref, rec = readings
    samples, truth = _paused(rec)
    error = _errors(align(samples, rec.rate, ref), truth)
    print(f"\n... with pauses: median error {np.median(error):.3f} s, worst {error.max():.3f} s")
    assert np.median(error) < 0.1 and error.max() < 0.3
    even = Timing(truth.duration, tuple(Word(w.text, w.start * truth.duration / ref.timing.duration, w.end)
                                        for w in ref.timing.words))
    assert _errors(even, truth).max() > 0.3


def test_alignment_finds_the_words_of_another_voice(readings: tuple[Speech, Speech], drafted: Voice) -> None:
    """espeak-ng (the draft voice) plays an author whose voice is not the reference's at all.
    The worst word may be off more (its truth too: espeak's word events are some 50 ms early)."""
    ref, rec = readings[0], drafted.speech(NARRATION)
    error = _errors(align(rec.samples, rec.rate, ref), rec.timing)
    print(f"\n... said by espeak-ng: median error {np.median(error):.3f} s, worst {error.max():.3f} s")
    assert np.median(error) < 0.1 and error.max() < 0.4


@pytest.fixture(scope="session")
def clip(readings: tuple[Speech, Speech], neural: Voice, tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """A two-beat storyboard, checked, with no recordings yet."""
    folder = tmp_path_factory.mktemp("clip")
    (folder / "clip.yaml").write_text(BOARD.format(narration=NARRATION), encoding="utf-8")
    return load(str(folder / "clip.yaml"))


@pytest.fixture(scope="session")
def recorded(clip: Checked, readings: tuple[Speech, Speech], neural: Voice) -> RecordedVoice:
    """The clip said by its author: the title and beat 2 at the neural voice's pace, beat 1 slowly
    and with pauses (as :func:`_paused`), in three formats."""
    where = Path(clip.file).with_suffix(".voice")
    where.mkdir()
    samples, _ = _paused(readings[1])
    _write(where / "title.m4a", neural.speech("Two paths"), "aac")
    _write(where / "beat-01.wav", Speech(readings[1].timing, samples, readings[1].rate), "pcm_s16le")
    _write(where / "beat-02.flac", neural.speech("The bucket now holds 6."), "flac")
    voice = voice_for("recorded", where.parent, cache=neural.cache, storyboard=Path(clip.file))
    assert isinstance(voice, RecordedVoice)
    return bind(voice, clip)


def test_each_phrase_is_its_slice_of_the_recording(recorded: RecordedVoice, clip: Checked,
                                                   readings: tuple[Speech, Speech]) -> None:
    captions = plan_of(clip).captions
    assert [c.style for c in captions][0] == "title"
    phrases = [c.text for c in captions if c.beat == 0 and c.style == "caption"]
    said = [recorded.speech(p) for p in phrases]
    cuts = recorded.take("beat-01").cuts()
    # the phrases tile the recording, from just before its first word to just after its last
    assert sum(len(s.samples) for s in said) == pytest.approx((cuts[-1] - cuts[0]) * said[0].rate, abs=len(said))
    _, truth = _paused(readings[1])
    starts = np.cumsum([cuts[0]] + [s.timing.duration for s in said[:-1]])
    firsts = [truth.words[sum(len(p.split()) for p in phrases[:k])].start for k in range(len(phrases))]
    assert np.allclose([a + s.timing.words[0].start for a, s in zip(starts, said)], firsts, atol=0.1)
    for phrase, s in zip(phrases, said):
        assert [w.text for w in s.timing.words] == phrase.split()
        assert 0 < s.timing.words[0].start < s.timing.words[-1].end <= s.timing.duration
        assert s.timing.duration == pytest.approx(len(s.samples) / s.rate, abs=2 / s.rate)
        assert recorded.timing(phrase) == s.timing
    # the title and beat 2 are their own recordings, said at the neural voice's pace
    title = recorded.speech("Two paths")
    assert title.timing.duration < 1.5 and [w.text for w in title.timing.words] == ["Two", "paths"]
    assert recorded.timing("The bucket now holds 6.").words[-1].text == "6."


def test_the_key_changes_with_a_recording(recorded: RecordedVoice, tmp_path: Path, neural: Voice) -> None:
    board = tmp_path / "other.yaml"
    voice = RecordedVoice(board, neural)
    before = voice.key()
    board.with_suffix(".voice").mkdir()
    _write(board.with_suffix(".voice") / "beat-01.wav", neural.speech("Two paths"), "pcm_s16le")
    assert voice.key() != before and recorded.key() not in (before, voice.key())


@pytest.mark.parametrize("ext, codec", [("flac", "flac"), ("ogg", "libopus"), ("mp3", "libmp3lame"), ("m4a", "aac")])
def test_each_format_is_read(readings: tuple[Speech, Speech], tmp_path: Path, ext: str, codec: str) -> None:
    rec = readings[1]
    path = tmp_path / f"beat-01.{ext}"
    _write(path, rec, codec)
    samples, rate = read(path)
    assert ext in FORMATS and samples.dtype == np.float32 and samples.ndim == 1
    assert len(samples) / rate == pytest.approx(rec.timing.duration, abs=0.1)


def test_a_missing_or_unreadable_recording_is_named_at_its_line(tmp_path: Path, neural: Voice,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "clip.yaml"
    board.write_text(BOARD.format(narration="Take y = w * w with w = {w}."), encoding="utf-8")
    checked = load(str(board))
    folder = Path(checked.file).with_suffix(".voice")
    folder.mkdir()
    (folder / "beat-02.wav").write_bytes(b"not a sound")
    _write(folder / "title.mp3", Speech(Timing(1.0, ()), np.full(22050, 0.1, np.float32), 22050), "libmp3lame")
    voice = RecordedVoice(Path(checked.file), neural)
    with pytest.raises(StoryboardError) as got:
        bind(voice, checked)
    assert report(got.value) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and "Traceback" not in "".join(lines)
    assert lines[0] == (f"{checked.file}:10:16: beat 1 has no recording: expected {folder / 'beat-01.wav'} "
                        "(or .flac, .ogg, .mp3, .m4a) saying 'Take y = w * w with w = 3.'; record it there, "
                        "or choose another voice (at beats[0].narration)")
    assert lines[1].startswith(f"{checked.file}:13:16: beat 2's recording {folder / 'beat-02.wav'} cannot be used: "
                               "it is no sound file that can be read")
    assert "record it again as WAV, FLAC, OGG, MP3 or M4A" in lines[1]


def test_silence_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "beat-01.wav"
    _write(path, Speech(Timing(1.0, ()), np.zeros(22050, np.float32), 22050), "pcm_s16le")
    with pytest.raises(Unreadable, match="silent"):
        read(path)


def _paused(rec: Speech) -> tuple[np.ndarray, Timing]:
    """``rec`` with a second of silence before it and half a second more between its sentences,
    and its words' true times then."""
    sentence = NARRATION.split().index("Each")
    cut = int((rec.timing.words[sentence - 1].end + rec.timing.words[sentence].start) / 2 * rec.rate)
    lead, pause = np.zeros(rec.rate, np.float32), np.zeros(rec.rate // 2, np.float32)
    samples = np.concatenate([lead, rec.samples[:cut], pause, rec.samples[cut:]])
    moved = [Word(w.text, w.start + 1.0 + (0.5 if k >= sentence else 0.0), w.end + 1.0 + (0.5 if k >= sentence else 0.0))
             for k, w in enumerate(rec.timing.words)]
    return samples, Timing(len(samples) / rec.rate, tuple(moved))


def _errors(got: Timing, truth: Timing) -> np.ndarray:
    """Seconds between each word's start in ``got`` and in ``truth``."""
    return np.array([abs(g.start - t.start) for g, t in zip(got.words, truth.words, strict=True)])


def _write(path: Path, said: Speech, codec: str) -> None:
    """``said`` written to ``path`` with PyAV's ``codec`` (the container from the ending)."""
    import av

    with av.open(str(path), "w") as out:
        stream: Any = out.add_stream(codec, rate=48000 if codec == "libopus" else said.rate, layout="mono")
        resampler = av.AudioResampler(format=stream.codec_context.format.name, layout="mono", rate=stream.rate)
        frame = av.AudioFrame.from_ndarray(said.samples.reshape(1, -1), format="flt", layout="mono")
        frame.sample_rate = said.rate
        size = stream.codec_context.frame_size or 1024
        for f in resampler.resample(frame) + resampler.resample(None):
            data = f.to_ndarray()
            for k in range(0, data.shape[-1], size):
                part = av.AudioFrame.from_ndarray(np.ascontiguousarray(data[..., k:k + size]), format=f.format.name,
                                                  layout="mono")
                part.sample_rate = stream.rate
                out.mux(stream.encode(part))
        out.mux(stream.encode(None))
