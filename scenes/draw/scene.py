"""ClipScene: the one Manim scene that draws any storyboard plan.

Why one generic scene: a clip's particulars live in its storyboard; the scene only maps each cue
kind to an animation built from ``scenes.draw.visuals`` at the positions of ``scenes.layout.place``. Every
colour, size and timing comes from the theme. Every string put on screen is appended to
``self.ledger`` as ``(text, seq)`` so tests can check the picture says what the plan says.
What is on screen and how later cues change it is ``self.state``, one record per view
(:mod:`scenes.draw.state`); each record belongs to a view (:mod:`scenes.draw.views`), which
the scene composes over one :class:`~scenes.draw.context.DrawContext` (plan, events, theme,
aspect, layout, records, ledger).
"""

from __future__ import annotations

from types import MethodType
from typing import Any, Callable, ClassVar

from manim import Animation, Mobject, Scene
from manim.animation.animation import prepare_animation

from engine.records import Event
from engine.records import Node as NodeEvent
from engine.records import Tensor as TensorEvent

from scenes.draw.crossfade import in_second_half, within
from scenes.layout.clip import clip_layout
from scenes.draw.context import Anims, DrawContext, StepScratch
from scenes.draw.views import VIEW_CLASSES, Views
from scenes.draw.drawers import Drawer, drawer_table
from scenes.draw.state import CodeView, GraphView, SceneState, WalkView
from scenes.video.scene_lists import QuickLists
from scenes.video.timeline import Action
from scenes.layout.place import Layout
from scenes.storyboard.cues import cue_kind
from scenes.storyboard.plan import Plan
from scenes.theme import Theme



class ClipScene(QuickLists, Scene):
    """Draws ``plan`` over the layout of ``events``; ``captions`` is 'burn', 'srt' or 'off'.
    Each cue goes to the method marked ``@draws(kind)`` for its kind (``DRAWERS``): a method of
    one of its views (composed in ``self.views``)."""

    DRAWERS: ClassVar[dict[str, Drawer]] = drawer_table(VIEW_CLASSES)

    def __init__(self, plan: Plan, events: list[Event], source: str | None, theme: Theme,
                 aspect: str = "16:9", captions: str = "burn", layout: Layout | None = None,
                 **kwargs: Any) -> None:
        """``layout``: the graph's layout, when the caller has worked it out (the render's keys hold it)."""
        super().__init__(**kwargs)
        self.plan, self.events, self.source, self.theme = plan, events, source, theme
        self.aspect, self.captions_mode = aspect, captions
        self.spec = theme.aspect(aspect)
        lay = layout or clip_layout(plan, events, source, aspect, theme)
        tensor_events: dict[str, TensorEvent] = {}  # tensor id -> the event that made it
        for e in events:
            if isinstance(e, TensorEvent):
                tensor_events.setdefault(e.id, e)
        self.ctx = DrawContext(plan, events, source, theme, self.spec, lay, owner=_node_owner(events),
                               tensor_events=tensor_events)
        self.views = Views.of(self.ctx, self._drawn)
        self._drawers = self._bind_drawers()

    def _bind_drawers(self) -> dict[str, Callable[[Any, StepScratch], Anims]]:
        """Cue kind -> its drawer bound to the view that declares it."""
        by_class = {type(v): v for v in self.views.all()}
        return {kind: MethodType(d.fn, by_class[d.owner]) for kind, d in self.DRAWERS.items()}

    # ----- what a beat's snapshot holds (scenes.render.states): kept in the views' context ------
    @property
    def state(self) -> SceneState:
        """What is on screen and how later cues change it: all a beat starts from."""
        return self.ctx.state

    @state.setter
    def state(self, value: SceneState) -> None:
        self.ctx.state = value
        if hasattr(self, "views"):  # a stored state: the layout as its camera sees it
            self.views.focus.restore()
            self.views.whole.restore()

    @property
    def lay(self) -> Layout:
        """The graph's layout: the clip's, or while a beat's ``focus:`` holds, the zoomed one."""
        return self.ctx.layout

    @lay.setter
    def lay(self, value: Layout) -> None:
        self.ctx.layout = value

    @property
    def ledger(self) -> list[tuple[str, int | None]]:
        """Every string put on screen, as ``(text, seq)``."""
        return self.ctx.ledger

    @ledger.setter
    def ledger(self, value: list[tuple[str, int | None]]) -> None:
        self.ctx.ledger = value

    # ----- the state, by view -----------------------------------------------------------------
    @property
    def graph(self) -> GraphView:
        return self.state.graph

    @property
    def walk(self) -> WalkView:
        return self.state.walk

    @property
    def code(self) -> CodeView:
        return self.state.code

    def _drawn(self) -> list[Mobject]:
        """The display list: what is drawn, in order (the foreground last)."""
        from manim.utils.iterables import list_update

        return list_update(self.mobjects, self.foreground_mobjects)

    # ----- timeline ---------------------------------------------------------------------------
    def step_done(self, animations: Anims) -> None:
        """A step's play is over (`scenes.video.player`, a render's or ``render inspect``'s): a
        shape a Transform took to its target takes the target's tags, so what the next steps'
        drawers ask of the picture (what is shown where) is what inspect lists, in both."""
        from scenes.draw.record import carry_tags

        carry_tags(animations)

    def step_animations(self, actions: list[Action]) -> Anims:
        """The animations of one step (actions that start on the same frame). Two of its cues
        may reach one shape: a dim may fade an arrow that a visit in the same step turns round.
        Manim cannot drive one shape with two animations, so the dims come last and fade what
        the step's turns make (``StepScratch.turning``) instead of animating it again.

        What starts while the step plays joins it (``scenes.video.timeline.schedule``: a caption
        fade while a cue plays, a cue while a fade plays): each runs at its own time and length in
        it, and one that outlasts the rest makes the play longer, those done in their own time
        (the cues starting with the step run over the longest of them, a fade too). Manim gives
        each animation of a play its ``run_time``'s share of it: a fade or a joined cue takes the
        step's cues' longest run_time, as their rate alone times them (a forward sweep's lagged
        marks ran 2.5 times a caption fade's, which came in at once with them)."""
        step = StepScratch()
        lead = [a for a in actions if not a.carried]  # what starts on the step's frame
        first = next((a for a in lead if a.kind == "cue"), lead[0] if lead else None)
        t0 = first.start if first is not None else 0.0
        own = max((a.duration for a in lead), default=0.0)  # the step's play
        play = max([own] + [a.start - t0 + a.duration for a in actions if a.carried])
        anims: Anims = []
        led: list[list[Animation]] = []  # each cue's starting on the step's frame
        timed: list[list[Animation]] = []  # each fade's and joined cue's
        for a in sorted(actions, key=_is_dim):
            made = [prepare_animation(m) for m in self._draw(a, step)]  # ``.animate`` built now
            for m in made:
                if a.carried or (first is not None and first.kind == "cue" and a.kind != "cue"):
                    m.rate_func = within(a.start - t0, a.duration, play, m.rate_func)  # its own time
                elif play > own:  # what joined outlasts the rest: those done in their own time
                    m.rate_func = within(0.0, own, play, m.rate_func)
            anims += made
            (timed if a.carried or a.kind != "cue" else led).append(made)
        span = max((m.run_time for made in led for m in made), default=1.0)
        for made in timed:  # timed by its rate alone, so its longest animation spans the play
            longest = max((m.run_time for m in made), default=0.0)
            for m in made if longest > 0 else []:
                m.run_time *= span / longest
        self.views.camera.see_now()
        self.views.focus.fade_outside(anims)
        if step.going:  # a title (or the network) is gone by half time and what comes
            for m in anims:  # starts then, so the two never share a frame
                if not any(m is g for g in step.going):
                    m.rate_func = in_second_half(m.rate_func)
        return anims

    def _draw(self, a: Action, step: StepScratch) -> Anims:
        if a.kind == "caption_in":
            return self.views.titles.caption_in(a.payload)
        if a.kind == "caption_out":
            return self.views.titles.caption_out()
        if a.kind == "caption_clear":
            return self.views.titles.caption_clear()
        cue = a.payload
        out = self.views.titles.give_way(cue.kind, step) + self.views.curve.give_way(cue.kind)
        out += self.views.network.give_way(cue.kind, step) + self.views.passes.recall_sweep(cue.kind, step)
        kind = cue_kind(cue.kind)
        out += self.views.walk.give_way(kind, cue.start) + self.views.code.give_way(cue, step)
        if kind.follows_line and self.code.pane is not None and cue.seqs:
            out += self.views.code.bar_to(self.events[cue.seqs[0]].line, step, walk=kind.walk_line)
        # the walk's legend with the pane stepping aside (before the drawer: its notes keep off
        # the legend) or back (a code_line's drawer brings the pane back itself)
        out += self.views.frame.walk_legend() + self.views.frame.give_way(cue, self.views.camera.stays_home)
        out += self._drawers[cue.kind](cue, step)
        return out + self.views.frame.walk_legend()


def _is_dim(a: Action) -> bool:
    return a.kind == "cue" and getattr(a.payload, "kind", None) == "dim"


def _node_owner(events: list[Event]) -> dict[str, str]:
    """Node id -> the layout item that stands for it (its tensor; itself when internal)."""
    owner: dict[str, str] = {}
    for e in events:
        if isinstance(e, NodeEvent):
            owner[e.id] = e.tensor or e.id
        elif isinstance(e, TensorEvent) and e.node and e.op != "grad":
            owner.setdefault(e.node, e.id)
    return owner
