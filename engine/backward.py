"""``t.backward()``: PyTorch's engine schedule, step for step.

The rule (tests/engine/test_vs_torch.py checks the visit order against PyTorch):

1. Count, for every node reachable from the root, its incoming edges (``w*w`` counts 2).
2. A node is ready when its count reaches 0. Ready nodes wait in a max-priority queue keyed on
   ``sequence_nr``; AccumulateGrad's key is UINT64_MAX, so it runs as soon as it is ready.
3. Running a node sends one gradient along each edge, in ``next_functions`` order; gradients that
   meet at a node are summed in arrival order (float32).

The queue is a faithful copy of libstdc++'s ``std::priority_queue`` (push_heap / pop_heap), so even
ties between AccumulateGrads pop in the order PyTorch pops them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

from .errors import NO_GRAD_FN, TorchError
from .numbers import ONE, Num, fraction_str, json_float
from .tensor import Node, Session, Tensor

UINT64_MAX = 2**64 - 1


def _key(n: Node) -> int:
    return UINT64_MAX if n.seq is None else n.seq


def _sift_up(heap: list, hole: int, n: Node) -> None:
    """libstdc++'s __push_heap: move ``n`` up from ``hole`` while its parent is less."""
    k = _key(n)
    while hole > 0:
        parent = (hole - 1) // 2
        if not _key(heap[parent]) < k:
            break
        heap[hole] = heap[parent]
        hole = parent
    heap[hole] = n


def _push(heap: list, n: Node) -> None:
    """std::push_heap with ``less`` on the key."""
    heap.append(n)
    _sift_up(heap, len(heap) - 1, n)


def _pop(heap: list) -> Node:
    """std::pop_heap: move the last element into the hole left by the top (libstdc++'s
    __adjust_heap: walk the hole down to a leaf along the larger child, then sift up)."""
    top = heap[0]
    last = heap.pop()
    n = len(heap)
    if n == 0:
        return top
    hole = 0
    child = 0
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if _key(heap[child]) < _key(heap[child - 1]):
            child -= 1
        heap[hole] = heap[child]
        hole = child
    if (n & 1) == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        heap[hole] = heap[child - 1]
        hole = child - 1
    _sift_up(heap, hole, last)
    return top


def _dependencies(root: Node) -> dict:
    """Incoming edge counts of every node reachable from the root (iterative: graphs can be deep)."""
    deps: dict = {}
    seen = {id(root)}
    stack = [root]
    while stack:
        n = stack.pop()
        for e in n.edges:
            if e is None:
                continue
            deps[e] = deps.get(e, 0) + 1
            if id(e) not in seen:
                seen.add(id(e))
                stack.append(e)
    return deps


def backward(sess: Session, root: Tensor, gradient: Optional[Num] = None,
             retain_graph: bool = False) -> None:
    """Run the backward walk from ``root``, recording ``backward``, ``visit`` and ``accumulate``
    events; raises TorchError (after whatever PyTorch would already have accumulated)."""
    sess.backward_calls += 1
    call = sess.backward_calls
    start = root.node if root.requires_grad else None
    sess.record({"kind": "backward", "root": root.id, "call": call,
                 "node": start.id if start else None, "retain_graph": retain_graph})
    if start is None:
        raise TorchError("RuntimeError", NO_GRAD_FN)
    deps = _dependencies(start)
    buffers: dict = {start: gradient if gradient is not None else Num(ONE, Fraction(1))}
    heap: list = []
    _push(heap, start)
    while heap:
        node = _pop(heap)
        g = buffers.pop(node)
        node.unpack()
        if node.leaf is not None:
            outs: list = []
        else:
            outs = node.rule(g)
        sess.record(_visit(call, node, g, outs))
        if node.leaf is not None:
            _accumulate(sess, call, node, g)
        if not retain_graph:
            node.released = True
        for nxt, out in zip(node.edges, outs):
            if nxt is None:
                continue
            buffers[nxt] = buffers[nxt] + out if nxt in buffers else out
            deps[nxt] -= 1
            if deps[nxt] == 0:
                _push(heap, nxt)


def _visit(call: int, node: Node, g: Num, outs: list) -> dict:
    owner = node.tensor if node.tensor is not None else node.leaf
    sent = [o if e is not None else None for o, e in zip(outs, node.edges)]
    return {
        "kind": "visit", "call": call, "node": node.id, "grad_fn": node.grad_fn,
        "tensor": owner.id if owner is not None else None,
        "grad_in": json_float(g.v), "grad_in_exact": fraction_str(g.q),
        "grads_out": [json_float(o.v) if o is not None else None for o in sent],
        "grads_out_exact": [fraction_str(o.q) if o is not None else None for o in sent],
        "edges": [e.id if e else None for e in node.edges],
    }


def _accumulate(sess: Session, call: int, node: Node, g: Num) -> None:
    """AccumulateGrad: the first gradient becomes ``.grad``; later ones add into it in place."""
    leaf = node.leaf
    before = leaf.grad.num if leaf.grad is not None else None
    if leaf.grad is None:
        leaf.grad = Tensor(g, "float32")
    else:
        leaf.grad.write(leaf.grad.num + g)
    after = leaf.grad.num
    sess.record({
        "kind": "accumulate", "call": call, "node": node.id, "tensor": leaf.id, "name": leaf.name,
        "before": json_float(before.v) if before else None,
        "before_exact": fraction_str(before.q) if before else None,
        "add": json_float(g.v), "add_exact": fraction_str(g.q),
        "after": json_float(after.v), "after_exact": fraction_str(after.q),
        "str": str(leaf.grad),
    })
