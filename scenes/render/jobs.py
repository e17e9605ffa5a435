"""How many processes draw one clip's beats: one per core, as many as the memory available holds
(each process's peak is measured in docs/bench.md).
"""

from __future__ import annotations

import os
from pathlib import Path

from scenes.render.options import QUALITY, RenderOptions


PROCESS_BYTES = 250 << 20
BYTES_PER_PIXEL = 400
"""Peak memory of one process drawing beats, about PROCESS_BYTES + BYTES_PER_PIXEL * pixels of a
frame: the pixels count most at high qualities, where converted frames wait for x264 (the
measurements are in docs/bench.md)."""


def beat_jobs(requested: int | None, opts: RenderOptions) -> int:
    """Processes for one clip's beats: as asked, or (None or 0) one per core, as many as the
    memory available can hold."""
    if requested:
        return max(1, requested)
    short = QUALITY[opts.quality][0]
    pixels = opts.size[0] * opts.size[1] if opts.size else short * short * 16 // 9
    return max(1, min(cores(), _available_memory() // (PROCESS_BYTES + BYTES_PER_PIXEL * pixels)))


def _available_memory() -> int:
    """Bytes this process can still use without swapping: the system's MemAvailable, and within
    a container the room left under its cgroup's limit; unlimited where neither is known."""
    room = [1 << 62]
    try:
        with open("/proc/meminfo") as f:
            room += [int(line.split()[1]) * 1024 for line in f if line.startswith("MemAvailable:")]
    except (OSError, ValueError, IndexError):
        pass
    try:  # cgroup v2: "max" when there is no limit
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit != "max":
            room.append(int(limit) - int(Path("/sys/fs/cgroup/memory.current").read_text()))
    except (OSError, ValueError):
        pass
    return min(room)


def cores() -> int:
    """CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
