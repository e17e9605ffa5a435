"""When an article or the site must be written again: a key over what it shows.

An article shows its clip (whose key covers the storyboard, the ``--set`` values, the theme, the
options and the code that draws), so its key is the clip's key with the code and templates that
write pages; the site's is the course file and the keys of the clips and articles it lists. A
page whose key file holds its key is up to date, and costs a read of a few small files.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOLS = ("jinja2", "markdown-it-py", "pygments")
"""Distributions whose version is part of the digest: they write the pages."""


@lru_cache(maxsize=1)
def publish_digest() -> str:
    """sha256 over the tools' versions, this package's code and its templates."""
    from importlib.metadata import PackageNotFoundError, version

    h = hashlib.sha256()
    for dist in TOOLS:
        try:
            h.update(f"{dist} {version(dist)}\n".encode())
        except PackageNotFoundError:
            h.update(f"{dist} -\n".encode())
    for f in sorted(p for p in HERE.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        data = f.read_bytes()
        h.update(str(f.relative_to(HERE)).encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()


def key_of(*parts: str) -> str:
    """The key of a page made from ``parts`` (texts that together say all it shows)."""
    h = hashlib.sha256(publish_digest().encode())
    for part in parts:
        h.update(b"\0" + str(len(part)).encode() + b"\0" + part.encode())
    return h.hexdigest()


def is_fresh(key_file: Path, key: str) -> bool:
    try:
        return key_file.read_text().strip() == key
    except OSError:
        return False
