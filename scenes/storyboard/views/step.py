"""The update view: a training step, ``w -= lr * w.grad`` under ``torch.no_grad()``.

Why a view of its own: the step is arithmetic on a weight, not a new node, so it is planned as
one ``update_step`` cue (the scaled gradient flowing into the weight's card, its value changing,
the arithmetic written out) instead of cards for ``w.grad`` and ``lr * w.grad``, which the
layout leaves out. An in-place update that autograd records (``h += w``), or one whose operand
is not a number times a gradient, is shown as the graph view shows it, or with its operand.
"""

from __future__ import annotations

from engine.records import Update

from ..builder import Builder
from ..logindex import Event
from ..placeholders import Shown
from ..numfmt import python_number
from .graph import update as graph_update

SIGNS = {"sub": "-", "add": "+"}


def update(b: Builder, ev: Event) -> None:
    inputs = ev.inputs or []
    if ev.grad_fn is not None or ev.op not in SIGNS or len(inputs) != 2 or ev.before is None:
        graph_update(b, ev)
        return
    strings = [Shown(ev.name, ev.seq, "name", "name")] if ev.name else []
    strings += [b.value(ev, "before", "before_exact", None, "before"), Shown(SIGNS[ev.op], ev.seq, "op", "op")]
    operand = inputs[1]
    oev = b.index.tensor_event.get(operand) if isinstance(operand, str) else None
    scaled = _scaled_grad(b, oev) if oev is not None else None
    if scaled is not None:
        strings += scaled
    elif oev is not None:
        strings.append(b.value(oev, "value", "exact", "str", "operand"))
    else:
        strings.append(Shown(repr(operand), ev.seq, "inputs[1]", "operand"))
    strings.append(b.value(ev, "value", "exact", "str", "after"))
    b.add("update_step", b.tm.grad_travel, (ev.tensor, ev.node), strings, [ev.seq])


def _scaled_grad(b: Builder, oev: Event) -> list[Shown] | None:
    """``lr * w.grad`` (or ``w.grad * lr``): the factor, from the Python number the program bound
    to it when there is one (``lr = 0.1``, exactly 1/10), and the gradient read."""
    ins = oev.inputs or []
    if oev.op != "mul" or len(ins) != 2:
        return None
    grads = [i for i in ins if isinstance(i, str) and _op_of(b, i) == "grad"]
    numbers = [i for i in ins if not isinstance(i, str)]
    if len(grads) != 1 or len(numbers) != 1:
        return None
    factor = _factor(b, numbers[0], oev)
    return [factor, b.value(b.index.tensor_event[grads[0]], "value", "exact", "str", "grad")]


def _op_of(b: Builder, tensor: str) -> str | None:
    """The op that made tensor ``tensor`` (None for an id the log does not hold)."""
    ev = b.index.tensor_event.get(tensor)
    return ev.op if ev is not None else None


def _factor(b: Builder, number: float, oev: Event) -> Shown:
    bound = [e for evs in b.index.numbers.values() for e in evs if e.seq < oev.seq and e.value == number]
    if bound:
        ev = max(bound, key=lambda e: e.seq)
        if b.numbers.style == "fraction" and ev.exact is not None:
            return Shown(ev.exact, ev.seq, "exact", "factor")
        return Shown(python_number(ev.value, b.numbers), ev.seq, "value", "factor")
    return Shown(repr(number), oev.seq, "inputs", "factor")


PLANNERS = {Update: update}
