"""Where storyboards live, and turning a command-line word into a file.

``render plan backward_walk`` means scenes/storyboards/backward_walk.yaml; a word that is a path
(``tests/x.yaml``) is used as given.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

STORYBOARD_DIR = Path(__file__).resolve().parent.parent / "storyboards"


COURSE_FILE = "course.yaml"
"""The course file, beside the storyboards' folder: the clips' order, the site's introduction, a voice."""

def storyboard_path(word: str) -> str:
    """The file for a NAME or a FILE (a word with a slash or a .yaml/.yml ending is a file)."""
    if os.sep in word or "/" in word or word.endswith((".yaml", ".yml")):
        return word
    return str(STORYBOARD_DIR / f"{word}.yaml")


def find_storyboards(folder: Path = STORYBOARD_DIR) -> list[str]:
    """Every storyboard file of ``folder`` (by default the project's), sorted by name."""
    return sorted(str(p) for p in folder.glob("*.yaml"))


_ASPECT_ENDING = re.compile(r"\.[0-9]+x[0-9]+$", re.IGNORECASE)
THUMB_ENDING = ".thumb"
"""How the course page's thumbnail of clip NAME is named (``NAME.thumb.png``): no clip's own name
ends so, or its poster would be another's thumbnail."""
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
"""What a storyboard's name is made of: ASCII letters and digits, ``_``, ``-`` and ``.``. Why: the
name is the name of the clip's files and of the pages' links to them, where ``:`` makes a scheme
(``javascript:...``), ``#`` and ``?`` end the path, ``%`` starts an escape, a space or a quote
ends a word in a shell; a name of these characters is the same word everywhere."""


def name_problem(name: str) -> str | None:
    """Why a storyboard may not be called ``name`` (its file name without ``.yaml``), or None.

    A clip's outputs are named after it (``NAME.mp4``, ``NAME.9x16.mp4`` at 9:16, ``NAME/`` for
    its article), beside gradreel's own files (``.site.key``, ``.segments/``), so two names may
    not give one file: a name does not end as an aspect's outputs do (``.9x16``, ``.1x1``) or as
    a thumbnail of the course page does (``.thumb``), and does not start with a dot. It is made of :data:`NAME_CHARS` only, and does not start with
    ``-`` (an option to ``render``, and to ``rm``).

    >>> name_problem("intro.9x16")[:60]
    "the storyboard's name 'intro.9x16' ends in '.9x16', as the o"
    >>> name_problem("1.2-intro") is None
    True
    >>> name_problem("intro.thumb")[:52]
    "the storyboard's name 'intro.thumb' ends in '.thumb'"
    >>> print(name_problem("what's #1?")[:63])
    the storyboard's name "what's #1?" holds "'", ' ', '#' and '?';
    """
    if name.startswith("."):
        return (f"the storyboard's name {name!r} starts with a dot, as gradreel's own files in the output "
                f"folder do (.site.key, .segments); rename the file (e.g. {name.lstrip('.') or 'clip'}.yaml)")
    others = list(dict.fromkeys(c for c in name if c not in NAME_CHARS))
    if others or name.startswith("-") or not name:
        plain = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("-._") or "clip"
        shown = [repr(c) for c in others]
        what = f"holds {', '.join(shown[:-1])} and {shown[-1]}" if len(shown) > 1 else (
            f"holds {shown[0]}" if shown else "starts with '-'")
        return (f"the storyboard's name {name!r} {what}; a name is made of ASCII letters, digits, '_', '-' and "
                f"'.' and does not start with '-' or '.', as it names the clip's files and the links to them "
                f"in its pages; rename the file (e.g. {plain}.yaml)")
    ending = _ASPECT_ENDING.search(name)
    if ending:
        base = name[:ending.start()]
        aspect = ending.group()[1:].lower().replace("x", ":")
        return (f"the storyboard's name {name!r} ends in {ending.group()!r}, as the outputs of a clip at "
                f"another aspect do ({base!r} at --aspect {aspect} writes {base}{ending.group()}.mp4); "
                f"rename the file (e.g. {base}_{ending.group()[1:]}.yaml)")
    if name.lower().endswith(THUMB_ENDING):
        base = name[:-len(THUMB_ENDING)]
        return (f"the storyboard's name {name!r} ends in {THUMB_ENDING!r}, as the thumbnail the course page "
                f"shows of another clip does ({base!r} has {base}{THUMB_ENDING}.png beside its poster); "
                f"rename the file (e.g. {base}_thumb.yaml)")
    return None
