"""The list of the files gradreel wrote in a folder, with their digests: how a later run knows a
file as its own before it replaces or removes it.

Why a list and not the files' first bytes: an article's Markdown and style sheet and the site's
style sheet have no shape that an author's file could not have, and a file an author changed
after gradreel wrote it is the author's. Each folder gradreel writes outputs into holds one list,
``.gradreel-files`` (JSON: each file's name with the sha256, size and modification time of what
gradreel wrote there). The size and time know an untouched file without reading it (``render
all`` checks every clip's outputs), the digest a file copied along with its folder.

Writers record in two steps (:func:`expect`, then :func:`settle`), so that a run killed between
renaming its files into place and recording them leaves a list that knows the old files and the
new. Several processes write into one folder at once (``render all -j N``): each change is made
under an exclusive lock of the folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator

from scenes.atomic import read_regular, write_atomic

MANIFEST = ".gradreel-files"
FORMAT = "gradreel-files"
MAX_BYTES = 16 << 20
"""A list larger than this is not one gradreel wrote (a folder of a hundred clips lists about 60 KB)."""
_SHA256 = re.compile(r"[0-9a-f]{64}")


class ManifestError(ValueError):
    """A ``.gradreel-files`` that is not gradreel's list; ``str()`` names it and says why."""


@dataclass(frozen=True)
class Version:
    """One file as gradreel wrote it."""

    sha256: str
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, path: Path) -> "Version":
        st = os.stat(path)
        return cls(file_sha256(path), st.st_size, st.st_mtime_ns)


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


Listing = dict[str, tuple[Version, ...]]


def read(folder: Path) -> Listing:
    """What ``folder``'s list records, by file name (empty when there is no list)."""
    path = folder / MANIFEST
    try:
        data = read_regular(path, MAX_BYTES)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read gradreel's list of the files it wrote there "
                            f"({exc.strerror or exc})") from None
    try:
        doc = json.loads(data)
        if doc.get("format") != FORMAT or not isinstance(doc.get("files"), dict):
            raise ValueError("no list of files")
        return {name: tuple(_version(v) for v in versions) for name, versions in doc["files"].items()
                if _plain(name) and isinstance(versions, list)}
    except (ValueError, TypeError, AttributeError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{path}: not gradreel's list of the files it wrote there ({exc}); "
                            f"delete it, and move away what gradreel did not write in {folder}") from None


def _plain(name: object) -> bool:
    return isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\0" not in name


def _version(v: object) -> Version:
    if not isinstance(v, dict) or set(v) != {"sha256", "size", "mtime_ns"}:
        raise ValueError("a file's entry is not its sha256, size and mtime_ns")
    if not (isinstance(v["sha256"], str) and _SHA256.fullmatch(v["sha256"])
            and type(v["size"]) is int and type(v["mtime_ns"]) is int):
        raise ValueError("a file's entry is malformed")
    return Version(v["sha256"], v["size"], v["mtime_ns"])


def holds(versions: tuple[Version, ...], path: Path) -> bool:
    """Whether the file at ``path`` is one of ``versions``: the same size and modification time,
    or else the same size and sha256 (read only then)."""
    st = os.stat(path)
    if any(v.size == st.st_size and v.mtime_ns == st.st_mtime_ns for v in versions):
        return True
    same_size = {v.sha256 for v in versions if v.size == st.st_size}
    return bool(same_size) and file_sha256(path) in same_size


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """The folder locked against other writers of its list (``flock`` on the folder itself)."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): one writer at a time is the user's care
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _write(folder: Path, listing: Listing) -> None:
    lines = [f" {json.dumps(name)}: {json.dumps([asdict(v) for v in versions])}"
             for name, versions in sorted(listing.items()) if versions]
    write_atomic(folder / MANIFEST, f'{{"format": "{FORMAT}", "files": {{\n' + ",\n".join(lines) + "\n}}\n")


def expect(folder: Path, new: dict[str, Version]) -> None:
    """Record ``new`` beside what the list knows of each file: before renaming them into place."""
    with _locked(folder):
        listing = read(folder)
        for name, version in new.items():
            listing[name] = (*(v for v in listing.get(name, ()) if v != version), version)
        _write(folder, listing)


def settle(folder: Path, now: dict[str, Version | None]) -> None:
    """Record that each file of ``now`` is that version alone (None: the file was removed)."""
    with _locked(folder):
        listing = read(folder)
        for name, version in now.items():
            listing[name] = () if version is None else (version,)
        _write(folder, listing)
