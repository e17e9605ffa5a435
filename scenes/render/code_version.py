"""What tells one version of gradreel's code from another, in two strengths.

- :func:`code_digest`: the content of every source file and the versions of the tools that draw
  and encode. It is part of every cache key: a change to the code may change any frame.
- :func:`code_stamp`: only each source file's size and modification time (no reading, about a
  millisecond). A warm server is keyed on it (``scenes.commands.warm_client``): is the code it imported
  still the code on disk?

Both cover the same files, :func:`source_files`: the Python of engine/ and scenes/. Storyboards
are data, not code (scenes/storyboards/ holds the author's own): a clip's key covers its
storyboard and each beat's key its slice of the plan, so an edited storyboard redraws only the
beats whose picture it changes.

The standard library only: a client asks for the stamp before anything heavy is imported.
"""

from __future__ import annotations

import hashlib
import sys
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The checkout this code is from."""
CODE_FOLDERS = ("engine", "scenes")
TOOLS = ("manim", "av", "manimpango", "pycairo", "numpy")
"""Distributions whose version is part of the digest: they draw and encode every frame."""


def source_files() -> list[Path]:
    """gradreel's code, in a fixed order: every .py file under engine/ and scenes/ (not an
    editor's lock link, such as Emacs's dangling ``.#cli.py``)."""
    return sorted(p for folder in CODE_FOLDERS for p in (ROOT / folder).rglob("*.py")
                  if "__pycache__" not in p.parts and not p.name.startswith(".#") and p.is_file())


@lru_cache(maxsize=1)
def code_digest() -> str:
    """sha256 over the tool versions and the sources: a change to either renders again. Once per
    process: the code running is the code imported when it started (a `render all` worker renders
    many clips; a warm server computes it before it forks)."""
    h = hashlib.sha256(repr([_version(d) for d in TOOLS]).encode())
    for f in source_files():
        data = f.read_bytes()
        h.update(str(f.relative_to(ROOT)).encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def code_stamp() -> str:
    """The sources' paths, sizes and modification times, the interpreter, the folder packages are
    installed in (it changes when one is installed or removed) and Manim's config files (read
    when Manim is imported): what a process that imported the code at start-up depends on."""
    digest = hashlib.sha256(f"{sys.executable}\n{sys.version}\n".encode())
    packages = [Path(p) for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    manim_cfg = [Path("manim.cfg").resolve(), Path.home() / ".config" / "manim" / "manim.cfg"]
    for path in source_files() + packages + manim_cfg + [ROOT / "pyproject.toml"]:
        try:
            st = path.stat()
        except OSError:
            continue
        digest.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:24]


def _version(dist: str) -> str:
    """An installed distribution's version, read from its metadata (no import: no Manim here)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return f"{dist} {version(dist)}"
    except PackageNotFoundError:
        return f"{dist} -"
