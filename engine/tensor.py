"""Scalar tensors, autograd nodes, and the session that numbers and records them.

Design (minitorch's lesson): a :class:`Node` is plain data plus one ``rule``, a function from the
gradient arriving at the node to the gradients it sends along each edge. The ops that build nodes
live in :mod:`engine.ops`, each rule beside its forward; the walk that runs them lives in
:mod:`engine.backward`. Nothing here knows about Manim, YAML or the program's syntax.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Union

from .errors import BACKWARD_TWICE, TorchError, modified_in_place
from .numbers import Num, fraction_str, json_float, tensor_str

Rule = Callable[[Num], list]  # grad_in -> one Num per edge


class Node:
    """One grad_fn (``MulBackward0``...) or a leaf's ``AccumulateGrad``.

    ``seq`` is PyTorch's ``sequence_nr``: the backward walk runs the ready node with the highest
    one first; AccumulateGrad has None, standing for UINT64_MAX (it runs as soon as it is ready).
    """

    __slots__ = ("id", "grad_fn", "seq", "edges", "rule", "saved", "released", "tensor", "leaf")

    def __init__(self, id: str, grad_fn: str, seq: Optional[int], edges: list, rule: Optional[Rule],
                 saved: list, tensor: Optional["Tensor"], leaf: Optional["Tensor"] = None):
        self.id = id
        self.grad_fn = grad_fn
        self.seq = seq
        self.edges: list[Optional[Node]] = edges
        self.rule = rule
        self.saved: list[tuple[Tensor, int, bool]] = saved  # (tensor, version when saved, is output)
        self.released = False
        self.tensor = tensor  # the tensor this node belongs to; None for an internal node
        self.leaf = leaf  # for AccumulateGrad: the leaf whose .grad it fills

    @property
    def has_saved(self) -> bool:
        """Whether the node holds saved values (a graph of only Add/Sub/Neg can run twice)."""
        return self.rule is not None and bool(self.saved or self.grad_fn in _SAVES_SCALARS)

    def unpack(self) -> None:
        """Check the saved tensors as PyTorch's SavedVariable::unpack does, raising its errors."""
        if not self.has_saved:
            return
        if self.released:
            raise TorchError("RuntimeError", BACKWARD_TWICE, node=self.id)
        for tensor, version, is_output in self.saved:
            if tensor.version != version:
                producer = self.grad_fn if is_output else (
                    tensor.grad_fn.grad_fn if tensor.grad_fn is not None else None)
                raise TorchError("RuntimeError", modified_in_place(
                    tensor.dtype, tensor.version, version, producer), node=self.id)


# Nodes that save a wrapped Python scalar (``w * 2`` saves ``tensor(2)``) but no user tensor: they
# still refuse a second backward, since the scalar was freed too.
_SAVES_SCALARS = {"MulBackward0", "DivBackward0"}


class Tensor:
    """A 0-dim tensor: a value (float32, or int64/bool), and its autograd state.

    ``num`` and ``version`` are plain fields, read on every op; ``shared`` is None until the
    tensor is detached, then the tensors that share its data and version counter, in the order
    they were made (PyTorch's ``.detach()`` is a view: an in-place change through one shows in
    all). Every in-place change goes through :meth:`write`, which keeps them in step."""

    __slots__ = ("id", "num", "version", "shared", "dtype", "requires_grad", "grad_fn", "grad", "acc", "name")

    def __init__(self, num: Num, dtype: str = "float32"):
        self.id: Optional[str] = None  # set when the tensor is recorded
        self.num = num
        self.version = 0
        self.shared: Optional[list[Tensor]] = None
        self.dtype = dtype
        self.requires_grad = False
        self.grad_fn: Optional[Node] = None
        self.grad: Optional[Tensor] = None
        self.acc: Optional[Node] = None  # AccumulateGrad node, for a leaf that requires grad
        self.name: Optional[str] = None

    def write(self, num: Num) -> None:
        """An in-place change: the new value, and the version counter moved on, in this tensor
        and every tensor sharing its data."""
        for t in self.shared or (self,):
            t.num = num
            t.version += 1

    def detached(self) -> Tensor:
        """A new tensor sharing this one's data and version counter (``.detach()``)."""
        if self.shared is None:
            self.shared = [self]
        t = Tensor(self.num, self.dtype)
        t.version, t.shared = self.version, self.shared
        self.shared.append(t)
        return t

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def node(self) -> Optional[Node]:
        """Where a gradient for this tensor goes: its grad_fn, or its AccumulateGrad."""
        return self.grad_fn if self.grad_fn is not None else self.acc

    def __str__(self) -> str:
        return tensor_str(self.num.v, dtype=self.dtype, requires_grad=self.requires_grad,
                          grad_fn=self.grad_fn.grad_fn if self.grad_fn else None)


Operand = Union[Tensor, "PyNum"]


@dataclass(frozen=True)
class PyNum:
    """A Python number in the program, with its exact value when the source gave one (1/3)."""

    value: Union[int, float, bool]
    exact: Optional[object] = None  # Fraction

    def num(self) -> Num:
        return Num.of(self.value, self.exact)

    def json(self):
        if self.value is None or isinstance(self.value, (bool, int)):
            return self.value
        return json_float(self.value)

    def __str__(self) -> str:
        return repr(self.value)


@dataclass
class Session:
    """Counters and mode of one program run; ``record`` receives every event as a dict."""

    record: Callable[[dict], None]
    grad_enabled: bool = True
    backward_calls: int = 0
    _tensors: int = 0
    _nodes: int = 0
    _seq: int = 0
    warned: set = field(default_factory=set)

    # --- creation -------------------------------------------------------------------------
    def register(self, t: Tensor, op: str, inputs: list, span: Optional[tuple]) -> Tensor:
        """Give ``t`` its id and record its ``tensor`` event (its node's event first)."""
        t.id = f"t{self._tensors}"
        self._tensors += 1
        if t.grad_fn is not None and t.grad_fn.tensor is t:
            self.record_node(t.grad_fn)
        if t.acc is not None:
            self.record_node(t.acc)
        node = t.node
        self.record({
            "kind": "tensor", "id": t.id, "name": t.name, "value": json_float(t.num.v),
            "exact": fraction_str(t.num.q), "str": str(t), "requires_grad": t.requires_grad,
            "is_leaf": t.is_leaf, "grad_fn": t.grad_fn.grad_fn if t.grad_fn else None,
            "node": node.id if node is not None else None,
            "edges": [e.id if e else None for e in t.grad_fn.edges] if t.grad_fn else [],
            "dtype": t.dtype, "op": op,
            "inputs": [x.id if isinstance(x, Tensor) else x.json() for x in inputs],
            "span": list(span) if span else None,
        })
        return t

    def leaf(self, num: Num, dtype: str, requires_grad: bool) -> Tensor:
        t = Tensor(num, dtype)
        if requires_grad:
            t.requires_grad = True
            t.acc = self.node("AccumulateGrad", [], None, [], None, leaf=t)
        return t

    def node(self, grad_fn: str, edges: list, rule: Optional[Rule], saved: list,
             tensor: Optional[Tensor], leaf: Optional[Tensor] = None) -> Node:
        """A new node; op nodes take the next sequence_nr, AccumulateGrad takes none."""
        seq = None
        if grad_fn != "AccumulateGrad":
            seq = self._seq
            self._seq += 1
        n = Node(f"n{self._nodes}", grad_fn, seq, edges, rule, saved, tensor, leaf)
        self._nodes += 1
        return n

    def record_node(self, n: Node) -> None:
        """Record ``n``; an internal node (ReciprocalBackward0 in ``2 / w``) comes just before
        the one node that uses it."""
        for e in n.edges:
            if e is not None and e.tensor is None and e.leaf is None:
                self.record_node(e)
        self.record({
            "kind": "node", "id": n.id, "grad_fn": n.grad_fn,
            "tensor": (n.tensor.id if n.tensor else (n.leaf.id if n.leaf else None)),
            "edges": [e.id if e else None for e in n.edges], "sequence_nr": n.seq,
        })

    def warn_once(self, line: int, message: str, type_name: str = "UserWarning") -> None:
        """Python shows a warning once per call site; so do we (once per program line)."""
        if (line, message) not in self.warned:
            self.warned.add((line, message))
            self.record({"kind": "warning", "type": type_name, "message": message})
