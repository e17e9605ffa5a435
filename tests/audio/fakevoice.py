"""A small fake voice for the sound tests: each written token a hum of its own pitch, 22.05 kHz.

Why fake: the tests check the sound's plumbing (where phrases fall, loudness, joins, caching),
not a voice; this one is instant, deterministic and needs no model. It counts what it says.
"""

from __future__ import annotations

import numpy as np

from scenes.voice.speech import Speech, Timing, Word

RATE = 22_050
WORD_SECONDS = 0.05
"""A token lasts this much per character (a long word takes longer to say)."""
GAP = 0.06


class FakeVoice:
    """Says a phrase as one hum per token; ``said`` lists every phrase it synthesised."""

    def __init__(self) -> None:
        self.said: list[str] = []

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
        self.said.append(text)
        timing = self.timing(text)
        out = np.zeros(round(timing.duration * RATE) + 1, dtype=np.float32)
        for k, w in enumerate(timing.words):
            a, b = round(w.start * RATE), round(w.end * RATE)
            t = np.arange(b - a) / RATE
            pitch = 110.0 + 15 * (k % 7)
            hum = sum(np.sin(2 * np.pi * pitch * h * t) / h for h in (1, 2, 3))
            out[a:b] = 0.3 * hum * np.hanning(b - a)
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

    fake = FakeVoice()
    install(fake)
    status = main(sys.argv[1:])
    print(f"fake voice: {len(fake.said)} phrases synthesised", file=sys.stderr)
    sys.exit(status)
