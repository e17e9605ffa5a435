"""A phrase's synthesised speech on disk, keyed by what is said and how.

Why: a clip is rendered again and again while its author edits one beat; each phrase said the
same way by the same voice is synthesised once. The key is a digest of the voice's key (its name,
model digest, settings and version) and the spoken text, so a changed model, setting or word is a
miss. Stored as a 16-bit WAV (stdlib ``wave``) and a JSON file of the word times, never a pickle;
each written beside its place and renamed into it (:func:`scenes.atomic.write_atomic`), the JSON
last, so a reader sees a whole entry or none. Where: ``$GRADREEL_SPEECH_CACHE``, else
``.cache/speech`` in the repository (or the working folder), which git ignores.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scenes.atomic import write_atomic

CACHE_ENV = "GRADREEL_SPEECH_CACHE"


@dataclass(frozen=True)
class Said:
    """What a voice gave for a spoken text: samples (float32, -1..1, on the 16-bit grid), their
    rate, and the start and end (seconds) of each word it said (None when it could not tell)."""

    samples: np.ndarray
    rate: int
    spans: tuple[tuple[float, float], ...] | None

    @property
    def duration(self) -> float:
        return len(self.samples) / self.rate


def to_pcm16(samples: np.ndarray) -> np.ndarray:
    """``samples`` as 16-bit integers (clipped to -1..1)."""
    return np.round(np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")


def on_grid(samples: np.ndarray) -> np.ndarray:
    """``samples`` rounded to what a 16-bit WAV holds, so fresh and cached speech are the same bytes."""
    return (to_pcm16(samples).astype(np.float32) / np.float32(32767)).astype(np.float32)


def default_dir() -> Path:
    """``$GRADREEL_SPEECH_CACHE``, else ``.cache/speech`` of the git repository holding the working
    folder (or of the working folder itself)."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    here = Path.cwd().resolve()
    root = next((p for p in (here, *here.parents) if (p / ".git").exists()), here)
    return root / ".cache" / "speech"


def entry_key(voice_key: str, text: str) -> str:
    return hashlib.sha256(json.dumps([voice_key, text]).encode()).hexdigest()


class SpeechCache:
    """Speech files under one folder; :meth:`get` is None on a miss (or an unreadable entry)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else default_dir()

    def _paths(self, key: str) -> tuple[Path, Path]:
        base = self.folder / key[:2] / key
        return base.with_suffix(".wav"), base.with_suffix(".json")

    def get(self, voice_key: str, text: str) -> Said | None:
        wav_path, json_path = self._paths(entry_key(voice_key, text))
        try:
            meta = json.loads(json_path.read_text(encoding="utf-8"))
            with wave.open(str(wav_path), "rb") as w:
                rate, frames = w.getframerate(), w.readframes(w.getnframes())
        except (OSError, ValueError, EOFError, wave.Error):
            return None
        if meta.get("voice") != voice_key or meta.get("text") != text:
            return None
        samples = (np.frombuffer(frames, dtype="<i2").astype(np.float32) / np.float32(32767)).astype(np.float32)
        spans = meta.get("spans")
        return Said(samples, rate, None if spans is None else tuple((float(a), float(b)) for a, b in spans))

    def put(self, voice_key: str, text: str, said: Said) -> None:
        wav_path, json_path = self._paths(entry_key(voice_key, text))
        wav_path.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        with wave.open(buf, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(said.rate)
            w.writeframes(to_pcm16(said.samples).tobytes())
        write_atomic(wav_path, buf.getvalue())
        spans = None if said.spans is None else [list(s) for s in said.spans]
        write_atomic(json_path, json.dumps({"voice": voice_key, "text": text, "spans": spans}))
