"""Hand-built event logs (node + tensor events, per docs/event-log.md) for layout and preview.

Why by hand: the visuals are built in parallel with the engine; these fixtures follow the
contract so the layout can be tested before `engine.run_program` exists. When the engine is
importable, `seed_events()` prefers it, so the preview shows what the engine really logs.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from engine.records import Event, record_of

SEED_SOURCE = """import torch
x  = torch.tensor(1.0)
w1 = torch.tensor(1/3, requires_grad=True)
w2 = torch.tensor(2.0, requires_grad=True)
y  = torch.tensor(0.0)
z  = x * w1
s  = z.relu()
yh = s * w2
L  = (yh - y)**2
"""


class Recorder:
    """Writes node/tensor events the way the engine does: ids in creation order, seq in order."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.nt = 0
        self.nn = 0
        self.info: dict[str, dict[str, Any]] = {}

    def _emit(self, ev: dict[str, Any]) -> None:
        self.events.append(record_of({"seq": len(self.events), **ev}))

    def leaf(self, name: str | None, value: float, requires_grad: bool = False, line: int = 1) -> str:
        tid = f"t{self.nt}"
        self.nt += 1
        node = None
        if requires_grad:
            node = f"n{self.nn}"
            self.nn += 1
            self._emit({"kind": "node", "line": line, "id": node, "grad_fn": "AccumulateGrad", "tensor": tid, "edges": [], "sequence_nr": None})
        self._emit({"kind": "tensor", "line": line, "id": tid, "name": name, "value": value, "exact": _exact(value),
                    "str": _str(value, requires_grad, None), "requires_grad": requires_grad, "is_leaf": True, "grad_fn": None,
                    "node": node, "edges": [], "dtype": "float32", "op": "tensor", "inputs": [], "span": [0, 1]})
        self.info[tid] = {"value": value, "node": node, "rg": requires_grad}
        return tid

    def op(self, grad_fn: str, op: str, inputs: list[str | float], value: float, name: str | None = None, line: int = 1) -> str:
        tid = f"t{self.nt}"
        self.nt += 1
        tensor_in = [i for i in inputs if isinstance(i, str)]
        rg = any(self.info[i]["rg"] for i in tensor_in)
        node, edges = None, []
        if rg:
            node = f"n{self.nn}"
            self.nn += 1
            edges = [self.info[i]["node"] for i in tensor_in]
            self._emit({"kind": "node", "line": line, "id": node, "grad_fn": grad_fn, "tensor": tid, "edges": edges, "sequence_nr": self.nn})
        self._emit({"kind": "tensor", "line": line, "id": tid, "name": name, "value": value, "exact": _exact(value),
                    "str": _str(value, rg, grad_fn if rg else None), "requires_grad": rg, "is_leaf": not rg,
                    "grad_fn": grad_fn if rg else None, "node": node, "edges": edges, "dtype": "float32", "op": op,
                    "inputs": list(inputs), "span": [0, 1]})
        self.info[tid] = {"value": value, "node": node, "rg": rg}
        return tid

    def value(self, tid: str) -> float:
        return float(self.info[tid]["value"])


def _exact(v: float) -> str | None:
    f = Fraction(v).limit_denominator(1000)
    return str(f) if abs(float(f) - v) < 1e-9 else None


def _str(v: float, rg: bool, gf: str | None) -> str:
    body = f"{v:.4f}".rstrip("0").rstrip(".") if v != int(v) else f"{v:.0f}."
    if gf:
        return f"tensor({v:.4f}, grad_fn=<{gf}>)"
    return f"tensor({body}, requires_grad=True)" if rg else f"tensor({body})"


def seed_events_by_hand() -> list[Event]:
    """The second article's program: z = x*w1, s = relu(z), yh = s*w2, L = (yh - y)**2."""
    r = Recorder()
    x = r.leaf("x", 1.0, line=2)
    w1 = r.leaf("w1", 1 / 3, True, line=3)
    w2 = r.leaf("w2", 2.0, True, line=4)
    y = r.leaf("y", 0.0, line=5)
    z = r.op("MulBackward0", "mul", [x, w1], 1 / 3, "z", line=6)
    s = r.op("ReluBackward0", "relu", [z], 1 / 3, "s", line=7)
    yh = r.op("MulBackward0", "mul", [s, w2], 2 / 3, "yh", line=8)
    d = r.op("SubBackward0", "sub", [yh, y], 2 / 3, None, line=9)
    r.op("PowBackward0", "pow", [d, 2], 4 / 9, "L", line=9)
    return r.events


def seed_events() -> list[Event]:
    """The seed program's events: from the engine when it exists, else the hand-built log."""
    try:
        from engine import run_program  # type: ignore[attr-defined]
    except ImportError:
        return seed_events_by_hand()
    return list(run_program(SEED_SOURCE, "seed.py").events)


def mlp_events(sizes: tuple[int, ...] = (4, 4, 4, 1), seed: int = 0) -> list[Event]:
    """A scalar MLP (4-4-4-1: 36 weights, about 109 autograd nodes) and a squared-error loss."""
    rnd = random.Random(seed)
    r = Recorder()
    acts = [r.leaf(f"x{i}", round(rnd.uniform(-1, 1), 2)) for i in range(sizes[0])]
    for li, (n_in, n_out) in enumerate(zip(sizes, sizes[1:]), start=1):
        weights = [[r.leaf(f"w{li}_{j}{i}", round(rnd.uniform(-1, 1), 2), True) for i in range(n_in)] for j in range(n_out)]
        nxt = []
        for j in range(n_out):
            acc = None
            for i in range(n_in):
                p = r.op("MulBackward0", "mul", [weights[j][i], acts[i]], r.value(weights[j][i]) * r.value(acts[i]))
                acc = p if acc is None else r.op("AddBackward0", "add", [acc, p], r.value(acc) + r.value(p))
            assert acc is not None
            if li < len(sizes) - 1:
                acc = r.op("ReluBackward0", "relu", [acc], max(0.0, r.value(acc)), f"h{li}_{j}")
            nxt.append(acc)
        acts = nxt
    y = r.leaf("y", 1.0)
    d = r.op("SubBackward0", "sub", [acts[0], y], r.value(acts[0]) - 1.0)
    r.op("PowBackward0", "pow", [d, 2], (r.value(acts[0]) - 1.0) ** 2, "L")
    return r.events


def reciprocal_mul(r: Recorder, c: float, t: str, line: int = 1) -> str:
    """`c / t` as PyTorch records it: MulBackward0 whose edge goes to an internal ReciprocalBackward0."""
    inner = f"n{r.nn}"
    r.nn += 1
    r._emit({"kind": "node", "line": line, "id": inner, "grad_fn": "ReciprocalBackward0", "tensor": None,
             "edges": [r.info[t]["node"]], "sequence_nr": r.nn})
    tid = f"t{r.nt}"
    r.nt += 1
    node = f"n{r.nn}"
    r.nn += 1
    value = c / r.value(t) if r.value(t) else 0.0
    r._emit({"kind": "node", "line": line, "id": node, "grad_fn": "MulBackward0", "tensor": tid, "edges": [inner], "sequence_nr": r.nn})
    r._emit({"kind": "tensor", "line": line, "id": tid, "name": None, "value": value, "exact": None,
             "str": f"tensor({value:.4f}, grad_fn=<MulBackward0>)", "requires_grad": True, "is_leaf": False,
             "grad_fn": "MulBackward0", "node": node, "edges": [inner], "dtype": "float32", "op": "div",
             "inputs": [c, t], "span": [0, 1]})
    r.info[tid] = {"value": value, "node": node, "rg": True}
    return tid
