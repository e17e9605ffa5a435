"""Time to read: a narration cut into caption events a viewer can read while watching.

Why: with the sound off the viewer reads every caption, and must have time left to watch the
picture. Broadcast subtitle guides allow 17 characters a second for adults and 13 for children;
a viewer who also follows a diagram gets less than the adult rate. So each caption event holds
at most ``lines`` lines of at most ``line_chars`` characters, stays up ``chars / chars_per_second``
seconds (and between ``min_seconds`` and ``max_seconds``), and a longer narration is cut into
several events at its phrase breaks: sentence ends first, then ``;`` and ``:``, then commas, and
only then between words. The numbers live in scenes/theme.yaml (``reading``).

>>> rules = ReadingRules()
>>> split("The walk starts with a gradient of 1 at the loss. Pow: the derivative of (yh - y)² is twice (yh - y).", rules)
['The walk starts with a gradient of 1 at the loss.', 'Pow: the derivative of (yh - y)² is twice (yh - y).']
>>> lines("Pow: the derivative of (yh - y)² is twice (yh - y).", rules)
['Pow: the derivative of', '(yh - y)² is twice (yh - y).']
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

# Phrase breaks, strongest first: after a sentence's end, after ; or :, after a comma or a dash.
_BREAKS = (re.compile(r"(?<=[.!?])\s+"), re.compile(r"(?<=[;:])\s+"), re.compile(r"(?<=,)\s+|\s+(?=[-\u2013\u2014]\s)"))


_CODE = re.compile(r"`[^`]*`")
_KEEP = "\u00a4"  # stands for a space inside quoted code while cutting, so code is never cut


def _protect(text: str) -> str:
    """``text`` with the spaces of each backtick-quoted code span joined (the same length)."""
    return _CODE.sub(lambda m: m.group(0).replace(" ", _KEEP), text)


def _restore(text: str) -> str:
    return text.replace(_KEEP, " ")


@dataclass(frozen=True)
class ReadingRules:
    """The reading limits of one caption event (scenes/theme.yaml ``reading``)."""

    chars_per_second: float = 15.0
    line_chars: int = 42
    lines: int = 2
    min_seconds: float = 1.5
    max_seconds: float = 7.0
    min_words: int = 3

    @classmethod
    def from_theme(cls, theme: object) -> "ReadingRules":
        r = theme.reading  # type: ignore[attr-defined]
        return cls(float(r.chars_per_second), int(r.line_chars), int(r.lines), float(r.min_seconds),
                   float(r.max_seconds), int(r.min_words))


def lines(text: str, rules: ReadingRules) -> list[str]:
    """``text`` broken into lines of at most ``line_chars`` characters (a longer word keeps a line
    of its own). Two lines are broken where the eye expects it: after a phrase's punctuation,
    never inside brackets or quoted code, and as even as those allow (a greedy break can leave a
    word alone)."""
    if "`" in text and _protect(text) != text:
        return [_restore(x) for x in lines(_protect(text), rules)]
    greedy = textwrap.wrap(text, rules.line_chars, break_long_words=False, break_on_hyphens=False) or [""]
    if len(greedy) != 2:
        return greedy
    words = text.split()
    best: tuple[float, list[str]] | None = None
    for i in range(1, len(words)):
        a, b = " ".join(words[:i]), " ".join(words[i:])
        if len(a) > rules.line_chars or len(b) > rules.line_chars:
            continue
        cost = abs(len(a) - len(b))
        if a.count("(") > a.count(")"):
            cost += 40  # "(yh" / "- y)": an expression cut in two
        if a[-1] in ".;:,!?":
            cost -= 12
        if best is None or cost < best[0]:
            best = (cost, [a, b])
    return best[1] if best is not None else greedy


def phrases(text: str) -> list[str]:
    """``text`` cut at every phrase break (sentence ends, ``;`` ``:``, commas and dashes), never
    inside quoted code (the minus of `` `(w * x - y) ** 2` `` is no dash).

    >>> phrases("Pass one: the loss `(w * x - y) ** 2` is 4.")
    ['Pass one:', 'the loss `(w * x - y) ** 2` is 4.']
    """
    out = [" ".join(_protect(text).split())]
    for brk in _BREAKS:
        out = [p for part in out for p in brk.split(part) if p]
    return [_restore(p) for p in out]


def fits(text: str, rules: ReadingRules) -> bool:
    """Whether ``text`` is one caption event: few enough lines, each short enough."""
    got = lines(text, rules)
    return len(got) <= rules.lines and all(len(x) <= rules.line_chars for x in got)


def _pieces(text: str, level: int, rules: ReadingRules) -> list[str]:
    """``text`` cut at breaks of ``level`` (and finer ones where a part still does not fit)."""
    if fits(text, rules):
        return [text]
    if level == len(_BREAKS):
        return _by_words(text, rules)
    parts = [p for p in _BREAKS[level].split(text) if p]
    if len(parts) == 1:
        return _pieces(text, level + 1, rules)
    out: list[str] = []
    for part in parts:
        out += _pieces(part, level + 1, rules)
    return out


def _by_words(text: str, rules: ReadingRules) -> list[str]:
    """The last resort: the fewest events that fit, cut between words as evenly as can be."""
    words = text.split()
    for n in range(2, len(words) + 1):
        target = len(text) / n
        out, cur = [], ""
        for w in words:
            joined = f"{cur} {w}" if cur else w
            if cur and (len(joined) > target * 1.15 or not fits(joined, rules)) and len(out) < n - 1:
                out.append(cur)
                cur = w
            else:
                cur = joined
        out.append(cur)
        if all(fits(p, rules) for p in out):
            return out
    return words


def split(text: str, rules: ReadingRules) -> list[str]:
    """The caption events of one narration, in order: phrases joined again while they fit one
    event, so that short clauses are not flashed one by one, and no event a fragment of fewer
    than ``min_words`` words (``c = 9.``, a number alone): one is joined to its neighbour, or
    shares the words of the one before where the two do not fit one event (cut at a phrase
    break where one leaves both whole, else between words). Quoted code is never cut.

    >>> split("The product of a with b and with the other factor is c, the sum of all the parts: c = 9.", ReadingRules())
    ['The product of a with b and with the other factor is c,', 'the sum of all the parts: c = 9.']
    """
    if "`" in text and _protect(text) != text:
        return [_restore(x) for x in split(_protect(text), rules)]
    pieces = _pieces(" ".join(text.split()), 0, rules)
    out: list[str] = []
    for p in pieces:
        if out and fits(f"{out[-1]} {p}", rules):
            out[-1] = f"{out[-1]} {p}"
        else:
            out.append(p)
    return _no_fragments(out, rules)


_NUMBER = re.compile(r"^[-+(\[]*\d[\d.,/]*(?:e[-+]?\d+)?[)\]]*[.,;:!?]*$")
"""A number as a caption writes it: ``9.``, ``-1/3,``, ``5.52e-06;``."""


def words(text: str) -> int:
    """How many words ``text`` has that a reader reads as words (with a letter, and not a
    number such as ``5.52e-06``): ``c = 9.`` has one, ``0.0000.`` and ``5.52e-06;`` none.

    >>> words("x.grad is 5.52e-06;"), words("c = 9."), words("0.0000.")
    (2, 1, 0)
    """
    return sum(1 for w in text.split() if any(ch.isalpha() for ch in w) and not _NUMBER.match(w))


def _no_fragments(events: list[str], rules: ReadingRules) -> list[str]:
    """``events`` with each of fewer than ``min_words`` words joined to the one after or before
    it when the two fit one event, else sharing the words of the one before (:func:`_shared`)."""
    out = list(events)
    i = 0
    while len(out) > 1 and i < len(out):
        if words(out[i]) >= rules.min_words:
            i += 1
            continue
        after = f"{out[i]} {out[i + 1]}" if i + 1 < len(out) else None
        before = f"{out[i - 1]} {out[i]}" if i > 0 else None
        if before is not None and fits(before, rules):
            out[i - 1:i + 1] = [before]
        elif after is not None and fits(after, rules):
            out[i:i + 2] = [after]
        else:
            pair = before if before is not None else after
            assert pair is not None
            shared = _shared(pair, rules)
            if len(shared) != 2 or min(words(x) for x in shared) < rules.min_words:
                i += 1
                continue
            at = i - 1 if before is not None else i
            out[at:at + 2] = shared
            i += 1
    return out


def _shared(text: str, rules: ReadingRules) -> list[str]:
    """``text`` (two events that do not fit one) as two that each have ``min_words`` words: cut
    at the phrase break that leaves the two most even, else between words as evenly as can be."""
    parts = phrases(text)
    best: tuple[int, list[str]] | None = None
    for k in range(1, len(parts)):
        a, b = " ".join(parts[:k]), " ".join(parts[k:])
        if fits(a, rules) and fits(b, rules) and min(words(a), words(b)) >= rules.min_words:
            if best is None or abs(len(a) - len(b)) < best[0]:
                best = (abs(len(a) - len(b)), [a, b])
    return best[1] if best is not None else _by_words(text, rules)


def seconds(text: str, rules: ReadingRules, fade: float = 0.0) -> float:
    """How long an event of ``text`` stays up: its characters at the reading rate (at least the
    shortest time), plus the ``fade`` in, during which it cannot be read yet."""
    return min(max(rules.min_seconds, len(text) / rules.chars_per_second) + fade, rules.max_seconds)


def unfit(text: str, rules: ReadingRules) -> str | None:
    """Why ``text`` cannot be cut into events that fit, or None: only a word longer than a line
    defeats splitting."""
    long = [w for w in text.split() if len(w) > rules.line_chars]
    if long:
        return (f"'{long[0][:60]}' is {len(long[0])} characters with no space, longer than a caption line "
                f"({rules.line_chars}); put spaces in it or say it in words")
    return None
