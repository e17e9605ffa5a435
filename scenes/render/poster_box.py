"""Where the poster's frame draws the graph, noted by the render that drew that frame.

Why: a course page's thumbnail is the poster cropped to the graph (:mod:`scenes.publish.thumbs`),
and where the graph stands at the poster's moment is known only to a scene played up to it.
The process that draws the beat holding the poster frame has that scene in hand: it lists the
frame's items there (as ``render inspect`` would) and keeps their graph's box
(:func:`scenes.render.fill.graph_box`) beside the beat's segment, ``KEY.poster.json`` in the
segment cache, so that a later render that finds the segment cached finds the box too. The
render writes the box into the poster itself, a PNG text chunk (:data:`CHUNK`); the site reads
it there instead of playing the clip again.

Both files are data read back from disk: read with ``json`` and checked to be numbers, never run.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable

from scenes.atomic import write_atomic

Box = tuple[float, float, float, float]

CHUNK = "gradreel-graph-box"
"""The poster PNG's text chunk: ``x0 y0 x1 y1`` in the poster's pixels, or ``none`` where the
frame shows no graph; absent where the render did not know it (a segment drawn on another machine)."""

NONE = "none"


def box_path(segment: Path) -> Path:
    """The note beside the segment ``KEY.mp4``: ``KEY.poster.json``."""
    return segment.with_name(f"{segment.stem}.poster.json")


def save(segment: Path, frame: int, box: Box | None) -> None:
    """Note that frame ``frame`` of ``segment`` (counted from its start) draws the graph in ``box``."""
    write_atomic(box_path(segment), json.dumps({"frame": frame, "box": None if box is None else list(box)}) + "\n")


def _checked(box: Any) -> Box | None:
    """``box`` as four finite numbers, or None; ValueError for anything else."""
    if box is None:
        return None
    if not (isinstance(box, list) and len(box) == 4 and all(type(v) in (int, float) for v in box)
            and all(math.isfinite(v) for v in box)):
        raise ValueError("not four numbers")
    return (float(box[0]), float(box[1]), float(box[2]), float(box[3]))


def load(segment: Path, frame: int) -> tuple[bool, Box | None]:
    """Whether the note beside ``segment`` is for frame ``frame``, and the box it holds (None: no
    graph shows). A missing, other or malformed note is not known: ``(False, None)``."""
    try:
        data = json.loads(box_path(segment).read_text())
        if not isinstance(data, dict) or data.get("frame") != frame or type(data.get("frame")) is not int:
            return False, None
        return True, _checked(data.get("box"))
    except (OSError, ValueError, UnicodeDecodeError):
        return False, None


def chunk_text(box: Box | None) -> str:
    """What :data:`CHUNK` holds for ``box``.

    >>> chunk_text((1.0, 2.5, 30.0, 40.25)), chunk_text(None)
    ('1.0 2.5 30.0 40.25', 'none')
    """
    return NONE if box is None else " ".join(repr(float(v)) for v in box)


def read_chunk(text: str | None) -> tuple[bool, Box | None]:
    """Whether a poster's :data:`CHUNK` (``text``, None where absent) says where the graph is,
    and its box.

    >>> read_chunk("1.0 2.5 30.0 40.25"), read_chunk("none"), read_chunk(None), read_chunk("1 2 x 4")
    ((True, (1.0, 2.5, 30.0, 40.25)), (True, None), (False, None), (False, None))
    """
    if text is None:
        return False, None
    if text == NONE:
        return True, None
    try:
        return True, _checked([float(v) for v in text.split()])
    except ValueError:
        return False, None


class FrameWatch:
    """A frame sink that hands every frame on to ``sink`` and calls ``seen()`` as frame ``at``
    (counted from the first frame it is given) goes by, with the scene as that frame draws it."""

    def __init__(self, sink: Any, at: int, seen: Callable[[], None]) -> None:
        self.sink, self.at, self.seen, self.count = sink, at, seen, 0

    def put(self, rgba: Any, repeat: int = 1, at: Any = None) -> None:
        if self.count <= self.at < self.count + repeat:
            self.seen()
        self.count += repeat
        self.sink.put(rgba, repeat, at)
