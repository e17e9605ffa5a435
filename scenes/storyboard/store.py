"""Where storyboards live, and turning a command-line word into a file.

``render plan backward_walk`` means scenes/storyboards/backward_walk.yaml; a word that is a path
(``tests/x.yaml``) is used as given.
"""

from __future__ import annotations

import os
from pathlib import Path

STORYBOARD_DIR = Path(__file__).resolve().parent.parent / "storyboards"


def storyboard_path(word: str) -> str:
    """The file for a NAME or a FILE (a word with a slash or a .yaml/.yml ending is a file)."""
    if os.sep in word or "/" in word or word.endswith((".yaml", ".yml")):
        return word
    return str(STORYBOARD_DIR / f"{word}.yaml")


def find_storyboards(folder: Path = STORYBOARD_DIR) -> list[str]:
    """Every storyboard file of ``folder`` (by default the project's), sorted by name."""
    return sorted(str(p) for p in folder.glob("*.yaml"))
