"""The draft voice: espeak-ng, robotic but instant, for checking a clip's pacing while writing it.

Word times are espeak's own: its C API (``libespeak-ng.so.1`` through ctypes) in synchronous
mode calls back with the samples and an ``espeakEVENT_WORD`` for each word, giving the word's
character position in the text and its sample position; a word ends where the next begins (or
at the end of its sentence, or of the audio). Its sentences are at least the theme's
``pronounce.sentence_pause`` apart (:mod:`.sentences`): the samples are cut where espeak's
``espeakEVENT_SENTENCE`` says a sentence starts, silence is put before each sentence but the
first, and the sentence's events move by it (:func:`paused`).

Same input, same bytes: espeak keeps state from one utterance to the next (measured: the same
text said four times in one process gave four different sample counts; ``espeak_Cancel`` and a
second ``espeak_Initialize`` do not reset it, while the first utterance of a process is always
the same). So each phrase is said in a forked child that initialises espeak afresh and sends back
its samples and events through a pipe; a fork costs a few milliseconds.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .base import Voice
from .cache import Said, SpeechCache
from .registry import VoiceError
from .sentences import joined, pauses, sentence_pause
from .spoken import Pronunciation

LIBRARY = "libespeak-ng.so.1"
VOICE = "en-us"
RATE_WPM = 165
"""espeak's words a minute (its default 175 is quick for numbers read digit by digit)."""

_SYNCHRONOUS, _DONT_EXIT, _CHARS_UTF8, _POS_CHARACTER = 2, 0x8000, 1, 1
_EVENT_END_LIST, _EVENT_WORD, _EVENT_SENTENCE, _EVENT_SENTENCE_END, _RATE_PARAM = 0, 1, 2, 5, 1
Event = tuple[int, int, int, int]
"""An espeak event: type, text position from 1, length, sample."""


class _Id(ctypes.Union):
    _fields_ = [("number", ctypes.c_int), ("name", ctypes.c_char_p), ("string", ctypes.c_char * 8)]


class _Event(ctypes.Structure):
    """espeak_EVENT (speak_lib.h)."""

    _fields_ = [("type", ctypes.c_int), ("unique_identifier", ctypes.c_uint), ("text_position", ctypes.c_int),
                ("length", ctypes.c_int), ("audio_position", ctypes.c_int), ("sample", ctypes.c_int),
                ("user_data", ctypes.c_void_p), ("id", _Id)]


_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.POINTER(_Event))


@lru_cache(maxsize=1)
def library_name() -> str:
    """The library's file name (looked up once: ``find_library`` runs ``ldconfig``)."""
    return ctypes.util.find_library("espeak-ng") or LIBRARY


def library() -> ctypes.CDLL:
    """libespeak-ng, or a VoiceError saying how to install it."""
    try:
        return ctypes.CDLL(library_name())
    except OSError:
        raise VoiceError("the draft voice needs espeak-ng: install it (Debian: apt-get install espeak-ng), "
                         "or choose voice: neural") from None


def _say(text: str, rate_wpm: int) -> tuple[int, bytes, list[Event]]:
    """In this process: espeak's sample rate, its 16-bit samples and its events (type,
    text position from 1, length, sample)."""
    lib = library()
    rate = lib.espeak_Initialize(_SYNCHRONOUS, 0, None, _DONT_EXIT)
    if rate <= 0 or lib.espeak_SetVoiceByName(VOICE.encode()) != 0:
        raise VoiceError("espeak-ng could not start (is espeak-ng-data installed?)")
    lib.espeak_SetParameter(_RATE_PARAM, rate_wpm, 0)
    pcm: list[bytes] = []
    events: list[Event] = []

    def heard(wav: Any, n: int, ev: Any) -> int:
        if n > 0:
            pcm.append(ctypes.string_at(wav, n * 2))
        i = 0
        while ev[i].type != _EVENT_END_LIST:
            e = ev[i]
            events.append((e.type, e.text_position, e.length, e.sample))
            i += 1
        return 0

    callback = _CALLBACK(heard)
    lib.espeak_SetSynthCallback(callback)
    data = text.encode()
    lib.espeak_Synth(data, len(data) + 1, 0, _POS_CHARACTER, 0, _CHARS_UTF8, None, None)
    return rate, b"".join(pcm), events


def say_fresh(text: str, rate_wpm: int) -> tuple[int, bytes, list[Event]]:
    """:func:`_say` in a forked child, so espeak starts from the same state for every phrase."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: say it, send it, leave without running the parent's cleanup
        code = 0
        try:
            os.close(read_end)
            rate, pcm, events = _say(text, rate_wpm)
            head = struct.pack("<iii", rate, len(pcm), len(events))
            body = b"".join(struct.pack("<iiii", *e) for e in events)
            with os.fdopen(write_end, "wb") as out:
                out.write(head + body + pcm)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as inp:
        data = inp.read()
    _, status = os.waitpid(pid, 0)
    if status != 0 or len(data) < 12:
        library()  # says how to install espeak-ng when it is missing
        raise VoiceError(f"espeak-ng failed to say {text[:40]!r}")
    rate, n_pcm, n_events = struct.unpack_from("<iii", data)
    events = [struct.unpack_from("<iiii", data, 12 + 16 * k) for k in range(n_events)]
    pcm = data[12 + 16 * n_events:12 + 16 * n_events + n_pcm]
    return rate, pcm, [tuple(e) for e in events]  # type: ignore[misc]


def word_spans(text: str, rate: int, total: int,
               events: list[Event]) -> tuple[tuple[float, float], ...] | None:
    """Each word of ``text`` (split on spaces) timed by espeak's word events, matched by their
    character position. espeak says some words as one ("from the"): a word without an event of
    its own shares its predecessor's, split by characters. None when the first word has none."""
    words = text.split(" ")
    starts = [sum(len(w) + 1 for w in words[:k]) for k in range(len(words))]
    first: dict[int, int] = {}
    for kind, pos, length, sample in events:
        if kind == _EVENT_WORD and length > 0:
            first.setdefault(max(i for i, s in enumerate(starts) if s <= pos - 1), sample)
    if 0 not in first:
        return None
    ends = {s for kind, _, _, s in events if kind == _EVENT_SENTENCE_END} | {total}
    heads = sorted(first)
    spans: list[tuple[float, float]] = []
    for n, k in enumerate(heads):
        group = words[k:heads[n + 1] if n + 1 < len(heads) else len(words)]
        begin = first[k]
        stop = min([first[heads[n + 1]] if n + 1 < len(heads) else total] + [e for e in ends if e > begin])
        weights = [len(w) + 1 for w in group]
        at = float(begin)
        for w in weights:
            step = (stop - begin) * w / sum(weights)
            spans.append((at / rate, (at + step) / rate))
            at += step
    return tuple(spans)


def paused(samples: np.ndarray, rate: int, events: list[Event], pause: float) -> tuple[np.ndarray, list[Event]]:
    """``samples`` with each sentence (from each ``espeakEVENT_SENTENCE`` but the first) put after
    enough silence for ``pause`` seconds between sentences (:func:`.sentences.pauses`), and the
    events moved with their sentence: an event belongs to the last sentence started before it in
    espeak's order, so the end of a sentence stays where its sound ends, before the silence."""
    starts = [e[3] for e in events if e[0] == _EVENT_SENTENCE][1:]
    cuts = [0, *starts, len(samples)]
    chunks = [samples[a:b] for a, b in zip(cuts, cuts[1:])]
    gaps = pauses(chunks, rate, pause)
    shift = np.cumsum(gaps).tolist()
    moved, k = list[Event](), 0
    for kind, pos, length, sample in events:
        k += kind == _EVENT_SENTENCE
        moved.append((kind, pos, length, sample + int(shift[max(k - 1, 0)])))
    return joined(chunks, gaps), moved


class DraftVoice(Voice):
    """espeak-ng through :func:`say_fresh`, its sentences :func:`paused` apart."""

    def __init__(self, pronunciation: Pronunciation, cache: SpeechCache | None = None,
                 rate_wpm: int = RATE_WPM, sentence_pause: float = 0.0) -> None:
        super().__init__("draft", pronunciation, cache)
        self.rate_wpm = rate_wpm
        self.sentence_pause = sentence_pause

    def model_digest(self) -> str:
        lib = library()
        lib.espeak_Info.restype = ctypes.c_char_p
        version = (lib.espeak_Info(None) or b"").decode()
        return f"espeak-ng {version} {Path(library_name()).name}"

    def settings(self) -> dict[str, Any]:
        return {"voice": VOICE, "rate_wpm": self.rate_wpm, "sentence_pause": self.sentence_pause}

    def synth(self, text: str) -> Said:
        rate, pcm, events = say_fresh(text, self.rate_wpm)
        samples = np.frombuffer(pcm, dtype="<i2").astype(np.float32) / np.float32(32767)
        samples, events = paused(samples, rate, events, self.sentence_pause)
        return Said(samples, rate, word_spans(text, rate, len(samples), events))


def draft(pronunciation: Pronunciation, cache: SpeechCache | None = None) -> DraftVoice:
    """The ``draft`` voice, at the theme's sentence pause."""
    return DraftVoice(pronunciation, cache, sentence_pause=sentence_pause())
