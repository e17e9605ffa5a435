"""gradreel benchmarks.

Engine: forward + backward + full event log of a 10,000-operation program, side by side with the
same program on PyTorch (scalar tensors) and on micrograd; each figure the median of --repeat runs.

Render (--render): for the benchmark clip (backward_walk) at each quality, render time over clip
length; the encoder-only floor (the same frames, decoded from the clip, encoded again by x264 at
the preset Manim uses); a no-op re-render; a re-render after one number changes; the four core
clips one after the other against two at a time; peak memory of a render process.

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
from typing import Callable

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


def _render(args: list[str]) -> tuple[float, int]:
    """Run `render ...` in a child process; (wall seconds, peak RSS of that child in MiB)."""
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "scenes.cli", *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) // 1024


def _encoder_floor(clip: str) -> tuple[float, int]:
    """Seconds x264 alone needs for the clip's frames (decoding time taken out), and frames."""
    import av

    t_decode = time.perf_counter()
    with av.open(clip) as box:
        n = sum(1 for _ in box.decode(box.streams.video[0]))
    t_decode = time.perf_counter() - t_decode
    with av.open(clip) as box, av.open(os.devnull, "w", format="mp4") as sink:
        src = box.streams.video[0]
        dst = sink.add_stream("libx264", rate=src.average_rate)
        dst.width, dst.height, dst.pix_fmt = src.codec_context.width, src.codec_context.height, "yuv420p"
        t0 = time.perf_counter()
        for frame in box.decode(src):
            for packet in dst.encode(frame.reformat(format="yuv420p")):
                sink.mux(packet)
        for packet in dst.encode():
            sink.mux(packet)
        both = time.perf_counter() - t0
    return max(both - t_decode, 0.0), n


def render_bench(qualities: list[str]) -> dict:
    import tempfile

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    from scenes.storyboard import default_timings, load, plan, storyboard_path

    checked = load(storyboard_path(BENCH_CLIP))
    length = plan(checked.run.events, checked.storyboard, default_timings(), checked.index.source).duration
    rows: dict = {"clip": BENCH_CLIP, "clip_seconds": round(length, 2), "qualities": {}}
    with tempfile.TemporaryDirectory(prefix="gradreel-bench-") as tmp:
        for q in qualities:
            out = os.path.join(tmp, q)
            secs, peak = _render(["scene", BENCH_CLIP, "-q", q, "--out", out, "--force"])
            floor, frames = _encoder_floor(os.path.join(out, f"{BENCH_CLIP}.mp4"))
            rows["qualities"][q] = {"render_s": round(secs, 2), "over_clip": round(secs / length, 2),
                                    "encoder_floor_s": round(floor, 2), "over_floor": round(secs / floor, 2),
                                    "frames": frames, "peak_rss_mib": peak}
        out = os.path.join(tmp, qualities[0])
        rows["noop_rerender_s"] = round(_render(["scene", BENCH_CLIP, "-q", qualities[0], "--out", out])[0], 3)
        rows["one_number_changed_s"] = round(
            _render(["scene", BENCH_CLIP, "-q", qualities[0], "--out", out, "--set", "w2=3.0"])[0], 2)
        serial = os.path.join(tmp, "serial")
        t0 = time.perf_counter()
        for name in CORE:
            _render(["scene", name, "-q", "low", "--out", serial])
        rows["core_j1_s"] = round(time.perf_counter() - t0, 2)
        t0 = time.perf_counter()
        import subprocess
        procs = []
        for name in CORE:  # two at a time, as `render all -j 2` does
            if len(procs) == 2:
                procs.pop(0).wait()
            procs.append(subprocess.Popen([sys.executable, "-m", "scenes.cli", "scene", name, "-q", "low",
                                           "--out", os.path.join(tmp, "parallel")],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for p in procs:
            p.wait()
        rows["core_j2_s"] = round(time.perf_counter() - t0, 2)
        rows["j2_speedup"] = round(rows["core_j1_s"] / rows["core_j2_s"], 2)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure (median is reported)")
    ap.add_argument("--render", action="store_true", help="also benchmark rendering (takes minutes)")
    ap.add_argument("--qualities", default="low,medium,high", help="qualities for --render")
    args = ap.parse_args()
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
    print(f"{report['benchmark']}, median of {args.repeat}")
    print(f"{'engine':<12}{'seconds':>10}{'gradreel / this':>18}   w3.grad")
    for name, row in rows.items():
        if row.get("seconds") is None:
            print(f"{name:<12}{'-':>10}{'-':>18}   ({row['missing']})")
        else:
            print(f"{name:<12}{row['seconds']:>10.4f}{row['gradreel_over_this']:>17.2f}x   {row['w3_grad']}")
    if args.render:
        r = report["render"]
        print(f"\nrender: {r['clip']} ({r['clip_seconds']} s of clip)")
        print(f"{'quality':<8}{'render s':>10}{'x clip':>8}{'x264 floor s':>14}{'x floor':>9}{'frames':>8}{'peak MiB':>10}")
        for q, row in r["qualities"].items():
            print(f"{q:<8}{row['render_s']:>10}{row['over_clip']:>8}{row['encoder_floor_s']:>14}"
                  f"{row['over_floor']:>9}{row['frames']:>8}{row['peak_rss_mib']:>10}")
        print(f"no-op re-render {r['noop_rerender_s']} s; one number changed (w2) {r['one_number_changed_s']} s; "
              f"4 core clips -j1 {r['core_j1_s']} s, -j2 {r['core_j2_s']} s ({r['j2_speedup']}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
