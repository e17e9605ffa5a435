"""The views: how a visual's events become cues, one module per picture the scene draws.

A visual (:mod:`..visuals`) names its view; the view holds a planner per event kind (a function
``(builder, event) -> None`` that adds cues), and optionally what a beat starts with (a title
card's title) and a per-beat state record (the network view's sweep). Checked at import: every
visual's view exists and plans every event kind the visual draws, so none is passed over silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..builder import Builder
from ..logindex import Event, LogIndex
from ..visuals import TABLE
from . import curve, graph, network, step

Planner = Callable[[Builder, Event], None]


@dataclass(frozen=True)
class View:
    """One picture: ``planners`` by event kind, ``begin`` run once at a beat's start, ``state``
    making the per-beat record the planners keep in ``builder.state``."""

    planners: dict[type[Event], Planner] = field(default_factory=dict)
    begin: Callable[[Builder], None] | None = None
    state: Callable[[LogIndex], Any] | None = None


VIEWS: dict[str, View] = {
    "title": View(begin=graph.title),
    "graph": View(graph.PLANNERS),
    "network": View(network.PLANNERS, state=network.Sweep),
    "step": View(step.PLANNERS),
    "curve": View(curve.PLANNERS, begin=curve.begin, state=lambda index: curve.Curve()),
}


def _check() -> None:
    for spec in TABLE.values():
        if spec.view not in VIEWS:
            raise ImportError(f"visual {spec.name} names view {spec.view!r}, which scenes/storyboard/views "
                              f"does not have (it has {', '.join(VIEWS)})")
        missing = spec.kinds - VIEWS[spec.view].planners.keys()
        if missing:
            raise ImportError(f"visual {spec.name} draws {', '.join(sorted(k.kind for k in missing))} events, which the "
                              f"{spec.view} view has no planner for")


_check()
