"""The program's multilayer perceptron, read from its event log: units, weights, layers.

Why derive it: the first article draws an MLP as units joined by weights, and the 36-weight network
has 109 autograd nodes, too many to label. The same log already says which weight multiplies which
unit and where the product is summed, so the unit diagram is *read* from the program, never
declared: a weight is a leaf that requires grad; ``w * u`` is a link from unit ``u``; the named
tensor that its sum reaches (``a1_0``), followed through a one-input op (``relu``) to ``h1_0``, is
the unit the link feeds. The loss is one more unit after the output.

Pure (no Manim): the plan maps every autograd node to the unit or link it belongs to, and the scene
places units by layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from engine.optable import UNIT_OPS
from engine.records import Backward, Event, Node, Tensor

if TYPE_CHECKING:
    from scenes.theme_model import Labels


@dataclass(frozen=True)
class Unit:
    """A circle of the diagram: the tensor that holds the unit's output, its name and layer."""

    id: str
    name: str
    layer: int
    seq: int
    leaf: bool = True  # a tensor the program made itself, not an op's result (an input)


@dataclass(frozen=True)
class Link:
    """A weight: ``weight`` (its leaf tensor id) joins unit ``src`` to unit ``dst``."""

    weight: str
    name: str
    src: str
    dst: str
    seq: int  # the tensor event of the product ``w * u``
    product: str = ""  # that product's tensor id (the first pass's): what a unit's sum adds up


@dataclass
class Network:
    """Units in creation order, links in program order, and what each tensor/node belongs to."""

    units: dict[str, Unit] = field(default_factory=dict)
    links: dict[str, Link] = field(default_factory=dict)
    owner: dict[str, str] = field(default_factory=dict)  # tensor or node id -> unit id or weight id
    targets: dict[str, list[str]] = field(default_factory=dict)  # unit id -> named leaves outside it reads
    alias: dict[str, str] = field(default_factory=dict)  # a later pass's tensor -> the first pass's unit it is
    products: dict[int, str] = field(default_factory=dict)  # seq of each product w * u, every pass -> its weight
    loss: str | None = None  # the unit backward() ran from (or the named end after the output), the one drawn as the loss

    def unit_of(self, tensor: str) -> str | None:
        """The unit whose circle stands for ``tensor``: itself, or for a later pass of a training
        loop the first pass's unit in its place (pass two's ``h[0]`` is drawn as ``h[0]``)."""
        return tensor if tensor in self.units else self.alias.get(tensor)

    @property
    def layers(self) -> list[list[str]]:
        """Unit ids per layer, input layer first."""
        depth = max((u.layer for u in self.units.values()), default=-1)
        return [[u.id for u in self.units.values() if u.layer == d] for d in range(depth + 1)]

    @property
    def has_inputs(self) -> bool:
        """True when the first row holds the program's own tensors (``x0``), not op results
        (``h[0]`` of inputs that are plain numbers): only then is it the input layer, named and
        coloured so."""
        layers = self.layers
        return bool(layers) and all(self.units[u].leaf for u in layers[0])

    def plain(self) -> list[tuple[str, str]]:
        """The lines that are no weight: a unit no weight feeds (the loss after the output)
        joined to each unit of the layer before, as the clip and the article join them."""
        layers, fed = self.layers, {l.dst for l in self.links.values()}
        return [(src, u) for depth, layer in enumerate(layers[1:], 1) for u in layer if u not in fed
                for src in layers[depth - 1]]

    def lines(self) -> list[tuple[str, str]]:
        """Every line of the full network, as (lower unit, upper unit): each weight's, and the plain ones."""
        return [(l.src, l.dst) for l in self.links.values()] + self.plain()

    def meaning(self, uid: str) -> str:
        """What unit ``uid`` is in the series' visual grammar (``Theme.meanings``): the input
        layer's units are inputs with no gradient, the loss is the loss, every other unit (the
        output too) an intermediate result. Only the loss takes the loss colour."""
        if self.has_inputs and uid in self.layers[0]:
            return "input"
        return "loss" if uid == self.loss else "result"

    def layer_names(self, labels: Labels) -> list[str]:
        """input, hidden 1, hidden 2, ..., output, loss: each layer by its place (the last is the
        loss when one unit no weight feeds, as ``(yh - y)**2`` after the output). The first row
        is the input only when its units are the program's own tensors: when the inputs are plain
        numbers (``x = [1.0, -2.0]``), the first units drawn are results of ops (``h[0]``, a tanh),
        so that row is hidden layer 1 and the count goes on from there. The clip labels its rows
        with these, and the article's figure too."""
        layers = self.layers
        n = len(layers)
        inputs = 1 if self.has_inputs else 0
        loss_last = n > 1 + inputs and len(layers[-1]) == 1 and not any(
            l.dst == layers[-1][0] for l in self.links.values())
        names = []
        for depth in range(n):
            if depth < inputs:
                names.append(labels.layer_input)
            elif loss_last and depth == n - 1:
                names.append(labels.legend_loss)
            elif depth == n - 1 - loss_last:
                names.append(labels.layer_output)
            else:
                names.append(labels.layer_hidden.format(k=depth + 1 - inputs))
        return names


def read_network(events: Iterable[Event]) -> Network:
    """The MLP drawn by the log's tensors (empty when the program multiplies no weight).

    A training loop multiplies each weight again in every pass: the network is the first pass's
    (a later product of a weight already linked adds no link), so no row holds two passes' units
    and no link leads to a unit that is never drawn. A later pass's units are that pass's tensors
    in the same places (`Network.alias`): the unit a weight's product comes from and the one it
    feeds, and each later backward's root the loss, so that a beat on pass two draws the same
    circles with pass two's values."""
    evs = [e for e in events if isinstance(e, (Tensor, Node, Backward))]
    tensors = {e.id: e for e in evs if isinstance(e, Tensor)}
    users: dict[str, list[str]] = {}
    for e in tensors.values():
        for i in e.inputs or []:
            if isinstance(i, str):
                users.setdefault(i, []).append(e.id)
    weights = {t for t, e in tensors.items() if e.is_leaf and e.requires_grad}

    def follow(t: str) -> str:
        """From a product to the unit it feeds: through sums to a named tensor, then unary ops."""
        seen = 0
        while not tensors[t].name and len(users.get(t, [])) == 1 and seen < 10_000:
            t, seen = users[t][0], seen + 1
        while len(users.get(t, [])) == 1 and tensors[users[t][0]].op in UNIT_OPS \
                and tensors[users[t][0]].name:
            t = users[t][0]
        return t

    net = Network()
    pending: list[tuple[Event, str, str]] = []
    for e in tensors.values():
        ins = [i for i in e.inputs or [] if isinstance(i, str)]
        if e.op != "mul" or len(ins) != 2 or len([i for i in ins if i in weights]) != 1:
            continue
        w = next(i for i in ins if i in weights)
        pending.append((e, w, next(i for i in ins if i != w)))
    layer: dict[str, int] = {}
    later: list[tuple[str, str]] = []  # (a later pass's tensor, the first pass's unit in its place)
    for e, w, src in pending:
        net.products[e.seq] = w
        if w in net.links:  # a later pass of a training loop: the network is the first pass's
            link = net.links[w]
            later += [(src, link.src), (follow(e.id), link.dst)]
            continue
        dst = follow(e.id)
        layer.setdefault(src, 0)
        layer[dst] = max(layer.get(dst, 0), layer[src] + 1)
        net.links[w] = Link(w, tensors[w].name or w, src, dst, e.seq, e.id)
    if not net.links:
        return net
    roots = [e.root for e in evs if isinstance(e, Backward)]
    last = max(layer, key=lambda t: (layer[t], tensors[t].seq))
    loss = roots[0] if roots and roots[0] in tensors else _named_end(last, users, tensors)
    if loss is not None and loss not in layer:
        layer[loss] = layer[last] + 1
    net.loss = loss if loss in layer else None
    for t in sorted(layer, key=lambda t: tensors[t].seq):
        e = tensors[t]
        net.units[t] = Unit(t, e.name or t, layer[t], e.seq, bool(e.is_leaf))
    if loss is not None:
        later += [(r, loss) for r in roots[1:] if r in tensors]
        later += [(end, loss) for t, unit in list(later) if unit == last
                  for end in [_named_end(t, users, tensors)] if end is not None]
    for t, unit in later:
        if t not in net.units and unit in net.units:
            net.alias.setdefault(t, unit)
    _owners(net, tensors, users, weights)
    _targets(net, tensors, weights)
    return net


def _named_end(t: str, users: dict[str, list[str]], tensors: dict[str, Tensor]) -> str | None:
    """The last named tensor downstream of ``t`` on a single path (the loss after ``yh``)."""
    end = None
    while users.get(t):
        t = users[t][-1]
        if tensors[t].name:
            end = t
    return end


def _owners(net: Network, tensors: dict[str, Tensor], users: dict[str, list[str]], weights: set[str]) -> None:
    """Every tensor (and its node) -> the unit or weight the picture shows it as.

    A product belongs to its weight; every other op result belongs to the unit its value flows
    into (the sums and the ReLU of ``h1_0``, the subtraction and square of ``L``), in every pass."""
    for t, e in tensors.items():
        unit = net.unit_of(t)
        if t in weights and t in net.links:
            target = t
        elif e.seq in net.products:
            target = net.products[e.seq]
        elif unit is not None:
            target = unit
        elif e.op not in (None, "tensor", "grad"):
            target = _downstream_unit(t, net, users)
        else:
            continue
        if target is None:
            continue
        net.owner[t] = target
        if e.node:
            net.owner[e.node] = target


def _targets(net: Network, tensors: dict[str, Tensor], weights: set[str]) -> None:
    """Each unit's named leaves from outside the network, read by its own ops: the target ``y``
    of ``L = (yh - y)**2``, which the picture shows beside the loss (a caption naming it must
    find it there). Read from the first pass (up to its loss), as the units are."""
    end = max((u.seq for u in net.units.values()), default=-1)
    for t, e in tensors.items():
        unit = net.owner.get(t)
        if e.seq > end:
            continue
        if unit not in net.units:
            continue
        for i in e.inputs or []:
            leaf = tensors.get(i) if isinstance(i, str) else None
            if leaf is None or i in net.owner or i in weights or not leaf.is_leaf or not leaf.name:
                continue
            if i not in net.targets.get(unit, []):
                net.targets.setdefault(unit, []).append(i)


def _downstream_unit(t: str, net: Network, users: dict[str, list[str]]) -> str | None:
    seen = 0
    while net.unit_of(t) is None and users.get(t) and seen < 10_000:
        t, seen = users[t][0], seen + 1
    return net.unit_of(t)
