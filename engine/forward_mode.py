"""Forward-mode differentiation: push a tangent from one leaf up to the root, one pass per leaf.

Reverse mode (``backward``) reaches every weight in one sweep; forward mode needs one pass per
weight. The clip that contrasts them computes both for real. A pass seeds one leaf with tangent 1
(every other leaf 0) and visits the recorded nodes in creation order, as
``torch.autograd.forward_ad`` carries a tangent with each value. For a scalar op the tangent of the
output is the sum, over its inputs, of the input's tangent times the local derivative; that is
exactly each node's backward ``rule`` applied to the input's tangent, so forward mode needs no new
per-op formulas and cannot drift from the backward rules:

    out_t = sum_i rule(t_i)[i]

Events (appended after the program's own, see docs/event-log.md): ``forward_pass`` opens pass k,
``tangent`` gives a node's tangent in that pass (only non-zero ones), ``jvp`` closes it with the
derivative of the root with respect to the seed leaf.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable, Optional

from .numbers import ONE, ZERO, Num, fraction_str, json_float
from .tensor import Node, Tensor


def _graph(root: Node) -> tuple[list[Node], list[Node]]:
    """Op nodes reachable from ``root`` in creation order, and the AccumulateGrad nodes (leaves)."""
    seen = {id(root)}
    stack, ops, leaves = [root], [], []
    while stack:
        n = stack.pop()
        (leaves if n.leaf is not None else ops).append(n)
        for e in n.edges:
            if e is not None and id(e) not in seen:
                seen.add(id(e))
                stack.append(e)
    ops.sort(key=lambda n: n.seq)
    leaves.sort(key=lambda n: int(n.id[1:]))
    return ops, leaves


class ForwardModeTooLong(Exception):
    """Forward mode would take ``passes`` passes over ``nodes`` operations each, more in all than
    the ``limit`` on operations; raised before the first pass."""

    def __init__(self, passes: int, nodes: int, limit: int):
        super().__init__(f"forward mode needs {passes} passes (one per input) over {nodes} operations, "
                         f"{passes * nodes} in all, more than the limit of {limit}: differentiate a "
                         "program with fewer inputs or fewer operations in forward mode")
        self.passes, self.nodes, self.limit = passes, nodes, limit


def forward_mode(root: Tensor, record: Callable[[dict], None], limit: int) -> list[tuple[Tensor, Num]]:
    """One forward-mode pass per leaf that ``root`` depends on; returns ``[(leaf, d root/d leaf)]``
    in leaf creation order and records the passes. Each pass visits every op node, so the passes
    times the nodes is bounded by ``limit`` (:class:`ForwardModeTooLong` before any pass)."""
    start = root.node
    if start is None:
        return []
    ops, leaves = _graph(start)
    if len(leaves) * max(1, len(ops)) > limit:
        raise ForwardModeTooLong(len(leaves), max(1, len(ops)), limit)
    zero = Num(ZERO, Fraction(0))
    results = []
    for k, seed in enumerate(leaves, 1):
        leaf = seed.leaf
        record({"kind": "forward_pass", "pass": k, "seed": leaf.id, "name": leaf.name,
                "passes": len(leaves)})
        tangent: dict[int, Num] = {id(seed): Num(ONE, Fraction(1))}
        for node in ops:
            total: Optional[Num] = None
            for i, edge in enumerate(node.edges):
                t = tangent.get(id(edge)) if edge is not None else None
                if t is None:
                    continue
                part = node.rule(t)[i]
                total = part if total is None else total + part
            if total is not None:
                tangent[id(node)] = total
                owner = node.tensor
                record({"kind": "tangent", "pass": k, "node": node.id,
                        "tensor": owner.id if owner is not None else None,
                        "value": json_float(total.v), "exact": fraction_str(total.q)})
        d = tangent.get(id(start), zero) if start is not seed else Num(ONE, Fraction(1))
        record({"kind": "jvp", "pass": k, "seed": leaf.id, "name": leaf.name, "root": root.id,
                "value": json_float(d.v), "exact": fraction_str(d.q)})
        results.append((leaf, d))
    return results
