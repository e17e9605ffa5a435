"""H.264 segments written on a worker thread, and segments joined without re-encoding.

Why our own writer instead of Manim's: a clip is mostly held frames (a caption being read, a
graph at rest). Manim converts RGBA to YUV once per *written* frame, so a long hold costs one
conversion per frame it is shown; here a held frame is converted once and handed to x264 again
with the next timestamp. Conversion and encoding run on a worker thread (PyAV releases the GIL in
both), so Cairo draws the next frame while x264 encodes this one. Each beat of a clip is its own
segment; the clip is the segments joined by stream copy, which costs milliseconds.

>>> import tempfile
>>> folder = tempfile.TemporaryDirectory()
>>> enc = SegmentWriter(Path(folder.name) / "a.mp4", 256, 144, 15, {"preset": "veryfast"})
>>> enc.put(np.zeros((144, 256, 4), np.uint8), repeat=30); enc.close()
>>> enc.frames
30
>>> folder.cleanup()
"""

from __future__ import annotations

import queue
import threading
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import av
import numpy as np
from av.video.reformatter import VideoReformatter

from scenes.video.damage import PixelRect

if TYPE_CHECKING:
    from scenes.video.audio import Encoded

INFLIGHT = 4
"""RGBA frames queued for conversion before drawing waits (8 MB each at 1080p)."""
READY_BYTES = 192 << 20
"""Converted frames that may wait for x264: drawing runs ahead while x264 encodes a long hold."""
MARGIN = 16
"""libswscale's chroma filter spans a few pixels, so a change inside a damaged rectangle also
changes chroma just outside it, and a bare crop would get other chroma at its border: the
rectangle grown by MARGIN is pasted, and that grown by MARGIN again is converted."""
WHOLE = 1 / 3
"""A damaged rectangle larger than this part of the frame is converted as a whole frame, whose
converter is set up once per segment (crops differ in size: one converter is kept per size)."""


SWS_THREADS = 1
"""libswscale converts on this thread only. Its default (threads as cores, set up again with each
converter) costs several times the CPU of one thread with a kept converter, and the conversion
is CPU that drawing needs (figures in docs/bench.md)."""
CONVERTERS = 32
"""Converters kept per segment, one per crop size (a token gliding keeps its rectangle's size):
setting one up costs more than the conversion of a small crop."""

X264_THREADS = 1
"""x264 runs on one thread of its own. PyAV's default (sliced threads, as many as cores) has two
faults here: the picture depends on the machine, since each thread encodes its own slice of every
frame, and the slices cost more CPU than they save, CPU that drawing needs (figures in
docs/bench.md). Parallel work comes from drawing beside encoding, and from beats in processes."""


def _rows(plane: Any) -> np.ndarray:
    """A frame plane's bytes as rows (each ``line_size`` long, which may pass the picture's width)."""
    return np.frombuffer(plane, np.uint8).reshape(plane.height, plane.line_size)


def add_x264(box: Any, fps: int, width: int, height: int, options: dict[str, str]) -> Any:
    """The H.264 stream of ``box`` at our settings (``options`` are x264's, per quality): the one
    place a stream is opened, so that the benchmark's encoder floor is measured at them too."""
    stream = box.add_stream("libx264", rate=fps, options=dict(options))
    stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
    stream.codec_context.thread_count = X264_THREADS  # PyAV ignores a "threads" entry in options
    return stream


def segment_frames(path: Path) -> int | None:
    """The number of video packets (one a frame) a segment holds, or None when it cannot be read
    as one (cut short, overwritten, not a video): what a cached segment is checked against before
    it is joined. Demuxing only, no decoding."""
    try:
        with av.open(str(path)) as box:
            if not box.streams.video:
                return None
            return sum(1 for packet in box.demux(box.streams.video[0]) if packet.dts is not None)
    except (av.error.FFmpegError, OSError, ValueError):
        return None


class SegmentWriter:
    """One mp4 segment: ``put`` RGBA frames (with a repeat count), then ``close`` (or ``abort``)."""

    def __init__(self, path: Path, width: int, height: int, fps: int, options: dict[str, str]) -> None:
        self.path = path
        self.frames = 0
        self._error: BaseException | None = None
        self._queue: queue.Queue[tuple[np.ndarray, int, PixelRect | None] | None] = queue.Queue(maxsize=INFLIGHT)
        self._box = av.open(str(path), mode="w", format="mp4")
        self._stream = add_x264(self._box, fps, width, height, options)
        self._time_base = Fraction(1, fps)
        self._width, self._height = width, height
        self._rgba: av.VideoFrame | None = None
        self._converters: dict[tuple[int, int], VideoReformatter] = {}
        self._picture: np.ndarray | None = None  # the last frame, RGBA
        self._yuv = np.zeros((height * 3 // 2, width), np.uint8)  # the last frame, YUV planes
        flat, y_size = self._yuv.reshape(-1), width * height
        self._planes = [flat[:y_size].reshape(height, width),  # views of Y, U and V in it (chroma is
                        flat[y_size:y_size * 5 // 4].reshape(height // 2, width // 2),  # subsampled 2:1
                        flat[y_size * 5 // 4:].reshape(height // 2, width // 2)]  # both ways)
        # converted frames may pile up while x264 works through a long hold, so that drawing goes
        # on meanwhile: up to READY_BYTES of them (YUV 4:2:0 is 1.5 bytes a pixel)
        depth = max(INFLIGHT, READY_BYTES * 2 // (3 * width * height))
        self._ready: queue.Queue[tuple[av.VideoFrame, int] | None] = queue.Queue(maxsize=depth)
        self._spare: queue.SimpleQueue[av.VideoFrame] = queue.SimpleQueue()  # YUV frames x264 is done with
        self._threads = [threading.Thread(target=self._convert, name=f"convert {path.name}", daemon=True),
                         threading.Thread(target=self._work, name=f"encode {path.name}", daemon=True)]
        for t in self._threads:
            t.start()

    def put(self, rgba: np.ndarray, repeat: int = 1, at: PixelRect | None = None) -> None:
        """Queue one drawn frame, shown ``repeat`` times: the whole frame, or with ``at`` only the
        pixels of that rectangle (grid-aligned; the rest is the frame before). The writer owns
        the array from now on (it pastes later rectangles into a whole one)."""
        if self._error is not None:
            self._raise()
        if at is not None and self.frames == 0:
            raise ValueError(f"{self.path}: the first frame must be whole, not the rectangle {at}")
        if repeat > 0:
            self.frames += repeat
            self._queue.put((rgba, repeat, at))

    def _raise(self) -> None:
        """The encoding threads' error, in this thread: an OSError as it is (a full disk keeps its
        errno, which the command says in one line), any other as a RuntimeError naming the segment."""
        if isinstance(self._error, OSError):
            raise self._error
        raise RuntimeError(f"encoding {self.path} failed: {self._error}") from self._error

    def _to_yuv(self, rgba: np.ndarray, at: PixelRect | None) -> av.VideoFrame:
        """The frame as YUV 4:2:0, converting only what changed."""
        width, height = self._width, self._height
        if at is None:
            self._picture = rgba
        elif at.area():
            assert self._picture is not None
            self._picture[at.slices()] = rgba
        if at is None or at.area() > WHOLE * width * height:
            self._paste(self._whole(self._picture), 0, 0, PixelRect(0, 0, width, height))
        elif at.area():
            pasted = at.grown(MARGIN, width, height)
            outer = pasted.grown(MARGIN, width, height)
            crop = av.VideoFrame.from_ndarray(np.ascontiguousarray(self._picture[outer.slices()]), format="rgba")
            self._paste(self._yuv420(crop), outer.x0, outer.y0, pasted)
        return self._copy_of_yuv()

    def _copy_of_yuv(self) -> av.VideoFrame:
        """The kept YUV planes, copied into a frame of their own (x264 may still be busy with the
        last one), reusing one x264 has finished with. Why reuse: a fresh frame costs far more than
        a copy into a used one (most of it the kernel handing out new pages); x264 copies each
        picture it is given into frames of its own before ``encode`` returns."""
        try:
            frame = self._spare.get_nowait()
        except queue.Empty:
            frame = av.VideoFrame(self._width, self._height, "yuv420p")
        for plane, kept in zip(frame.planes, self._planes):
            _rows(plane)[:, :kept.shape[1]] = kept
        return frame

    def _whole(self, rgba: np.ndarray) -> av.VideoFrame:
        """A whole RGBA frame to YUV. One RGBA frame is kept and refilled: with a fresh one per
        call libswscale sets itself up again each time, which costs more than the conversion."""
        frame = self._rgba
        if frame is None or frame.planes[0].line_size != rgba.shape[1] * 4:
            frame = self._rgba = av.VideoFrame.from_ndarray(rgba, format="rgba")
        else:
            frame.planes[0].update(rgba)
        return self._yuv420(frame)

    def _yuv420(self, rgba: av.VideoFrame) -> av.VideoFrame:
        """``rgba`` converted by the kept converter of its size (the least recently used goes)."""
        size = (rgba.width, rgba.height)
        converter = self._converters.pop(size, None) or VideoReformatter()
        self._converters[size] = converter  # now the most recently used
        if len(self._converters) > CONVERTERS:
            del self._converters[next(iter(self._converters))]
        return converter.reformat(rgba, format="yuv420p", threads=SWS_THREADS)

    def _paste(self, frame: av.VideoFrame, x: int, y: int, part: PixelRect) -> None:
        """Copy ``part`` of the picture from a converted frame whose top left pixel is the
        picture's (x, y) into the kept YUV planes. All coordinates are even, so chroma samples
        line up."""
        for i, (plane, target) in enumerate(zip(frame.planes, self._planes)):
            k = 1 if i == 0 else 2
            target[part.y0 // k:part.y1 // k, part.x0 // k:part.x1 // k] = \
                _rows(plane)[(part.y0 - y) // k:(part.y1 - y) // k, (part.x0 - x) // k:(part.x1 - x) // k]

    def _stage(self, source: queue.Queue, handle: Any) -> None:
        """Hand each queued item to ``handle`` until the end marker; after a failure, drain only
        (the failure is reported to the drawing thread by put() or close())."""
        while (item := source.get()) is not None:
            if self._error is None:
                try:
                    handle(*item)
                except BaseException as exc:
                    self._error = exc

    def _convert(self) -> None:
        """First stage: RGBA in, YUV out (overlaps with x264 working on the frame before)."""
        def one(rgba: np.ndarray, repeat: int, at: PixelRect | None) -> None:
            frame = self._to_yuv(rgba, at)
            frame.time_base = self._time_base
            self._ready.put((frame, repeat))

        self._stage(self._queue, one)
        self._ready.put(None)

    def _work(self) -> None:
        """Second stage: each YUV frame to x264, once per frame it is shown."""
        pts = 0

        def one(frame: av.VideoFrame, repeat: int) -> None:
            nonlocal pts
            for _ in range(repeat):
                if self._error is not None:  # aborted in the middle of a long hold
                    break
                frame.pts = pts
                pts += 1
                self._box.mux(self._stream.encode(frame))
            self._spare.put(frame)

        self._stage(self._ready, one)

    def close(self) -> None:
        """Flush x264 and finish the file; raises what the worker met."""
        self._queue.put(None)
        for t in self._threads:
            t.join()
        try:
            if self._error is None:
                self._box.mux(self._stream.encode(None))
        finally:
            self._box.close()
        if self._error is not None:
            self._raise()

    def abort(self) -> None:
        """Stop and delete the half-written file."""
        self._error = self._error or RuntimeError("aborted")
        for q in (self._queue, self._ready):
            while True:  # drain, so that both stages see the end
                try:
                    q.get_nowait()
                except queue.Empty:
                    break
        self._queue.put(None)
        for t in self._threads:  # both stop at the next frame; x264 must be idle before closing
            t.join()
        try:
            self._box.close()
        except Exception:
            pass
        self.path.unlink(missing_ok=True)


Mark = tuple[float, float, str]
"""A chapter: start and end in seconds, and its title."""
MARK_TIME_BASE = Fraction(1, 1000)


def join_segments(parts: list[Path], target: Path, chapters: list[Mark] = (), track: Encoded | None = None,
                  ) -> None:
    """Concatenate mp4 segments made with the same settings into ``target`` by stream copy:
    packets are moved, each segment's timestamps shifted past the previous one's end. The clip
    has its index at the front (``faststart``: a browser plays it before it has all of it) and
    ``chapters`` inside (the mov muxer writes them as a chapter track that players list).
    ``track``: the clip's sound (:mod:`scenes.voice.track`), encoded once as AAC
    (:func:`scenes.video.audio.encode_track`) and interleaved with the video; None for a silent clip."""
    from scenes.video.audio import AudioTrack

    with av.open(str(target), mode="w", format="mp4", options={"movflags": "+faststart"}) as out:
        set_chapters(out, chapters)
        stream: Any = None
        sound: AudioTrack | None = None
        offset = 0
        for part in parts:
            with av.open(str(part)) as box:
                src = box.streams.video[0]
                if stream is None:
                    stream = out.add_stream_from_template(src)
                    if track is not None:
                        sound = AudioTrack(out, track)
                end = offset
                for packet in box.demux(src):
                    if packet.dts is None:  # the flush packet demux yields last
                        continue
                    step = packet.duration or 0
                    packet.pts += offset
                    packet.dts += offset
                    end = max(end, packet.pts + step)
                    if sound is not None:
                        sound.mux_until(float(packet.dts * src.time_base))
                    packet.stream = stream
                    out.mux(packet)
                offset = end
        if sound is not None:
            sound.mux_until(None)


def set_chapters(box: Any, chapters: list[Mark]) -> None:
    """Give an output container its chapters (before its first packet: they go in the header)."""
    if chapters:
        box.set_chapters([{"id": k + 1, "start": round(a / MARK_TIME_BASE), "end": round(b / MARK_TIME_BASE),
                           "time_base": MARK_TIME_BASE, "metadata": {"title": title}}
                          for k, (a, b, title) in enumerate(chapters)])
