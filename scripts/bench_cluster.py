"""The cluster figures of ``scripts/bench.py`` (``--render`` or ``--cluster``): the four core clips
on a Dask LocalCluster of 2 workers against ``render all -j 2``, in the same run, and a projection
of a 40-clip course on 1, 4 and 16 workers, simulated from the measured time of every beat.

Why a simulation: this machine has two cores, so more workers can only be projected. Each beat's
time is measured in one `render all -j 1` of the core clips (from the moment its "beat k/N" line
is printed to the next line of that clip); the course is those clips ten times over; on W
workers each clip is split into ranges as ``render --scheduler`` splits it (``split_beats`` with
W jobs), and each range, in the order they are handed out, goes to the worker free first. The
longest beat is the floor: no number of workers draws a clip faster than its longest beat.
Per-task costs (loading the storyboard in the worker, bytes over the network) are not in it.

    python scripts/bench_cluster.py [--size WxH --fps N | -q QUALITY] [--pairs N]   this row alone
"""

from __future__ import annotations

import heapq
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from bench_render import CORE, _render  # noqa: E402  (beside this file)

COURSE_CLIPS = 40
PROJECTED_WORKERS = (1, 4, 16)
BEAT_LINE = re.compile(r"^(\w+): beat (\d+)/(\d+) ")
DONE_LINE = re.compile(r"^(\w+): \d+ of \d+ beats drawn")


def beat_seconds(flags: list[str], out: str) -> dict[str, list[float]]:
    """Each core clip's beats, in seconds, from one `render all -j 1` (one process, one beat at a
    time): the time from a beat's progress line to the next line of its clip."""
    proc = subprocess.Popen([sys.executable, "-m", "scenes.commands.main", "all", *CORE, *flags, "-j", "1",
                             "--force", "--out", out], cwd=os.path.join(os.path.dirname(__file__), ".."),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    starts: dict[str, list[float]] = {}
    times: dict[str, list[float]] = {}
    for line in proc.stderr:
        now = time.perf_counter()
        if m := BEAT_LINE.match(line):
            starts.setdefault(m[1], []).append(now)
        elif (m := DONE_LINE.match(line)) and m[1] in starts:
            marks = starts.pop(m[1]) + [now]
            times[m[1]] = [round(b - a, 3) for a, b in zip(marks, marks[1:])]
    if proc.wait() != 0:
        raise RuntimeError("render all -j 1 failed")
    return times


def project(times: dict[str, list[float]], flags: list[str]) -> dict:
    """A course of COURSE_CLIPS clips (the measured ones, over and over) on each of
    PROJECTED_WORKERS workers: the simulated wall time, against the longest beat (the floor)."""
    from scenes.render.options import RenderOptions, fps_of
    from scenes.render.pipeline import _segments_of, split_beats
    from scenes.storyboard import load_and_plan, storyboard_path

    opts = _options(flags)
    segs = {n: _segments_of(load_and_plan(storyboard_path(n), (), n)[1], opts) for n in times}
    course = [CORE[k % len(CORE)] for k in range(COURSE_CLIPS)]
    total = sum(sum(times[n]) for n in course)
    rows = {}
    for workers in PROJECTED_WORKERS:
        free = [0.0] * workers  # when each worker is next free; the tasks in the order handed out
        for name in course:
            for a, b in split_beats(segs[name], workers, fps_of(opts)):
                heapq.heappush(free, heapq.heappop(free) + sum(times[name][a:b + 1]))
        rows[str(workers)] = {"seconds": round(max(free), 1), "speedup": round(total / max(free), 2)}
    return {"clips": COURSE_CLIPS, "one_worker_s": round(total, 1), "workers": rows,
            "longest_beat_s": max(max(t) for t in times.values())}


def _options(flags: list[str]) -> "object":
    from scenes.render.options import RenderOptions

    given = dict(zip(flags[::2], flags[1::2]))
    size = tuple(int(v) for v in given["--size"].split("x")) if "--size" in given else None
    return RenderOptions(quality=given.get("-q", "low"), size=size,  # type: ignore[arg-type]
                         fps=int(given["--fps"]) if "--fps" in given else None)


def cluster_bench(flags: list[str], pairs: int = 1) -> dict:
    """The four core clips (at ``flags``, e.g. ["-q", "low"]) with `render all -j 2` and with
    `render all --scheduler` on a LocalCluster of 2 one-thread workers, alternated ``pairs``
    times (each in folders of their own: every beat drawn), then the per-beat times and the
    projection. The cluster's workers are started, and have drawn once, before the first pair,
    as a cluster's are; `-j 2` starts its two processes in every run, as it does for an author."""
    from distributed import LocalCluster

    with tempfile.TemporaryDirectory(prefix="gradreel-bench-cluster-") as tmp:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None, local_directory=os.path.join(tmp, "workers")) as lc:
            address = lc.scheduler_address
            _render(["all", *CORE, "--size", "256x144", "--fps", "5", "--out", os.path.join(tmp, "warm"),
                     "--scheduler", address])  # the workers' imports, and every clip's glyphs
            runs = []
            for k in range(pairs):
                j2 = _render(["all", *CORE, *flags, "-j", "2", "--out", os.path.join(tmp, f"j2_{k}")])
                on = _render(["all", *CORE, *flags, "--scheduler", address, "--out", os.path.join(tmp, f"c_{k}")])
                runs.append((round(j2.seconds, 2), round(on.seconds, 2)))
        times = beat_seconds(flags, os.path.join(tmp, "j1"))
    ratios = [round(c / j, 2) for j, c in runs]
    return {"flags": " ".join(flags), "j2_s": statistics.median(j for j, _ in runs),
            "cluster_s": statistics.median(c for _, c in runs), "cluster_over_j2": statistics.median(ratios),
            "cluster_over_j2_runs": ratios, "beat_seconds": times, "projection": project(times, flags)}


def cluster_lines(r: dict) -> list[str]:
    """The table's lines for a cluster report."""
    p = r["projection"]
    spread = f" (median of {len(r['cluster_over_j2_runs'])}: {' '.join(f'{x}x' for x in r['cluster_over_j2_runs'])})" \
        if len(r["cluster_over_j2_runs"]) > 1 else ""
    course = ", ".join(f"{w} worker{'s' if w != '1' else ''} {row['seconds']} s ({row['speedup']}x)"
                       for w, row in p["workers"].items())
    return [f"cluster: 4 core clips at {r['flags']}: render all -j 2 {r['j2_s']} s, on a LocalCluster of 2 workers "
            f"{r['cluster_s']} s: {r['cluster_over_j2']}x the time{spread}",
            f"projected, {p['clips']} clips from the measured beats: {course}; longest beat (the floor) "
            f"{p['longest_beat_s']} s"]


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-q", dest="quality", default="low")
    ap.add_argument("--size", default=None, help="WIDTHxHEIGHT instead of the quality's (a quick look)")
    ap.add_argument("--fps", default=None)
    ap.add_argument("--pairs", type=int, default=1)
    args = ap.parse_args()
    flags = ["-q", args.quality] + (["--size", args.size] if args.size else []) + (["--fps", args.fps] if args.fps else [])
    report = cluster_bench(flags, args.pairs)
    print("\n".join(cluster_lines(report)))
    print("per-beat seconds:", report["beat_seconds"])
