"""What every voice does: a written phrase to what is said, to cached speech, to a Timing.

Why one base: the voices differ only in how they turn spoken text into samples and word times
(:meth:`Voice.synth`); what is said (:mod:`.spoken`), the cache (:mod:`.cache`) and the mapping
back to written tokens are the same for all, and so is a voice's :meth:`Voice.key`.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .cache import Said, SpeechCache, on_grid
from .speech import Speech, Timing
from .spoken import Pronunciation, Spoken, spoken

VOICE_VERSION = 3
"""Raised when what a voice makes for the same input changes (a new way to time words): every
cached phrase is then made again."""


@lru_cache(maxsize=16)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_digest(path: Path) -> str:
    """The sha256 of a file (read again only when its size or time changed)."""
    st = path.stat()
    return _file_digest(str(path), st.st_size, st.st_mtime_ns)


class Voice(ABC):
    """A voice: ``name``, :meth:`key`, :meth:`timing` (for the plan) and :meth:`speech` (for the
    sound track). Subclasses give :meth:`settings`, :meth:`model_digest` and :meth:`synth`."""

    name: str

    def __init__(self, name: str, pronunciation: Pronunciation, cache: SpeechCache | None = None) -> None:
        self.name = name
        self.pronunciation = pronunciation
        self.cache = cache if cache is not None else SpeechCache()

    @abstractmethod
    def settings(self) -> dict[str, Any]:
        """What changes the sound besides the model (speed, noise): part of the key."""

    @abstractmethod
    def model_digest(self) -> str:
        """A digest of what the voice speaks with (model file, engine version)."""

    @abstractmethod
    def synth(self, text: str) -> Said:
        """``text`` (spoken words, one space apart) said: samples and each word's span."""

    def warm(self) -> None:
        """Load what synthesis needs now, not at the first phrase the cache lacks (a ``render
        watch`` does it while it waits for an edit). Nothing to load, by default."""

    def key(self) -> str:
        """A digest of the voice: name, model, settings and :data:`VOICE_VERSION`."""
        data = [VOICE_VERSION, self.name, self.model_digest(), self.settings()]
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()

    def spoken(self, text: str) -> Spoken:
        """What is said for the written phrase ``text``."""
        return spoken(text, self.pronunciation)

    def said(self, text: str) -> Said:
        """Spoken ``text`` from the cache, else synthesised (and stored)."""
        key = self.key()
        hit = self.cache.get(key, text)
        if hit is not None:
            return hit
        if not text.split():
            fresh = Said(np.zeros(0, np.float32), 22050, ())
        else:
            made = self.synth(text)
            fresh = Said(on_grid(made.samples), made.rate, made.spans)
        self.cache.put(key, text, fresh)
        return fresh

    def speech(self, text: str) -> Speech:
        """The written phrase ``text`` said: one Word per whitespace token, and the samples."""
        words = self.spoken(text)
        said = self.said(words.text)
        return Speech(words.timing(said.spans, said.duration), said.samples, said.rate)

    def timing(self, text: str) -> Timing:
        """The written phrase's timing (a :data:`~.speech.Speaker`)."""
        return self.speech(text).timing


def pronunciation(say: dict[str, str] | None = None) -> Pronunciation:
    """The theme's pronunciation table with a storyboard's ``say:`` entries."""
    from scenes.theme import load_theme

    p = load_theme().pronounce
    return Pronunciation(dict(p.code), dict(p.symbols), dict(say or {}), rule_voices())


def rule_voices() -> tuple[tuple[str, str], ...]:
    """Each backward rule's notation and spoken form, as declared with its op (``engine.optable``)."""
    from engine.optable import RULES

    return tuple(dict((r.words, r.spoken) for r in RULES.values() if r.spoken).items())
