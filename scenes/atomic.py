"""Writing a file so that readers see the old one or the new one, never half of either; and
reading an input so that it cannot block or fill the memory (regular files only, bounded).

Why one helper: the clip's outputs, the stored beat states and the glyph cache are all written
while another process (or a later Ctrl-C) may read or interrupt. The temporary file sits beside
its target, named with the writer's pid (``.NAME.tmp-pidN``) so that what a killed process
left is recognised and swept by the next render.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


def temp_beside(target: Path) -> Path:
    return target.with_name(f".{target.name}.tmp-pid{os.getpid()}")


def dead_leftover(filename: str) -> bool:
    """Whether a file or folder named with a pid (``.NAME.tmp-pid123``, ``...-pid123-...``) was
    left by a process that is dead: what a killed render leaves, swept by the next one."""
    pid = _pid_in(filename)
    return pid is not None and pid != os.getpid() and not _alive(pid)


def _pid_in(filename: str) -> int | None:
    for part in filename.replace(".tmp", "-").split("-"):
        if part.startswith("pid") and part[3:].isdigit():
            return int(part[3:])
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def write_beside(target: Path, data: bytes | str) -> Path:
    """Write ``data`` to the temporary file beside ``target`` and fsync it; its path. On any
    failure (a full disk) the temporary file goes, and the error names ``target``."""
    tmp = temp_beside(target)
    try:
        with open(tmp, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            exc.filename, exc.filename2 = str(target), None
        raise
    return tmp


def write_atomic(target: Path, data: bytes | str) -> None:
    """Write beside the target, fsync, then rename into place; on any failure (a full disk) the
    temporary file goes and the target stays as it was."""
    tmp = write_beside(target, data)
    try:
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


WRITE_ERRORS = {
    errno.ENOSPC: "no space left on the device (free some, then run it again)",
    errno.EDQUOT: "the disk quota is used up (free some space, then run it again)",
    errno.EFBIG: "the file would be larger than the device or this process may write",
    errno.EROFS: "a read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "not permitted",
    errno.EIO: "an input/output error on the device",
    errno.ENAMETOOLONG: "a file name too long for the file system",
}
"""The errors of a destination that will not take a file, in words: what a command says in one
line instead of a traceback (any other OSError is a fault of gradreel's, and shown as one)."""


def write_error_words(exc: BaseException) -> str | None:
    """Why a write failed, in words, when the destination refused it (:data:`WRITE_ERRORS`); else None."""
    return WRITE_ERRORS.get(exc.errno) if isinstance(exc, OSError) and exc.errno is not None else None


class NotReadable(OSError):
    """An input that is not a regular file of bounded size; ``str()`` says what it is instead."""


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words: ``"a FIFO (named pipe)"``."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def not_regular(path: str | Path) -> str | None:
    """Why ``path`` is not a regular file one could read (``"a FIFO (named pipe)"``, ``"a symlink
    loop"``), or None when it is one or does not exist at all."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symlink loop"
        return None if exc.errno == errno.ENOENT else (exc.strerror or "not readable")
    return None if stat.S_ISREG(mode) else file_kind(mode)


def read_regular(path: str | Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, refusing (NotReadable, saying why) anything else:
    a directory, a FIFO, a device or a socket is named before a byte is read (a FIFO is opened
    without blocking), a symlink loop or a missing file by the error, and a file of more than
    ``limit`` bytes while it is read (``/dev/zero`` behind a symlink never gets far)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotReadable(exc.errno, "a symlink loop") from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotReadable(errno.EINVAL, f"{file_kind(mode)}, not a regular file")
    with os.fdopen(fd, "rb", buffering=0) as f:
        chunks, size = [], 0
        while size <= limit:
            chunk = f.read(min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    if size > limit:
        raise NotReadable(errno.EFBIG, f"larger than {limit} bytes")
    return b"".join(chunks)
