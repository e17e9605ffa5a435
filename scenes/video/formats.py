"""The containers a clip is written as: declared once, in :data:`FORMATS`, one entry each.

Every format starts from the same H.264 segments the beats were drawn into, so its frames and
timing are the clip's: ``mp4`` joins them by stream copy (:func:`~scenes.video.encoder.join_segments`,
index at the front, chapters inside); ``webm`` re-encodes them as VP9, with the same chapters;
``gif`` is for slides: at most 480 pixels on the short side, one palette made for the whole clip
from frames spread over it, held frames merged into one with a longer delay.

Adding a format is one writer here and one entry in the table; ``render --format`` offers the
table's names. Light to import: PyAV and the encoder are imported by the writers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

if TYPE_CHECKING:
    from scenes.video.audio import Encoded

Mark = tuple[float, float, str]
"""A chapter: start and end in seconds, and its title (as :mod:`scenes.video.encoder` takes it)."""

GIF_SHORT_SIDE = 480
GIF_PALETTE_FRAMES = 24
"""Frames, spread evenly over the clip, that the gif's one palette is made from."""
VP9_OPTIONS = {"crf": "32", "b": "0", "deadline": "good", "cpu-used": "5", "row-mt": "1"}
"""libvpx-vp9 at constant quality: flat colours and text stay sharp at a fraction of the mp4's
size; ``cpu-used`` 5 trades a little size for several times the speed."""


@dataclass(frozen=True)
class Format:
    """One container: its name (also the file's suffix), what it is for, and its writer, which
    makes ``target`` from the clip's segments and chapters. ``signature``: where the file's first
    bytes say what it is, and what they say (the render checks that a file it would replace is a
    clip it wrote); ``media_type``: the type a web page plays it as, None where a page does not
    (a gif is for slides); ``sound``: whether it carries the clip's sound (a gif does not). The
    writer's last argument is the clip's sound track encoded for the format
    (:func:`scenes.video.audio.encode_track`), or None for a silent clip."""

    name: str
    about: str
    write: Callable[[list[Path], Path, list[Mark], int, Encoded | None], None]
    signature: tuple[int, bytes]
    media_type: str | None
    sound: bool = True


def _mp4(parts: list[Path], target: Path, chapters: list[Mark], fps: int, track: Encoded | None = None) -> None:
    from scenes.video.encoder import join_segments

    join_segments(parts, target, chapters, track)


def frames_of(parts: list[Path]) -> Iterator[Any]:
    """Every frame of the segments, in order, decoded (PyAV ``VideoFrame``)."""
    import av

    for part in parts:
        with av.open(str(part)) as box:
            yield from box.decode(box.streams.video[0])


def _webm(parts: list[Path], target: Path, chapters: list[Mark], fps: int, track: Encoded | None = None) -> None:
    import av

    from scenes.video.audio import AudioTrack
    from scenes.video.encoder import set_chapters

    with av.open(str(target), mode="w", format="webm") as out:
        set_chapters(out, chapters)
        stream: Any = None
        sound: AudioTrack | None = None
        for k, frame in enumerate(frames_of(parts)):
            if stream is None:
                stream = out.add_stream("libvpx-vp9", rate=fps, options=dict(VP9_OPTIONS))
                stream.width, stream.height, stream.pix_fmt = frame.width, frame.height, "yuv420p"
                if track is not None:  # Opus, encoded once, its packets between the video's
                    sound = AudioTrack(out, track)
            frame.pts, frame.time_base = k, Fraction(1, fps)
            if sound is not None:
                sound.mux_until(k / fps)
            out.mux(stream.encode(frame))
        if stream is not None:
            out.mux(stream.encode(None))
        if sound is not None:
            sound.mux_until(None)


def gif_size(width: int, height: int) -> tuple[int, int]:
    """The gif's size: the frame's, scaled down (never up) to GIF_SHORT_SIDE on its short side,
    in even numbers as the clip's are (1920x1080 gives 854x480, the size of ``-q low``)."""
    k = min(1.0, GIF_SHORT_SIDE / min(width, height))
    return round(width * k / 2) * 2, round(height * k / 2) * 2


def gif_delays(frames: int, fps: int) -> list[int]:
    """Each frame's delay in hundredths of a second (GIF's unit), rounded so that the frames
    start where they start in the clip: 15 fps is 7, 7, 6, 7, 7, 6...

    >>> gif_delays(6, 15), sum(gif_delays(150, 15))
    ([7, 6, 7, 7, 6, 7], 1000)
    """
    return [round((k + 1) * 100 / fps) - round(k * 100 / fps) for k in range(frames)]


def _gif(parts: list[Path], target: Path, chapters: list[Mark], fps: int, track: Encoded | None = None) -> None:
    import numpy as np
    from PIL import Image

    total = sum(1 for _ in frames_of(parts))
    if total == 0:
        raise RuntimeError(f"{target}: the clip has no frames")
    size: tuple[int, int] | None = None
    wanted = {round(i * (total - 1) / max(GIF_PALETTE_FRAMES - 1, 1)) for i in range(GIF_PALETTE_FRAMES)}
    samples = []
    for k, frame in enumerate(frames_of(parts)):
        if k in wanted:
            size = size or gif_size(frame.width, frame.height)
            samples.append(frame.to_image().resize(size, Image.Resampling.LANCZOS))
    assert size is not None
    sheet = Image.new("RGB", (size[0], size[1] * len(samples)))
    for i, im in enumerate(samples):
        sheet.paste(im, (0, i * size[1]))
    palette = sheet.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    delays = gif_delays(total, fps)
    pictures: list[Image.Image] = []
    held: list[int] = []
    last: bytes | None = None
    for k, frame in enumerate(frames_of(parts)):
        im = frame.to_image().resize(size, Image.Resampling.LANCZOS).quantize(palette=palette, dither=Image.Dither.NONE)
        data = np.asarray(im).tobytes()
        if data == last:  # a held frame: one picture, shown longer
            held[-1] += delays[k]
            continue
        last = data
        pictures.append(im)
        held.append(delays[k])
    pictures[0].save(str(target), format="GIF", save_all=True, append_images=pictures[1:],
                     duration=[d * 10 for d in held], loop=0, optimize=False, disposal=1,
                     palette=bytes(palette.getpalette() or b""))


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("mp4", "H.264, index at the front, a chapter per beat (the default)", _mp4, (4, b"ftyp"), "video/mp4"),
    Format("webm", "VP9 with the same frames, timing and chapters", _webm, (0, b"\x1a\x45\xdf\xa3"), "video/webm"),
    Format("gif", "for slides: at most 480p, one palette for the clip", _gif, (0, b"GIF8"), None,
           sound=False),
)}
"""Every format a clip can be written as, by name; the first is the default."""

PAGE_TYPES: dict[str, str] = {f.name: f.media_type for f in FORMATS.values() if f.media_type is not None}
"""The formats a web page can play (an article's video), with their media types."""
