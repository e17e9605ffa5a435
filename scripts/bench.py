"""gradreel benchmarks, engine part: forward + backward + full event log of a 10,000-operation
program, side by side with the same program on PyTorch (scalar tensors) and on micrograd.

    ./scripts/bench            a table
    ./scripts/bench --json     the same figures as JSON, to compare between commits

Each figure is the median of --repeat runs (default 5) of the whole step, in seconds.
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure (median is reported)")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
