"""The picture each beat ends on, decoded from the clip the pipeline made.

Why from the clip: the clip is the pictures, already drawn, beat by beat; a second renderer could
draw something else. One pass of decoding gives every still (a still is the frame on screen just
before the next beat starts, as the poster is a frame decoded from the clip's segments).
"""

from __future__ import annotations

from pathlib import Path

STILL_WIDTH = 960
"""Stills wider than this are scaled down: an article's column is narrower than a 1080p frame."""


def save_stills(video: Path, times: list[float], pngs: list[Path]) -> None:
    """Decode ``video`` once and save the frame on screen at each of ``times`` (ascending) as
    the PNG given for it: the last frame starting at or before that time."""
    import av

    pending = sorted(zip(times, pngs), key=lambda tp: tp[0])
    shown = None
    with av.open(str(video)) as box:
        for frame in box.decode(box.streams.video[0]):
            start = float(frame.time or 0.0)
            while pending and shown is not None and start > pending[0][0] + 1e-9:
                _save(shown, pending.pop(0)[1])
            shown = frame
            if not pending:
                break
    if shown is None:
        raise RuntimeError(f"{video}: no frames")
    for _, png in pending:
        _save(shown, png)


def _save(frame: object, png: Path) -> None:
    from PIL import Image

    image = frame.to_image()  # type: ignore[attr-defined]
    if image.width > STILL_WIDTH:
        image = image.resize((STILL_WIDTH, round(image.height * STILL_WIDTH / image.width)), Image.Resampling.LANCZOS)
    tmp = png.with_name(f".{png.name}.tmp")
    try:
        image.save(str(tmp), format="PNG", optimize=True)
        tmp.replace(png)
    except BaseException as exc:  # a full disk: no half-written still is left, and the error names the still
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename in (None, str(tmp)):
            exc.filename = str(png)
        raise
