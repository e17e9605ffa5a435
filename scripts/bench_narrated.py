"""The cost of a voice: the benchmark clip rendered narrated against silent (``--voice off``),
each as time per second of clip, and the ratio (the target: at most 1.15x); and a narration edit
in `render watch`, from the save to the new clip (the target: at most 3 s).

Both render every beat (``--force``, folders of their own), alternated ``pairs`` times, the
median shown (the machine's speed drifts within minutes). The voice's phrases are said once
first, at a tiny size, as an author's phrase cache holds them after a first render; so the
figure is what a voice adds to each render: planning from its timings, mixing the track,
encoding it. Run by ``scripts/bench --narrated QUALITY`` (bench.py).

The narration edit (``scripts/bench --narration-edit``): a `render watch` of the benchmark clip
at low quality, narrated, its beats drawn and its phrases said before (a speech cache of its
own); then one phrase of its fifth beat of eight is saved saying more, which moves every later
beat. Measured: the seconds until the new clip is written (the phrase said, the beat drawn, the
sound track mixed, the clip joined), and how many beats were drawn (one, when the later beats
come from the cache as they should).
"""

from __future__ import annotations

import os
import statistics
import tempfile

from bench_render import BENCH_CLIP, COLD, QUALITIES, _edited, _render, _watch_edit

TARGET = 1.15
"""A narrated render may take at most this much of the silent one's time per second of clip."""
NARRATION_EDIT = ("so the gate is open and passes", "so the gate stays wide open and passes")
"""The narration edit saved while `render watch` runs: a phrase of the fifth beat says more."""
WATCH_TARGET = 3.0
"""Seconds a narration edit may take from the save to the clip in `render watch`, at low quality."""


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


def narration_edit_bench(voice: str, quality: str = "low") -> dict:
    """The narration edit's figures: seconds from the save to the clip, and the render's line
    saying how many beats it drew (``N of M beats drawn, K from the cache``)."""
    from scenes.voice.cache import CACHE_ENV

    with tempfile.TemporaryDirectory(prefix="gradreel-bench-narration-") as tmp:
        env = {**COLD, CACHE_ENV: os.path.join(tmp, "speech")}  # the edited phrase is not said yet
        flags = [*QUALITIES[quality], "--voice", voice]
        out, folder = os.path.join(tmp, "out"), os.path.join(tmp, "watched")
        _render(["scene", _edited(folder, None), *flags, "--out", out], env)  # every beat drawn, every phrase said
        heard: list[str] = []
        cpu: list[float] = []
        seconds = _watch_edit(out, flags, folder, NARRATION_EDIT, env, heard, cpu)
    drawn = [line.split(": ", 1)[-1] for line in heard if "beats drawn" in line]
    return {"clip": BENCH_CLIP, "quality": quality, "voice": voice, "edit_to_clip_s": round(seconds, 2),
            "edit_cpu_s": round(cpu[0], 2), "beats": drawn[-1] if drawn else "", "target_s": WATCH_TARGET}


def narration_edit_lines(row: dict) -> list[str]:
    """The narration edit's row of the table."""
    return [f"narration edit in render watch: {row['clip']} at {row['quality']}, voice {row['voice']}: "
            f"{row['edit_to_clip_s']} s from the save to the clip ({row['edit_cpu_s']} CPU-s; target at most "
            f"{row['target_s']} s); "
            f"{row['beats']}"]
