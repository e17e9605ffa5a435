"""The render's side of a clip's voice: which voice, the phrase timings the plan is made with,
and the sound track the clip is joined with.

Why here and not in the plan: the plan is pure and runs again in worker processes and on other
machines (a beat drawn elsewhere must be timed exactly as here). So the parent process alone asks
the voice how long each phrase takes, and hands the answers on as JSON data, a table of
text -> :class:`~scenes.voice.speech.Timing` (:func:`table_json`); a worker plans from the table
(:func:`table_speaker`) and never synthesises. The samples are wanted only where the clip is
joined (:func:`clip_track`).

Which voice: ``--voice`` given on the command line, else the storyboard's ``voice:``, else the
course's (``course.yaml``), else the registry's default (:mod:`scenes.voice.registry`);
``off`` is no voice, the silent clip.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np

    from scenes.voice.speech import Speaker, Speech, Timing

    from scenes.render.options import RenderOptions
    from scenes.storyboard.plan import Plan
    from scenes.storyboard.validate import Checked

OFF = "off"
"""The voice that says nothing: the clip is silent, its captions timed by reading time."""


class Voice(Protocol):
    """A voice as the render uses it (:class:`scenes.voice.base.Voice` is one): ``key`` names it
    and everything that changes what it says (model, settings), for cache keys; ``timing`` and
    ``speech`` say a phrase."""

    def key(self) -> str: ...

    def timing(self, text: str) -> Timing: ...

    def speech(self, text: str) -> Speech: ...


def voice_names() -> list[str]:
    """Every name ``--voice`` takes, ``off`` last (a path to a piper model ``.onnx`` besides)."""
    from scenes.voice.registry import known

    return known()


def voice_named(name: str, base: Path = Path("."), say: dict[str, str] | None = None,
                storyboard: Path | None = None) -> Voice | None:
    """The voice called ``name`` (None for ``off``), a model path read from ``base``, speaking the
    storyboard's own words ``say`` (``recorded``: the recordings beside ``storyboard``); one that
    cannot be had is a VoiceError saying what to write."""
    from scenes.voice.registry import voice_for as registered

    return registered(name, base, say, storyboard=storyboard)


def voice_of(opts: RenderOptions, checked: Checked) -> Voice | None:
    """The voice ``opts`` chose (:func:`with_voice`: a model by its absolute path) for the checked
    storyboard, speaking its own words (``say:``); None for ``off``. The recorded voice is bound
    to it: it reads what each part says and checks the recordings (StoryboardError)."""
    from scenes.storyboard.recordings import bind
    from scenes.voice.recorded import RecordedVoice

    voice = voice_named(opts.voice or OFF, Path("."), checked.storyboard.say, Path(checked.file))
    return bind(voice, checked) if isinstance(voice, RecordedVoice) else voice


def voice_key(name: str, base: Path = Path("."), storyboard: Path | None = None) -> str:
    """What of the voice enters a clip's cache key and its beats' keys: ``off``, or the voice's key
    (the recorded voice's: its recordings')."""
    voice = voice_named(name, base, storyboard=storyboard)
    return OFF if voice is None else voice.key()


def table_json(table: dict[str, Timing]) -> str:
    """The phrase timings as JSON data (what a worker is handed), texts in order."""
    return json.dumps({text: {"duration": t.duration, "words": [[w.text, w.start, w.end] for w in t.words]}
                       for text, t in sorted(table.items())}, ensure_ascii=False)


def table_from_json(text: str) -> dict[str, Timing]:
    """:func:`table_json` read back."""
    from scenes.voice.speech import Timing, Word

    return {phrase: Timing(t["duration"], tuple(Word(w, a, b) for w, a, b in t["words"]))
            for phrase, t in json.loads(text).items()}


class Recorder:
    """A :data:`Speaker` that asks the voice and keeps every answer: the parent plans with it,
    then hands its ``table`` to the workers."""

    def __init__(self, voice: Voice) -> None:
        self.voice = voice
        self.table: dict[str, Timing] = {}

    def __call__(self, text: str) -> Timing:
        if text not in self.table:
            self.table[text] = self.voice.timing(text)
        return self.table[text]


def table_speaker(table: dict[str, Timing]) -> Speaker:
    """A :data:`Speaker` that answers from the parent's table; a phrase it lacks means the
    worker's plan differs from the parent's (a RuntimeError, never a guess)."""
    def speak(text: str) -> Timing:
        try:
            return table[text]
        except KeyError:
            raise RuntimeError(f"no timing for the phrase {text!r}: the storyboard changed during the render; "
                               "render it again") from None
    return speak


def clip_track(p: Plan, voice: Voice, seconds: float) -> np.ndarray:
    """The clip's sound track (:mod:`scenes.voice.track`): each caption span, the title and the
    takeaway among them, said from its start, over exactly ``seconds``."""
    from scenes.voice.track import Phrase, sound_track

    return sound_track([Phrase(c.start, c.text) for c in p.captions], voice, seconds)


def named_voice(yaml_file: Path) -> str | None:
    """The top-level ``voice:`` of a storyboard or course file, read from its YAML without
    checking the rest (the up-to-date check runs before the storyboard is loaded); None where
    the file names none or is not there."""
    from scenes.storyboard.yamlsafe import load_file

    if not yaml_file.is_file():
        return None
    data = load_file(str(yaml_file)).data
    value = data.get("voice") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def voice_for(storyboard_file: str, cli: str | None) -> str:
    """The name of the voice a render of ``storyboard_file`` uses (:func:`scenes.voice.registry.choose`: the storyboard's, the course's, the default); a model
    by its absolute path (a storyboard's relative to its folder, a course's to the course file's)."""
    from scenes.storyboard.store import COURSE_FILE
    from scenes.voice.registry import MODEL_SUFFIX, choose

    if cli:
        return cli
    board = Path(storyboard_file).resolve()  # the course file sits beside the storyboards' folder
    course = board.parent.parent / COURSE_FILE
    name, base = choose(named_voice(board), board.parent, named_voice(course), course.parent)
    return str((base / name).resolve()) if name.endswith(MODEL_SUFFIX) else name


def with_voice(storyboard_file: str, opts: RenderOptions) -> RenderOptions:
    """``opts`` with the voice chosen for this storyboard and its key filled in (as they are,
    when they are already): what the parent hands every worker, so that none chooses again."""
    from dataclasses import replace

    if opts.voice_key:
        return opts
    name = voice_for(storyboard_file, opts.voice)
    return replace(opts, voice=name, voice_key=voice_key(name, storyboard=Path(storyboard_file)))
