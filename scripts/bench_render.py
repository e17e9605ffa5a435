"""The rendering figures of ``scripts/bench.py --render`` (see there for how to run them).

Why a module of its own: the engine benchmark and the table live in bench.py; everything that
runs and times renders lives here (cold, in `render watch`, the x264 floor). What each figure
is: bench.py's docstring, which `./scripts/bench --help` prints.

Each render runs in a child process: ``python scripts/bench_render.py --measure RENDER_ARGS...``
(the render CLI in that process, then its peak memory and CPU time) and ``--floor CLIP OPTIONS``
(x264 alone on the clip's frames).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from typing import Callable, NamedTuple, NoReturn

CORE = ["graph_build", "backward_graph", "backward_walk", "grad_accumulation"]
BENCH_CLIP = "backward_walk"


class Run(NamedTuple):
    seconds: float
    """Wall time."""
    peak_mib: int
    """Peak RSS of the largest process: the render's own, or one of its workers'."""
    cpu_s: float
    """User and system CPU time of the render and all its workers."""


COLD = dict(os.environ)
"""Cold renders: every process starts Python and imports Manim."""


def _render(args: list[str], env: dict[str, str] | None = None) -> Run:
    """Run `render ...` in a child process and measure it (``env``: its environment, COLD unless
    given). The child measures its memory itself: a forked child's RSS would count the parent's
    pages until it execs, and this parent holds a whole clip's decoded frames at times."""
    import subprocess

    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--measure", *args], check=True, env=env or COLD,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    seconds = time.perf_counter() - t0
    peak, cpu = done.stdout.strip().splitlines()[-1].split()
    return Run(seconds, int(peak), float(cpu))


def _measure(args: list[str]) -> NoReturn:
    """Run the render CLI in this process, then print its peak RSS in MiB (its workers' too) and
    the CPU seconds of all, and end as the ``render`` command does (scenes.exit.exit_now)."""
    import contextlib
    import io
    import resource

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from scenes.commands.main import main as render
    from scenes.exit import exit_now

    with contextlib.redirect_stdout(io.StringIO()):
        status = render(args)
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    print(max(u.ru_maxrss for u in usage) // 1024, round(sum(u.ru_utime + u.ru_stime for u in usage), 2))
    exit_now(status)


def _encoder_floor(clip: str, options: dict[str, str]) -> tuple[float, int]:
    """Seconds x264 alone needs for the clip's frames at the settings the render used, measured
    in a child process (which holds every decoded frame: gigabytes at 1080p60, which a parent
    would lend to the RSS of every child it forks afterwards)."""
    import subprocess

    done = subprocess.run([sys.executable, __file__, "--floor", clip, json.dumps(options)], check=True,
                          stdout=subprocess.PIPE, text=True)
    seconds, frames = done.stdout.split()
    return float(seconds), int(frames)


def _floor_here(clip: str, options: dict[str, str]) -> tuple[float, int]:
    """The frames are decoded first, then timed through the encoder only."""
    from fractions import Fraction

    import av

    from scenes.video.encoder import add_x264

    with av.open(clip) as box:
        src = box.streams.video[0]
        rate = int(src.average_rate)
        frames = [f.reformat(format="yuv420p") for f in box.decode(src)]
    with av.open(os.devnull, "w", format="mp4") as sink:
        dst = add_x264(sink, rate, frames[0].width, frames[0].height, options)
        t0 = time.perf_counter()
        for i, frame in enumerate(frames):
            frame.pts, frame.time_base = i, Fraction(1, rate)
            sink.mux(dst.encode(frame))
        sink.mux(dst.encode(None))
        return time.perf_counter() - t0, len(frames)


SCENE_EDIT = ("w1.grad is {w1.grad} and", "w1.grad is {w2.grad} and")
"""The last-beat edit rendered with `render scene`: the takeaway, the clip's last beat, shows
one other number."""
WATCH_EDIT = ("w1.grad is {w1.grad} and", "w1.grad is {w1} and")
"""The edit saved while `render watch` runs: another number than SCENE_EDIT's, so that its beat
is not in the cache already."""


def _edited(folder: str, change: tuple[str, str] | None) -> str:
    """A copy of the benchmark storyboard in ``folder`` with ``change`` (old, new) made, or
    none; only the last beat's picture changes."""
    from scenes.storyboard import storyboard_path

    with open(storyboard_path(BENCH_CLIP)) as f:
        text = f.read()
    if change is not None:
        assert text.count(change[0]) == 1, f"the benchmark edit {change} no longer applies"
        text = text.replace(*change)
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{BENCH_CLIP}.yaml")
    with open(path, "w") as f:
        f.write(text)
    return path


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) a process and its waited-for children have used (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _watch_edit(out: str, flags: list[str], folder: str, edit: tuple[str, str] = WATCH_EDIT,
                env: dict[str, str] | None = None, heard: list[str] | None = None, cpu: list[float] | None = None,
                timeout: float = 600) -> float:
    """Seconds from saving ``edit`` to the new clip, in a `render watch` of the benchmark
    storyboard that is ready (its first render done, Manim imported): what an author who keeps
    one running waits. The clip's beats are in ``out`` already. ``env``: the watch's environment
    (COLD unless given); ``heard`` collects what it says on stderr; ``cpu`` is given the CPU
    seconds the watch spent on the edit (a figure a busy machine changes less than the wall time)."""
    import queue
    import subprocess
    import threading

    from scenes.commands.watch import READY

    path = _edited(folder, None)
    proc = subprocess.Popen([sys.executable, "-m", "scenes.commands.main", "watch", path, *flags, "--out", out],
                            env=env or COLD,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[tuple[str, str]] = queue.Queue()
    for name in ("stdout", "stderr"):
        threading.Thread(target=lambda s=getattr(proc, name), n=name: [lines.put((n, ln)) for ln in s],
                         daemon=True).start()

    clips, ready = 0, False

    def wait_until(done: Callable[[], bool]) -> None:
        nonlocal clips, ready
        deadline = time.monotonic() + timeout
        while not done():
            try:
                name, line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"render watch: no answer in {timeout:.0f} s") from None
            if name == "stderr" and heard is not None:
                heard.append(line.rstrip("\n"))
            if name == "stdout":
                clips += 1  # a clip's path: a render is done
            elif line.startswith(READY):
                ready = True
            elif line.startswith("render:") or ".yaml:" in line:  # a mistake, reported
                raise RuntimeError(f"render watch: {line.strip()}")

    try:
        wait_until(lambda: ready and clips == 1)  # the first render (joined from the cache), Manim imported
        busy = _cpu_seconds(proc.pid)
        _edited(folder, edit)
        t0 = time.perf_counter()
        wait_until(lambda: clips == 2)
        took = time.perf_counter() - t0
        if cpu is not None:
            cpu.append(_cpu_seconds(proc.pid) - busy)
        return took
    finally:  # SIGTERM, not Ctrl-C's SIGINT: a bench started with `&` passes SIGINT on ignored
        proc.terminate()
        proc.wait()


QUALITIES = {"low": ["-q", "low"], "medium": ["-q", "medium"], "high": ["-q", "high"],
             "high30": ["-q", "high", "--fps", "30"]}
"""Benchmark rows: the presets, and 1080p at 30 frames per second."""


def _render_and_floor(quality: str, out: str) -> tuple[Run, float, int]:
    """A full render of the benchmark clip at a QUALITIES row into ``out``, then the x264-only
    floor for its frames: the render, the floor's seconds and the frame count."""
    from scenes.render.options import RenderOptions, encoder_options

    run = _render(["scene", BENCH_CLIP, *QUALITIES[quality], "--out", out, "--force"])
    floor, frames = _encoder_floor(os.path.join(out, f"{BENCH_CLIP}.mp4"),
                                   encoder_options(RenderOptions(quality=QUALITIES[quality][1])))
    return run, floor, frames


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 2)


def _core_all(jobs: int, out: str) -> list[str]:
    """`render all` of the core clips at low quality in ``jobs`` processes, into ``out``."""
    return ["all", *CORE, "-q", "low", "-j", str(jobs), "--out", out]


def render_bench(qualities: list[str], pairs: int = 3) -> dict:
    """The render figures (bench.py's docstring says which). ``pairs``: how many times the core
    clips are rendered with -j 1 and then -j 2, and the last quality is rendered
    and its floor measured; the machine's speed drifts by 10 to 30 % within minutes, so each
    ratio is one pair's, and the median and spread of those are shown."""
    import tempfile

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from scenes.render.jobs import beat_jobs
    from scenes.render.options import RenderOptions, fps_of
    from scenes.render.pipeline import _segments_of, split_beats
    from scenes.storyboard import load, plan_of, storyboard_path

    checked = load(storyboard_path(BENCH_CLIP))
    p = plan_of(checked)
    length = p.duration
    top = qualities[-1]
    flags = dict(zip(QUALITIES[top][::2], QUALITIES[top][1::2]))  # {"-q": QUALITY[, "--fps": N]}
    top_opts = RenderOptions(quality=flags["-q"], fps=int(flags["--fps"]) if "--fps" in flags else None)
    full = split_beats(_segments_of(p, top_opts), beat_jobs(None, top_opts), fps_of(top_opts))
    rows: dict = {"clip": BENCH_CLIP, "clip_seconds": round(length, 2), "qualities": {}, "beat_jobs": len(full)}
    with tempfile.TemporaryDirectory(prefix="gradreel-bench-") as tmp:
        # the glyph cache is warm for an author who has rendered before: warm it the same way
        _render(["scene", BENCH_CLIP, "--size", "256x144", "--fps", "5", "--out", os.path.join(tmp, "warm")])
        edited = _edited(os.path.join(tmp, "edited"), SCENE_EDIT)
        # and so are the glyphs of both edits' captions, for an author who tried those numbers before
        _watch_edit(os.path.join(tmp, "warm"), ["--size", "256x144", "--fps", "5"], os.path.join(tmp, "watched"))
        _render(["scene", edited, "--size", "256x144", "--fps", "5", "--out", os.path.join(tmp, "warm")])
        for q in qualities:
            out = os.path.join(tmp, q)
            (secs, peak, _), floor, frames = _render_and_floor(q, out)
            noop = _render(["scene", BENCH_CLIP, *QUALITIES[q], "--out", out])[0]
            last = _render(["scene", edited, *QUALITIES[q], "--out", out])[0]
            watched = _watch_edit(out, QUALITIES[q], os.path.join(tmp, "watched"))
            rows["qualities"][q] = {"render_s": round(secs, 2), "over_clip": round(secs / length, 2),
                                    "encoder_floor_s": round(floor, 2), "over_floor": round(secs / floor, 2),
                                    "frames": frames, "peak_rss_mib": peak, "noop_rerender_s": round(noop, 3),
                                    "last_beat_edit_s": round(last, 2), "last_beat_over_full": round(last / secs, 3),
                                    "watch_edit_s": round(watched, 2), "watch_over_full": round(watched / secs, 3)}
        # the last quality's render against its floor, again pairs - 1 times: one pair alone
        # drifts with the machine's speed (docs/bench.md)
        first = rows["qualities"][top]
        runs = [(first["render_s"], first["encoder_floor_s"])]
        for k in range(pairs - 1):
            run, floor, _ = _render_and_floor(top, os.path.join(tmp, f"{top}_{k}"))
            runs.append((round(run.seconds, 2), round(floor, 2)))
        ratios = [round(r / f, 2) for r, f in runs]
        first.update(over_floor=_median(ratios), over_floor_runs=ratios,
                     render_runs=[r for r, _ in runs], floor_runs=[f for _, f in runs])
        secs = _render(["scene", BENCH_CLIP, *QUALITIES[top], "--out", os.path.join(tmp, "clip_j1"), "--force",
                        "-j", "1"]).seconds
        rows["clip_j1"] = {"quality": top, "render_s": round(secs, 2), "over_floor": round(
                           secs / statistics.median(first["floor_runs"]), 2),
                           "default_speedup": round(secs / statistics.median(first["render_runs"]), 2)}
        out = os.path.join(tmp, qualities[0])
        rows["set_w2_rerender_s"] = round(_render(["scene", BENCH_CLIP, *QUALITIES[qualities[0]], "--out", out,
                                                   "--set", "w2=3.0"])[0], 2)
        for name in CORE:  # their glyphs, as for the benchmark clip
            _render(["scene", name, "--size", "256x144", "--fps", "5", "--out", os.path.join(tmp, "warm")])
        cold: list[tuple[Run, Run]] = []
        for k in range(pairs):  # each in folders of its own: every clip is drawn, none from a cache
            cold.append((_render(_core_all(1, os.path.join(tmp, f"j1_{k}"))),
                         _render(_core_all(2, os.path.join(tmp, f"j2_{k}")))))
        gains = [round(j1.seconds / j2.seconds, 2) for j1, j2 in cold]
        # -j 1 already keeps more than one core busy (x264 and the RGBA to YUV conversion run
        # beside drawing): two processes that spend the same CPU between them can use at most
        # twice that, and no more than every core, so they gain at most min(2, cores / busy)
        busy = statistics.median(j1.cpu_s / j1.seconds for j1, _ in cold)
        rows.update(core_j1_s=_median([j1.seconds for j1, _ in cold]), core_j2_s=_median([j2.seconds for _, j2 in cold]),
                    core_j1_cpu_s=_median([j1.cpu_s for j1, _ in cold]), core_j2_cpu_s=_median([j2.cpu_s for _, j2 in cold]),
                    j2_speedup=_median(gains), j2_speedups=gains,
                    j2_ceiling=round(min(2.0, len(os.sched_getaffinity(0)) / busy), 2))
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        _measure(sys.argv[2:])
    if sys.argv[1:2] == ["--floor"]:
        print(*_floor_here(sys.argv[2], json.loads(sys.argv[3])))
        sys.exit(0)
    sys.exit("usage: bench_render.py --measure RENDER_ARGS... | --floor CLIP OPTIONS_JSON  (run scripts/bench --render)")
