"""The cost of a voice: the benchmark clip rendered narrated against silent (``--voice off``),
each as time per second of clip, and the ratio (the target: at most 1.15x).

Both render every beat (``--force``, folders of their own), alternated ``pairs`` times, the
median shown (the machine's speed drifts within minutes). The voice's phrases are said once
first, at a tiny size, as an author's phrase cache holds them after a first render; so the
figure is what a voice adds to each render: planning from its timings, mixing the track,
encoding it. Run by ``scripts/bench --narrated QUALITY`` (bench.py).
"""

from __future__ import annotations

import os
import statistics
import tempfile

from bench_render import BENCH_CLIP, QUALITIES, _render

TARGET = 1.15
"""A narrated render may take at most this much of the silent one's time per second of clip."""


def _clip_seconds(folder: str) -> float:
    """The length of the clip just rendered into ``folder``, from its video stream."""
    import av

    with av.open(os.path.join(folder, f"{BENCH_CLIP}.mp4")) as box:
        video = box.streams.video[0]
        return float(video.duration * video.time_base)


def narrated_bench(quality: str, voice: str, pairs: int = 3) -> dict:
    """The figures: per pair, silent and narrated seconds of render per second of clip."""
    flags = QUALITIES[quality]
    runs: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory(prefix="gradreel-bench-voice-") as tmp:
        _render(["scene", BENCH_CLIP, "--voice", voice, "--size", "256x144", "--fps", "5",
                 "--out", os.path.join(tmp, "warm")])  # the phrases said, and the glyphs drawn, once
        for k in range(pairs):
            per_second = []
            for name in ("off", voice):
                out = os.path.join(tmp, f"{name}_{k}")
                run = _render(["scene", BENCH_CLIP, *flags, "--voice", name, "--force", "--out", out])
                per_second.append(run.seconds / _clip_seconds(out))
            runs.append((round(per_second[0], 3), round(per_second[1], 3)))
    ratios = [round(v / s, 3) for s, v in runs]
    return {"clip": BENCH_CLIP, "quality": quality, "voice": voice, "silent_s_per_s": [s for s, _ in runs],
            "voiced_s_per_s": [v for _, v in runs], "ratios": ratios, "ratio": round(statistics.median(ratios), 3),
            "target": TARGET}


def narrated_lines(row: dict) -> list[str]:
    """The narrated row of the table."""
    return [f"voice: {row['clip']} at {row['quality']}, {row['voice']} against off, render s per s of clip: "
            f"silent {' '.join(map(str, row['silent_s_per_s']))}, narrated {' '.join(map(str, row['voiced_s_per_s']))}; "
            f"{row['ratio']}x (median of {' '.join(f'{r}x' for r in row['ratios'])}; target at most {row['target']}x)"]
