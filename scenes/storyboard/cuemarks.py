"""Cue marks: an author's ``[[NAME]]`` in a narration, binding the words after it to the picture.

Why: the plan binds most phrases to the cues they talk about by itself (a number it names, a
tensor, an op: :mod:`.phrases`); where it cannot guess, the author says which part of the
picture a phrase is about. ``[[w2]] w2 gets {w2.grad_in}`` starts the first cue of the beat
that shows or lights w2 as that phrase starts (with a voice: as the word after the mark is
said). ``NAME`` is a program name (``w1``, ``ws[2]``), a storyboard ``names:`` entry, or an op
as its grad_fn is called (``Mul``, ``Pow``, ``MulBackward0``). A mark naming a tensor no cue
still to come in the beat shows lights its card while the words are read (a takeaway's marks
always do), ``[[from L]]`` traces the backward walk's path from ``L`` and ``[[layer h1_0]]``
lights the network layer unit ``h1_0`` stands in (:mod:`.lights`).
Double brackets cannot clash with ``{placeholders}``, backticked code or a list item's ``[2]``;
the marks never reach a caption, an .srt or an article (:func:`unmarked`).

>>> unmarked("Mul: [[w2]] w2 gets {w2.grad_in}.")
'Mul: w2 gets {w2.grad_in}.'
>>> [(m.at, m.name) for m in marks("Mul: [[w2]] w2 gets {w2.grad_in}.")[1]]
[(5, 'w2')]
>>> [m.name for m in marks("[[from L]] Links lead back to the buckets.")[1]]
['from L']
>>> [m.name for m in marks("[[layer x0]] The input layer is where data enters.")[1]]
['layer x0']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MARK = re.compile(r"\[\[([^\[\]]*(?:\[\d+\][^\[\]]*)*)\]\]\s?")
_NAME = re.compile(r"^(?:from |layer )?[A-Za-z_]\w*(?:\[\d+\])*$")
MARK_SYNTAX = ("[[NAME]] (a program name such as [[w1]], or an op such as [[Mul]]), [[from NAME]] "
               "(the path back from NAME) or [[layer NAME]] (the network layer of unit NAME)")
PATH = "from "
"""``[[from L]]``: the words after it trace the path the backward walk from ``L`` takes: its
nodes light one level after another, down to the weights' buckets (:mod:`.phrases`)."""
LAYER = "layer "
"""``[[layer h1_0]]``: the words after it are about the MLP view's layer that unit ``h1_0`` is
in: its units light together (:mod:`.lights`). Like a path, it binds no cue."""


@dataclass(frozen=True)
class Mark:
    """``[[name]]`` at ``raw`` in the narration as typed; ``at`` is where the words it binds
    begin once the marks are taken out."""

    at: int
    name: str
    raw: int


def marks(text: str) -> tuple[str, list[Mark], list[tuple[int, str]]]:
    """``text`` without its marks, the marks, and ``(offset, message)`` problems (offsets in
    ``text``): a mark that is not ``[[NAME]]``, a ``[[`` or ``]]`` left open."""
    out, found, problems, pos = [], [], [], 0
    for m in _MARK.finditer(text):
        out.append(text[pos:m.start()])
        name = m.group(1).strip()
        if _NAME.match(name):
            found.append(Mark(sum(map(len, out)), name, m.start()))
        else:
            problems.append((m.start(), f"cue mark [[{m.group(1)}]] must be {MARK_SYNTAX}"))
        pos = m.end()
    out.append(text[pos:])
    clean = "".join(out)
    for stray in re.finditer(r"\[\[|\]\]", clean):
        problems.append((stray.start(), f"unmatched '{stray.group(0)}' in narration; a cue mark is {MARK_SYNTAX}"))
    return clean, found, problems


def unmarked(text: str) -> str:
    """``text`` as captions, the .srt and articles have it: its cue marks taken out."""
    return _MARK.sub("", text) if "[[" in text else text


def op_word(word: str) -> str | None:
    """The op a capitalised word names, as grad_fns are compared (``Mul``, ``MulBackward0`` and
    ``mul`` for MulBackward0; ``ReLU`` and ``relu``); None for a word that is not capitalised
    (``add`` in a sentence is a verb)."""
    if not word[:1].isupper():
        return None
    return re.sub(r"Backward\d*$", "", word).lower()
