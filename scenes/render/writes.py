"""The files one command writes into one folder, written together and recorded as gradreel's.

Why together: each file is first written beside its target (``.NAME.tmp-pidN``, as
:mod:`scenes.atomic` does); only when all are ready is each target checked to be a file gradreel
wrote (:func:`scenes.render.guard.check_written`: an author's file, or one changed since, stops
the whole write and nothing is replaced), recorded in the folder's list (:mod:`.manifest`), and
renamed into place in the order given (a key last, so that it is never newer than what it keys).
A failure before the renames (a full disk, a refusal) removes every temporary file and leaves
the folder as it was.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> with FolderWrite(folder) as w:
...     _ = w.text("a.md", "# a\\n", "article")
...     w.commit()
>>> sorted(p.name for p in folder.iterdir()), (folder / "a.md").read_text()
(['.gradreel-files', 'a.md'], '# a\\n')
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from scenes.atomic import temp_beside, write_beside
from scenes.render import manifest
from scenes.render.guard import check_written, read_listing


@dataclass(frozen=True)
class _Pending:
    name: str
    temp: Path
    what: str


class FolderWrite:
    """Files to write into ``folder``: :meth:`text`, :meth:`copy` or :meth:`temp` each, then
    :meth:`commit`; used as a context manager, leaving no temporary file behind on failure."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._pending: list[_Pending] = []
        self._drop: list[str] = []

    def __enter__(self) -> "FolderWrite":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        for p in self._pending:
            p.temp.unlink(missing_ok=True)
            if isinstance(exc, OSError) and exc.filename is not None and str(exc.filename) == str(p.temp):
                exc.filename = str(self.folder / p.name)  # the error names the file, not its temporary one

    def temp(self, name: str, what: str) -> Path:
        """The temporary file that becomes ``folder/name`` (for a writer that writes it itself);
        ``what`` says what it is, in a refusal ("page", "poster")."""
        tmp = temp_beside(self.folder / name)
        self._pending.append(_Pending(name, tmp, what))
        return tmp

    def text(self, name: str, data: str | bytes, what: str) -> Path:
        """``data`` to become ``folder/name``; its temporary file."""
        tmp = write_beside(self.folder / name, data)
        self._pending.append(_Pending(name, tmp, what))
        return tmp

    def copy(self, name: str, src: Path, what: str) -> Path:
        """The file ``src`` to become ``folder/name``: a hard link where the file system allows (a
        clip is megabytes), else a copy; its temporary file."""
        tmp = self.temp(name, what)
        tmp.unlink(missing_ok=True)
        try:
            os.link(src, tmp)
        except OSError:
            try:
                shutil.copyfile(src, tmp)
            except OSError as exc:
                exc.filename, exc.filename2 = str(self.folder / name), None
                raise
        return tmp

    def drop(self, name: str) -> None:
        """Remove ``folder/name`` on commit if it is a file gradreel wrote there, unchanged (a still
        of a beat the storyboard no longer has); any other file of that name is left alone."""
        self._drop.append(name)

    def commit(self) -> None:
        """Check every target, record the new files, rename them into place, remove the dropped."""
        listing = read_listing(self.folder)
        for p in self._pending:
            check_written(self.folder / p.name, p.what, listing)
        new = {p.name: manifest.Version.of(p.temp) for p in self._pending}
        manifest.expect(self.folder, new)
        for p in self._pending:
            os.replace(p.temp, self.folder / p.name)
        gone: dict[str, manifest.Version | None] = {}
        for name in self._drop:
            target, versions = self.folder / name, listing.get(name)
            if name not in new and versions and target.is_file() and not target.is_symlink() \
                    and manifest.holds(versions, target):
                target.unlink()
                gone[name] = None
        self._pending.clear()
        manifest.settle(self.folder, {**new, **gone})
