"""A clip's sound track encoded once, its packets interleaved with the video's as they are muxed.

Why the whole track at once, and not per beat: the track is one piece (a phrase may span two
beats), and a lossy codec's frames do not join without a click or a gap (AAC's priming);
encoding the whole track once beside the stream-copied video joins nothing.

Why before the join (:func:`encode_track`, into an audio-only file of the clip's container): the
track depends on the plan alone, so a render encodes it in the thread that makes it, while the
beats are drawn; encoding it at the join made a narration edit wait seconds more in
`render watch`. The join then copies its packets as it copies the video's, priming and edit
list included.

:class:`AudioTrack` holds the encoded packets of a track; :meth:`AudioTrack.mux_until` hands the
muxer those that start before a video time, so the file alternates audio and video in small
steps (a player streaming it never waits for one of them).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from scenes.voice.track import RATE

CODECS = {"mp4": ("aac", 128_000), "webm": ("libopus", 96_000)}
"""The audio codec and bit rate of each container that carries sound: AAC-LC in mp4, Opus in
webm (what every browser plays in each)."""
CODEC_OPTIONS = {"aac": {"aac_coder": "fast"}, "libopus": {}}
"""Encoder options: FFmpeg's AAC encoder with its constant-quantizer coder (``fast``) instead of
the default two-loop search, which costs a `render watch` edit seconds. Measured on
backward_walk said by the neural voice (79 s; error is the decoded track's against the track):
two-loop at 192 kb/s 1.59 CPU-s, error 42.3 dB under the signal; fast at 192 kb/s 0.87 CPU-s,
53.9 dB; fast at 128 kb/s 0.42 CPU-s, 44.7 dB (115 kb/s spent), loudness and true peak within
0.1 dB of the track's, the opening phrase too (two-loop at 128 kb/s had overshot to +1.6 dBTP
there: it starts with too few bits for a phrase said from the clip's first instant)."""
FRAME_SECONDS = 1
"""The track is handed to the encoder a second at a time (PyAV cuts it at the codec's frame
size): fewer trips through Python than a frame at a time, the same packets."""


@dataclass(frozen=True)
class Encoded:
    """A clip's track encoded for the container ``fmt``: an audio-only file of it, as bytes."""

    fmt: str
    data: bytes


def encode_track(track: np.ndarray, fmt: str) -> Encoded:
    """``track`` (float32 mono at RATE Hz) encoded once with ``fmt``'s codec (:data:`CODECS`).
    Frames are cut at the codec's frame size, the last padded with silence; the container's edit
    list keeps the track exactly as long as its samples."""
    import av

    buf = io.BytesIO()
    with av.open(buf, mode="w", format=fmt) as box:
        codec, bit_rate = CODECS[fmt]
        stream = box.add_stream(codec, rate=RATE, layout="mono", options=dict(CODEC_OPTIONS[codec]))
        stream.bit_rate = bit_rate
        stream.time_base = Fraction(1, RATE)
        ctx = stream.codec_context
        if "flt" in [f.name for f in ctx.codec.audio_formats or ()]:
            ctx.format = "flt"  # Opus takes floats too, as they are
        ctx.open()
        samples = np.ascontiguousarray(track, dtype=np.float32)
        size = FRAME_SECONDS * RATE
        for at in range(0, len(samples), size):
            chunk = samples[at:at + size]
            frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format=ctx.format.name, layout="mono")
            frame.sample_rate, frame.pts, frame.time_base = RATE, at, Fraction(1, RATE)
            box.mux(stream.encode(frame))
        box.mux(stream.encode(None))
    return Encoded(fmt, buf.getvalue())


class AudioTrack:
    """An :class:`Encoded` track copied into a stream of ``box`` (of the same container); its
    packets wait in order until :meth:`mux_until` writes them. Add it with the container's
    other streams, before the first packet is muxed."""

    def __init__(self, box: Any, sound: Encoded) -> None:
        import av

        self.box = box
        with av.open(io.BytesIO(sound.data), mode="r", format=sound.fmt) as src:
            audio = src.streams.audio[0]
            self.stream = box.add_stream_from_template(audio)
            self.stream.codec_context.bit_rate = CODECS[sound.fmt][1]  # the rate asked, as the encoder said it
            self.packets: list[Any] = [p for p in src.demux(audio) if p.dts is not None]
        for packet in self.packets:
            packet.stream = self.stream
        self.packets.reverse()  # taken from the end: the next to mux is the last

    def mux_until(self, seconds: float | None) -> None:
        """Mux the packets that start before ``seconds`` (all of them, given None)."""
        while self.packets:
            packet = self.packets[-1]
            if seconds is not None and packet.pts is not None and packet.pts * packet.time_base >= seconds:
                return
            self.box.mux(self.packets.pop())
