"""gradreel benchmarks.

Engine: forward + backward + full event log of a 10,000-operation program, side by side with the
same program on PyTorch (scalar tensors) and on micrograd; each figure the median of --repeat runs.

Render (--render): for the benchmark clip (backward_walk) at each quality, render time over clip
length; the encoder-only floor (the same frames, decoded from the clip, encoded again by x264 with
the settings the render used); peak memory; a no-op re-render; a re-render after one number in
the last beat's caption changes (renders as an author runs them: beats in one process per core,
as memory allows), and the same kind of edit saved while `render watch` runs (from the save to
the new clip). The same full render, no-op and (another) edit as an author at a terminal runs
them after the first: handed to a warm server (scenes.warm_client). Then the last quality with
-j 1 (one process), a
re-render after --set changes a number shown from beat 2 on, and the four core clips one after
the other against two at a time, cold and warm. The glyph cache is warmed first, as an author's
would be. The cold renders ask no warm server (GRADREEL_SERVER=off).

    ./scripts/bench                      engine table
    ./scripts/bench --render             engine and render tables (takes minutes)
    ./scripts/bench --render --json      the same figures as JSON, to compare between commits
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from typing import Callable, NamedTuple, NoReturn

ITERATIONS = 2500  # four operations each: mul, add, relu, and one more mul -> 10,000 ops

PROGRAM = f"""import torch
w1 = torch.tensor(0.5, requires_grad=True)
w2 = torch.tensor(0.5, requires_grad=True)
w3 = torch.tensor(1.0, requires_grad=True)
h = torch.tensor(1.0)
for _ in range({ITERATIONS}):
    h = (h * w1 + w2).relu() * w3
L = h ** 2
L.backward()
print(w1.grad, w2.grad, w3.grad)
"""


def gradreel_run() -> float:
    from engine import run_program
    log = run_program(PROGRAM, "bench.py")
    text = log.to_jsonl()
    assert len(log.of_kind("visit")) > 4 * ITERATIONS and text
    return log.of_kind("accumulate")[-1]["after"]


def torch_run() -> float:
    import torch
    w1 = torch.tensor(0.5, requires_grad=True)
    w2 = torch.tensor(0.5, requires_grad=True)
    w3 = torch.tensor(1.0, requires_grad=True)
    h = torch.tensor(1.0)
    for _ in range(ITERATIONS):
        h = (h * w1 + w2).relu() * w3
    L = h ** 2
    L.backward()
    return w3.grad.item()


def micrograd_run() -> float:
    from micrograd.engine import Value
    w1, w2, w3, h = Value(0.5), Value(0.5), Value(1.0), Value(1.0)
    for _ in range(ITERATIONS):
        h = (h * w1 + w2).relu() * w3
    L = h ** 2
    L.backward()
    return w3.grad


def timed(fn: Callable[[], float], repeat: int) -> tuple[float, float]:
    times, result = [], 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


CORE = ["graph_build", "backward_graph", "backward_walk", "grad_accumulation"]
BENCH_CLIP = "backward_walk"


class Run(NamedTuple):
    seconds: float
    """Wall time."""
    peak_mib: int
    """Peak RSS of the largest process: the render's own, or one of its workers'."""
    cpu_s: float
    """User and system CPU time of the render and all its workers."""


COLD = dict(os.environ, GRADREEL_SERVER="off")
"""Cold renders: every process starts Python and imports Manim (no warm server is asked)."""


class WarmServer:
    """Renders as an author at a terminal runs them after the first: handed to a warm server
    (scenes.warm_client) of the bench's own, with its socket in ``folder``. Times are wall
    times from the command's start to its end, as the author waits."""

    def __init__(self, folder: str) -> None:
        os.makedirs(folder, exist_ok=True)
        self.folder = folder
        self.env = dict(os.environ, GRADREEL_SERVER="on", XDG_RUNTIME_DIR=folder,
                        GRADREEL_SERVER_IDLE="600")  # more than the cold rows between two warm runs take

    def log(self) -> str:
        import glob

        return "".join(open(p).read() for p in glob.glob(os.path.join(self.folder, "gradreel-*", "*.log")))

    def run(self, args: list[str]) -> float:
        """Seconds for ``render ARGS`` (the first call starts the server and waits until it is ready)."""
        import subprocess

        from scenes.warm_server import ready_pids

        served = self.log().count(" runs scenes.cli ")
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "scenes.cli", *args], check=True, env=self.env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - t0
        if served == 0 and not ready_pids(self.log()):  # the first: cold, and it started the server
            deadline = time.monotonic() + 120
            while not ready_pids(self.log()):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no warm server in 120 s; its log: {self.log()!r}")
                time.sleep(0.1)
        elif self.log().count(" runs scenes.cli ") != served + 1:
            raise RuntimeError(f"render {' '.join(args)} was not served warm; the log: {self.log()!r}")
        return seconds

    def stop(self) -> None:
        import signal

        from scenes.warm_server import ready_pids

        for pid in ready_pids(self.log()):
            os.kill(pid, signal.SIGTERM)


def _render(args: list[str]) -> Run:
    """Run `render ...` in a child process and measure it. The child measures its memory itself:
    a forked child's RSS would count the parent's pages until it execs, and this parent holds a
    whole clip's decoded frames at times."""
    import subprocess

    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--measure", *args], check=True, env=COLD,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    seconds = time.perf_counter() - t0
    peak, cpu = done.stdout.strip().splitlines()[-1].split()
    return Run(seconds, int(peak), float(cpu))


def _measure(args: list[str]) -> NoReturn:
    """Run the render CLI in this process, then print its peak RSS in MiB (its workers' too) and
    the CPU seconds of all, and end as the ``render`` command does (scenes.cli.exit_now)."""
    import contextlib
    import io
    import resource

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from scenes.cli import exit_now, main as render

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

    from scenes.encoder import add_x264

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


SCENE_EDIT = ("w1.grad is {w1.grad}", "w1.grad is {w2.grad}")
"""The last-beat edit rendered with `render scene`: the last caption shows one other number."""
WATCH_EDIT = ("w1.grad is {w1.grad}", "w1.grad is {w1}")
"""The edit saved while `render watch` runs: another number than SCENE_EDIT's, so that its beat
is not in the cache already."""
WARM_EDIT = ("w1.grad is {w1.grad}", "w1.grad is {w2}")
"""The edit rendered by `render scene` with a warm server: a third number."""


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


def _watch_edit(out: str, flags: list[str], folder: str, timeout: float = 600) -> float:
    """Seconds from saving WATCH_EDIT to the new clip, in a `render watch` of the benchmark
    storyboard that is ready (its first render done, Manim imported): what an author who keeps
    one running waits. The clip's beats are in ``out`` already."""
    import queue
    import subprocess
    import threading

    from scenes.commands_watch import READY

    path = _edited(folder, None)
    proc = subprocess.Popen([sys.executable, "-m", "scenes.cli", "watch", path, *flags, "--out", out], env=COLD,
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
            if name == "stdout":
                clips += 1  # a clip's path: a render is done
            elif line.startswith(READY):
                ready = True
            elif line.startswith("render:") or ".yaml:" in line:  # a mistake, reported
                raise RuntimeError(f"render watch: {line.strip()}")

    try:
        wait_until(lambda: ready and clips == 1)  # the first render (joined from the cache), Manim imported
        _edited(folder, WATCH_EDIT)
        t0 = time.perf_counter()
        wait_until(lambda: clips == 2)
        return time.perf_counter() - t0
    finally:  # SIGTERM, not Ctrl-C's SIGINT: a bench started with `&` passes SIGINT on ignored
        proc.terminate()
        proc.wait()


QUALITIES = {"low": ["-q", "low"], "medium": ["-q", "medium"], "high": ["-q", "high"],
             "high30": ["-q", "high", "--fps", "30"]}
"""Benchmark rows: the presets, and 1080p at 30 frames per second."""


def render_bench(qualities: list[str]) -> dict:
    import tempfile

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from scenes.commands_scene import beat_jobs
    from scenes.render_pipeline import RenderOptions, _segments_of, encoder_options, fps_of, split_beats
    from scenes.storyboard import default_timings, load, plan, storyboard_path

    checked = load(storyboard_path(BENCH_CLIP))
    p = plan(checked.run.events, checked.storyboard, default_timings(), checked.index.source)
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
        warm = WarmServer(os.path.join(tmp, "run"))
        try:
            warm_edited = _edited(os.path.join(tmp, "warm_edited"), WARM_EDIT)
            warm.run(["scene", warm_edited, "--size", "256x144", "--fps", "5", "--out", os.path.join(tmp, "warm")])
            for q in qualities:
                out = os.path.join(tmp, q)
                secs, peak, _ = _render(["scene", BENCH_CLIP, *QUALITIES[q], "--out", out, "--force"])
                floor, frames = _encoder_floor(os.path.join(out, f"{BENCH_CLIP}.mp4"),
                                               encoder_options(RenderOptions(quality=QUALITIES[q][1])))
                noop = _render(["scene", BENCH_CLIP, *QUALITIES[q], "--out", out])[0]
                last = _render(["scene", edited, *QUALITIES[q], "--out", out])[0]
                watched = _watch_edit(out, QUALITIES[q], os.path.join(tmp, "watched"))
                warm_full = warm.run(["scene", BENCH_CLIP, *QUALITIES[q], "--out", out, "--force"])
                warm_noop = warm.run(["scene", BENCH_CLIP, *QUALITIES[q], "--out", out])
                warm_last = warm.run(["scene", warm_edited, *QUALITIES[q], "--out", out])
                rows["qualities"][q] = {"render_s": round(secs, 2), "over_clip": round(secs / length, 2),
                                        "encoder_floor_s": round(floor, 2), "over_floor": round(secs / floor, 2),
                                        "frames": frames, "peak_rss_mib": peak, "noop_rerender_s": round(noop, 3),
                                        "last_beat_edit_s": round(last, 2), "last_beat_over_full": round(last / secs, 3),
                                        "watch_edit_s": round(watched, 2), "watch_over_full": round(watched / secs, 3),
                                        "warm_render_s": round(warm_full, 2), "warm_over_clip": round(warm_full / length, 2),
                                        "warm_noop_s": round(warm_noop, 3), "warm_edit_s": round(warm_last, 2),
                                        "warm_edit_over_warm_full": round(warm_last / warm_full, 3)}
            secs = _render(["scene", BENCH_CLIP, *QUALITIES[top], "--out", os.path.join(tmp, "clip_j1"), "--force",
                            "-j", "1"]).seconds
            rows["clip_j1"] = {"quality": top, "render_s": round(secs, 2), "over_floor": round(
                               secs / rows["qualities"][top]["encoder_floor_s"], 2),
                               "default_speedup": round(secs / rows["qualities"][top]["render_s"], 2)}
            out = os.path.join(tmp, qualities[0])
            rows["set_w2_rerender_s"] = round(_render(["scene", BENCH_CLIP, *QUALITIES[qualities[0]], "--out", out,
                                                       "--set", "w2=3.0"])[0], 2)
            for name in CORE:  # their glyphs, as for the benchmark clip
                _render(["scene", name, "--size", "256x144", "--fps", "5", "--out", os.path.join(tmp, "warm")])
            j1 = _render(["all", *CORE, "-q", "low", "-j", "1", "--out", os.path.join(tmp, "j1")])
            j2 = _render(["all", *CORE, "-q", "low", "-j", "2", "--out", os.path.join(tmp, "j2all")])
            warm_j1 = warm.run(["all", *CORE, "-q", "low", "-j", "1", "--out", os.path.join(tmp, "warm_j1")])
            warm_j2 = warm.run(["all", *CORE, "-q", "low", "-j", "2", "--out", os.path.join(tmp, "warm_j2")])
        finally:  # no server outlives the bench
            warm.stop()
        # -j 1 already keeps more than one core busy (x264 and the RGBA to YUV conversion run
        # beside drawing): two processes that spend the same CPU between them can use at most
        # twice that, and no more than every core, so they gain at most min(2, cores / busy)
        busy = j1.cpu_s / j1.seconds
        rows.update(core_j1_s=round(j1.seconds, 2), core_j2_s=round(j2.seconds, 2), core_j1_cpu_s=round(j1.cpu_s, 2),
                    core_j2_cpu_s=round(j2.cpu_s, 2), j2_speedup=round(j1.seconds / j2.seconds, 2),
                    j2_ceiling=round(min(2.0, len(os.sched_getaffinity(0)) / busy), 2),
                    warm_core_j1_s=round(warm_j1, 2), warm_core_j2_s=round(warm_j2, 2),
                    warm_j2_speedup=round(warm_j1 / warm_j2, 2))
    return rows


def main() -> int:
    if sys.argv[1:2] == ["--measure"]:
        return _measure(sys.argv[2:])
    if sys.argv[1:2] == ["--floor"]:
        print(*_floor_here(sys.argv[2], json.loads(sys.argv[3])))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure (median is reported)")
    ap.add_argument("--render", action="store_true", help="also benchmark rendering (takes minutes)")
    ap.add_argument("--qualities", default="low,medium,high30,high",
                    help=f"rows for --render, from {','.join(QUALITIES)} (the last is also rendered with -j 1)")
    ap.add_argument("--show", metavar="FILE", help="print the table of a report saved with --json, and stop")
    args = ap.parse_args()
    if args.show:
        with open(args.show) as f:
            print_table(json.load(f))
        return 0
    sys.setrecursionlimit(100_000)  # micrograd's backward is a recursive topological sort
    rows = {}
    for name, fn in (("gradreel", gradreel_run), ("torch", torch_run), ("micrograd", micrograd_run)):
        try:
            seconds, grad = timed(fn, args.repeat)
            rows[name] = {"seconds": round(seconds, 4), "w3_grad": grad}
        except ImportError as exc:
            rows[name] = {"seconds": None, "missing": str(exc)}
    ours = rows["gradreel"]["seconds"]
    for name, row in rows.items():
        row["gradreel_over_this"] = round(ours / row["seconds"], 2) if row.get("seconds") else None
    report = {"benchmark": "engine: 10,000 ops forward + backward (+ full event log for gradreel)",
              "ops": 4 * ITERATIONS, "repeat": args.repeat, "python": platform.python_version(),
              "machine": platform.machine(), "results": rows}
    if args.render:
        report["render"] = render_bench(args.qualities.split(","))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print_table(report)
    return 0


def print_table(report: dict) -> None:
    """The table of a report (this run's, or one saved with --json and shown with --show)."""
    rows = report["results"]
    print(f"{report['benchmark']}, median of {report['repeat']}")
    print(f"{'engine':<12}{'seconds':>10}{'gradreel / this':>18}   w3.grad")
    for name, row in rows.items():
        if row.get("seconds") is None:
            print(f"{name:<12}{'-':>10}{'-':>18}   ({row['missing']})")
        else:
            print(f"{name:<12}{row['seconds']:>10.4f}{row['gradreel_over_this']:>17.2f}x   {row['w3_grad']}")
    if "render" in report:
        r = report["render"]
        print(f"\nrender: {r['clip']} ({r['clip_seconds']} s of clip)")
        print(f"{'quality':<8}{'render s':>9}{'x clip':>7}{'x264 floor s':>13}{'x floor':>8}{'frames':>7}"
              f"{'MiB/proc':>9}{'no-op s':>8}{'last beat edited s':>19}{'x full':>7}{'in watch s':>11}{'x full':>7}")
        for q, row in r["qualities"].items():
            print(f"{q:<8}{row['render_s']:>9}{row['over_clip']:>7}{row['encoder_floor_s']:>13}"
                  f"{row['over_floor']:>8}{row['frames']:>7}{row['peak_rss_mib']:>9}{row['noop_rerender_s']:>8}"
                  f"{row['last_beat_edit_s']:>19}{row['last_beat_over_full']:>7}{row['watch_edit_s']:>11}"
                  f"{row['watch_over_full']:>7}")
        j1 = r["clip_j1"]
        print(f"rows above: the default ({r['beat_jobs']} processes for all beats at {j1['quality']}); "
              f"{j1['quality']} with -j 1 (one process): {j1['render_s']} s ({j1['over_floor']}x floor; "
              f"the default {j1['default_speedup']}x faster); "
              f"--set w2=3.0 (a program change: every beat) {r['set_w2_rerender_s']} s; "
              f"4 core clips -j1 {r['core_j1_s']} s ({r['core_j1_cpu_s']} CPU-s), -j2 {r['core_j2_s']} s "
              f"({r['core_j2_cpu_s']} CPU-s): {r['j2_speedup']}x, of at most {r['j2_ceiling']}x at -j 1's CPU")
        if "warm_core_j1_s" not in r:  # a report from before the warm server
            return
        print("\nwith a warm server (scenes.warm_client: an author's renders after the first, at a terminal)")
        print(f"{'quality':<8}{'render s':>9}{'x clip':>7}{'no-op s':>8}{'last beat edited s':>19}{'x full':>7}")
        for q, row in r["qualities"].items():
            print(f"{q:<8}{row['warm_render_s']:>9}{row['warm_over_clip']:>7}{row['warm_noop_s']:>8}"
                  f"{row['warm_edit_s']:>19}{row['warm_edit_over_warm_full']:>7}")
        print(f"4 core clips -j1 {r['warm_core_j1_s']} s, -j2 {r['warm_core_j2_s']} s: {r['warm_j2_speedup']}x")


if __name__ == "__main__":
    sys.exit(main())
