"""What tells one version of gradreel's code from another: :func:`code_digest`, over the content
of every source file and the versions of the tools that draw and encode. It is part of every
cache key: a change to the code may change any frame.

It covers :func:`source_files`: the Python of engine/ and scenes/. Storyboards
are data, not code (scenes/storyboards/ holds the author's own): a clip's key covers its
storyboard and each beat's key its slice of the plan, so an edited storyboard redraws only the
beats whose picture it changes.

The standard library only: the up-to-date check asks for it before anything heavy is imported.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The folder holding engine/ and scenes/: the checkout, or site-packages in an install."""
CODE_FOLDERS = ("engine", "scenes")
NOT_DRAWING = ("scenes/publish",)
"""Code under CODE_FOLDERS that never reaches a frame: the pages written from a finished clip
(its own key covers it, :mod:`scenes.publish.freshness`). Editing it renders no clip again."""
TOOLS = ("manim", "av", "manimpango", "pycairo", "numpy")
"""Distributions whose version is part of the digest: they draw and encode every frame."""


def source_files() -> list[Path]:
    """gradreel's code, in a fixed order: every .py file under engine/ and scenes/ but those of
    NOT_DRAWING (and not an editor's lock link, such as Emacs's dangling ``.#cli.py``)."""
    skip = tuple(ROOT / folder for folder in NOT_DRAWING)
    return sorted(p for folder in CODE_FOLDERS for p in (ROOT / folder).rglob("*.py")
                  if "__pycache__" not in p.parts and not p.name.startswith(".#") and p.is_file()
                  and not any(p.is_relative_to(s) for s in skip))


@lru_cache(maxsize=1)
def code_digest() -> str:
    """sha256 over the tool versions and the sources: a change to either renders again. Once per
    process: the code running is the code imported when it started (a `render all` worker renders
    many clips)."""
    h = hashlib.sha256(repr([_version(d) for d in TOOLS]).encode())
    for f in source_files():
        data = f.read_bytes()
        h.update(str(f.relative_to(ROOT)).encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def _version(dist: str) -> str:
    """An installed distribution's version, read from its metadata (no import: no Manim here)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return f"{dist} {version(dist)}"
    except PackageNotFoundError:
        return f"{dist} -"
