"""Writing a file so that readers see the old one or the new one, never half of either.

Why one helper: the clip's outputs, the stored beat states and the glyph cache are all written
while another process (or a later Ctrl-C) may read or interrupt. The temporary file sits beside
its target, named with the writer's pid (``.NAME.tmp-pidN``) so that what a killed process
left is recognised and swept by the next render.
"""

from __future__ import annotations

import os
from pathlib import Path


def temp_beside(target: Path) -> Path:
    return target.with_name(f".{target.name}.tmp-pid{os.getpid()}")


def write_atomic(target: Path, data: bytes | str) -> None:
    """Write beside the target, fsync, then rename into place."""
    tmp = temp_beside(target)
    with open(tmp, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)
