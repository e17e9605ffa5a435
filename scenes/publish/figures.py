"""What each beat's figure shows: the clip's graph at the end of the beat, read from the plan.

Why from the plan: the clip draws exactly the plan's cues on the layout, so replaying the cues
of beats 0..k (which cards appeared with which values, which gradients rode which edge, which
buckets filled, what the walk visited, what was dimmed or lit) gives the picture the clip ends
beat k on, as data, with no video decoded. :mod:`.svg` draws such a :class:`Picture`.

The figure is laid out for a page, not a frame: the graph's own layout (the same
:func:`scenes.layout.place.layout_graph` the clip uses, a pass that records a freed graph again
in its place: :mod:`scenes.layout.passes`) in the tall region of the theme's 9:16 frame, with no
code pane (the page shows the program once), then cropped to the graph. What a freed graph takes
with it is the clip's own rule (:mod:`scenes.layout.freeing`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.records import Tensor
from scenes.layout.bucket_level import fill_level, fill_scales
from scenes.layout.freeing import freeing
from scenes.layout.graph import Graph, graph_from_events
from scenes.layout.passes import expanded, reduced, share_slots
from scenes.layout.place import Layout, layout_graph
from scenes.publish.steps import VisitStep, step_before, visit_steps
from scenes.storyboard.logindex import LogIndex
from scenes.theme import Theme

FIGURE_ASPECT = "9:16"
"""The frame whose shape a figure takes: tall and narrow, so a phone shows it at a readable size."""

GRAPH_VIEWS = ("graph", "step")

WALK_CUES = frozenset({"visit", "grad_travel", "local_rule", "bucket_fill"})
"""Cue kinds of a backward walk: a stepping figure shows the picture the last beat with them ends on."""
"""Views whose beats get a figure: those that draw the autograd graph's cards."""


@dataclass(frozen=True)
class Card:
    """A card as the figure shows it: its title (name or code), value and grad_fn."""

    item: str
    title: str
    value: str | None
    grad_fn: str | None


@dataclass(frozen=True)
class Sent:
    """A gradient that rode an edge backward, ``src`` item to ``dst`` item, at walk step ``step``."""

    src: str
    dst: str
    text: str
    step: int
    path: int = 0  # the k-th of the edges between the two (w * w: two)


@dataclass(frozen=True)
class Fill:
    """A bucket's ``.grad`` as it was written, the walk step it was filled at, and what it held
    before (None: empty), which a stepping figure shows until that step; its level now and before."""

    bucket: str
    text: str
    step: int
    before: str | None = None
    level: float = 1.0  # how full it is drawn, and was before (`scenes.layout.bucket_level`, as the clip)
    held: float = 0.0


@dataclass
class Picture:
    """The graph at one moment: what is drawn, what the walk did, what is lit, and the visits
    (their rules with numbers) of the beat (or of the whole walk, in the stepping figure)."""

    cards: dict[str, Card] = field(default_factory=dict)
    buckets: set[str] = field(default_factory=set)
    sent: dict[tuple[str, str, int], Sent] = field(default_factory=dict)  # (from, to, k-th path between them)
    fills: dict[str, Fill] = field(default_factory=dict)
    walked: dict[str, int] = field(default_factory=dict)  # item -> the step it was visited at
    dimmed: set[str] = field(default_factory=set)
    lit: set[str] = field(default_factory=set)
    ghost: set[str] = field(default_factory=set)  # a freed graph's results kept, faded, beside the next one
    visits: list[VisitStep] = field(default_factory=list)
    unkept: dict[str, tuple[str, str]] = field(default_factory=dict)  # tensor -> (name, "None"): a .grad told None (a result's, a reset's)

    def cut(self, src: str, dst: str) -> bool:
        """Whether the edge ``src`` -> ``dst`` joins the freed graph kept beside the new one to a
        card outside it: the clip cut it when the graph was freed (`Freeing.cut`)."""
        return (src in self.ghost) != (dst in self.ghost)

    def copy(self) -> Picture:
        return Picture(dict(self.cards), set(self.buckets), dict(self.sent), dict(self.fills), dict(self.walked),
                       set(self.dimmed), set(self.lit), set(self.ghost), list(self.visits), dict(self.unkept))


@dataclass(frozen=True)
class Walk:
    """One backward call's walk as a stepping figure: its steps, the picture with every mark
    (each tagged with the step it came at), and the beat after whose section it goes."""

    steps: tuple[VisitStep, ...]
    picture: Picture
    after_beat: int


@dataclass(frozen=True)
class Figures:
    """The figure layout and, per beat, the picture it ends on (None: the beat has no figure),
    and a stepping figure per backward call the clip walks."""

    layout: Layout
    graph: Graph
    pictures: tuple[Picture | None, ...]
    walks: tuple[Walk, ...]


def figure_region(theme: Theme) -> tuple[float, float, float, float]:
    """The 9:16 frame's width inside its margin, and as tall as the 3:4 of that: a figure has no
    code pane and no caption bar, and a graph spread over a whole 9:16 height is taller than a
    phone's screen."""
    spec = theme.aspect(FIGURE_ASPECT)
    w = spec.frame_width / 2 - spec.margin
    return (-w, -w * 4 / 3, w, w * 4 / 3)


def figures(index: LogIndex, p: Any, views: list[str], theme: Theme) -> Figures:
    """The layout and each beat's picture; ``views`` names each beat's view (``graph``, ...)."""
    graph = graph_from_events(index.events, index.source)
    shared = share_slots(graph, index.events)
    lay = expanded(layout_graph(reduced(graph, shared), FIGURE_ASPECT, theme, figure_region(theme)), graph, shared)
    steps = visit_steps(p, index)
    item_of = _item_of(graph, lay)
    ctx = _Replay(item_of, {it.id: it.title for it in graph.items}, steps, dict(index.tensor_event),
                  {it.id for it in graph.items if it.kind in ("op", "loss", "internal")},
                  {i: (b.x, b.y) for i, b in lay.boxes.items()}, _fills_at(p, steps), fill_scales(p))
    pic, out, walks = Picture(), [], []
    snap: tuple[Picture, int] | None = None  # the walk's picture at the end of its last beat, and that beat
    call: object = _NO_CALL

    def close() -> None:
        if snap is not None and snap[0].walked:
            done = steps[min(snap[0].walked.values()):max(snap[0].walked.values()) + 1]
            walks.append(Walk(tuple(done), replace(snap[0], visits=list(done)), snap[1]))

    for beat in p.beats:
        pic.lit, pic.visits = set(), []
        walking = False
        for cue in (c for c in p.cues if c.beat == beat.index):
            step = step_before(steps, cue.seqs[0]) if cue.seqs else -1
            if cue.kind == "visit" and step >= 0:
                if call is not _NO_CALL and steps[step].call != call:
                    close()  # another backward call's walk: the last one's marks go
                    pic.sent, pic.walked, snap = {}, {}, None
                call = steps[step].call
            walking |= cue.kind in WALK_CUES
            _apply(pic, cue, ctx, step)
        shown = views[beat.index] in GRAPH_VIEWS and bool(pic.cards)
        out.append(pic.copy() if shown else None)
        if walking and shown:
            snap = (pic.copy(), beat.index)
    close()
    return Figures(lay, graph, tuple(out), tuple(walks))


def _item_of(graph: Graph, lay: Layout) -> dict[str, str]:
    """Tensor and node id -> the item whose card stands for it."""
    out = {it.id: lay.card_of(it.id) for it in graph.items}
    out.update({n: lay.card_of(i) for n, i in graph.node_owner.items()})
    return out


_NO_CALL = object()


def _fills_at(p: Any, steps: list[VisitStep]) -> dict[int, Any]:
    """Each AccumulateGrad visit's step -> the bucket_fill cue that writes its ``.grad`` (the
    first fill of that node after the visit, as :func:`.steps.visit_steps` pairs them)."""
    fills = [c for c in p.cues if c.kind == "bucket_fill" and len(c.ids) > 1 and c.seqs]
    out = {}
    for s in steps:
        if s.grad_fn == "AccumulateGrad":
            fill = next((f for f in fills if f.ids[0] == s.node and f.seqs[0] > s.seq), None)
            if fill is not None:
                out[s.index] = fill
    return out


@dataclass(frozen=True)
class _Replay:
    """What replaying a cue reads: the item of each id, each item's title, the walk's steps, the
    event that made each tensor, and the results (the cards a walk leaves walked)."""

    item_of: dict[str, str]
    titles: dict[str, str]
    steps: list[VisitStep]
    events: dict[str, Tensor]
    results: set[str]
    places: dict[str, tuple[float, float]]  # item -> its box's centre: a new pass takes a freed one's place
    fills_at: dict[int, Any] = field(default_factory=dict)  # an AccumulateGrad visit's step -> its fill cue
    tops: dict[str, float] = field(default_factory=dict)  # leaf -> the .grad its bucket is full at (`fill_scales`)


def _retire_walked(pic: Picture, tid: str, ctx: _Replay) -> None:
    """A new result that does not build on the walked graph starts a new one: backward() freed
    the walked graph, so the picture loses what the clip fades then (:mod:`scenes.layout.freeing`,
    the clip's own rule): its results and spent inputs go, a graph the storyboard faded
    (``dim``) stays beside the new one, cut loose from the weights (its arrows to them go, in
    :func:`.svg.draw`), and goes as backward() starts on the new one."""
    f = freeing(ctx.events, tid, pic.cards, set(pic.walked) & ctx.results, pic.dimmed, pic.ghost)
    if f is None:
        return
    for item in f.going:
        pic.cards.pop(item, None)
    pic.dimmed &= f.dimmed
    pic.ghost, pic.walked, pic.sent = set(f.kept), {}, {}


def _apply(pic: Picture, cue: Any, ctx: _Replay, step: int) -> None:
    """One cue's change to the picture, as the scene draws it (the figure keeps no animation)."""
    ids = [ctx.item_of[i] for i in cue.ids if i in ctx.item_of]
    kind, titles, steps = cue.kind, ctx.titles, ctx.steps
    if kind == "node_appear" and ids and ids[0] not in pic.cards:
        here = ctx.places.get(ids[0])  # a pass recording the freed graph again: the old card goes first
        for other in [c for c in pic.cards if c != ids[0] and here is not None and ctx.places.get(c) == here]:
            pic.cards.pop(other)
        _retire_walked(pic, cue.ids[0], ctx)
    if kind in ("node_appear", "value_update", "update_step") and ids:
        old = pic.cards.get(ids[0])
        value = cue.text("after") if kind == "update_step" else cue.text("value")
        grad_fn = cue.text("grad_fn") or (old.grad_fn if old else None)
        pic.cards[ids[0]] = Card(ids[0], titles.get(ids[0], cue.text("name") or ids[0]),
                                 value if value is not None else (old.value if old else None), grad_fn)
    elif kind in ("grad_fn_appear",) and ids and ids[0] not in pic.cards:
        pic.cards[ids[0]] = Card(ids[0], titles.get(ids[0], ids[0]), cue.text("value"), cue.text("grad_fn"))
    elif kind == "bucket_appear" and len(cue.ids) > 1:
        pic.buckets.add(f"bucket:{cue.ids[1]}")
    elif kind == "backward_start":
        pic.buckets |= {i for i in titles if i.startswith("bucket:")}
        for g in pic.ghost:  # the new graph is complete: the freed one kept beside it goes (the clip's rule)
            pic.cards.pop(g, None)
        pic.dimmed -= pic.ghost
        pic.ghost = set()
        pic.lit = set(ids[:1])
    elif kind == "visit" and ids and step >= 0:
        pic.buckets |= {i for i in titles if i.startswith("bucket:")}  # a walk shows every weight's bucket
        pic.lit = (pic.lit - set(pic.walked)) | {ids[0]}
        pic.walked[ids[0]] = step
        pic.visits.append(steps[step])
        if step in ctx.fills_at:  # the visit writes .grad (its rule says so): the bucket shows it now,
            _apply(pic, ctx.fills_at[step], ctx, step)  # not only when the clip's accumulate beat fills it
    elif kind == "grad_travel" and len(ids) == 2:
        k = sum(1 for key in pic.sent if key[:2] == (ids[0], ids[1]) and pic.sent[key].step == step)
        pic.sent[(ids[0], ids[1], k)] = Sent(ids[0], ids[1], cue.text("grad") or "", step, k)
    elif kind == "bucket_fill" and len(cue.ids) > 1:
        bucket = f"bucket:{cue.ids[1]}"
        pic.buckets.add(bucket)
        pic.unkept.pop(cue.ids[1], None)  # a number in the bucket: its `w.grad = None` goes
        top = ctx.tops.get(cue.ids[1])
        pic.fills[bucket] = Fill(bucket, cue.text("after") or "", step, cue.text("before"),
                                 fill_level(cue.number("after"), top), fill_level(cue.number("before"), top))
    elif kind == "bucket_reset" and cue.ids:
        bucket = f"bucket:{cue.ids[0]}"
        text = cue.text("after")
        pic.fills.pop(bucket, None)
        pic.unkept.pop(cue.ids[0], None)
        if text not in (None, "None"):  # zero_grad's 0: written, no level
            pic.fills[bucket] = Fill(bucket, text, step, level=0.0)
        elif text is not None and cue.text("name"):  # None: its words, as the clip's bucket wears them
            pic.unkept[cue.ids[0]] = (cue.text("name") or "", text)
    elif kind == "grad_none" and ids and cue.text("name") and cue.text("after"):  # as the clip's note says it
        pic.unkept[ids[0]] = (cue.text("name"), cue.text("after"))
    elif kind == "emphasis":
        pic.lit |= set(ids)
    elif kind == "dim":
        pic.dimmed |= set(ids)
