"""Numbers a caption names that the picture does not show: a check over ``render inspect`` samples.

Why: a caption saying "its loss is 0.1619" over a picture where no 0.1619 can be read sends the
viewer looking for a number that is not there, so a number shows on screen no later than the
caption names it. The plan already starts a caption no earlier than the cue that brings its
number (:mod:`scenes.storyboard.caption_events`), but only a look at what is really on screen
tells whether that cue drew the number. Pure, like :mod:`scenes.draw.collisions`: it reads
the plan's caption spans and the samples' items (docs/inspect.md), nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from scenes.storyboard.caption_events import STYLES

WORDS = STYLES
"""The roles of the caption events' own lines (caption, title, takeaway): a caption naming a
number does not show it to a viewer looking for it in the picture."""

MIN_SHOWN = 0.5
"""An item at least this opaque is readable; a dimmed (0.2) or fading one does not show a number."""

_NUMBER = re.compile(r"-?\d+(?:[.,/]\d+)*\.?")
"""A number inside a filled text: ``0.1619``, ``-4/9``, ``12.`` (of ``tensor(12.)``), ``36``."""

Item = Mapping[str, Any]


@dataclass(frozen=True)
class Unshown:
    """``number`` (read from the placeholder that filled ``caption``) is on no item at ``times``."""

    caption: str
    number: str
    start: float
    end: float
    times: tuple[float, ...]

    def describe(self) -> str:
        seen = ", ".join(f"{t:.2f}" for t in self.times) or "no sample"
        return f"{self.start:.2f}-{self.end:.2f} s: caption names {self.number!r} but no item shows it " \
               f"(looked at {seen}): {self.caption!r}"


def numbers_of(strings: Iterable[Any]) -> list[str]:
    """The number texts of a caption's filled strings (``Shown``), in order: a filled grad_fn
    name (``MulBackward0``) shows none; ``tensor(0.4444)`` shows ``0.4444``."""
    out: list[str] = []
    for s in strings:
        if s.field == "grad_fn":
            continue
        out += [m.group(0) for m in _NUMBER.finditer(s.text) if any(ch.isdigit() for ch in m.group(0))]
    return out


def shows(text: str, number: str) -> bool:
    """True when ``text`` holds ``number`` as a whole number: ``w1_0_0  -0.0754`` shows
    ``-0.0754``, ``0.16195`` does not show ``0.1619``, ``14/9`` does not show ``4/9``."""
    body = number.lstrip("-")
    for m in re.finditer(re.escape(body), text):
        before, after = text[:m.start()], text[m.end():]
        if _digit_at(before[::-1]) or _digit_at(after):  # part of a longer number
            continue
        if before.endswith(("-", "\u2212")) == number.startswith("-"):
            return True
    return False


def _digit_at(rest: str) -> bool:
    """True when ``rest`` goes on with a digit, or a separator and a digit (``.5``, ``/9``)."""
    return rest[:1].isdigit() or (rest[:1] in (".", ",", "/") and rest[1:2].isdigit())


def unshown(captions: Iterable[Any], samples: Iterable[Mapping[str, Any]]) -> list[Unshown]:
    """Every number a caption span names (from its placeholders, ``span.strings``) that no item
    shows, at ``MIN_SHOWN`` opacity or more, in any sample taken from the span's start to its
    end (both included), the caption events' own lines (``WORDS``) left out. Which times are
    sampled is the caller's choice."""
    samples = list(samples)
    out: list[Unshown] = []
    for span in captions:
        wanted = numbers_of(span.strings)
        if not wanted:
            continue
        within = [s for s in samples if span.start - 1e-6 <= s["time"] <= span.end + 1e-6]
        texts = [i["text"] for s in within for i in s["items"]
                 if i.get("text") and i["role"] not in WORDS and i["opacity"] >= MIN_SHOWN]
        for number in wanted:
            if not any(shows(t, number) for t in texts):
                out.append(Unshown(span.text, number, span.start, span.end, tuple(s["time"] for s in within)))
    return out
