"""A small fake voice for the sound tests: each written token a hum of its own pitch, 22.05 kHz.

Why fake: the tests check the sound's plumbing (where phrases fall, loudness, joins, caching),
not a voice; this one is instant, deterministic and needs no model. It counts what it says.
"""

from __future__ import annotations

import numpy as np

from scenes.voice.cache import Said, SpeechCache, on_grid
from scenes.voice.speech import Speech, Timing, Word

RATE = 22_050
WORD_SECONDS = 0.05
"""A token lasts this much per character (a long word takes longer to say)."""
GAP = 0.06


class FakeVoice:
    """Says a phrase as one hum per token; ``said`` lists every phrase it synthesised. Given a
    ``cache``, it keeps what it said there, as the real voices do (:mod:`scenes.voice.cache`), and
    says again only what the cache lacks."""

    def __init__(self, cache: SpeechCache | None = None) -> None:
        self.said: list[str] = []
        self.cache = cache

    def key(self) -> str:
        return "fake-1"

    def timing(self, text: str) -> Timing:
        words, t = [], 0.0
        for token in text.split():
            d = 0.08 + WORD_SECONDS * len(token)
            words.append(Word(token, round(t, 4), round(t + d, 4)))
            t += d + GAP
        return Timing(round(max(t - GAP, 0.0), 4), tuple(words))

    def speech(self, text: str) -> Speech:
        timing = self.timing(text)
        hit = self.cache.get(self.key(), text) if self.cache is not None else None
        if hit is not None:
            return Speech(timing, hit.samples, hit.rate)
        self.said.append(text)
        out = np.zeros(round(timing.duration * RATE) + 1, dtype=np.float32)
        for k, w in enumerate(timing.words):
            a, b = round(w.start * RATE), round(w.end * RATE)
            t = np.arange(b - a) / RATE
            pitch = 110.0 + 15 * (k % 7)
            hum = sum(np.sin(2 * np.pi * pitch * h * t) / h for h in (1, 2, 3))
            out[a:b] = 0.3 * hum * np.hanning(b - a)
        out = on_grid(out)  # what the cache gives back: fresh and cached speech are the same bytes
        if self.cache is not None:
            self.cache.put(self.key(), text, Said(out, RATE, None))
        return Speech(timing, out, RATE)


def install(voice: FakeVoice) -> None:
    """Make ``--voice fake`` this voice, in this process only (a worker process that asked for
    a voice would not find it: workers plan from the parent's timings)."""
    from scenes.voice.registry import VOICES

    VOICES["fake"] = Entry(voice)  # type: ignore[assignment]


class Entry:
    """A registry entry (as ``scenes.voice.registry.Entry``) that makes the one fake voice."""

    def __init__(self, voice: FakeVoice) -> None:
        self.voice = voice

    def make(self, pronunciation: object, cache: object) -> FakeVoice:
        return self.voice


if __name__ == "__main__":  # `python -m tests.audio.fakevoice ARGS`: `render ARGS` with the fake voice
    import sys

    from scenes.commands.main import main

    import os

    from scenes.voice.cache import CACHE_ENV

    fake = FakeVoice(SpeechCache() if os.environ.get(CACHE_ENV) else None)  # kept where the caller says
    install(fake)
    status = main(sys.argv[1:])
    print(f"fake voice: {len(fake.said)} phrases synthesised", file=sys.stderr)
    sys.exit(status)
