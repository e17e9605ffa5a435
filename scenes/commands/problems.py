"""Reporting a storyboard's problems: each ``FILE:LINE:COL: message`` on its own line of stderr,
and exit status 2. The one place a command that goes on after a failure (``render all``,
``render check A B``) reports a file's problems; a command that stops lets ``main`` do it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from scenes.storyboard.errors import StoryboardError


def report(exc: StoryboardError) -> int:
    """Print every problem of ``exc`` on stderr, in file order; the exit status 2."""
    for line in exc.lines():
        print(line, file=sys.stderr)
    return 2


def no_storyboard(file: str) -> bool:
    """Whether ``file`` is no storyboard to render: said on stderr (what it is instead, a FIFO
    or a directory, or that there is none, with the nearest name), as each rendering command says it."""
    from scenes.atomic import not_regular
    from scenes.storyboard import find_storyboards
    from scenes.storyboard.errors import Problem, did_you_mean

    what = not_regular(file)
    if what is not None:
        print(Problem(os.path.relpath(file), 1, 1, f"the storyboard is {what}, not a YAML file"), file=sys.stderr)
        return True
    if not Path(file).is_file():
        name = Path(file).stem
        known = [Path(f).stem for f in find_storyboards()]
        print(Problem(os.path.relpath(file), 1, 1, f"no such storyboard {name!r}{did_you_mean(name, known)}"),
              file=sys.stderr)
        return True
    return False


def write_failed(exc: OSError, where: str | os.PathLike[str]) -> int | None:
    """A write the destination refused (a full disk, a read-only file system: see
    :data:`scenes.atomic.WRITE_ERRORS`) said in one line on stderr, naming the file (else
    ``where``); the exit status 2. None for any other error, which the caller raises again."""
    from scenes.atomic import write_error_words

    words = write_error_words(exc)
    if words is None:
        return None
    print(f"render: cannot write {exc.filename or where}: {words}; the files already in place were left "
          "as they were", file=sys.stderr)
    return 2
