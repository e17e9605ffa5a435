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

from manim import (Create, FadeIn, FadeOut, GrowFromCenter, Mobject, Scene, Succession, Transform, VGroup,
                   there_and_back)

from scenes.draw.backward import BackwardCues
from scenes.draw.checklist import ChecklistCues
from scenes.draw.crossfade import crossfade
from scenes.layout.clip import clip_frame_region, console_room, fill_scales, shows_code
from scenes.draw.console import ConsoleCues
from scenes.draw.drawers import Drawer, draws, with_drawers
from scenes.draw.curve import CurveCues
from scenes.draw.focus import FocusCues
from scenes.draw.loops import LoopCues
from scenes.draw.frame_spots import FrameSpots
from scenes.draw.network import NetworkCues
from scenes.draw.step import StepCues
from scenes.draw.state import (CodeView, ConsoleView, CurveView, GraphView, NetworkView, SceneState, TitleView,
                               WalkView)
from scenes.draw.titles import TitleCues
from scenes.video.timeline import Action
from scenes.layout.label_spots import tag_centre
from scenes.layout.place import Box, Layout, Route, layout_events
from scenes.storyboard.cues import CONSOLE_KINDS, cue_kind
from scenes.theme import Rect, Theme
from scenes.draw.visuals import (CodePane, arrow_reach, card_tag, edge_arrow, grad_token, node_card,
                            nominal_token_size, token_rests)

Anims = list[Any]

# Drawing order (Cairo sorts by z_index): code pane backdrop and the running-line bar, then the
# wavefront glow (Z_GLOW, in clip_backward), then edges and cards, then tokens, then captions
# and titles (Z_CAPTION, in clip_titles).
Z_PANE, Z_BAR, Z_TOKEN = -3, -2, 1


@with_drawers
class ClipScene(BackwardCues, ChecklistCues, ConsoleCues, CurveCues, FocusCues, LoopCues, NetworkCues, StepCues,
                TitleCues, FrameSpots, Scene):
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
        self.lay: Layout = layout or layout_events(events, aspect, theme, self._graph_region())
        self.owner = dict(_node_owner(events))
        self.tensor_events: dict[str, dict] = {}  # tensor id -> the event that made it
        for e in events:
            if e["kind"] == "tensor":
                self.tensor_events.setdefault(e["id"], e)
        self.ledger: list[tuple[str, int | None]] = []
        self.fill_max = fill_scales(plan)
        self._rests: dict[str, list[Rect]] = {}  # per box, where tokens wait: derived from the layout
        self._turning: dict[int, VGroup] = {}  # during one step: arrow id -> the arrow it becomes
        self._arriving: set[int] = set()  # during one step: ids of shapes its FadeIns bring in
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
        return clip_frame_region(self.has_code, self.spec, console_room(self.plan, self.theme.sizes.console_reserve))

    def _item(self, some_id: str) -> str:
        """Layout item for a tensor id or a node id (an AccumulateGrad node maps to its leaf)."""
        return self.owner.get(some_id, some_id)

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
        m, s = self.spec.margin, self.spec
        lo_x, hi_x = -s.frame_width / 2 + m, s.frame_width / 2 - m
        lo_y, hi_y = -s.frame_height / 2 + m, s.frame_height / 2 - m
        dx = max(0.0, lo_x - mob.get_left()[0]) - max(0.0, mob.get_right()[0] - hi_x)
        dy = max(0.0, lo_y - mob.get_bottom()[1]) - max(0.0, mob.get_top()[1] - hi_y)
        return mob.shift([dx, dy, 0])

    def _tag(self, text: str, box: Box, above: bool = True, avoid: list[Rect] = ()) -> VGroup:
        """A small muted label just outside a box (op names, AccumulateGrad, bucket names), clear
        of where tokens wait at it, of the op names already placed and of ``avoid``."""
        t = self.theme
        m = card_tag(text, box, t, scale=self.lay.scale)
        placed = [self._bounds(tag) for tag in self.graph.tags.values()]
        x, y = tag_centre(self.lay, box, (m.width, m.height), above=above, gap=t.spacing.edge_clearance,
                          clear=arrow_reach(t, self.lay.scale), step=t.proportions.tag_slide_step,
                          avoid=self._token_rests(box) + placed + list(avoid))
        return m.move_to([x, y, 0])

    def _token_rests(self, box: Box) -> list[Rect]:
        """`token_rests` of ``box``, once per box. The same in every clip of a graph, whether
        tokens ride in it or not, so a tag never moves between clips."""
        if box.id not in self._rests:
            nominal = nominal_token_size(self.theme, scale=self.lay.scale)
            self._rests[box.id] = token_rests(self.lay, box.id, nominal, self.theme)
        return self._rests[box.id]

    # ----- timeline ---------------------------------------------------------------------------
    def step_animations(self, actions: list[Action]) -> Anims:
        """The animations of one step (actions that start on the same frame). Two of its cues
        may reach one shape: a dim fades y's arrow in the instant the visit to sub turns that
        arrow round. Manim cannot drive one shape with two animations, so the dims come last
        and fade what the step's turns make (``_turning``) instead of animating it again."""
        try:
            anims = [m for a in sorted(actions, key=_is_dim) for m in self._draw(a)]
            self._fade_outside()
            return anims
        finally:
            self._turning, self._arriving = {}, set()

    def _draw(self, a: Action) -> Anims:
        if a.kind == "caption_in":
            return self._caption_in(a.payload)
        if a.kind == "caption_out":
            return self._caption_out()
        cue = a.payload
        out: Anims = []
        if self.titles.overlay is not None and cue.kind != "title":
            out.append(FadeOut(self.titles.overlay))
            self.titles.overlay = None
        out += self._close_curve(cue.kind)
        kind = cue_kind(cue.kind)
        walk = self.walk
        if kind.ends_walk and walk.wave is not None:  # the walk is over: its glow goes
            out += [FadeOut(m) for m in [walk.wave, *walk.visit_marks, *sum(walk.fill_tokens.values(), [])]]
            walk.wave, walk.visit_marks, walk.fill_tokens = None, [], {}
        if kind.follows_line and self.code.pane is not None and cue.seqs:
            out += self._bar_to(self.events[cue.seqs[0]]["line"])
        return out + self.DRAWERS[cue.kind](self, cue)

    def _bar_to(self, line: int) -> Anims:
        """Light the program line that caused what is shown now (``L.backward()`` during the walk)."""
        if self.code.pane is None or line == self.code.bar_line:
            return []
        self.code.bar_line = line
        if not self.code.pane.shows(line):  # a long program: the window moves to the line
            old = self.code.pane
            self.code.pane = self._pane(old.window_for(line), line)
            return [crossfade(old, self.code.pane)]
        return [Transform(self.code.pane.bar_slot, self.code.pane.bar(line).set_z_index(Z_BAR))]

    def _pane(self, first: int, line: int) -> CodePane:
        """The code pane from line ``first`` (all of it when it fits), ``line`` lit."""
        pane = CodePane(self.source or "", self._code_rect(), self.theme, first=first)
        pane.bg.set_z_index(Z_PANE)
        pane.highlight(line).set_z_index(Z_BAR)
        return pane

    # ----- forward pass -----------------------------------------------------------------------
    @draws("code_line")
    def _cue_code_line(self, cue: Any) -> Anims:
        if self.source is None or cue.line is None:
            return []
        for s in cue.strings:
            self._record(s)
        if self.code.pane is None:
            self.code.pane = self._pane(1, cue.line)
            if not self.code.pane.shows(cue.line):
                self.code.pane = self._pane(self.code.pane.window_for(cue.line), cue.line)
            self.code.bar_line = cue.line
            return [FadeIn(self.code.pane)]
        return self._bar_to(cue.line)

    def _code_rect(self) -> Rect:
        """The code pane's region: the aspect's, less what printed lines need at its foot when the
        program prints and the column has no room below it before the caption (16:9). Why: a
        long program (two dozen lines) fills the column, and its first printout would go
        under the caption bar."""
        left, bottom, right, top = self.spec.code
        if any(c.kind in CONSOLE_KINDS for c in self.plan.cues):
            room = bottom - (self.spec.caption[3] + self.spec.margin)
            bottom = min(bottom + max(0.0, self.theme.sizes.console_reserve - room), top)
        return (left, bottom, right, top)

    def _card(self, tid: str, name: str | None, value: str | None, grad_fn: str | None) -> VGroup | None:
        box = self.lay.boxes.get(tid)
        if box is None:
            return None
        ev = self.tensor_events.get(tid, {})
        return node_card(box, self.theme, name=name, value=value, grad_fn=grad_fn,
                         requires_grad=bool(ev.get("requires_grad")), detail=self.lay.detail, scale=self.lay.scale)

    def _record_card(self, card: VGroup, cue: Any, roles: dict[str, str]) -> None:
        """Ledger entries for the card rows that were really drawn (a row can be dropped when
        its text would be unreadably small)."""
        for s in cue.strings:
            row = roles.get(s.role)
            if row and getattr(card, row, None) is not None:
                self._record(s)

    @draws("node_appear")
    def _cue_node_appear(self, cue: Any) -> Anims:
        tid = cue.ids[0]
        name, op = cue.text("name"), cue.text("op")
        card = self._card(tid, name if name is not None else op, cue.text("value"), cue.text("grad_fn"))
        if card is None:
            return []
        out: Anims = []
        old = self.graph.cards.pop(tid, None)  # replaced below: gone before the new card grows
        out += self._retire_rebound(tid, name) + self._retire_walked(tid)
        self.graph.cards[tid] = card
        self._record_card(card, cue, {"name": "name", "value": "value", "grad_fn": "sub"} if name is not None
                          else {"op": "name", "value": "value", "grad_fn": "sub"})
        if name is not None and op is not None:
            tag = self._tag(self._op_words(cue, op), self.lay.boxes[tid])
            self.graph.tags[tid] = tag
            for s in cue.strings:
                if s.role in ("op", "operand_before", "operand_after"):
                    self._record(s)
            card.add(tag)
        out += self._legend_in()
        value = next((s for s in cue.strings if s.role == "value"), None)
        if value is not None and card.value is None:  # a printout wider than any card
            out += self._console([value], self.theme.colors.code_text)
        return out + [Succession(FadeOut(old), GrowFromCenter(card)) if old is not None else GrowFromCenter(card)]

    def _op_words(self, cue: Any, op: str) -> str:
        """An op's tag: its name (``mul``), or with a constant operand its symbol and the number
        (``× 2`` for ``s * 2``, ``1 −`` for ``1 - z``), so a node made by a constant says which."""
        symbol = self.theme.labels.op_symbols.get(op)
        after, before = cue.text("operand_after"), cue.text("operand_before")
        if symbol is None or (after is None and before is None):
            return op
        return f"{symbol} {after}" if after is not None else f"{before} {symbol}"

    def _retire_rebound(self, tid: str, name: str | None) -> Anims:
        """A new forward pass rebinds a name (``y = w * w`` again): the old graph was freed, so the
        old result's card and its arrows fade out of the way; a card the storyboard faded (``dim``)
        stays with the freed graph it belongs to (``_retire_walked``)."""
        if name is None:
            return []
        out: Anims = []
        feeds, freed = self._ancestors(tid), self._freed()
        for other in list(self.graph.cards):
            ev = self.tensor_events.get(other, {})
            if other != tid and ev.get("name") == name and other not in feeds \
                    and other not in freed | self.graph.ghost:
                out += self._retire(other)
        return out

    def _retire_walked(self, tid: str) -> Anims:
        """A new tensor made from inputs (an operation, or ``torch.tensor(-1.0)`` from its value)
        that does not build on a graph the walk went through starts a new graph: the walked one
        was freed by backward(), so its results fade (its leaves stay).
        Why besides ``_retire_rebound``: a loop may rebind another name (``h``) than the one an
        earlier step bound (``s = x * w``), which would otherwise stay on screen through the
        loop, one more op feeding w.
        A freed graph the storyboard faded (``dim`` after the walk, as the caption says it is
        freed) stays on screen, faded, beside the new one, so that the viewer compares the two
        graphs the same code recorded; it goes when the graph after that one starts."""
        inputs = self.tensor_events.get(tid, {}).get("inputs")
        if not inputs or not self.graph.walked or self._ancestors(tid) & self.graph.walked:
            return []
        going = (self.graph.ghost | self.graph.walked) - self._freed()
        out = [m for item in sorted(self.graph.ghost) if item in self.graph.cards for m in self._retire(item)]
        self.graph.dimmed -= self.graph.ghost
        kept = self._freed()
        out += [m for item in sorted(self.graph.walked - kept) if item in self.graph.cards for m in self._retire(item)]
        out += [m for item in sorted(self._spent_inputs(going, tid)) for m in self._retire(item)]
        self.graph.ghost, self.graph.walked = kept, set()
        return out + self._fade_kept(kept)

    def _spent_inputs(self, going: set[str], tid: str) -> set[str]:
        """The inputs needing no gradient (``x``) of the results in ``going``, which neither the
        new tensor ``tid`` nor any tensor after it is computed from: an input of a freed graph
        goes with it rather than stay beside graphs that never use it. A weight stays (its
        bucket holds its gradient), and so does an input a later pass reads again."""
        seq = self.tensor_events.get(tid, {}).get("seq", 0)
        later = {i for e in self.tensor_events.values() if e.get("seq", 0) >= seq
                 for i in e.get("inputs") or [] if isinstance(i, str)}
        feeds = {a for c in going for a in self._ancestors(c)}
        return {a for a in feeds - later - self._ancestors(tid) - self._freed()
                if a in self.graph.cards and self.tensor_events.get(a, {}).get("is_leaf")
                and not self.tensor_events.get(a, {}).get("requires_grad")}

    def _fade_kept(self, kept: set[str]) -> Anims:
        """A freed graph kept beside the next one comes back from the ``dim`` fade to the
        theme's ``kept`` fade: still the past, but its numbers readable beside the new ones."""
        o = self.theme.opacity
        darkness = 1.0 - (1.0 - o.kept) / (1.0 - o.dimmed)  # fade() scales opacity by 1 - darkness
        mobs = [self.graph.cards[c] for c in sorted(kept) if c in self.graph.cards]
        mobs += [a for r, a in self.graph.arrows.items() if {r.src, r.dst} & kept]
        return [m.animate.fade(darkness) for m in mobs]

    def _freed(self) -> set[str]:
        """The walked graph's cards the storyboard faded (``dim``): its results and the faded
        inputs they were computed from, which stay beside the next graph."""
        kept = {c for c in self.graph.walked & self.graph.dimmed if c in self.graph.cards}
        return kept | {a for c in kept for a in self._ancestors(c) if a in self.graph.dimmed and a in self.graph.cards}

    def _retire(self, item: str) -> Anims:
        """Fade one result's card (its op name goes with it) and every arrow touching it."""
        out: Anims = [FadeOut(self.graph.cards.pop(item))]
        self.graph.tags.pop(item, None)
        for r in [r for r in self.graph.arrows if item in (r.src, r.dst)]:
            out.append(FadeOut(self.graph.arrows.pop(r)))
        return out

    def _ancestors(self, tid: str) -> set[str]:
        """Tensors ``tid`` was computed from: ``s = s * 2`` keeps the old ``s`` (same graph),
        while ``x = torch.tensor(-1.0)`` in the next step retires the old ``x``."""
        def inputs(t: str) -> list[str]:
            return [i for i in self.tensor_events.get(t, {}).get("inputs") or [] if isinstance(i, str)]

        seen: set[str] = set()
        todo = inputs(tid)
        while todo:
            t = todo.pop()
            if t not in seen:
                seen.add(t)
                todo += inputs(t)
        return seen

    @draws("edge_grow")
    def _cue_edge_grow(self, cue: Any) -> Anims:
        src, dst = (self._item(i) for i in cue.ids[:2])
        flipped = cue.ids[0].startswith("n")  # node ids: a backward-graph edge, drawn flipped
        if flipped:  # the route still runs forward
            src, dst = dst, src
        # every route between the pair: ``w * w`` is one cue but two edges (two next_functions)
        routes = [r for r in self.lay.routes if {r.src, r.dst} == {src, dst} and r not in self.graph.arrows]
        out: Anims = []  # a forward pass after a backward draws a new graph: forward arrows
        for r in routes:
            arrow = edge_arrow(r, self.theme, backward=flipped, scale=self.lay.scale,
                               dimmed=flipped and not r.needs_grad)
            self.graph.arrows[r] = arrow
            out.append(Create(arrow))
        return out

    @draws("value_update")
    def _cue_value_update(self, cue: Any) -> Anims:
        tid = cue.ids[0]
        old = self.graph.cards.get(tid)
        ev = self.tensor_events.get(tid, {})
        card = self._card(tid, cue.text("name"), cue.text("value"), ev.get("grad_fn"))
        if card is None:
            return []
        self._record_card(card, cue, {"name": "name", "value": "value"})
        self.graph.cards[tid] = card
        return [Transform(old, card)] if old is not None else [FadeIn(card)]

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
        changing them in the same instant, and two animations must not drive one mobject). Why
        the outline only: recolouring the whole card (Manim's Indicate) turned its text yellow
        on yellow, so for a third of a second its name and value were gone."""
        cards = {id(c) for c in self.graph.cards.values()}
        out: Anims = []
        for m in self._targets(cue.ids):
            if id(m) in cards:  # the whole card is driven: the player draws a moving part above still ones
                pulse = m.copy()
                # grown by less than the gap a badge keeps from it: a pulse by a tenth of a wide
                # card's size reached over the badge beside it
                grow = self.theme.spacing.edge_clearance * self.theme.proportions.pulse_reach
                pulse.frame.stretch_to_fit_width(m.frame.width + 2 * grow).stretch_to_fit_height(m.frame.height + 2 * grow)
                pulse.frame.set_stroke(self.theme.colors.wavefront)
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


def _node_owner(events: list[dict]) -> dict[str, str]:
    """Node id -> the layout item that stands for it (its tensor; itself when internal)."""
    owner: dict[str, str] = {}
    for e in events:
        if e["kind"] == "node":
            owner[e["id"]] = e.get("tensor") or e["id"]
        elif e["kind"] == "tensor" and e.get("node") and e.get("op") != "grad":
            owner.setdefault(e["node"], e["id"])
    return owner
