"""The events of a log as typed records: one frozen dataclass per kind of docs/event-log.md.

The engine records plain dicts while it runs (they are written as JSON Lines, byte for byte);
a finished :class:`~engine.events.Log` holds them as these records, which is what every reader
(the scenes, ``render log --pretty``) works with: ``match ev: case Visit(node=n, grads_out=g)``
instead of ``ev["kind"] == "visit"`` and ``ev["grads_out"]``. Field names and order are the
docs' (``pass`` is spelled ``pass_``, a Python keyword), so :func:`as_dict` gives back the JSON
object the engine wrote. A field the docs make optional is None when a log lacks it. Lists stay
lists, as the JSON has them (a record is frozen; its lists are not to be changed).

>>> ev = record_of({"seq": 0, "kind": "print", "line": 3, "text": "hi"})
>>> ev
Print(seq=0, line=3, text='hi')
>>> as_dict(ev)
{'seq': 0, 'kind': 'print', 'line': 3, 'text': 'hi'}
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

Text = str
Value = float | Text  # a float32 as the log writes it: a number, or "nan", "inf", "-inf"
Exact = Text | None  # a reduced fraction, "1/3", or None once a step was not rational
Edges = list[Text | None]  # per edge, a node id or None
Operand = Text | int | float  # a tensor id, or the Python number itself


@dataclass(frozen=True, slots=True)
class Event:
    """What every event has: its place in the log and the program line that caused it."""

    kind: ClassVar[Text] = ""
    seq: int
    line: int


@dataclass(frozen=True, slots=True)
class Node(Event):
    """An autograd node was created."""

    kind: ClassVar[Text] = "node"
    id: Text
    grad_fn: Text
    tensor: Text | None
    edges: Edges
    sequence_nr: int | None


@dataclass(frozen=True, slots=True)
class Tensor(Event):
    """A tensor was created."""

    kind: ClassVar[Text] = "tensor"
    id: Text
    name: Text | None
    value: Value
    exact: Exact
    str: Text
    requires_grad: bool
    is_leaf: bool
    grad_fn: Text | None
    node: Text | None
    edges: Edges
    dtype: Text | None
    op: Text | None
    inputs: list[Operand] | None
    span: list[int] | None


@dataclass(frozen=True, slots=True)
class Update(Event):
    """An existing tensor changed in place."""

    kind: ClassVar[Text] = "update"
    tensor: Text
    name: Text | None
    value: Value
    exact: Exact
    str: Text
    grad_fn: Text | None
    node: Text | None
    edges: Edges | None
    span: list[int] | None
    op: Text | None
    inputs: list[Operand] | None
    before: Value | None
    before_exact: Exact


@dataclass(frozen=True, slots=True)
class Backward(Event):
    """``t.backward()`` was called."""

    kind: ClassVar[Text] = "backward"
    root: Text
    call: int
    node: Text | None
    retain_graph: bool | None


@dataclass(frozen=True, slots=True)
class Visit(Event):
    """One node of the backward walk ran."""

    kind: ClassVar[Text] = "visit"
    call: int | None
    node: Text
    grad_fn: Text
    tensor: Text | None
    grad_in: Value
    grad_in_exact: Exact
    grads_out: list[Value | None]
    grads_out_exact: list[Exact] | None
    edges: Edges | None


@dataclass(frozen=True, slots=True)
class Accumulate(Event):
    """An AccumulateGrad ran."""

    kind: ClassVar[Text] = "accumulate"
    call: int | None
    node: Text | None
    tensor: Text
    name: Text | None
    before: Value | None
    before_exact: Exact
    add: Value
    add_exact: Exact
    after: Value
    after_exact: Exact
    str: Text | None


@dataclass(frozen=True, slots=True)
class GradReset(Event):
    """``w.grad = None`` (``to`` None) or ``w.grad.zero_()`` (``to`` 0.0)."""

    kind: ClassVar[Text] = "grad_reset"
    tensor: Text
    name: Text | None
    to: float | None


@dataclass(frozen=True, slots=True)
class Branch(Event):
    """An ``if`` was evaluated."""

    kind: ClassVar[Text] = "branch"
    test: Text
    taken: bool


@dataclass(frozen=True, slots=True)
class Loop(Event):
    """A ``for`` loop's body begins pass ``pass_`` (1-based, over the whole run)."""

    kind: ClassVar[Text] = "loop"
    pass_: int
    end: int


@dataclass(frozen=True, slots=True)
class Number(Event):
    """A Python number was bound to a name."""

    kind: ClassVar[Text] = "number"
    name: Text
    value: int | Value
    exact: Exact


@dataclass(frozen=True, slots=True)
class Print(Event):
    """What the program printed, without the final newline."""

    kind: ClassVar[Text] = "print"
    text: Text


@dataclass(frozen=True, slots=True)
class Expr(Event):
    """A bare expression statement was evaluated: its source and its ``repr``."""

    kind: ClassVar[Text] = "expr"
    source: Text
    str: Text


@dataclass(frozen=True, slots=True)
class Warn(Event):
    """A warning (``warning`` in the log), once per program line."""

    kind: ClassVar[Text] = "warning"
    type: Text | None
    message: Text


@dataclass(frozen=True, slots=True)
class Error(Event):
    """An error; ``node`` when it was raised inside a backward walk (absent from the JSON else)."""

    kind: ClassVar[Text] = "error"
    type: Text | None
    message: Text
    node: Text | None


@dataclass(frozen=True, slots=True)
class ForwardPass(Event):
    """Forward mode begins pass ``pass_``, seeded at a leaf."""

    kind: ClassVar[Text] = "forward_pass"
    pass_: int
    seed: Text
    name: Text | None
    passes: int | None


@dataclass(frozen=True, slots=True)
class Tangent(Event):
    """The tangent a node's output carries in a forward-mode pass."""

    kind: ClassVar[Text] = "tangent"
    pass_: int
    node: Text
    tensor: Text | None
    value: Value
    exact: Exact


@dataclass(frozen=True, slots=True)
class Jvp(Event):
    """d root / d seed, the result of a forward-mode pass."""

    kind: ClassVar[Text] = "jvp"
    pass_: int
    seed: Text
    name: Text | None
    root: Text
    value: Value
    exact: Exact


KINDS: dict[Text, type[Event]] = {cls.kind: cls for cls in (
    Node, Tensor, Update, Backward, Visit, Accumulate, GradReset, Branch, Loop, Number, Print, Expr,
    Warn, Error, ForwardPass, Tangent, Jvp)}

# Per kind, its fields beyond seq and line: (attribute, JSON key), in the docs' order.
_KEYS: dict[type[Event], tuple[tuple[Text, Text], ...]] = {
    cls: tuple((f.name, f.name.rstrip("_")) for f in fields(cls) if f.name not in ("seq", "line"))
    for cls in KINDS.values()}

_JSON_KEYS = {cls: tuple(key for _, key in keys) for cls, keys in _KEYS.items()}

# Fields the engine leaves out of the JSON object when they are None.
_ABSENT_WHEN_NONE: dict[type[Event], frozenset[Text]] = {Error: frozenset({"node"})}


def record_of(obj: dict[Text, Any]) -> Event:
    """The record of one event object (``kind`` one of :data:`KINDS`; a missing field is None).
    Raises KeyError for an unknown kind."""
    cls = KINDS[obj["kind"]]
    return cls(obj["seq"], obj["line"], *map(obj.get, _JSON_KEYS[cls]))


def as_dict(ev: Event) -> dict[Text, Any]:
    """The JSON object of a record, keys in the order the engine writes them."""
    cls = type(ev)
    absent = _ABSENT_WHEN_NONE.get(cls, frozenset())
    out: dict[Text, Any] = {"seq": ev.seq, "kind": ev.kind, "line": ev.line}
    for attr, key in _KEYS[cls]:
        value = getattr(ev, attr)
        if value is None and key in absent:
            continue
        out[key] = value
    return out
