"""The voices, by the name a storyboard or course.yaml gives (``voice: neural``), declared once.

Adding a voice is one module with a factory ``(Pronunciation, SpeechCache | None) -> Voice`` and
one entry of :data:`VOICES`. Besides the names: ``off`` (no voice: the plan paces captions by
reading time, and the clip is silent) and a path to an author's own piper model ending in
``.onnx`` (relative to the storyboard's folder, its ``.onnx.json`` beside it).

>>> voice_for("off", Path(".")) is None
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping

from .base import Voice, VoiceError, pronunciation
from .cache import SpeechCache
from .draft import draft
from .neural import joe, own
from .spoken import Pronunciation

VoiceFactory = Callable[[Pronunciation, "SpeechCache | None"], Voice]

VOICES: dict[str, VoiceFactory] = {
    "neural": joe,   # piper-tts with the joe voice (GPL-3.0 engine; CC0 data, finetuned from lessac)
    "draft": draft,  # espeak-ng (GPL-3.0): robotic, instant
}
OFF = "off"
DEFAULT_VOICE = "neural"
"""The voice when neither the storyboard nor course.yaml names one."""
MODEL_SUFFIX = ".onnx"


def known() -> list[str]:
    """Every name ``voice:`` takes, ``off`` included."""
    return [*VOICES, OFF]


def voice_problem(name: object, base: Path) -> str | None:
    """Why ``voice: name`` cannot be had, in words that say what to write; None when it can."""
    if not isinstance(name, str) or not name.strip():
        return f"voice: must be one of {', '.join(known())} or a path to a piper model (.onnx), got {name!r}"
    if name in VOICES or name == OFF:
        return None
    if name.endswith(MODEL_SUFFIX):
        model = base / name
        if not model.is_file():
            return (f"voice: no model file {name!r} (looked at {model}): give the path of a piper .onnx model, "
                    f"relative to the storyboard, or one of {', '.join(known())}")
        if not Path(f"{model}.json").is_file():
            return f"voice: the model {name!r} has no {model.name}.json beside it: copy the model's config there"
        return None
    from scenes.storyboard.errors import did_you_mean

    return (f"unknown voice {name!r}{did_you_mean(name, known())} (one of: {', '.join(known())}, "
            f"or a path to a piper model ending in {MODEL_SUFFIX})")


def voice_for(name: str, base: Path, say: Mapping[str, str] | None = None,
              cache: SpeechCache | None = None) -> Voice | None:
    """The voice called ``name`` (None for ``off``); ``base``: the folder a model path is relative
    to; ``say``: the storyboard's own words; ``cache``: where speech is kept (default
    :func:`.cache.default_dir`). Raises :class:`VoiceError` saying what to write instead."""
    problem = voice_problem(name, base)
    if problem is not None:
        raise VoiceError(problem)
    if name == OFF:
        return None
    table = pronunciation(dict(say or {}))
    if name in VOICES:
        return VOICES[name](table, cache)
    return own((base / name).resolve(), table, cache)
