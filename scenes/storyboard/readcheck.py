"""Checks of what captions must say and can say: the takeaway's placeholders, and narrations too
long for any cut into caption events.

Why here and not in the plan: a problem is an author's, reported by ``render check`` at its place
in the YAML file with every other problem. A narration longer than one caption event is not a
problem (the plan cuts it at its phrase breaks, :mod:`.reading`); only one that no cut can fit
is: a word longer than a caption line.
"""

from __future__ import annotations

from .cuemarks import unmarked
from .errors import ErrorList
from .inputcheck import MAX_NARRATION_CHARS
from .logindex import LogIndex
from .model import Storyboard
from .placeholders import Placeholder, Shown, parse
from .narration import resolve
from .reading import ReadingRules, unfit
from .yamlsafe import Document


def filled_problem(what: str, text: str, values: list[tuple[Placeholder, Shown]], rules: ReadingRules) -> str | None:
    """Why ``text`` (a narration, or the takeaway) cannot be read once its placeholders are
    filled with ``values``, or None: longer than a narration may be (a caption of 1,200
    characters was drawn 3 px tall), or holding a filled word longer than a caption line. The
    text as typed is checked on its own before (:mod:`.inputcheck`, :func:`check_captions`)."""
    if not values:
        return None
    out, pos = [], 0
    for p, got in values:
        out += [text[pos:p.start], got.text]
        pos = p.end
    filled = "".join(out) + text[pos:]
    if len(filled) > MAX_NARRATION_CHARS:
        return (f"{what} is {len(filled)} characters once its placeholders are filled; at most "
                f"{MAX_NARRATION_CHARS} can be read on screen: fill fewer placeholders, or say less around them")
    long = [w for w in filled.split() if len(w) > rules.line_chars]
    if long and unfit(text, rules) is None:
        return (f"{what} cannot be cut into captions once its placeholders are filled: '{long[0][:60]}' is "
                f"{len(long[0])} characters with no space, longer than a caption line ({rules.line_chars}); "
                "show its numbers in another style (numbers: decimal) or leave that placeholder out")
    return None


def check_captions(doc: Document, board: Storyboard, index: LogIndex, errors: ErrorList,
                   rules: ReadingRules) -> None:
    """Report each narration (and the takeaway) that cannot be cut into caption events that fit
    ``rules``, and each takeaway placeholder without a value at the end of the log."""
    for i, beat in enumerate(board.beats):
        why = unfit(unmarked(beat.narration), rules)
        if why is not None:
            path = ("beats", i, "narration")
            errors.add(*doc.at(path), f"narration cannot be cut into captions: {why}", path)
    if board.takeaway is None:
        return
    path = ("takeaway", "text")
    text = unmarked(board.takeaway.text)  # as the captions show it: its cue marks taken out
    placeholders, problems = parse(text)
    for _, message in problems:
        errors.add(*doc.at(path), message, path)
    values = []
    for p in placeholders:
        got = resolve(p, index, len(index.events) - 1, board.number_style)
        if isinstance(got, str):
            errors.add(*doc.at(path), got, path)
        else:
            values.append((p, got))
    if len(values) == len(placeholders):
        why = filled_problem("the takeaway", text, values, rules)
        if why is not None:
            errors.add(*doc.at(path), why, path)
    why = unfit(text, rules)
    if why is not None:
        errors.add(*doc.at(path), f"takeaway cannot be cut into captions: {why}", path)
