"""Comparable traces: the engine's event log and a PyTorch run, reduced to the same entries.

A trace lists tensors in creation order (value, str, grad_fn, edges by label), each backward's
visit order (with ``visits``, the gradient each visit received and sent along each edge), every
leaf's grad after each backward, errors, warnings and prints. Nodes are
compared by *label*, not identity: ``("op", tensor index, k)`` for the k-th grad_fn a tensor had,
``("acc", leaf index)`` for an AccumulateGrad, ``("inner", consumer label, edge)`` for a node with
no tensor of its own. :mod:`scenes.oracle.run` produces PyTorch's side.
"""

from __future__ import annotations

import math
import re
from typing import Any

from engine.events import Log
from engine.records import (
    Accumulate,
    Backward,
    Branch,
    Error,
    Event,
    GradReset,
    Node,
    Print,
    Tensor,
    Update,
    Visit,
    Warn,
)


def engine_trace(log: Log, sources: list[Event] | None = None, visits: bool = False) -> list[tuple]:
    """The comparable trace of a gradreel event log; ``sources``, when given, receives the event
    each entry was made from (a grads entry: the backward call or reset it follows);
    ``visits``: each visit with the gradient it received and sent along each edge, not only its
    place in the order (what ``render check`` compares: a visit's numbers are shown on screen)."""
    def add(entry: tuple, ev: Event) -> None:
        out.append(entry)
        if sources is not None:
            sources.append(ev)

    index: dict[str, int] = {}
    node_label: dict[str, tuple] = {}
    per_tensor: dict[int, int] = {}
    nodes: dict[str, Node] = {}
    grads: dict[int, float | None] = {}
    out: list[tuple] = []

    def label_op(node_id: str, tensor_id: str) -> None:
        i = index[tensor_id]
        k = per_tensor.get(i, 0)
        per_tensor[i] = k + 1
        node_label[node_id] = ("op", i, k)
        _label_inner(node_id, nodes, node_label)

    walk: Backward | None = None  # a backward ran: snapshot the grads once its walk is over
    for ev in log.events:
        if walk is not None and not isinstance(ev, (Visit, Accumulate)):
            add(("grads", dict(grads)), walk)
            walk = None
        match ev:
            case Node():
                nodes[ev.id] = ev
            case Tensor():
                i = index[ev.id] = len(index)
                node = ev.node
                if node is not None:
                    if ev.grad_fn is None:
                        node_label[node] = ("acc", i)
                        grads[i] = None
                    else:
                        label_op(node, ev.id)
                add(("tensor", i, ev.str, ev.value, ev.grad_fn,
                     tuple(node_label.get(e) if e else None for e in ev.edges)), ev)
            case Update():
                if ev.node is not None and ev.node not in node_label:
                    label_op(ev.node, ev.tensor)
                add(("update", index[ev.tensor], ev.str, ev.value, ev.grad_fn,
                     tuple(node_label.get(e) if e else None for e in ev.edges or [])), ev)
            case Visit():
                add(("visit", ev.call, node_label[ev.node], ev.grad_in, tuple(ev.grads_out)) if visits
                    else ("visit", ev.call, node_label[ev.node]), ev)
            case Accumulate():
                grads[index[ev.tensor]] = ev.after
            case GradReset():
                if index[ev.tensor] in grads:  # .grad of a leaf that requires grad
                    grads[index[ev.tensor]] = None if ev.to is None else 0.0
                add(("grads", dict(grads)), ev)
            case Backward():
                add(("backward", ev.call), ev)
                walk = ev
            case Error() | Warn():
                add((ev.kind, ev.line, ev.type, ev.message), ev)
            case Print():
                add(("print", ev.text), ev)
            case Branch():
                add(("branch", ev.taken), ev)
    if walk is not None:
        add(("grads", dict(grads)), walk)
    return out


def _label_inner(node_id: str, nodes: dict[str, Node], labels: dict) -> None:
    for j, e in enumerate(nodes[node_id].edges):
        if e is not None and e not in labels and (e not in nodes or nodes[e].tensor is None):
            labels[e] = ("inner", labels[node_id], j)
            _label_inner(e, nodes, labels)


def compare_traces(ours: list[tuple], theirs: list[tuple], rel: float = 0.0) -> str | None:
    """The first difference between two traces, or None. ``rel`` > 0 lets float values (and the
    printouts of tensors whose values agree that closely) differ by that relative amount."""
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if a != b and not (rel and _close(a, b, rel)):
            return f"entry {i}: gradreel {a!r} != torch {b!r}"
    if len(ours) != len(theirs):
        extra = ours[len(theirs):] or theirs[len(ours):]
        who = "gradreel" if len(ours) > len(theirs) else "torch"
        return f"{who} has {abs(len(ours) - len(theirs))} more entries, first {extra[0]!r}"
    return None


def _close(a: Any, b: Any, rel: float) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or math.isclose(a, b, rel_tol=rel, abs_tol=rel * 1e-3)
    if isinstance(a, str):
        return a == b or _close_str(a, b, rel)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(x == y or _close(x, y, rel) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(a[k] == b[k] or _close(a[k], b[k], rel) for k in a)
    return False


def _close_str(a: str, b: str, rel: float) -> bool:
    """``tensor(0.4621, grad_fn=<TanhBackward0>)`` vs ``tensor(0.4622, ...)``: the same but for a
    last digit that one ulp can flip."""
    num = re.compile(r"-?[\d.]+(?:e[-+]\d+)?|nan|-?inf")
    if num.sub("#", a) != num.sub("#", b):
        return False
    for x, y in zip(num.findall(a), num.findall(b)):
        fx, fy = float(x.rstrip(".") or 0), float(y.rstrip(".") or 0)
        if not (fx == fy or math.isclose(fx, fy, rel_tol=max(rel, 2e-4), abs_tol=2e-4)):
            return False
    return True
