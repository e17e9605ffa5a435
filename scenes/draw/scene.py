"""ClipScene: the one Manim scene that draws any storyboard plan.

Why one generic scene: a clip's particulars live in its storyboard; the scene only maps each cue
kind to an animation built from ``scenes.draw.visuals`` at the positions of ``scenes.layout.place``. Every
colour, size and timing comes from the theme. Every string put on screen is appended to
``self.ledger`` as ``(text, seq)`` so tests can check the picture says what the plan says.
What is on screen and how later cues change it is ``self.state``, one record per view
(:mod:`scenes.draw.state`), read through ``self.graph``, ``self.walk``, ``self.code`` and the
like; the rest (plan, events, theme, layout and what is derived from them) is fixed per clip.
"""

from __future__ import annotations

from typing import Any, ClassVar

from manim import FadeOut, Mobject, Scene, Transform, VGroup, there_and_back

from engine.records import Event
from engine.records import Node as NodeEvent
from engine.records import Tensor as TensorEvent

from scenes.draw.backward import BackwardCues
from scenes.draw.buckets import BucketCues
from scenes.draw.checklist import ChecklistCues
from scenes.draw.code import CodeCues
from scenes.draw.crossfade import first_half, in_second_half
from scenes.layout.clip import clip_layout, fill_scales, graph_region, shows_code
from scenes.draw.console import ConsoleCues
from scenes.draw.drawers import Drawer, draws, with_drawers
from scenes.draw.curve import CurveCues
from scenes.draw.focus import FocusCues
from scenes.draw.forward import ForwardCues
from scenes.draw.freed import FreedGraphs
from scenes.draw.loops import LoopCues
from scenes.draw.frame_spots import FrameSpots
from scenes.draw.network import NetworkCues
from scenes.draw.step import StepCues
from scenes.draw.state import (CodeView, ConsoleView, CurveView, GraphView, NetworkView, SceneState, TitleView,
                               WalkView)
from scenes.draw.titles import TitleCues
from scenes.video.timeline import Action
from scenes.layout.detour import clear_of
from scenes.layout.label_spots import tag_centre
from scenes.layout.place import Box, Layout
from scenes.layout.routes import Route
from scenes.storyboard.cues import cue_kind
from scenes.theme import Rect, Theme
from scenes.draw.visuals import arrow_reach, card_tag, grad_token, nominal_token_size, token_rests

Anims = list[Any]

# Drawing order (Cairo sorts by z_index): code pane backdrop and the running-line bar (Z_PANE,
# Z_BAR, in code.py), then the wavefront glow (Z_GLOW, in backward.py), then edges and cards,
# then tokens, then captions and titles (Z_CAPTION, in titles.py).
Z_TOKEN = 1


@with_drawers
class ClipScene(BackwardCues, BucketCues, ChecklistCues, CodeCues, ConsoleCues, CurveCues, FocusCues, ForwardCues,
                FreedGraphs, LoopCues, NetworkCues, StepCues, TitleCues, FrameSpots, Scene):
    """Draws ``plan`` over the layout of ``events``; ``captions`` is 'burn', 'srt' or 'off'.
    Each cue goes to the method marked ``@draws(kind)`` for its kind (``DRAWERS``)."""

    DRAWERS: ClassVar[dict[str, Drawer]]

    def __init__(self, plan: Any, events: list[dict], source: str | None, theme: Theme,
                 aspect: str = "16:9", captions: str = "burn", layout: Layout | None = None,
                 **kwargs: Any) -> None:
        """``layout``: the graph's layout, when the caller has worked it out (the render's keys hold it)."""
        super().__init__(**kwargs)
        self.plan, self.events, self.source, self.theme = plan, events, source, theme
        self.aspect, self.captions_mode = aspect, captions
        self.spec = theme.aspect(aspect)
        self.has_code = shows_code(plan, source)
        self.lay: Layout = layout or clip_layout(plan, events, source, aspect, theme)
        self.owner = dict(_node_owner(events))
        self.tensor_events: dict[str, TensorEvent] = {}  # tensor id -> the event that made it
        for e in events:
            if isinstance(e, TensorEvent):
                self.tensor_events.setdefault(e.id, e)
        self.ledger: list[tuple[str, int | None]] = []
        self.fill_max = fill_scales(plan)
        self._rests: dict[str, list[Rect]] = {}  # per box, where tokens wait: derived from the layout
        self._turning: dict[int, VGroup] = {}  # during one step: arrow id -> the arrow it becomes
        self._arriving: set[int] = set()  # during one step: ids of shapes its FadeIns bring in
        self._title_going: Any = None  # during one step: the fade of a title it takes away
        self.state = SceneState()  # what is on screen and how later cues change it: all a beat starts from

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

    @property
    def console(self) -> ConsoleView:
        return self.state.console

    @property
    def titles(self) -> TitleView:
        return self.state.titles

    @property
    def network(self) -> NetworkView:
        return self.state.network

    @property
    def curve(self) -> CurveView:
        return self.state.curve

    # ----- geometry ---------------------------------------------------------------------------
    def _graph_region(self) -> Rect:
        return graph_region(self.plan, self.source, self.spec, self.theme, lit=self.lay.code_lit)

    def _item(self, some_id: str) -> str:
        """Layout item for a tensor id or a node id (an AccumulateGrad node maps to its leaf; a
        result folded into a chain's card, to that card)."""
        return self.lay.card_of(self.owner.get(some_id, some_id))

    def _box(self, some_id: str) -> Box | None:
        return self.lay.boxes.get(self._item(some_id))

    def _route(self, src: str, dst: str, used: set[Route] | None = None) -> Route | None:
        """The forward route src -> dst (items), skipping routes already used in this step."""
        for r in self.lay.routes:
            if r.src == src and r.dst == dst and (used is None or r not in used):
                return r
        return None

    def _record(self, shown: Any) -> None:
        self.ledger.append((shown.text, shown.seq))

    def _token(self, text: str) -> VGroup:
        return grad_token(text, self.theme, scale=self.lay.scale).set_z_index(Z_TOKEN)

    def _keep_inside(self, mob: Mobject) -> Mobject:
        """Shift a mobject back inside the frame's margin (a token at a card on the edge)."""
        lo_x, lo_y, hi_x, hi_y = self._frame_rect()
        dx = max(0.0, lo_x - mob.get_left()[0]) - max(0.0, mob.get_right()[0] - hi_x)
        dy = max(0.0, lo_y - mob.get_bottom()[1]) - max(0.0, mob.get_top()[1] - hi_y)
        return mob.shift([dx, dy, 0])

    def _tag(self, text: str, box: Box, above: bool = True, avoid: list[Rect] = (), beside: bool = False,
             or_none: list[Rect] | None = None) -> VGroup | None:
        """A small muted label just outside ``box`` (an op name, AccumulateGrad, a bucket's name),
        inside the frame, clear of where tokens wait at the box, of the tags already placed (a
        word space apart), of the code pane and of ``avoid``; ``beside``: level with the box where
        it fits (`tag_centre`). Given ``or_none`` (what is on screen), None when no spot by the box
        is clear of that too: a tag moved off its box reads as another card's, and one left on
        another label hides it."""
        t = self.theme
        m = self._drawn_at_home(lambda lay: card_tag(text, lay.boxes.get(box.id, box), t, scale=lay.scale))
        m.move_to([0.0, 0.0, 0.0])
        apart = m.height * t.proportions.tag_apart  # a word space between two tags on one line
        placed = [(x0 - apart, y0, x1 + apart, y1) for x0, y0, x1, y1 in
                  (self._bounds(tag) for tag in [*self.graph.tags.values(), *self.graph.bucket_tags])]
        keep_off = self._token_rests(box) + placed + self._pane_bounds() + list(avoid)
        x, y = tag_centre(self.lay, box, (m.width, m.height), above=above, gap=t.spacing.edge_clearance,
                          clear=arrow_reach(t, self.lay.scale), step=t.proportions.tag_slide_step,
                          avoid=keep_off, beside=beside, within=self._frame_rect())
        self._keep_inside(m.move_to([x, y, 0]))
        if or_none is not None and not clear_of(tuple(m.get_center()[:2]), (m.width, m.height), keep_off + or_none):
            return None
        return m

    def _token_rests(self, box: Box) -> list[Rect]:
        """`token_rests` of ``box``, once per box. The same in every clip of a graph, whether
        tokens ride in it or not, so a tag never moves between clips."""
        if box.id not in self._rests:
            nominal = nominal_token_size(self.theme, scale=self.lay.scale)
            self._rests[box.id] = token_rests(self.lay, box.id, nominal, self.theme)
        return self._rests[box.id]

    def _all_rests(self) -> list[Rect]:
        """`_token_rests` of every box: where a token may wait later in the walk, which a note
        written now keeps off, so a badge arriving at the next node does not cover it."""
        return [r for box in self.lay.boxes.values() for r in self._token_rests(box)]

    # ----- timeline ---------------------------------------------------------------------------
    def step_animations(self, actions: list[Action]) -> Anims:
        """The animations of one step (actions that start on the same frame). Two of its cues
        may reach one shape: a dim may fade an arrow that a visit in the same step turns round.
        Manim cannot drive one shape with two animations, so the dims come last and fade what
        the step's turns make (``_turning``) instead of animating it again."""
        try:
            anims = [m for a in sorted(actions, key=_is_dim) for m in self._draw(a)]
            self._fade_outside()
            if self._title_going is not None:  # the title is gone by half time and what comes
                for m in anims:  # starts then, so the two never share a frame
                    if m is not self._title_going:
                        m.rate_func = in_second_half(m.rate_func)
            return anims
        finally:
            self._turning, self._arriving, self._title_going = {}, set(), None
            self.walk.moving = []

    def _draw(self, a: Action) -> Anims:
        if a.kind == "caption_in":
            return self._caption_in(a.payload)
        if a.kind == "caption_out":
            return self._caption_out()
        cue = a.payload
        out: Anims = []
        if self.titles.overlay is not None and cue.kind != "title":
            self._title_going = FadeOut(self.titles.overlay, rate_func=first_half)
            out.append(self._title_going)
            self.titles.overlay = None
        out += self._close_curve(cue.kind)
        kind = cue_kind(cue.kind)
        walk = self.walk
        if kind.ends_walk and walk.wave is not None:  # the walk is over: its glow goes
            out += [FadeOut(m) for m in [walk.wave, *walk.visit_marks, *sum(walk.fill_tokens.values(), [])]]
            walk.wave, walk.visit_marks, walk.fill_tokens = None, [], {}
        if kind.follows_line and self.code.pane is not None and cue.seqs:
            out += self._bar_to(self.events[cue.seqs[0]].line, walk=kind.walk_line)
        return out + self.DRAWERS[cue.kind](self, cue)

    # ----- emphasis ---------------------------------------------------------------------------
    def _targets(self, ids: tuple[str, ...]) -> list[Mobject]:
        seen, out = set(), []
        for i in ids:
            item = self._item(i)
            for m in (self.graph.cards.get(item), self.graph.buckets.get(item) if i.startswith("n") else None):
                if m is not None and id(m) not in seen:
                    seen.add(id(m))
                    out.append(m)
        return out

    @draws("emphasis")
    def _cue_emphasis(self, cue: Any) -> Anims:
        """Cards' outlines pulse in the wavefront colour (buckets are left alone: a fill may be
        changing them in the same instant, and two animations must not drive one mobject). The
        outline only: recolouring the whole card (Manim's Indicate) paints its name and value in
        the colour of the glow behind them, where they cannot be read."""
        cards = {id(c) for c in self.graph.cards.values()}
        out: Anims = []
        for m in self._targets(cue.ids):
            if id(m) in cards:  # the whole card is driven: the player draws a moving part above still ones
                pulse = m.copy()
                # its outline thickens to the wavefront's weight (to scale) and the card keeps its
                # size: grown at all, it reaches over the badge beside it or the op name above it
                s = self.theme.strokes
                pulse.frame.set_stroke(self.theme.colors.wavefront, width=m.frame.get_stroke_width() * s.wavefront / s.card)
                out.append(Transform(m, pulse, rate_func=there_and_back))
        return out

    @draws("dim")
    def _cue_dim(self, cue: Any) -> Anims:
        """Fade the items' cards and the arrows touching them; they stay faded when the walk
        turns those arrows round later (``dimmed``, read by ``_flip_edges``)."""
        items = {self._item(i) for i in cue.ids}
        self.graph.dimmed |= items
        k = self.theme.opacity.dimmed
        arrows = [a for r, a in self.graph.arrows.items() if r.src in items or r.dst in items]
        for a in arrows:
            if id(a) in self._turning:  # turned round in this step: fade where it ends up
                self._turning[id(a)].fade(k)
        mobs = self._targets(cue.ids) + [a for a in arrows if id(a) not in self._turning]
        return [m.animate.fade(k) for m in mobs]


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
