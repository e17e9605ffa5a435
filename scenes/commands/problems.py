"""Reporting a storyboard's problems: each ``FILE:LINE:COL: message`` on its own line of stderr,
and exit status 2. The one place a command that goes on after a failure (``render all``,
``render check A B``) reports a file's problems; a command that stops lets ``main`` do it."""

from __future__ import annotations

import sys

from scenes.storyboard.errors import StoryboardError


def report(exc: StoryboardError) -> int:
    """Print every problem of ``exc`` on stderr, in file order; the exit status 2."""
    for problem in exc.problems:
        print(problem, file=sys.stderr)
    return 2
