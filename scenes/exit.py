"""Ending a gradreel process quickly once everything it wrote is in place.

Why its own module: the ``render`` command and every worker process end the same way, and the
workers sit below the command line, so the helper lives below both.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn


def exit_now(status: int) -> NoReturn:
    """End the process once its output is flushed, without tearing the interpreter down: after
    a render that took Manim in, freeing every module and shape is slow and useless, since
    everything the render writes is already complete and renamed into place by then."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):  # `render log p.py | head`; a closed stream
            pass
    os._exit(status)
