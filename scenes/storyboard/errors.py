"""Located errors for storyboards: every problem names its file, line, column and field path.

Why a collector instead of raising at the first problem: an author fixing a storyboard wants to
see every mistake of the file at once, so validation appends to an :class:`ErrorList` and raises
:class:`StoryboardError` only at the end.

>>> e = Problem("clip.yaml", 12, 5, "unknown visual 'wavefornt'", "beats[2].visual")
>>> str(e)
"clip.yaml:12:5: unknown visual 'wavefornt' (at beats[2].visual)"
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable

Path = tuple[str | int, ...]

INVISIBLE = frozenset({"\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))})
"""Direction overrides and isolates: they reorder what is shown without being seen (right-to-left
text needs none; Pango orders it)."""


def plain(text: str) -> str:
    """``text`` with each control character and direction override escaped as Python writes it
    (``\\x1b``, ``\\u202e``). Why: a message quotes what the author wrote, and an ESC sequence
    quoted raw is run by the terminal (clear the screen, recolour), a newline breaks the one line.
    The one escaping of gradreel: what a program prints is shown so too, in ``render log
    --pretty``, on the clip's console and in the article."""
    if all(c.isprintable() or c == " " for c in text):
        return text
    return "".join(c if unicodedata.category(c) != "Cc" and c not in INVISIBLE else repr(c)[1:-1] for c in text)


def path_text(path: Path) -> str:
    """``("beats", 2, "visual")`` -> ``beats[2].visual`` (the form used in every message)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


@dataclass(frozen=True, order=True)
class Problem:
    """One located problem. ``line`` and ``col`` are 1-based; ``path`` may be empty."""

    file: str
    line: int
    col: int
    message: str
    path: str = ""

    def __str__(self) -> str:
        where = f" (at {self.path})" if self.path else ""
        return plain(f"{self.file}:{self.line}:{self.col}: {self.message}{where}")


MAX_SHOWN = 20
"""Problems shown of one file; the rest are counted on one line. Why: 60,000 aliases were 60,000
lines, and the first few problems of a file are the ones to fix (the rest are often the same)."""


class StoryboardError(Exception):
    """All the problems of one or more files; ``str()`` prints one per line, in file order, at
    most :data:`MAX_SHOWN` a file (``problems`` holds them all). ``log``: the engine's log when
    the program ran as written (no ``--set`` refused), so ``render log FILE.yaml`` can print it
    although a beat or a narration is wrong; None when the program did not run."""

    def __init__(self, problems: Iterable[Problem], log: Any = None):
        self.problems = tuple(sorted(set(problems), key=lambda p: (p.file, p.line, p.col, p.message)))
        self.log = log
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        """The lines to print: each file's first problems, then how many more it has."""
        out: list[str] = []
        for file in dict.fromkeys(p.file for p in self.problems):  # in order: problems are sorted by file
            mine = [p for p in self.problems if p.file == file]
            out += [str(p) for p in mine[:MAX_SHOWN]]
            if len(mine) > MAX_SHOWN:
                out.append(plain(f"{file}: {len(mine) - MAX_SHOWN} more problems, not shown; fix those above first"))
        return out


@dataclass
class ErrorList:
    """Collects problems for one file; positions come from the loader's marks."""

    file: str
    problems: list[Problem] = field(default_factory=list)

    def add(self, line: int, col: int, message: str, path: Path = ()) -> None:
        self.problems.append(Problem(self.file, line, col, message, path_text(path)))

    def raise_if_any(self, log: Any = None) -> None:
        """Raise every problem collected, with the program's ``log`` when it ran as written."""
        if self.problems:
            raise StoryboardError(self.problems, log)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A ``; did you mean 'x'?`` suffix, or ``""`` when nothing is close.

    >>> did_you_mean("narations", ["narration", "pace"])
    "; did you mean 'narration'?"
    """
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def one_of(choices: Iterable[str]) -> str:
    """``a, b or c`` for messages that list what is allowed."""
    items = list(choices)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]
