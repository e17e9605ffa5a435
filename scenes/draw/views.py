"""The views the clip scene is composed of (:class:`Views`), made from one shared context.

Why a module of its own: the scene composes them, and the mixins not yet made views reach a
view through this typed record rather than through the scene's private helpers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

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
from scenes.draw.step import StepNeeds, TrainingStep
from scenes.draw.titles import Titles
from scenes.theme import Rect

VIEW_CLASSES: tuple[type[View], ...] = (CameraFocus, Checklist, CodePaneView, FreeFrame, GraphCards, LossCurve,
                                         NetworkDiagram, PassMark, Titles, TrainingStep)
"""Every view class, whose ``@draws`` methods join the scene's drawer table."""


@dataclass
class Views:
    """One of each view, sharing ``ctx``; a view that asks another is given it here."""

    frame: FreeFrame
    focus: CameraFocus
    labels: CardLabels
    graph: GraphCards
    checklist: Checklist
    curve: LossCurve
    network: NetworkDiagram
    loops: PassMark
    code: CodePaneView
    titles: Titles
    step: TrainingStep

    @classmethod
    def of(cls, ctx: DrawContext, shown_rects: Callable[[], list[Rect]], scene: StepNeeds,
           cards: CardNeeds) -> Views:
        """``shown_rects``: where every visible text, card and bucket is now; ``scene`` and
        ``cards``: the tokens, op names and printed lines the training step and the graph use
        (the scene's, until those parts are views too)."""
        frame, network, loops, focus = FreeFrame(ctx), NetworkDiagram(ctx), PassMark(ctx), CameraFocus(ctx)
        labels = CardLabels(ctx, focus, frame)
        graph = GraphCards(ctx, focus, frame, labels, cards)
        return cls(frame=frame, focus=focus, labels=labels, graph=graph, checklist=Checklist(ctx, frame, shown_rects), curve=LossCurve(ctx),
                   network=network, loops=loops, code=CodePaneView(ctx, loops), titles=Titles(ctx, network),
                   step=TrainingStep(ctx, labels, graph, scene))

    def all(self) -> list[View]:
        return [self.frame, self.focus, self.labels, self.graph, self.checklist, self.curve, self.network, self.loops, self.code, self.titles, self.step]
