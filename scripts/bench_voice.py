"""The voice figures of ``scripts/bench.py`` (``--voices``): synthesis seconds per second of
speech, for the ``neural`` and ``draft`` voices, on the first narration phrases of backward_walk.

Each voice speaks into an empty cache in a temporary folder (a cached phrase costs nothing, so
it would not be measured); the neural voice's model is loaded before the clock starts (a render
loads it once). Below 1 a voice speaks faster than real time.

    python scripts/bench_voice.py [--phrases N]   this row alone
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

CLIP = "scenes/storyboards/backward_walk.yaml"
VOICES = ("neural", "draft")


def phrases(count: int) -> list[str]:
    """The first ``count`` caption events of the clip, numbers filled, as the plan has them."""
    from scenes.storyboard.loaded import plan_of
    from scenes.storyboard.validate import load

    root = Path(__file__).resolve().parents[1]
    p = plan_of(load(str(root / CLIP)))
    return [c.text for c in p.captions if c.style == "caption"][:count]


def voice_bench(count: int = 6) -> dict:
    """For each voice: seconds of synthesis, seconds of speech and their ratio over ``count`` phrases."""
    from scenes.voice.cache import SpeechCache
    from scenes.voice.registry import voice_for

    texts = phrases(count)
    out: dict = {"clip": CLIP, "phrases": len(texts), "voices": {}}
    for name in VOICES:
        with tempfile.TemporaryDirectory(prefix="gradreel-bench-voice-") as tmp:
            voice = voice_for(name, Path("."), cache=SpeechCache(Path(tmp)))
            assert voice is not None
            voice.synth("warm up")  # loads the model (neural) or the library (draft)
            t0 = time.perf_counter()
            spoken = sum(voice.speech(t).timing.duration for t in texts)
            took = time.perf_counter() - t0
        out["voices"][name] = {"synth_s": round(took, 3), "speech_s": round(spoken, 2),
                               "synth_per_speech_s": round(took / spoken, 4)}
    return out


def voice_lines(report: dict) -> list[str]:
    """The table of :func:`voice_bench`'s report."""
    lines = [f"voices: {report['phrases']} phrases of {report['clip']}",
             f"{'voice':<8}{'synth s':>9}{'speech s':>10}{'synth s / speech s':>20}"]
    for name, row in report["voices"].items():
        lines.append(f"{name:<8}{row['synth_s']:>9}{row['speech_s']:>10}{row['synth_per_speech_s']:>20}")
    return lines


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--phrases", type=int, default=6, help="phrases of the clip to say")
    print("\n".join(voice_lines(voice_bench(max(1, ap.parse_args().phrases)))))
