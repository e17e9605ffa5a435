"""Where the engine and PyTorch first part, said in the program's words.

:func:`scenes.oracle.traces.compare_traces` says *that* two traces differ, by entry number and
tensor index. An author needs the tensor's name, the line that made it, both values and how far
apart they are in float32 ulps: :func:`first_difference` finds the first entry that differs
and :class:`Disagreement` says it so ("PyTorch disagrees on W1[1][0].grad, filled by the
backward call on line 17: gradreel -0.0010175835, PyTorch -0.0010175834, 1 ulp apart").
``ulps`` is set when the entries differ only in float32 values (and the printouts of them): what
``render check`` may then find to be PyTorch's own one-ulp difference between its CPU kernels.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass
from typing import Any

from engine.events import Log
from engine.records import Event, Tensor, Visit
from engine.records import Node as NodeEvent

_NUMBER = re.compile(r"-?\d+\.?\d*(?:e[-+]\d+)?|nan|-?inf")


@dataclass(frozen=True)
class Disagreement:
    """The first entry the two traces differ in: the program ``line`` it belongs to, what it is
    about (``subject``, with how it came about: "made on line 13"), both sides' differing parts,
    and, when those are float32 values only, the most ``ulps`` any pair is apart."""

    line: int
    subject: str
    ours: str
    theirs: str
    ulps: int | None

    def message(self) -> str:
        apart = f", {self.ulps} ulp{'s' * (self.ulps != 1)} apart" if self.ulps is not None else ""
        return f"PyTorch disagrees on {self.subject}: gradreel {self.ours}, PyTorch {self.theirs}{apart}"


def ulps(a: Any, b: Any) -> int | None:
    """How many float32 steps apart two finite values are (0 for 0.0 and -0.0); None otherwise."""
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float))) or isinstance(a, bool) \
            or isinstance(b, bool) or not (math.isfinite(a) and math.isfinite(b)):
        return None

    def ordered(x: float) -> int:
        bits = struct.unpack("<I", struct.pack("<f", x))[0]
        return bits if bits < 0x80000000 else 0x80000000 - bits
    return abs(ordered(a) - ordered(b))


def first_difference(log: Log, ours: list[tuple], sources: list[Event], theirs: list[tuple]) -> Disagreement | None:
    """The first entry where ``ours`` (the engine's trace of ``log``, ``sources`` the events its
    entries were made from) and ``theirs`` (PyTorch's) differ, in the program's names; None when
    they agree."""
    tensors = [e for e in log.events if isinstance(e, Tensor)]
    source = log.header.get("source", "").splitlines()
    for at, (a, b) in enumerate(zip(ours, theirs)):
        if a != b:
            return _described(a, b, sources[at], tensors, source, log)
    n = min(len(ours), len(theirs))
    if len(ours) == len(theirs):
        return None
    lines = [e.line for e in sources]
    line = lines[n] if len(ours) > n else (lines[-1] if lines else 1)
    goes_on = f"goes on with {(ours[n] if len(ours) > n else theirs[n])!r}"
    return Disagreement(line, f"what follows line {line}", goes_on if len(ours) > n else "ends there",
                        "ends there" if len(ours) > n else goes_on, None)


def _called(i: int, tensors: list[Tensor], source: list[str]) -> str:
    """Tensor number ``i`` as the program calls it: its name, else its code, else its place."""
    if not 0 <= i < len(tensors):
        return f"tensor {i}"
    t = tensors[i]
    if t.name:
        return t.name
    if t.span and 0 < t.line <= len(source):
        return "`" + source[t.line - 1].encode("utf-8")[t.span[0]:t.span[1]].decode("utf-8", "replace") + "`"
    return f"the tensor made on line {t.line}"


def _described(a: tuple, b: tuple, ev: Event, tensors: list[Tensor], source: list[str], log: Log) -> Disagreement:
    kind, line = a[0], ev.line
    if kind != b[0]:
        return Disagreement(line, f"what line {line} does", repr(a), repr(b), None)
    if kind in ("tensor", "update") and len(a) == len(b) == 6 and a[1] == b[1]:
        i = a[1]
        subject = f"{_called(i, tensors, source)}, {'made' if kind == 'tensor' else 'changed in place'} on line {line}"
        parts = [(f"{what} ", x, y) for what, x, y in (("grad_fn", a[4], b[4]),
                                                      ("edges to", _labels(a[5], tensors, source),
                                                       _labels(b[5], tensors, source))) if x != y]
        if parts:
            return Disagreement(line, subject, "; ".join(f"{w}{x}" for w, x, _ in parts),
                                "; ".join(f"{w}{y}" for w, _, y in parts), None)
        apart = ulps(a[3], b[3])
        same_text = _NUMBER.sub("#", a[2]) == _NUMBER.sub("#", b[2])
        if a[3] != b[3]:
            return Disagreement(line, subject, f"{a[3]!r} ({a[2]})", f"{b[3]!r} ({b[2]})", apart if same_text else None)
        return Disagreement(line, subject, a[2], b[2], None)
    if kind == "grads":
        keys = list(dict.fromkeys([*a[1], *b[1]]))
        worst: int | None = 0
        first = None
        for k in keys:
            x, y = a[1].get(k, "absent"), b[1].get(k, "absent")
            if x == y:
                continue
            first = first if first is not None else (k, x, y)
            apart = ulps(x, y)
            worst = None if apart is None or worst is None else max(worst, apart)
        if first is not None:
            k, x, y = first
            others = sum(1 for k2 in keys if a[1].get(k2, "absent") != b[1].get(k2, "absent")) - 1
            more = f" (and {others} more .grad{'s' * (others != 1)})" if others else ""
            subject = f"{_called(k, tensors, source)}.grad, as line {line} left it{more}"
            return Disagreement(line, subject, repr(x), repr(y), worst)
    if kind == "visit" and isinstance(ev, Visit) and len(a) == len(b) == 5 and a[:3] == b[:3]:
        return _visit(a, b, ev, tensors, source, log)
    if kind == "visit" and a[1] == b[1]:
        return Disagreement(line, f"the order of backward call {a[1]} (line {line})",
                            f"visits {_label(a[2], tensors, source)} next", f"visits {_label(b[2], tensors, source)} next",
                            None)
    if kind in ("error", "warning") and len(a) == len(b) == 4:
        return Disagreement(line, f"the {kind} on line {line}", f"{a[2]}: {a[3]}", f"{b[2]}: {b[3]}", None)
    if kind == "print":
        return Disagreement(line, f"what line {line} prints", repr(a[1]), repr(b[1]), None)
    return Disagreement(line, f"line {line}", repr(a), repr(b), None)


def _label(label: Any, tensors: list[Tensor], source: list[str]) -> str:
    """A node's trace label in the program's words: ``("op", 3, 0)`` is ``L``'s grad_fn,
    ``("acc", 0)`` ``w``'s AccumulateGrad, ``("inner", ...)`` the node inside another's."""
    if not isinstance(label, tuple) or not label:
        return repr(label)
    if label[0] == "op" and len(label) == 3:
        nth = f" (its grad_fn number {label[2] + 1})" if label[2] else ""
        return f"{_called(label[1], tensors, source)}'s grad_fn{nth}"
    if label[0] == "acc" and len(label) == 2:
        return f"{_called(label[1], tensors, source)}'s AccumulateGrad"
    if label[0] == "inner" and len(label) == 3:
        return f"the node inside {_label(label[1], tensors, source)}"
    return repr(label)


def _labels(labels: Any, tensors: list[Tensor], source: list[str]) -> str:
    """A tensor's edges in the program's words: ``x's AccumulateGrad, none``."""
    if not isinstance(labels, tuple):
        return repr(labels)
    return ", ".join("none" if e is None else _label(e, tensors, source) for e in labels) or "nothing"


def _visit(a: tuple, b: tuple, ev: Visit, tensors: list[Tensor], source: list[str], log: Log) -> Disagreement:
    """A visit whose gradients differ: what arrived at the node, or what it sent along an edge,
    named by the tensors the node and the edge belong to."""
    ids = {t.id: i for i, t in enumerate(tensors)}
    owner = tensors[ids[ev.tensor]].line if ev.tensor in ids else ev.line

    def node_of(node_id: str | None, tensor_id: str | None) -> str:
        return _called(ids[tensor_id], tensors, source) if tensor_id in ids else f"an inner node ({node_id})"
    node = f"{node_of(ev.node, ev.tensor)}'s {ev.grad_fn}"
    where = f"(made on line {owner}; backward call {ev.call}, line {ev.line})"
    if a[3] != b[3]:
        return Disagreement(owner, f"the gradient arriving at {node} {where}", repr(a[3]), repr(b[3]),
                            ulps(a[3], b[3]))
    nodes = {e.id: e for e in log.events if isinstance(e, NodeEvent)}
    for j, (x, y) in enumerate(zip(a[4], b[4])):
        if x != y:
            target = (ev.edges or [None] * (j + 1))[j]
            to = nodes[target].tensor if target in nodes else None
            edge = f"{node_of(target, to)}" + (".grad" if target in nodes and nodes[target].grad_fn == "AccumulateGrad" else "")
            return Disagreement(owner, f"the gradient {node} sends to {edge} {where}", repr(x), repr(y), ulps(x, y))
    return Disagreement(owner, f"{node} {where}", repr(a[3:]), repr(b[3:]), None)
