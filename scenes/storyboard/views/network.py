"""The network view's planners: the program's MLP as units and weights instead of autograd nodes.

Why a view of its own: a 36-weight network's autograd graph has too many nodes to carry labels, so
the ``network*`` visuals name each cue by the unit or weight (tensor id, from
:mod:`..network`) that an event's node belongs to. :class:`Sweep` is the per-beat state: which
owners the reverse sweep has lit, which ones a forward pass has reached so far.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.optable import UNIT_OPS
from engine.records import (
    Accumulate,
    Backward,
    ForwardPass,
    Jvp,
    Tangent,
    Tensor,
    Visit,
)

from ..builder import Builder
from ..logindex import Event, LogIndex
from ..numfmt import one_precision
from ..placeholders import Shown
from ..network import Network, read_network


@dataclass
class Sweep:
    """One beat's planning state in the network view; the network is read on first use."""

    index: LogIndex
    lit: set[str] = field(default_factory=set)  # units and weights the sweep of this beat has reached
    reached: list[str] = field(default_factory=list)  # owners one forward pass reaches, in order
    last_dst: tuple[str, float] | None = None  # links into one unit grow together
    front: tuple[int, float] | None = None  # the reverse sweep's layer now, and when it reached it
    counted: set[int] = field(default_factory=set)  # layers whose weights the reached count includes
    passes: int | None = None  # how many passes forward mode makes
    _net: Network | None = None

    @property
    def net(self) -> Network:
        if self._net is None:
            self._net = read_network(self.index.events)
        return self._net


def _sweep(b: Builder) -> Sweep:
    assert isinstance(b.state, Sweep)
    return b.state


def tensor(b: Builder, ev: Event) -> None:
    st = _sweep(b)
    net = st.net
    uid = net.unit_of(ev.id)
    if uid is not None:
        st.last_dst = None
        strings = [Shown(net.units[uid].name, ev.seq, "name", "name")]
        if not any(l.src == uid for l in net.links.values()):  # the output's result, the loss
            strings.append(b.value(ev, "value", "exact", None, "value"))
            for leaf in (b.index.tensor_event[t] for t in net.targets.get(uid, [])):
                strings += [Shown(leaf.name, leaf.seq, "name", "target_name"),
                            b.value(leaf, "value", "exact", None, "target")]
        # a later pass's tensor is drawn as the first pass's unit; its value is its own (ids[-1])
        b.add("unit_appear", b.tm.node_appear, (uid,) if uid == ev.id else (uid, ev.id), strings, [ev.seq])
        if uid == ev.id and uid in _asked_unit(b):
            _unit_math(b, uid)
        return
    weight = net.products.get(ev.seq)
    link = net.links.get(weight) if weight is not None else None
    if link is None:
        return
    at = st.last_dst[1] if st.last_dst and st.last_dst[0] == link.dst else None
    if at is None:
        st.last_dst = (link.dst, b.now)
    b.add("link_appear", b.tm.edge_grow, (link.weight, link.src, link.dst), (), [ev.seq], at=at)


def _asked_unit(b: Builder) -> set[str]:
    """The tensor ids of the unit the beat's ``unit:`` names (none when it names none)."""
    name = b.board.beats[b.beat_no].unit
    return set(b.index.ids_of(name)) if name else set()


def _unit_math(b: Builder, uid: str) -> None:
    """Unit ``uid``'s arithmetic as the beat's ``unit:`` asks, one step after another once its
    circle is drawn: its incoming weights (each weight's value on its line), the sum they make
    (the tensor its activation takes), the activation and the unit's output, then the whole
    network again. Why: "each unit multiplies every input by its own weight, sums, and applies
    ReLU" was said over a network standing still; each step is a cue, so a phrase naming it
    starts it (:mod:`..phrases`). The weights come with the values of the units their lines
    come from, and the sum with the products ``w * u`` it adds (review 5: with only the weights
    drawn, four ``× 0.3750`` added to 1.5, not the Σ written). Every number is the log's: the
    weights' leaves, the sources', the products', the sum's and the unit's tensor events."""
    st = _sweep(b)
    net, tm = st.net, b.tm
    links = [l for l in net.links.values() if l.dst == uid]
    if not links:
        return
    ev = b.index.tensor_event
    leaves, sources = [ev[l.weight] for l in links], [ev[l.src] for l in links]
    unit = ev[uid]
    ins = [i for i in unit.inputs or [] if isinstance(i, str)]
    act = unit.op in UNIT_OPS and len(ins) == 1 and ins[0] in ev
    total = ev[ins[0]] if act else unit
    products = [ev[l.product] for l in links if l.product in ev]
    # one figure, one precision (`numfmt.one_precision`): the weights and the inputs they multiply
    # at the places the products and their sum need (``0.37500``, not ``0.3750``, beside ``0.09375``
    # and ``Σ = 1.40625``), and the unit's output with them: the same values, never rounded
    given = ([b.value(e, "value", "exact", None, "weight") for e in leaves]
             + [b.value(e, "value", "exact", None, "input") for e in sources])
    terms = [b.value(e, "value", "exact", None, "product") for e in products] + [b.value(total, "value", "exact", None,
                                                                                           "value")]
    out = [b.value(unit, "value", "exact", None, "value")] if act else []
    figure = given + terms + out
    figure = [replace(s, text=t) for s, t in zip(figure, one_precision([s.text for s in figure]))]
    given, terms, out = figure[:len(given)], figure[len(given):len(given) + len(terms)], figure[len(given) + len(terms):]
    b.add("unit_weights", tm.node_appear, (uid, *(l.weight for l in links)), given, [e.seq for e in leaves + sources])
    b.add("unit_sum", tm.node_appear, (uid, total.id, *(e.id for e in products)), terms,
          [e.seq for e in products] + [total.seq])
    if act:
        b.add("unit_act", tm.node_appear, (uid, total.id), [Shown(unit.op or "", unit.seq, "op", "op"), *out], [unit.seq])
    b.add("unit_done", tm.node_appear, (uid,), (), [unit.seq])


def backward(b: Builder, ev: Event) -> None:
    st = _sweep(b)
    st.lit, st.front, st.counted = set(), None, set()
    b.add("pass_count", b.tm.wavefront_step, (ev.root,),
          [Shown(str(ev.call), ev.seq, "call", "count")], [ev.seq], advance=False)  # the sweep starts at the root as it is counted


def _front_at(b: Builder, owner: str) -> float | None:
    """When the sweep reaches ``owner``: with the rest of its layer (a weight belongs to the
    layer it feeds), so that one wavefront moves down the layers, a layer a step, whatever
    order PyTorch visits the nodes of one layer in; None: it starts a layer now."""
    st = _sweep(b)
    net = st.net
    unit = net.links[owner].dst if owner in net.links else owner
    layer = net.units[unit].layer if unit in net.units else -1
    if st.front is not None and st.front[0] == layer:
        return st.front[1]
    st.front = (layer, b.now)
    return None


def visit(b: Builder, ev: Event) -> None:
    st = _sweep(b)
    owner = st.net.owner.get(ev.node)
    if owner is None or owner in st.lit:
        return
    st.lit.add(owner)
    b.add("sweep_step", b.tm.sweep_step, (owner,), (), [ev.seq], at=_front_at(b, owner))


def accumulate(b: Builder, ev: Event) -> None:
    st = _sweep(b)
    if ev.tensor not in st.net.links:
        return
    at = _front_at(b, ev.tensor)
    b.add("link_fill", b.tm.sweep_step, (ev.tensor,), (), [ev.seq], at=at)
    layer = st.front[0] if st.front else -1
    if layer not in st.counted:  # the wavefront reaches this layer's weights: count them in
        st.counted.add(layer)
        net = st.net
        reached = sum(1 for l in net.links.values() if net.units[l.dst].layer >= min(st.counted))
        b.add("reach_count", b.tm.sweep_step, (), [Shown(str(reached), None, "reached", "reached"),
              Shown(str(len(net.links)), None, "weights", "total")], [ev.seq], at=st.front[1] if st.front else at)


def forward_pass(b: Builder, ev: Event) -> None:
    st = _sweep(b)
    st.reached, st.passes = [], ev.passes
    b.add("pass_count", b.tm.wavefront_step, (ev.seed,),
          [Shown(str(ev.pass_), ev.seq, "pass", "count"),
           Shown(str(ev.passes), ev.seq, "passes", "total")], [ev.seq])


def tangent(b: Builder, ev: Event) -> None:
    st = _sweep(b)
    owner = st.net.owner.get(ev.node)
    if owner is not None and owner not in st.reached:
        st.reached.append(owner)


def jvp(b: Builder, ev: Event) -> None:
    st = _sweep(b)
    if st.reached:
        b.add("tangent_sweep", b.tm.grad_travel, tuple(st.reached), (), [ev.seq])
    st.reached = []
    readout = [Shown(ev.name, ev.seq, "name", "name"), b.value(ev, "value", "exact", None, "value")]
    # Only the first pass's derivative is written (its weight named on the network and in the
    # readout): it is the one compared with that weight's ``.grad`` and the one a caption names.
    # Any other pass's would name a weight no caption speaks of: for a second between captions,
    # or the last pass's under the takeaway, where it read as the answer the takeaway names.
    # The count and the weight's line turned to forward mode's colour say each pass's one result.
    b.add("jvp_fill", b.tm.bucket_fill, (ev.seed,), readout if ev.pass_ == 1 else [], [ev.seq])


PLANNERS = {
    Tensor: tensor, Backward: backward, Visit: visit, Accumulate: accumulate,
    ForwardPass: forward_pass, Tangent: tangent, Jvp: jvp,
}
"""Event record -> the planner that turns one such event into cues of the MLP picture."""
