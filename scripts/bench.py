"""gradreel benchmarks.

Engine: forward + backward + full event log of a 10,000-operation program, side by side with the
same program on PyTorch (scalar tensors) and on micrograd; each figure the median of --repeat runs.

Render (--render): for the benchmark clip (backward_walk) at each quality, render time over clip
length; the encoder-only floor (the same frames, decoded from the clip, encoded again by x264 with
the settings the render used); peak memory; a no-op re-render; a re-render after one number in
the last beat's caption changes (renders as an author runs them: beats in one process per core,
as memory allows), and the same kind of edit saved while `render watch` runs (from the save to
the new clip). Then the last quality with
-j 1 (one process), a re-render after --set changes a number shown from beat 2 on, and the four
core clips one after the other against two at a time, alternated --pairs times,
and the last quality's render and floor --pairs times (its "x floor" is the median of those
ratios; the median and each pair's are shown: the machine's speed drifts within minutes). The glyph
cache is warmed first, as an author's would be.

Cluster (with --render, or --cluster alone): the four core clips at low quality with `render all
-j 2` and on a Dask LocalCluster of 2 workers (`render all --scheduler`), alternated --pairs times,
and a 40-clip course projected on 1, 4 and 16 workers from the measured time of every beat, with
the longest beat as the floor (scripts/bench_cluster.py says how).

    ./scripts/bench                      engine table
    ./scripts/bench --render             engine and render tables (takes minutes)
    ./scripts/bench --render --json      the same figures as JSON, to compare between commits
    ./scripts/bench --cluster            engine table and the cluster row
    ./scripts/bench --voices             engine table and the voices' synthesis speed
    ./scripts/bench --narrated high      engine table and a narrated render against a silent one at 1080p60
    ./scripts/bench --narration-edit     engine table and a narration edit's time in `render watch` at low

Voices (--voices, or --render): synthesis seconds per second of speech of the neural and draft
voices on the first phrases of backward_walk (scripts/bench_voice.py, which also runs alone).
Narrated (--narrated QUALITY): the benchmark clip narrated (--voice-name, default neural)
against --voice off, render seconds per second of clip, --pairs times (scripts/bench_narrated.py).
Narration edit (--narration-edit, or --render): one phrase of the benchmark clip's fifth beat
saved saying more while `render watch` runs at low quality, narrated (--voice-name): seconds from
the save to the new clip (target at most 3 s), and how many beats it drew (scripts/bench_narrated.py).

The rendering figures are measured by scripts/bench_render.py.
"""

from __future__ import annotations

import argparse
import json
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
    from engine.records import Accumulate, Visit

    log = run_program(PROGRAM, "bench.py")
    text = log.to_jsonl()
    assert len(log.of_kind(Visit)) > 4 * ITERATIONS and text
    return float(log.of_kind(Accumulate)[-1].after)


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


def main() -> int:
    from bench_render import QUALITIES, render_bench  # beside this file

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure (median is reported)")
    ap.add_argument("--render", action="store_true", help="also benchmark rendering (takes minutes)")
    ap.add_argument("--cluster", action="store_true", help="also the cluster row (in --render already)")
    ap.add_argument("--qualities", default="low,medium,high30,high",
                    help=f"rows for --render, from {','.join(QUALITIES)} (the last is also rendered with -j 1)")
    ap.add_argument("--pairs", type=int, default=3,
                    help="for --render: alternations of render all -j 1 and -j 2, and of the last quality's render and "
                         "floor (median and spread are shown)")
    ap.add_argument("--voices", action="store_true", help="also the voices' synthesis speed (in --render already)")
    ap.add_argument("--narrated", metavar="QUALITY", choices=list(QUALITIES), default=None,
                    help="also the narrated row: a narrated render against a silent one at QUALITY (e.g. high)")
    ap.add_argument("--narration-edit", action="store_true",
                    help="also a narration edit's time in `render watch` at low quality (in --render already)")
    ap.add_argument("--voice-name", default="neural",
                    help="the voice of the --narrated and --narration-edit rows (default: neural)")
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
        report["render"] = render_bench(args.qualities.split(","), max(1, args.pairs))
    if args.render or args.cluster:
        from bench_cluster import cluster_bench

        report["cluster"] = cluster_bench(["-q", "low"], max(1, args.pairs))
    if args.render or args.voices:
        from bench_voice import voice_bench

        report["voices"] = voice_bench()
    if args.render or args.narration_edit:
        from bench_narrated import narration_edit_bench

        report["narration_edit"] = narration_edit_bench(args.voice_name)
    if args.narrated:
        from bench_narrated import narrated_bench

        report["narrated"] = narrated_bench(args.narrated, args.voice_name, max(1, args.pairs))
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
        top = r["qualities"][j1["quality"]]
        if len(top.get("over_floor_runs", [])) > 1:
            print(f"{j1['quality']} over its floor: {top['over_floor']}x{_spread(top['over_floor_runs'])}, "
                  f"render s {' '.join(map(str, top['render_runs']))}, floor s {' '.join(map(str, top['floor_runs']))}")
        print(f"rows above: the default ({r['beat_jobs']} processes for all beats at {j1['quality']}); "
              f"{j1['quality']} with -j 1 (one process): {j1['render_s']} s ({j1['over_floor']}x floor; "
              f"the default {j1['default_speedup']}x faster); "
              f"--set w2=3.0 (a program change: every beat) {r['set_w2_rerender_s']} s; "
              f"4 core clips -j1 {r['core_j1_s']} s ({r['core_j1_cpu_s']} CPU-s), -j2 {r['core_j2_s']} s "
              f"({r['core_j2_cpu_s']} CPU-s): {r['j2_speedup']}x{_spread(r.get('j2_speedups'))}, "
              f"of at most {r['j2_ceiling']}x at -j 1's CPU")
    if "cluster" in report:
        from bench_cluster import cluster_lines

        print("\n" + "\n".join(cluster_lines(report["cluster"])))
    if "voices" in report:
        from bench_voice import voice_lines

        print("\n" + "\n".join(voice_lines(report["voices"])))
    if "narration_edit" in report:
        from bench_narrated import narration_edit_lines

        print("\n" + "\n".join(narration_edit_lines(report["narration_edit"])))
    if "narrated" in report:
        from bench_narrated import narrated_lines

        print("\n" + "\n".join(narrated_lines(report["narrated"])))


def _spread(gains: list[float] | None) -> str:
    """' (median of 3: 1.35x 1.51x 1.58x)' for a report with several pairs; nothing for one."""
    if not gains or len(gains) < 2:
        return ""
    return f" (median of {len(gains)}: {' '.join(f'{g}x' for g in gains)})"


if __name__ == "__main__":
    sys.exit(main())
