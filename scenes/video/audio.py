"""A clip's sound track encoded once, its packets interleaved with the video's as they are muxed.

Why encoded here, at join time, and not per beat: the track is one piece (a phrase may span two
beats), and a lossy codec's frames do not join without a click or a gap; encoding the whole
track once beside the stream-copied video costs a second or two and joins nothing.

:class:`AudioTrack` holds the encoded packets of a track; :meth:`AudioTrack.mux_until` hands the
muxer those that start before a video time, so the file alternates audio and video in small
steps (a player streaming it never waits for one of them).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from scenes.voice.track import RATE

CODECS = {"mp4": ("aac", 192_000), "webm": ("libopus", 96_000)}
"""The audio codec and bit rate of each container that carries sound: AAC-LC in mp4, Opus in
webm (what every browser plays in each). AAC at 192 kb/s: at 128 kb/s FFmpeg's encoder starts
with too few bits for a phrase said from the clip's first instant, and overshot to +1.6 dBTP
there (measured on backward_walk's title, said by the neural voice; -1.4 dBTP at 192 kb/s)."""


class AudioTrack:
    """A track (float32 mono at RATE Hz) encoded into a stream of ``box`` with the container's
    codec; its packets wait in order until :meth:`mux_until` writes them."""

    def __init__(self, box: Any, fmt: str, track: np.ndarray) -> None:
        import av

        codec, bit_rate = CODECS[fmt]
        self.stream = box.add_stream(codec, rate=RATE, layout="mono")
        self.stream.bit_rate = bit_rate
        self.stream.time_base = Fraction(1, RATE)
        if "flt" in [f.name for f in self.stream.codec_context.codec.audio_formats or ()]:
            self.stream.codec_context.format = "flt"  # Opus takes floats too, as they are
        self.box = box
        self.packets: list[Any] = []
        self._track = np.ascontiguousarray(track, dtype=np.float32)
        self._av = av

    def encode(self) -> None:
        """Encode the whole track (call once the container's streams are all added). Frames are
        cut at the codec's frame size, the last padded with silence; the container's edit list
        keeps the track exactly as long as its samples."""
        ctx = self.stream.codec_context
        if not ctx.is_open:
            ctx.open()
        size = ctx.frame_size or 1024
        pts = 0
        for at in range(0, len(self._track), size):
            chunk = self._track[at:at + size]
            frame = self._av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format=ctx.format.name, layout="mono")
            frame.sample_rate, frame.pts, frame.time_base = RATE, pts, Fraction(1, RATE)
            pts += len(chunk)
            self.packets += self.stream.encode(frame)
        self.packets += self.stream.encode(None)
        self.packets.reverse()  # taken from the end: the next to mux is the last

    def mux_until(self, seconds: float | None) -> None:
        """Mux the packets that start before ``seconds`` (all of them, given None)."""
        while self.packets:
            packet = self.packets[-1]
            if seconds is not None and packet.pts is not None and packet.pts * packet.time_base >= seconds:
                return
            self.box.mux(self.packets.pop())
