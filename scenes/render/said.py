"""Numbers said that the picture does not show yet: a check over the voice's word times and
``render inspect`` samples.

Why: with a voice, a listener hears "w1 gets 8/3" and looks for 8/3; it must be readable by the
time the word has been said. The plan binds the cue that brings a number to the word that says
it (:mod:`scenes.storyboard.phrases`), but a cue may reveal its number late in its animation, so
only a look at the picture at the word's end tells. Pure, like :mod:`scenes.draw.shown_numbers`
(whose reading of numbers and items it shares): it reads the plan's caption spans, the voice's
timings by phrase (``render plan NAME --speech``'s data) and the samples' items (docs/inspect.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from scenes.draw.shown_numbers import MIN_SHOWN, WORDS, numbers_of, shows


@dataclass(frozen=True)
class SaidNumber:
    """``number``, filled from a placeholder of ``caption``, said from ``start`` to ``end`` (s of the clip)."""

    number: str
    start: float
    end: float
    caption: str

    def describe(self) -> str:
        return f"{self.start:.2f}-{self.end:.2f} s: {self.number!r} is said but not shown by then: {self.caption!r}"


def said_numbers(captions: Iterable[Any], timings: Mapping[str, Any]) -> list[SaidNumber]:
    """Every number a caption span's placeholders filled, with when its word is said: the first
    word after the previous number's that holds it (``timings``: phrase text -> its Timing,
    word times from the phrase's start). A number no word holds is said with the whole phrase.

    >>> from scenes.storyboard.caption_events import CaptionSpan
    >>> from scenes.storyboard.placeholders import Shown
    >>> from scenes.voice.speech import Timing, Word
    >>> cap = CaptionSpan(1, 10.0, 12.0, "w1 gets 8/3.", 0, (Shown("8/3", 4, "grad", "caption"),))
    >>> said_numbers([cap], {cap.text: Timing(1.0, (Word("w1", 0, .2), Word("gets", .3, .5), Word("8/3.", .6, .9)))})
    [SaidNumber(number='8/3', start=10.6, end=10.9, caption='w1 gets 8/3.')]
    """
    out: list[SaidNumber] = []
    for span in captions:
        timing = timings.get(span.text)
        if timing is None:
            continue
        words, at, t0 = timing.words, 0, span.said  # its words are said from ``said`` (after any lead)
        for number in numbers_of(span.strings):
            k = next((i for i in range(at, len(words)) if shows(words[i].text, number)), None)
            if k is None:
                out.append(SaidNumber(number, t0, round(t0 + timing.duration, 3), span.text))
                continue
            at = k + 1
            out.append(SaidNumber(number, round(t0 + words[k].start, 3), round(t0 + words[k].end, 3),
                                  span.text))
    return out


def unseen(said: Iterable[SaidNumber], samples: Iterable[Mapping[str, Any]]) -> list[SaidNumber]:
    """The numbers no item shows, at ``MIN_SHOWN`` opacity or more, in the sample nearest the end
    of their word (the caption events' own lines left out: a caption naming a number does not
    show it in the picture). A number fading in while it is said counts once it can be read."""
    samples = list(samples)
    out = []
    for s in said:
        if not samples:
            out.append(s)
            continue
        at = min(samples, key=lambda sample: abs(sample["time"] - s.end))
        texts = [i["text"] for i in at["items"] if i.get("text") and i["role"] not in WORDS
                 and i["opacity"] >= MIN_SHOWN]
        if not any(shows(t, s.number) for t in texts):
            out.append(s)
    return out
