"""The voices, by the name a storyboard or course.yaml gives (``voice: neural``), declared once.

Adding a voice is one module with a factory ``(Pronunciation, SpeechCache | None) -> Voice`` and
one entry of :data:`VOICES`, naming the module and the factory: the module is imported when the
voice is asked for, so checking a storyboard's ``voice:`` (and reading course.yaml) loads neither
numpy nor a speech engine. Besides the names: ``off`` (no voice: the plan paces captions by
reading time, and the clip is silent) and a path to an author's own piper model ending in
``.onnx`` (relative to the storyboard's folder, its ``.onnx.json`` beside it).

>>> voice_for("off", Path(".")) is None
True
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from .base import Voice
    from .cache import SpeechCache
    from .spoken import Pronunciation


class VoiceError(ValueError):
    """A voice that cannot be had (unknown name, missing model file); the message says what to write."""


@dataclass(frozen=True)
class Entry:
    """A voice of the table: ``factory`` of module ``scenes.voice.<module>``, taking the
    pronunciation table and the speech cache."""

    module: str
    factory: str

    def make(self, pronunciation: "Pronunciation", cache: "SpeechCache | None") -> "Voice":
        voice: Voice = getattr(importlib.import_module(f"scenes.voice.{self.module}"), self.factory)(pronunciation, cache)
        return voice


VOICES: dict[str, Entry] = {
    "neural": Entry("neural", "joe"),   # piper-tts with the joe voice (GPL-3.0 engine; CC0 data, finetuned from lessac)
    "draft": Entry("draft", "draft"),   # espeak-ng (GPL-3.0): robotic, instant
}
OFF = "off"
DEFAULT_VOICE = "neural"
"""The voice when neither the storyboard nor course.yaml names one."""
MODEL_SUFFIX = ".onnx"


def known() -> list[str]:
    """Every name ``voice:`` takes, ``off`` included."""
    return [*VOICES, OFF]


def voice_problem(name: object, base: Path, hint: str = "") -> str | None:
    """Why ``voice: name`` cannot be had, in words that say what to write; None when it can.
    ``hint``: a did-you-mean for an unknown name (the storyboard's checks give theirs)."""
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
    return (f"unknown voice {name!r}{hint} (one of: {', '.join(known())}, "
            f"or a path to a piper model ending in {MODEL_SUFFIX})")


def choose(board: str | None, board_dir: Path, course: str | None = None,
           course_dir: Path | None = None) -> tuple[str, Path]:
    """The voice a clip is said by and the folder a model path of it is relative to: the
    storyboard's ``voice:``, else course.yaml's, else :data:`DEFAULT_VOICE`.

    >>> choose(None, Path("sb"), "draft", Path("."))
    ('draft', PosixPath('.'))
    """
    if board is not None:
        return board, board_dir
    if course is not None:
        return course, course_dir if course_dir is not None else board_dir
    return DEFAULT_VOICE, board_dir


def voice_for(name: str, base: Path, say: Mapping[str, str] | None = None,
              cache: "SpeechCache | None" = None) -> "Voice | None":
    """The voice called ``name`` (None for ``off``); ``base``: the folder a model path is relative
    to; ``say``: the storyboard's own words; ``cache``: where speech is kept (default
    :func:`.cache.default_dir`). Raises :class:`VoiceError` saying what to write instead."""
    problem = voice_problem(name, base)
    if problem is not None:
        raise VoiceError(problem)
    if name == OFF:
        return None
    from .base import pronunciation
    from .neural import own

    table = pronunciation(dict(say or {}))
    if name in VOICES:
        return VOICES[name].make(table, cache)
    return own((base / name).resolve(), table, cache)
