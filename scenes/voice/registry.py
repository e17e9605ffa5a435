"""The voices, by the name a storyboard or course.yaml gives (``voice: neural``), declared once.

Adding a voice is one module with a factory ``(Pronunciation, SpeechCache | None) -> Voice`` and
one entry of :data:`VOICES`, naming the module and the factory: the module is imported when the
voice is asked for, so checking a storyboard's ``voice:`` (and reading course.yaml) loads neither
numpy nor a speech engine. Besides the names: ``off`` (no voice: the plan paces captions by
reading time, and the clip is silent), ``recorded`` (the author's own recordings beside the
storyboard, :mod:`.recorded`: a storyboard's own voice, so ``voice_for`` is given its file) and a
path to an author's own piper model ending in ``.onnx`` (relative to the storyboard's folder, its
``.onnx.json`` beside it).

>>> voice_for("off", Path(".")) is None
True
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from .base import Voice
    from .cache import SpeechCache
    from .recorded import RecordedVoice
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
RECORDED = "recorded"
DEFAULT_VOICE = "neural"
ENV_VOICE = "GRADREEL_VOICE"
"""An environment variable naming the voice of a clip that names none (the draft voice while
writing, ``off`` for a test suite): below the storyboard's and the course's ``voice:``."""


def default_voice() -> str:
    """The voice of a clip whose storyboard and course name none: $GRADREEL_VOICE, else neural."""
    return os.environ.get(ENV_VOICE) or DEFAULT_VOICE
"""The voice when neither the storyboard nor course.yaml names one."""
MODEL_SUFFIX = ".onnx"


def known() -> list[str]:
    """Every name ``voice:`` takes, ``off`` included."""
    return [*VOICES, RECORDED, OFF]


def voice_problem(name: object, base: Path, hint: str = "") -> str | None:
    """Why ``voice: name`` cannot be had, in words that say what to write; None when it can.
    ``hint``: a did-you-mean for an unknown name (the storyboard's checks give theirs)."""
    if not isinstance(name, str) or not name.strip():
        return f"voice: must be one of {', '.join(known())} or a path to a piper model (.onnx), got {name!r}"
    if name in VOICES or name in (OFF, RECORDED):
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
    storyboard's ``voice:``, else course.yaml's, else :func:`default_voice`.

    >>> choose(None, Path("sb"), "draft", Path("."))
    ('draft', PosixPath('.'))
    """
    if board is not None:
        return board, board_dir
    if course is not None:
        return course, course_dir if course_dir is not None else board_dir
    return default_voice(), board_dir


def voice_for(name: str, base: Path, say: Mapping[str, str] | None = None,
              cache: "SpeechCache | None" = None, storyboard: Path | None = None) -> "Voice | RecordedVoice | None":
    """The voice called ``name`` (None for ``off``); ``base``: the folder a model path is relative
    to; ``say``: the storyboard's own words; ``cache``: where speech is kept (default
    :func:`.cache.default_dir`); ``storyboard``: its file, for ``recorded`` (whose recordings are
    in ``NAME.voice`` beside it, aligned to the default voice; bound to the checked storyboard,
    :func:`scenes.storyboard.recordings.bind`, before it is asked a phrase). Raises
    :class:`VoiceError` saying what to write instead."""
    problem = voice_problem(name, base)
    if problem is not None:
        raise VoiceError(problem)
    if name == OFF:
        return None
    from .base import pronunciation
    from .neural import own

    table = pronunciation(dict(say or {}))
    if name == RECORDED:
        from .recorded import RecordedVoice

        if storyboard is None:
            raise VoiceError("voice: recorded is a storyboard's own voice (its NAME.voice folder): "
                             "give the storyboard to say it")
        return RecordedVoice(storyboard, VOICES[DEFAULT_VOICE].make(table, cache))
    if name in VOICES:
        return VOICES[name].make(table, cache)
    return own((base / name).resolve(), table, cache)
