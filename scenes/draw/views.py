"""The views the clip scene is composed of (:class:`Views`), made from one shared context.

Why a module of its own: it is the one place that says which view is given which other, so a
view reaches another only through the public methods of the one it is handed here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable

from manim import Mobject

from scenes.draw.backward import BackwardWalk
from scenes.draw.buckets import Buckets
from scenes.draw.camera import WalkCamera
from scenes.draw.checklist import Checklist
from scenes.draw.code import CodePaneView
from scenes.draw.console import Console
from scenes.draw.context import DrawContext, View
from scenes.draw.curve import LossCurve
from scenes.draw.focus import CameraFocus
from scenes.draw.forward import GraphCards
from scenes.draw.legend_spots import LegendFrame
from scenes.draw.labels import CardLabels
from scenes.draw.lights import Lights
from scenes.draw.loops import PassMark
from scenes.draw.network import NetworkDiagram
from scenes.draw.onscreen import OnScreen
from scenes.draw.passes import PassCounts
from scenes.draw.recap import Recap
from scenes.draw.step import TrainingStep
from scenes.draw.titles import Titles
from scenes.draw.unit_math import UnitMath
from scenes.draw.unkept import UnkeptGrads
from scenes.draw.whole import WholeGraph

VIEW_CLASSES: tuple[type[View], ...] = (BackwardWalk, Buckets, WalkCamera, CameraFocus, CardLabels, Checklist, CodePaneView,
                                         Console, LegendFrame, GraphCards, Lights, LossCurve, NetworkDiagram, OnScreen,
                                         PassCounts, PassMark, Recap, Titles, TrainingStep, UnitMath, UnkeptGrads,
                                         WholeGraph)
"""Every view class, whose ``@draws`` methods join the scene's drawer table."""


@dataclass
class Views:
    """One of each view, sharing ``ctx``; a view that asks another is given it here."""

    frame: LegendFrame
    focus: CameraFocus
    labels: CardLabels
    onscreen: OnScreen
    graph: GraphCards
    buckets: Buckets
    walk: BackwardWalk
    camera: WalkCamera
    checklist: Checklist
    curve: LossCurve
    network: NetworkDiagram
    passes: PassCounts
    loops: PassMark
    code: CodePaneView
    console: Console
    titles: Titles
    step: TrainingStep
    recap: Recap
    lights: Lights
    unit_math: UnitMath
    unkept: UnkeptGrads
    whole: WholeGraph

    @classmethod
    def of(cls, ctx: DrawContext, drawn: Callable[[], list[Mobject]]) -> Views:
        """``drawn``: the scene's display list."""
        frame, network, loops, focus = LegendFrame(ctx), NetworkDiagram(ctx), PassMark(ctx), CameraFocus(ctx)
        console, code = Console(ctx), CodePaneView(ctx, loops)
        labels, onscreen = CardLabels(ctx, focus, frame), OnScreen(ctx, frame, drawn)
        graph = GraphCards(ctx, focus, frame, labels, console)
        buckets = Buckets(ctx, labels, onscreen, frame, focus)
        walk = BackwardWalk(ctx, graph, buckets, labels, onscreen, frame, focus)
        camera = WalkCamera(ctx, focus, frame, walk)
        walk.notes.stays = camera.stays  # a note keeps where a move aside to come leaves it in view
        walk.notes.slid_past = camera.slid_past  # and clear of the pane a slide to come takes it past
        buckets.sum_written = walk.waiting.clear_sum  # a token waiting level with a fill's sum gives way
        buckets.note_written = walk.waiting.clear_note  # and one just over or under its note's lines
        whole = WholeGraph(ctx, focus, frame, code)
        return cls(frame=frame, focus=focus, labels=labels, onscreen=onscreen, graph=graph, buckets=buckets,
                   walk=walk, camera=camera, checklist=Checklist(ctx, frame, onscreen.shown_rects),
                   curve=LossCurve(ctx), network=network, passes=PassCounts(ctx, network), loops=loops,
                   code=code, console=console,
                   titles=Titles(ctx, network), step=TrainingStep(ctx, labels, graph, onscreen, console),
                   recap=Recap(ctx, frame, lambda exclude=(): onscreen.shown_rects(exclude) + onscreen.line_rects(), code,
                               whole.takes_across),
                   lights=Lights(ctx, network), unit_math=UnitMath(ctx, network),
                   unkept=UnkeptGrads(ctx, labels, onscreen, frame, focus, buckets),
                   whole=whole)

    def all(self) -> list[View]:
        return [getattr(self, f.name) for f in fields(self)]
