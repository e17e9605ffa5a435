"""The views the clip scene is composed of (:class:`Views`), made from one shared context.

Why a module of its own: the scene composes them, and the mixins not yet made views reach a
view through this typed record rather than through the scene's private helpers.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable

from manim import Mobject

from scenes.draw.backward import BackwardWalk
from scenes.draw.buckets import Buckets
from scenes.draw.checklist import Checklist
from scenes.draw.code import CodePaneView
from scenes.draw.context import DrawContext, View
from scenes.draw.curve import LossCurve
from scenes.draw.focus import CameraFocus
from scenes.draw.forward import CardNeeds, GraphCards
from scenes.draw.frame_spots import FreeFrame
from scenes.draw.labels import CardLabels
from scenes.draw.loops import PassMark
from scenes.draw.network import NetworkDiagram
from scenes.draw.onscreen import OnScreen
from scenes.draw.step import StepNeeds, TrainingStep
from scenes.draw.titles import Titles

VIEW_CLASSES: tuple[type[View], ...] = (BackwardWalk, Buckets, CameraFocus, CardLabels, Checklist, CodePaneView,
                                         FreeFrame, GraphCards, LossCurve, NetworkDiagram, OnScreen, PassMark, Titles,
                                         TrainingStep)
"""Every view class, whose ``@draws`` methods join the scene's drawer table."""


@dataclass
class Views:
    """One of each view, sharing ``ctx``; a view that asks another is given it here."""

    frame: FreeFrame
    focus: CameraFocus
    labels: CardLabels
    onscreen: OnScreen
    graph: GraphCards
    buckets: Buckets
    walk: BackwardWalk
    checklist: Checklist
    curve: LossCurve
    network: NetworkDiagram
    loops: PassMark
    code: CodePaneView
    titles: Titles
    step: TrainingStep

    @classmethod
    def of(cls, ctx: DrawContext, drawn: Callable[[], list[Mobject]], scene: StepNeeds,
           cards: CardNeeds) -> Views:
        """``drawn``: the scene's display list; ``scene`` and ``cards``: the printed lines the
        training step and the graph use (the scene's console, until it is a view too)."""
        frame, network, loops, focus = FreeFrame(ctx), NetworkDiagram(ctx), PassMark(ctx), CameraFocus(ctx)
        labels, onscreen = CardLabels(ctx, focus, frame), OnScreen(ctx, frame, drawn)
        graph = GraphCards(ctx, focus, frame, labels, cards)
        buckets = Buckets(ctx, labels, onscreen, frame)
        walk = BackwardWalk(ctx, graph, buckets, labels, onscreen, frame)
        return cls(frame=frame, focus=focus, labels=labels, onscreen=onscreen, graph=graph, buckets=buckets,
                   walk=walk, checklist=Checklist(ctx, frame, onscreen.shown_rects), curve=LossCurve(ctx),
                   network=network, loops=loops, code=CodePaneView(ctx, loops), titles=Titles(ctx, network),
                   step=TrainingStep(ctx, labels, graph, onscreen, scene))

    def all(self) -> list[View]:
        return [getattr(self, f.name) for f in fields(self)]
