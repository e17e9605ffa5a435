"""What every view of the clip scene shares: the clip's fixed inputs, its records and one step's scratch.

Why one typed object: a view (:mod:`scenes.draw.views`) needs the theme, the aspect, the layout,
the plan and the log, and says what it shows in the ledger; passing them as one :class:`DrawContext`
keeps each view's constructor short and every access typed. The records (``state``) and the
ledger are what a beat's snapshot restores (:mod:`scenes.render.states`): the scene sets them
here, so a view always reads the current ones. :class:`StepScratch` is what one step's drawers
tell each other (shapes coming in, arrows turning round, a title going); it lives for that step
only, never in a record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scenes.draw.state import SceneState
from scenes.layout.clip import graph_region
from scenes.theme import Rect, Theme
from scenes.theme_model import Aspect

if TYPE_CHECKING:
    from engine.records import Event
    from engine.records import Tensor as TensorEvent
    from manim import Animation, Transform, VGroup

    from scenes.draw.visuals.wavefront import Rings
    from scenes.layout.place import Layout
    from scenes.layout.routes import Route
    from scenes.storyboard.placeholders import Shown
    from scenes.storyboard.plan import Plan

Anims = list["Animation"]
"""What a drawer returns: the animations of its cue, played together in one step."""


@dataclass
class DrawContext:
    """The clip's fixed inputs (``plan``, ``events``, ``source``, ``theme``, ``spec``: the aspect,
    ``layout``), and the scene's records and ledger as they are now."""

    plan: Plan
    events: list[Event]
    source: str | None
    theme: Theme
    spec: Aspect
    layout: Layout
    owner: dict[str, str] = field(default_factory=dict)  # node id -> the layout item that stands for it
    tensor_events: dict[str, TensorEvent] = field(default_factory=dict)  # tensor id -> the event that made it
    state: SceneState = field(default_factory=SceneState)
    ledger: list[tuple[str, int | None]] = field(default_factory=list)
    rings: Rings = field(init=False, repr=False)  # the glow rings built so far, each size once

    def __post_init__(self) -> None:
        from scenes.draw.visuals.wavefront import Rings  # Manim: only once a scene is drawn

        self.rings = Rings(self.theme)

    def record(self, shown: Shown) -> None:
        """Say that ``shown`` is on screen (tests check the picture says what the plan says)."""
        self.ledger.append((shown.text, shown.seq))

    def record_all(self, strings: tuple[Shown, ...] | list[Shown]) -> None:
        for s in strings:
            self.record(s)

    def item(self, some_id: str) -> str:
        """Layout item for a tensor id or a node id (an AccumulateGrad node maps to its leaf; a
        result folded into a chain's card, to that card)."""
        return self.layout.card_of(self.owner.get(some_id, some_id))

    def frame_rect(self) -> Rect:
        """The frame inside its margin: where anything drawn stays."""
        return self.theme.safe_rect(self.spec)

    def graph_region(self) -> Rect:
        """The clip's graph region (`graph_region`), where the graph, the network or the curve go."""
        return graph_region(self.plan, self.source, self.spec, self.theme, lit=self.layout.code_lit)


@dataclass
class Slide:
    """The console's column sliding with the code pane in one step: the ``move`` that does it,
    how far (``dy``), and where each part of the column stood as the step began (``was``, by id:
    set by the first line printed in the step, `scenes.draw.console.slide_home`). Why kept: a
    second line printed in the same step must find the first where it ends, not a slide further."""

    move: Transform
    dy: float
    was: dict[int, Any] = field(default_factory=dict)


@dataclass
class StepScratch:
    """What the drawers of one step (the cues starting on one frame) tell each other. Two of its
    cues may reach one shape, and Manim cannot drive one shape with two animations: ``arriving``,
    ids of shapes a FadeIn of this step brings in (a later cue sets them faded instead of fading
    them); ``turning``, arrow id -> the arrow a visit turns it into (a dim fades that one);
    ``going``, the fades of what this step takes away first (a title, the network giving way
    to the cards: what comes starts at half time);
    ``riding``, the routes tokens took in this step, each with its
    cue's start (two paths at once take two edges); ``ways``, each token's way (corners) and
    size, with its cue's start (tokens setting off together go round each other's ways where
    they would ride over each other), and ``rides`` their rides (one may wait for another);
    ``queued``, token id -> where a token that rides to a leaf in this step goes on to wait
    beside its bucket (it is not there yet); ``sliding``, id of the console's column -> its
    `Slide` with the code pane in this step (the lines printed in the same step join that
    slide: `Console._print`); ``printed``, where the console's lines stand as this step ends, once
    a line is printed in it (they slide or scroll there as it plays: a token riding in the same
    step keeps off them, the training step's ``lr × grad``). Scratch, not state: a beat's key must
    not hold when earlier tokens rode (:mod:`scenes.render.keys`)."""

    arriving: set[int] = field(default_factory=set)
    turning: dict[int, VGroup] = field(default_factory=dict)
    going: list[Animation] = field(default_factory=list)
    riding: list[tuple[Route, float]] = field(default_factory=list)
    ways: list[tuple[float, list[tuple[float, float]], tuple[float, float]]] = field(default_factory=list)
    rides: list[tuple[float, Animation]] = field(default_factory=list)
    queued: dict[int, tuple[float, float]] = field(default_factory=dict)
    sliding: dict[int, Slide] = field(default_factory=dict)
    printed: list[Rect] = field(default_factory=list)


class View:
    """A part of the picture (the curve, the network, the titles, ...): it owns a record of
    ``ctx.state`` (what it shows, snapshotted with the beat) and the shapes in it, or none (a
    helper such as the free frame), draws the cue kinds it marks with ``@draws`` as ``(cue,
    step) -> animations``, and offers the others what they need of it as public methods. Any
    view may read a record; the graph's is written by the views that draw on it (cards, freed
    graphs, walk, buckets, focus), every other by its owner."""

    def __init__(self, ctx: DrawContext) -> None:
        self.ctx = ctx

    @property
    def theme(self) -> Theme:
        return self.ctx.theme

    @property
    def lay(self) -> Layout:
        """The clip's graph layout (the scene's own ``lay`` follows a beat's ``focus:``)."""
        return self.ctx.layout
