"""Checks of what captions must say and can say: the takeaway's placeholders, and narrations too
long for any cut into caption events.

Why here and not in the plan: a problem is an author's, reported by ``render check`` at its place
in the YAML file with every other problem. A narration longer than one caption event is not a
problem (the plan cuts it at its phrase breaks, :mod:`.reading`); only one that no cut can fit
is: a word longer than a caption line.
"""

from __future__ import annotations

from .errors import ErrorList
from .logindex import LogIndex
from .model import Storyboard
from .narration import parse, resolve
from .reading import ReadingRules, unfit
from .yamlsafe import Document


def check_captions(doc: Document, board: Storyboard, index: LogIndex, errors: ErrorList,
                   rules: ReadingRules) -> None:
    """Report each narration (and the takeaway) that cannot be cut into caption events that fit
    ``rules``, and each takeaway placeholder without a value at the end of the log."""
    for i, beat in enumerate(board.beats):
        why = unfit(beat.narration, rules)
        if why is not None:
            path = ("beats", i, "narration")
            errors.add(*doc.at(path), f"narration cannot be cut into captions: {why}", path)
    if board.takeaway is None:
        return
    path = ("takeaway", "text")
    placeholders, problems = parse(board.takeaway.text)
    for _, message in problems:
        errors.add(*doc.at(path), message, path)
    for p in placeholders:
        got = resolve(p, index, len(index.events) - 1, board.number_style)
        if isinstance(got, str):
            errors.add(*doc.at(path), got, path)
    why = unfit(board.takeaway.text, rules)
    if why is not None:
        errors.add(*doc.at(path), f"takeaway cannot be cut into captions: {why}", path)
