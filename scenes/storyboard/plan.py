"""The pure plan: (events, storyboard, timings) -> timed cues and caption spans.

Why pure: the plan is where time, order and every displayed string are decided, so it can be
tested as data with no Manim; the scene only draws cues. Every string a cue shows is a
:class:`~.narration.Shown` naming the event (``seq``) and field it was read from.

Cue kinds, their ``ids`` and the ``role`` of their strings (the scene's contract):

=================  ==========================  =====================================================
kind               ids                         strings (role)
=================  ==========================  =====================================================
title              ()                          title (title)
code_line          ()                          the program line's text (code); ``line`` is set
node_appear        (tensor, [node])            name, op, value, grad_fn (each when present)
edge_grow          (from, to)                  none; tensor ids in a forward build, node ids else
value_update       (tensor, [node])            name, value
grad_fn_appear     (node, [tensor])            grad_fn, name (when the tensor is named)
bucket_appear      (accumulate node, leaf)     grad_fn, name
backward_start     (root tensor, root node)    name of the root (when named)
visit              (node, [tensor])            grad_fn, grad (grad_in)
grad_travel        (from node, to node)        grad (grads_out[j])
bucket_fill        (accumulate node, leaf)     name, before (if .grad was set), add, after
bucket_reset       (leaf, [accumulate node])   name, after ("None", or the zero)
branch_test        ()                          code (the test), taken ("True"/"False")
output_line        ()                          output
message            ([node])                    type, message (an error or warning)
emphasis / dim     tensor and node ids         none
unit_appear        (unit tensor)               name (a unit of the program's MLP)
link_appear        (weight, src unit, dst)     none (a weight joining two units)
pass_count         (root or seed tensor)       count (backward ``call`` / forward ``pass``),
                                               total (forward ``passes``)
sweep_step         (unit or weight, ...)       none: the reverse sweep reaches them
link_fill          (weight)                    none: its .grad arrived (accumulate)
tangent_sweep      (weights and units)         none: one forward pass, seed to loss, in order
jvp_fill           (seed weight)               name, value (d root / d seed of that pass)
=================  ==========================  =====================================================

The ``network*`` visuals draw the program's MLP (:mod:`.network`) and name each cue by the
unit or weight (tensor id) that the autograd node belongs to.

Facts that are not shown as text (requires_grad, is_leaf, dtype) are read from ``events[seq]``
for the seqs a cue lists.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from .logindex import Event, LogIndex
from .model import Storyboard
from .narration import Shown, _number, fill
from .network import Network, read_network
from .numfmt import show, torch_str
from .timings import PlanTimings

VISUAL_KINDS: dict[str, frozenset[str]] = {
    "title_card": frozenset(),
    "code_and_graph_build": frozenset({"tensor", "update", "print", "expr", "error", "warning", "grad_reset", "branch"}),
    "backward_graph": frozenset({"node"}),
    "wavefront": frozenset({"backward", "visit", "accumulate", "error", "warning"}),
    "accumulate": frozenset({"accumulate", "error"}),
    "reset": frozenset({"grad_reset"}),
    "branch": frozenset({"branch"}),
    "output": frozenset({"print", "expr", "error", "warning"}),
    "network": frozenset({"tensor"}),
    "network_backward": frozenset({"backward", "visit", "accumulate"}),
    "network_forward": frozenset({"forward_pass", "tangent", "jvp"}),
}
"""The event kinds each visual draws; other events of its span are passed over."""


@dataclass(frozen=True)
class Cue:
    """One thing the scene does, from ``start`` for ``duration`` seconds."""

    start: float
    duration: float
    kind: str
    beat: int
    ids: tuple[str, ...] = ()
    strings: tuple[Shown, ...] = ()
    line: int | None = None
    seqs: tuple[int, ...] = ()

    def text(self, role: str) -> str | None:
        """The string with ``role``, if the cue shows one."""
        return next((s.text for s in self.strings if s.role == role), None)


@dataclass(frozen=True)
class CaptionSpan:
    """A caption on screen from ``start`` to ``end``; ``strings`` are its filled numbers."""

    index: int
    start: float
    end: float
    text: str
    beat: int
    strings: tuple[Shown, ...] = ()


@dataclass(frozen=True)
class BeatTime:
    index: int
    visual: str
    start: float
    duration: float


@dataclass(frozen=True)
class Plan:
    title: str
    duration: float
    cues: tuple[Cue, ...]
    captions: tuple[CaptionSpan, ...]
    beats: tuple[BeatTime, ...] = field(default=())

    def to_json(self) -> str:
        """The plan as JSON data (``render plan NAME --json``), keys in a fixed order."""
        return json.dumps(asdict(self), indent=1, ensure_ascii=False)

    def displayed(self) -> list[Shown]:
        """Every string the clip shows: cue strings, then caption numbers."""
        return [s for c in self.cues for s in c.strings] + [s for c in self.captions for s in c.strings]


def _t(x: float) -> float:
    return round(x, 3)


class _Builder:
    """Lays the cues of one beat out in time; ``now`` is where the next cue starts."""

    def __init__(self, index: LogIndex, board: Storyboard, beat_no: int, start: float, tm: PlanTimings):
        self.index, self.board, self.beat_no, self.now, self.tm = index, board, beat_no, start, tm
        self.numbers = board.number_style
        self.cues: list[Cue] = []
        self.line: int | None = None
        self._net: Network | None = None
        self.lit: set[str] = set()  # units and weights the sweep of this beat has reached
        self.reached: list[str] = []  # owners one forward pass reaches, in order
        self.last_dst: tuple[str, float] | None = None  # links into one unit grow together

    @property
    def net(self) -> Network:
        if self._net is None:
            self._net = read_network(self.index.events)
        return self._net

    def add(self, kind: str, duration: float, ids=(), strings=(), seqs=(), at: float | None = None,
            advance: bool = True) -> None:
        start = self.now if at is None else at
        self.cues.append(Cue(_t(start), _t(duration), kind, self.beat_no, tuple(i for i in ids if i),
                             tuple(strings), self.line, tuple(seqs)))
        if advance:
            self.now = max(self.now, start + duration)

    def name_of(self, tensor: str | None, role: str = "name") -> list[Shown]:
        ev = self.index.tensor_event.get(tensor or "")
        if ev is None or not ev.get("name"):
            return []
        return [Shown(ev["name"], ev["seq"], "name", role)]

    def value(self, ev: Event, key: str, exact_key: str, str_key: str | None, role: str) -> Shown:
        s = _number(ev, key, exact_key, str_key, self.numbers)
        return Shown(s.text, s.seq, s.field, role)

    def code_line(self, ev: Event) -> None:
        if ev["line"] == self.line:
            return
        self.line = ev["line"]
        lines = self.index.lines
        text = lines[self.line - 1] if 0 < self.line <= len(lines) else ""
        self.add("code_line", self.tm.code_highlight_move, strings=[Shown(text, None, "source", "code")])

    def event(self, ev: Event, visual: str) -> None:
        kind = ev["kind"]
        if kind not in VISUAL_KINDS[visual]:
            return
        if visual in ("code_and_graph_build", "backward_graph", "output", "reset", "branch"):
            self.code_line(ev)
        if visual.startswith("network"):
            getattr(self, f"_net_{kind}")(ev)
        else:
            getattr(self, f"_{kind}")(ev)

    def _tensor(self, ev: Event) -> None:
        strings = [Shown(ev["name"], ev["seq"], "name", "name")] if ev.get("name") else []
        expr = self.expression(ev) if not strings else None
        if expr is not None:  # an unnamed result is called by its code: `yh - y`
            strings.append(Shown(expr, ev["seq"], "span", "name"))
        if ev.get("op") and ev.get("op") != "tensor":
            strings.append(Shown(ev["op"], ev["seq"], "op", "op"))
        strings.append(self.value(ev, "value", "exact", "str", "value"))
        if ev.get("grad_fn"):
            strings.append(Shown(ev["grad_fn"], ev["seq"], "grad_fn", "grad_fn"))
        self.add("node_appear", self.tm.node_appear, (ev["id"], ev.get("node")), strings, [ev["seq"]])
        sources = [i for i in ev.get("inputs") or [] if isinstance(i, str) and i in self.index.tensor_event]
        t = self.now
        for src in dict.fromkeys(sources):
            self.add("edge_grow", self.tm.edge_grow, (src, ev["id"]), (), [ev["seq"]], at=t)

    def expression(self, ev: Event) -> str | None:
        """The source text of an unnamed op's expression, when it is short enough for a card."""
        span, line = ev.get("span"), ev.get("line", 0)
        if not span or ev.get("op") in (None, "tensor", "grad") or not 0 < line <= len(self.index.lines):
            return None
        text = self.index.lines[line - 1].encode("utf-8")[span[0]:span[1]].decode("utf-8", "replace").strip()
        return text if 0 < len(text) <= MAX_EXPRESSION_CHARS else None

    def _update(self, ev: Event) -> None:
        strings = [Shown(ev["name"], ev["seq"], "name", "name")] if ev.get("name") else []
        strings.append(self.value(ev, "value", "exact", "str", "value"))
        self.add("value_update", self.tm.node_appear, (ev["tensor"], ev.get("node")), strings, [ev["seq"]])

    def _node(self, ev: Event) -> None:
        names = self.name_of(ev.get("tensor"))
        grad_fn = Shown(ev["grad_fn"], ev["seq"], "grad_fn", "grad_fn")
        if ev["grad_fn"] == "AccumulateGrad":
            self.add("bucket_appear", self.tm.bucket_fill, (ev["id"], ev.get("tensor")), [grad_fn] + names, [ev["seq"]])
        else:
            self.add("grad_fn_appear", self.tm.node_appear, (ev["id"], ev.get("tensor")), [grad_fn] + names, [ev["seq"]])
        t = self.now
        for target in dict.fromkeys(e for e in ev.get("edges") or [] if e):
            self.add("edge_grow", self.tm.edge_grow, (ev["id"], target), (), [ev["seq"]], at=t)

    def _backward(self, ev: Event) -> None:
        root = self.index.tensor_event.get(ev["root"], {})
        self.add("backward_start", self.tm.wavefront_step, (ev["root"], ev.get("node") or root.get("node")),
                 self.name_of(ev["root"]), [ev["seq"]])

    def _visit(self, ev: Event) -> None:
        strings = [Shown(ev["grad_fn"], ev["seq"], "grad_fn", "grad_fn"),
                   self.value(ev, "grad_in", "grad_in_exact", None, "grad")]
        self.add("visit", self.tm.wavefront_step, (ev["node"], ev.get("tensor")), strings, [ev["seq"]])
        t = self.now
        exacts = ev.get("grads_out_exact") or [None] * len(ev.get("grads_out") or [])
        for j, (target, grad) in enumerate(zip(ev.get("edges") or [], ev.get("grads_out") or [])):
            if target is None or grad is None:
                continue
            if self.numbers.style == "fraction" and exacts[j] is not None:
                s = Shown(exacts[j], ev["seq"], f"grads_out_exact[{j}]", "grad")
            else:
                s = Shown(show(grad, None, self.numbers), ev["seq"], f"grads_out[{j}]", "grad")
            self.add("grad_travel", self.tm.grad_travel, (ev["node"], target), [s], [ev["seq"]], at=t)

    def _accumulate(self, ev: Event) -> None:
        strings = self.name_of(ev["tensor"])
        if ev.get("before") is not None:
            strings.append(self.value(ev, "before", "before_exact", None, "before"))
        strings.append(self.value(ev, "add", "add_exact", None, "add"))
        strings.append(self.value(ev, "after", "after_exact", "str", "after"))
        self.add("bucket_fill", self.tm.bucket_fill, (ev["node"], ev["tensor"]), strings, [ev["seq"]])

    def _grad_reset(self, ev: Event) -> None:
        strings = self.name_of(ev["tensor"])
        to = ev.get("to")
        text = "None" if to is None else show(to, "0", self.numbers, torch_str(to))
        strings.append(Shown(text, ev["seq"], "to", "after"))
        leaf = self.index.tensor_event.get(ev["tensor"], {})
        self.add("bucket_reset", self.tm.bucket_fill, (ev["tensor"], leaf.get("node")), strings, [ev["seq"]])

    def _branch(self, ev: Event) -> None:
        strings = [Shown(ev["test"], ev["seq"], "test", "code"), Shown(str(bool(ev["taken"])), ev["seq"], "taken", "taken")]
        self.add("branch_test", self.tm.wavefront_step, (), strings, [ev["seq"]])

    def _print(self, ev: Event) -> None:
        self.add("output_line", self.tm.node_appear, (), [Shown(ev["text"], ev["seq"], "text", "output")], [ev["seq"]])

    def _expr(self, ev: Event) -> None:
        self.add("output_line", self.tm.node_appear, (), [Shown(ev["str"], ev["seq"], "str", "output")], [ev["seq"]])

    def _error(self, ev: Event) -> None:
        strings = [Shown(ev.get("type", ""), ev["seq"], "type", "type"), Shown(ev["message"], ev["seq"], "message", "message")]
        self.add("message", self.tm.node_appear * 2, (ev.get("node"),), strings, [ev["seq"]])

    _warning = _error

    # ----- the MLP view: units and weights instead of autograd nodes -----------------------------
    def _net_tensor(self, ev: Event) -> None:
        net = self.net
        if ev["id"] in net.units:
            self.last_dst = None
            self.add("unit_appear", self.tm.node_appear, (ev["id"],),
                     [Shown(net.units[ev["id"]].name, ev["seq"], "name", "name")], [ev["seq"]])
            return
        link = next((l for l in net.links.values() if l.seq == ev["seq"]), None)
        if link is None:
            return
        at = self.last_dst[1] if self.last_dst and self.last_dst[0] == link.dst else None
        if at is None:
            self.last_dst = (link.dst, self.now)
        self.add("link_appear", self.tm.edge_grow, (link.weight, link.src, link.dst), (), [ev["seq"]], at=at)

    def _net_backward(self, ev: Event) -> None:
        self.lit = set()
        self.add("pass_count", self.tm.wavefront_step, (ev["root"],),
                 [Shown(str(ev["call"]), ev["seq"], "call", "count")], [ev["seq"]])

    def _net_visit(self, ev: Event) -> None:
        owner = self.net.owner.get(ev["node"])
        if owner is None or owner in self.lit:
            return
        self.lit.add(owner)
        self.add("sweep_step", self.tm.sweep_step, (owner,), (), [ev["seq"]])

    def _net_accumulate(self, ev: Event) -> None:
        if ev["tensor"] in self.net.links:
            self.add("link_fill", self.tm.sweep_step, (ev["tensor"],), (), [ev["seq"]])

    def _net_forward_pass(self, ev: Event) -> None:
        self.reached = []
        self.add("pass_count", self.tm.wavefront_step, (ev["seed"],),
                 [Shown(str(ev["pass"]), ev["seq"], "pass", "count"),
                  Shown(str(ev["passes"]), ev["seq"], "passes", "total")], [ev["seq"]])

    def _net_tangent(self, ev: Event) -> None:
        owner = self.net.owner.get(ev["node"])
        if owner is not None and owner not in self.reached:
            self.reached.append(owner)

    def _net_jvp(self, ev: Event) -> None:
        if self.reached:
            self.add("tangent_sweep", self.tm.grad_travel, tuple(self.reached), (), [ev["seq"]])
        self.reached = []
        self.add("jvp_fill", self.tm.bucket_fill, (ev["seed"],),
                 [Shown(ev["name"], ev["seq"], "name", "name"), self.value(ev, "value", "exact", None, "value")],
                 [ev["seq"]])


MAX_EXPRESSION_CHARS = 12  # longer code would not fit a card's name row; the op name stands in


def plan(events: list[Event], board: Storyboard, timings: PlanTimings, source: str | None = None) -> Plan:
    """Lay the storyboard's beats out over the log; deterministic and free of side effects.

    ``source`` is the program text the code pane shows (the log header's, which carries any
    ``--set``); it defaults to the storyboard's program.
    """
    index = LogIndex.build(events, source if source is not None else board.program)
    cues: list[Cue] = []
    captions: list[CaptionSpan] = []
    beats: list[BeatTime] = []
    now, cutoff = 0.0, -1
    for i, beat in enumerate(board.beats):
        tm = timings.scaled(beat.pace)
        b = _Builder(index, board, i, now, tm)
        for key, kind in (("emphasis", "emphasis"), ("dim", "dim")):
            ids = [x for name in getattr(beat, key) for x in index.ids_of(name)]
            if ids:
                b.add(kind, tm.caption_fade, ids, advance=False)
        selected = index.select(beat) if beat.span_key() else []
        if beat.visual == "title_card":
            b.add("title", tm.title_hold, (), [Shown(board.title, None, "title", "title")])
        for ev in selected:
            b.event(ev, beat.visual)
        if selected:
            cutoff = max(e["seq"] for e in selected)
        text, shown, problems = fill(beat.narration, index, cutoff, board.number_style)
        if problems:
            raise ValueError(f"beat {i + 1}: {problems[0]}")  # validation refuses this earlier
        length = max(b.now - now, tm.reading(text))
        captions.append(CaptionSpan(i + 1, _t(now), _t(now + length), text, i, tuple(shown)))
        beats.append(BeatTime(i, beat.visual, _t(now), _t(length + tm.beat_pause)))
        cues.extend(b.cues)
        now = now + length + tm.beat_pause
    return Plan(board.title, _t(now), tuple(cues), tuple(captions), tuple(beats))


def plan_dict(p: Plan) -> dict[str, Any]:
    """The plan as plain data (what ``--json`` prints)."""
    return asdict(p)
