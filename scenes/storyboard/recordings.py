"""What the recorded voice needs of a storyboard: which recordings, saying what, and that each is there.

Why here and not in :mod:`scenes.voice.recorded`: the voice is a layer below the storyboard and
knows nothing of plans and located problems; the storyboard knows what each part of its clip
says once its numbers are filled (its plan) and where in the file each part is written, so a
missing or unreadable recording is refused here, at its line, as any other problem of the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from scenes.voice.recorded import FORMATS, TAKEAWAY, TITLE, Part, RecordedVoice, Unreadable, beat_name, find, folder, read

from .errors import Problem, StoryboardError, path_text
from .loaded import plan_of
from .plan import Plan
from .validate import Checked


def bind(voice: RecordedVoice, checked: Checked) -> RecordedVoice:
    """``voice`` told what ``checked`` says, part by part (read off its plan made without a
    voice), once every recording is checked (a StoryboardError naming each one missing or
    unreadable, before any is aligned). Returns the voice."""
    parts = parts_of(plan_of(checked))
    return voice.use(parts, check(checked, parts))


def parts_of(plan: Plan) -> tuple[Part, ...]:
    """The recordings a clip's ``plan`` needs, in the order they are said: the title's when it
    is said over the first beat, each beat's, the takeaway's. Each text is its caption events
    joined (they tile the filled narration), so a plan made without a voice tells what to say."""
    parts: dict[str, tuple[str, tuple[str | int, ...], list[str]]] = {}
    for c in plan.captions:
        key: tuple[str, str, tuple[str | int, ...]]
        if c.style == "title":
            key = (TITLE, "the title", ("title",))
        elif c.style == "takeaway":
            key = (TAKEAWAY, "the takeaway", ("takeaway", "text"))
        else:
            key = (beat_name(c.beat + 1), f"beat {c.beat + 1}", ("beats", c.beat, "narration"))
        parts.setdefault(key[0], (key[1], key[2], []))[2].append(c.text)
    return tuple(Part(name, what, where, " ".join(texts)) for name, (what, where, texts) in parts.items())


def check(checked: Checked, parts: Iterable[Part]) -> dict[str, Path]:
    """The recording of each of ``parts`` by name, each read once to be sure it can be; else a
    StoryboardError with one problem for each one missing or unreadable, at its key in
    ``checked``'s storyboard."""
    found: dict[str, Path] = {}
    problems = []
    where = folder(checked.file)
    formats = ", ".join(f".{e}" for e in FORMATS[1:])
    for part in parts:
        file = find(checked.file, part.name)
        if file is None:
            why = (f"{part.what} has no recording: expected {where / part.name}.{FORMATS[0]} (or {formats}) "
                   f"saying {part.text!r}; record it there, or choose another voice")
        else:
            try:
                read(file)
                found[part.name] = file
                continue
            except Unreadable as exc:
                why = (f"{part.what}'s recording {file} cannot be used: {exc}; record it again as "
                       f"{', '.join(e.upper() for e in FORMATS[:-1])} or {FORMATS[-1].upper()}")
        line, col = checked.doc.at(part.where)
        problems.append(Problem(checked.file, line, col, why, path_text(part.where)))
    if problems:
        raise StoryboardError(problems)
    return found
