"""Phrases in time: each caption event with how long it is said (or read) and holds its beat.

Why a module: binding (:mod:`.binding`) and laying out (:mod:`.phrases`) both take phrases;
the default speaker, reading time, is what a silent plan is paced by.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from scenes.voice.speech import Speaker, Timing, Word

from .builder import _t
from .caption_events import CaptionEvent
from .reading import ReadingRules, seconds
from .timings import PlanTimings


def reading_timing(text: str, rules: ReadingRules, fade: float) -> Timing:
    """The default speaker, no voice: ``text`` up for its reading time (:func:`.reading.seconds`),
    its tokens spread over that time by their characters, after the fade in."""
    total = seconds(text, rules, fade)
    tokens = text.split()
    flat = max(1, len(" ".join(tokens)))
    words, at = [], 0
    for tok in tokens:
        start = fade + (total - fade) * at / flat
        at += len(tok) + 1
        words.append(Word(tok, _t(start), _t(fade + (total - fade) * min(at - 1, flat) / flat)))
    return Timing(total, tuple(words))


def reading_speaker(rules: ReadingRules, fade: float) -> Speaker:
    """The :data:`Speaker` the plan uses when it is given none: :func:`reading_timing`."""
    return partial(reading_timing, rules=rules, fade=fade)


@dataclass(frozen=True)
class Phrase:
    """A caption event, its timing, and how long it holds the beat (its timing and any gap)."""

    event: CaptionEvent
    timing: Timing
    length: float


def phrases_of(events: list[CaptionEvent], speak: Speaker | None, tm: PlanTimings) -> list[Phrase]:
    """Each event timed by ``speak`` (plus the theme's ``phrase_gap``), or by reading time."""
    say = speak if speak is not None else reading_speaker(tm.reading, tm.caption_fade)
    gap = tm.phrase_gap if speak is not None else 0.0
    return [Phrase(ev, timing, timing.duration + gap) for ev in events for timing in [say(ev.text)]]

