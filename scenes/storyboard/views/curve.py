"""The loss_curve view: one named value per pass of a loop, plotted as the passes run.

Why a view of its own: the falling loss of a training loop is the one picture the autograd graph
cannot give (each pass's graph is a new one). The beat's span is the line that binds the value
(``lines: 7``, ``loss = ...``) inside the loop, every pass at once; its first named tensor names
the curve, and each pass's value becomes a point, in the log's order. The axes' range is read
from all of the span's values at the start, so points never leave them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.records import Tensor

from ..builder import Builder
from ..logindex import Event, LogIndex
from ..placeholders import Shown


@dataclass
class Curve:
    """The beat's record: the name plotted, and the pass each of its values belongs to."""

    name: str | None = None
    passes: dict[int, Event] = field(default_factory=dict)  # tensor event seq -> its pass's loop event


def points(index: LogIndex, selected: list[Event]) -> tuple[str | None, list[Event]]:
    """The name the curve plots (the span's first named tensor) and its tensor events."""
    named = [e for e in selected if isinstance(e, Tensor) and e.name]
    if not named:
        return None, []
    name = named[0].name
    return name, [e for e in named if e.name == name]


def begin(b: Builder) -> None:
    """The axes: the name, the extreme values and how many passes the loop ran."""
    curve: Curve = b.state
    beat = b.board.beats[b.beat_no]
    name, evs = points(b.index, b.index.select(beat))
    if not evs:
        return
    curve.name = name
    loop = b.index.loop_around(evs[0].line, evs[0].line)
    starts = [b.index.events[a] for a, _ in loop.passes] if loop else []
    for ev in evs:
        curve.passes[ev.seq] = next((s for s, (a, z) in zip(starts, loop.passes) if a <= ev.seq <= z),
                                       None) if loop else None
    high = max(evs, key=lambda e: float(e.value))
    low = min(evs, key=lambda e: float(e.value))
    strings = [Shown(name, evs[0].seq, "name", "name"), b.value(high, "value", "exact", "str", "top"),
               b.value(low, "value", "exact", "str", "bottom")]
    if starts:
        strings.append(Shown(str(starts[-1].pass_), starts[-1].seq, "pass", "total"))
    b.add("curve_axes", b.tm.edge_grow, (), strings, [high.seq, low.seq])


def tensor(b: Builder, ev: Event) -> None:
    """One point: a value of the plotted name, at its pass."""
    curve: Curve = b.state
    if curve.name is None or ev.name != curve.name:
        return
    strings = [b.value(ev, "value", "exact", "str", "value")]
    start = curve.passes.get(ev.seq)
    if start is not None:
        strings.append(Shown(str(start.pass_), start.seq, "pass", "count"))
    b.add("curve_point", b.tm.node_appear, (ev.id,), strings, [ev.seq])


PLANNERS = {Tensor: tensor}
