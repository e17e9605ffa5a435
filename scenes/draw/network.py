"""MLP-view cues of the clip scene: units, weights, the reverse sweep, the forward passes.

Why a second picture of the same program: a network of a few dozen weights has over a hundred
autograd nodes, whose cards cannot carry readable labels even at 1080p. The unit diagram can, so
these handlers draw the network that :mod:`scenes.storyboard.network` reads from the log, and
count passes: reverse mode reaches every weight in one, forward mode needs one per weight. A
view of ``ClipScene``, owning ``state.network``; its drawers return animations and record every
string they draw in the ledger.
"""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

from manim import Circle, Create, FadeIn, FadeOut, LaggedStart, Mobject

from scenes.draw.grow_in import GrowIn
from scenes.draw.context import Anims, StepScratch, View
from scenes.draw.crossfade import cut, first_half
from scenes.draw.curve import graph_backdrop
from scenes.draw.drawers import draws
from scenes.draw.record import tag
from scenes.draw.state import NetworkView
from scenes.storyboard.cues import Cue
from scenes.storyboard.narration import Shown
from scenes.storyboard.network import Network, read_network
from scenes.theme import Rect
from scenes.draw.visuals.glyphs import label, shrink_to_fit
from scenes.draw.visuals.network import Places, link_line, network_places, unit_circle

Z_PANEL, Z_LINK, Z_TRACE, Z_DONE, Z_UNIT = 1.2, 1.22, 1.24, 1.26, 1.3  # over the cards and tokens its backdrop hides
NETWORK_KINDS = frozenset({"unit_appear", "link_appear", "pass_count", "sweep_step", "link_fill", "reach_count",
                           "tangent_sweep", "jvp_fill"})
GRAPH_KINDS = frozenset({"node_appear", "edge_grow", "grad_fn_appear", "backward_start", "visit", "local_rule",
                         "grad_travel", "bucket_appear", "bucket_fill", "bucket_reset", "update_step", "value_update"})
"""The cues drawn on the graph's cards, which share the graph region with the network."""
ROWS = 4  # counter rows: reverse mode, forward mode, the first forward derivative, the latest
FIRST, LATEST = 2, 3  # the readout rows of forward mode's derivatives


class NetGeometry(NamedTuple):
    """The MLP view's fixed part: the network read from the log, its units' places, the counters' band."""

    net: Network
    places: Places
    band: Rect


class NetworkDiagram(View):
    """Draws unit_appear, link_appear, pass_count, sweep_step, link_fill, reach_count,
    tangent_sweep and jvp_fill; tells the titles whether it is up (``drawn``) and where a title
    may go over it (``title_band``)."""

    @property
    def network(self) -> NetworkView:
        return self.ctx.state.network

    # ----- state and geometry -----------------------------------------------------------------
    @cached_property
    def _mlp(self) -> NetGeometry:
        """The network read from the log, where its units go, and the counters' band: fixed for
        the clip, so worked out on first use and not part of the state."""
        net = read_network(self.ctx.events)
        region, band = self._net_regions(net)
        return NetGeometry(net, network_places(net, region, self.theme), band)

    def _net_regions(self, net: Network) -> tuple[Rect, Rect]:
        """The network's region and, above it, a band for the counters (or a closing title)."""
        left, bottom, right, top = self.ctx.graph_region()
        cap = self.ctx.spec.caption
        row = self._row_height()
        counters = any(c.kind == "pass_count" for c in self.ctx.plan.cues)
        band_h = max(cap[3] - cap[1], ROWS * row if counters else 0.0)
        return (left + self._label_column(net), bottom, right, top - band_h), (left, top - band_h, right, top)

    def _row_height(self) -> float:
        return label("Ag", self.theme.fonts.sans, self.theme.font_sizes.counter, self.theme.colors.text).height * 1.6

    def drawn(self) -> bool:
        """True once any unit is on screen (a later title then keeps to the band)."""
        return bool(self.network.units) and not self.network.hidden

    def give_way(self, kind: str, step: StepScratch) -> Anims:
        """The network and the graph's cards take turns in the region they share: a cue of the
        cards (`GRAPH_KINDS`) takes the network away, a cue of the network brings it back, over
        a backdrop that hides the cards (and their buckets and tokens) while it is up. Why: a
        storyboard may show a program as a network, then as its graph, then walk the network
        again; drawn together, the layers' names and the units fell over the cards."""
        st = self.network
        if kind in GRAPH_KINDS and st.units and not st.hidden:  # the network by half time, then its backdrop
            st.hidden = True
            going = [FadeOut(m, rate_func=first_half) for m in self._shapes() if m is not st.panel]
            step.going += going
            return going + ([FadeOut(st.panel)] if st.panel is not None else [])
        if kind not in NETWORK_KINDS or not (st.hidden or (st.panel is None and self.ctx.state.graph.cards)):
            return []
        if st.panel is None and self.ctx.state.graph.cards:
            st.panel = graph_backdrop(self.ctx).set_z_index(Z_PANEL)
        st.hidden = False
        out: Anims = []  # the backdrop over the cards by half time, then the network
        if st.panel is not None:
            out.append(FadeIn(st.panel, rate_func=first_half))
            step.going.append(out[0])
        return out + [FadeIn(m) for m in self._shapes() if m is not st.panel]

    def _shapes(self) -> list[Mobject]:
        """Everything the network has drawn, its backdrop first."""
        st = self.network
        return [m for m in (st.panel, *st.units.values(), *st.links.values(), *st.plain, *st.sweep, *st.trace,
                            *st.done.values(), *st.rows.values(), *st.layer_labels.values()) if m is not None]

    def title_band(self) -> Rect:
        """The band above the network, kept for the counters or a title."""
        return self._mlp.band

    def _colour(self, net: Network, uid: str) -> str:
        c = self.theme.colors
        layers = net.layers
        if uid in layers[0] and net.has_inputs:
            return c.leaf_nograd
        return c.loss if uid in layers[-1] else c.op

    def _line(self, p: Places, weight: str, colour: str, width: float, backward: bool = False) -> Mobject:
        link = self._mlp.net.links[weight]
        a, b = p.centre[link.src], p.centre[link.dst]
        return link_line(b, a, p.radius, colour, width) if backward else link_line(a, b, p.radius, colour, width)

    def _mark(self, owner: str, colour: str, backward: bool) -> Mobject | None:
        """A unit's glow ring or a weight's overlay line in ``colour`` (for sweeps and passes)."""
        p: Places = self._mlp.places
        t = self.theme
        if owner in self._mlp.net.links:
            return self._line(p, owner, colour, t.strokes.link * 2, backward).set_z_index(Z_TRACE)
        if owner in p.centre:
            ring = Circle(radius=p.radius * (1 + t.proportions.unit_ring), color=colour, stroke_width=t.strokes.wavefront)
            return ring.move_to([*p.centre[owner], 0]).set_z_index(Z_TRACE)
        return None

    # ----- building the network ---------------------------------------------------------------
    @draws("unit_appear")
    def draw_unit(self, cue: Cue, step: StepScratch) -> Anims:
        """A unit's circle with its name (ids[0]); the output and the loss with their values,
        the value of the tensor the cue is about (ids[-1]: a later pass's, drawn in the first
        pass's circle). A unit already drawn (a beat on the next pass) takes the new value."""
        st = self.network
        uid = cue.ids[0]
        p: Places = self._mlp.places
        if uid not in p.centre:
            return []
        t = self.theme
        value = next((s for s in cue.strings if s.role == "value"), None)
        if uid in st.units:  # a later pass's unit: the circle with its name is there already
            self.ctx.record_all([s for s in cue.strings if s.role == "name"])
            return self._new_value(st.units[uid], value, cue.ids[-1])
        name = next(s for s in cue.strings if s.role == "name")
        unit = unit_circle(name.text, p.centre[uid], p.radius, self._colour(self._mlp.net, uid), self.theme)
        st.units[uid] = unit
        self.ctx.record(name)
        unit.value = None
        if value is not None:  # the network's result, or the loss: its value beside its circle
            unit.value = self._value_label(unit, value.text, cue.ids[-1])
            unit.add(unit.value)
            self.ctx.record(value)
        names = [s for s in cue.strings if s.role == "target_name"]
        targets = [s for s in cue.strings if s.role == "target"]
        if targets:  # what the loss compares with (``y = 1.0000``), on the circle's other side
            text = "   ".join(f"{n.text} = {v.text}" for n, v in zip(names, targets))
            m = tag(label(text, t.fonts.mono, t.font_sizes.card_value, t.colors.text_muted), "value", id=uid)
            unit.add(m.next_to(unit.ring, [-1, 0, 0], buff=t.sizes.token_pad * 2))
            for s in names + targets:
                self.ctx.record(s)
        unit.set_z_index(Z_UNIT)  # the value and the target too, over the backdrop
        return [GrowIn(unit)] + self._plain_links(uid) + self._layer_label(uid)

    def _value_label(self, unit: Mobject, text: str, owner: str) -> Mobject:
        """A unit's value, beside its circle on the right, tagged with its tensor's id."""
        t = self.theme
        m = tag(label(text, t.fonts.mono, t.font_sizes.card_value, t.colors.text), "value", id=owner)
        return m.next_to(unit.ring, [1, 0, 0], buff=t.sizes.token_pad * 2)

    def _new_value(self, unit: Mobject, value: Shown | None, owner: str) -> Anims:
        """A drawn unit's value replaced by this pass's (``owner``'s), where it has one."""
        old = getattr(unit, "value", None)
        if value is None or old is None:
            return []
        new = self._value_label(unit, value.text, owner)
        unit.remove(old)
        unit.add(new)
        unit.value = new
        self.ctx.record(value)
        # the new one is in the unit at once: a cut, as a counter changes in place
        return cut(old, new)

    def _layer_name(self, net: Network, depth: int) -> str:
        """A layer's name by its place (:meth:`Network.layer_names`)."""
        return net.layer_names(self.theme.labels)[depth]

    def _layer_label(self, uid: str) -> Anims:
        """With a layer's first unit, its name at the left of its row, in the labels' column."""
        st = self.network
        layers, p = self._mlp.net.layers, self._mlp.places
        depth = next((i for i, l in enumerate(layers) if uid in l), None)
        if depth is None or depth in st.layer_labels:
            return []
        t = self.theme
        m = label(self._layer_name(self._mlp.net, depth), t.fonts.sans, t.font_sizes.card_flag, t.colors.text_muted)
        left = self.ctx.graph_region()[0]
        m.move_to([left, p.centre[uid][1], 0], aligned_edge=[-1, 0, 0]).set_z_index(Z_UNIT)
        st.layer_labels[depth] = m
        return [FadeIn(m)]

    def _label_column(self, net: Network) -> float:
        """The width kept at the network's left for its layers' names."""
        t = self.theme
        words = [self._layer_name(net, d) for d in range(len(net.layers))]
        return max((label(w, t.fonts.sans, t.font_sizes.card_flag, t.colors.text_muted).width for w in words),
                   default=0.0) + t.spacing.item_gap

    def _plain_links(self, uid: str) -> Anims:
        """A unit no weight feeds (the loss after the output) is joined to the layer before it."""
        st = self.network
        net: Network = self._mlp.net
        layers, p = net.layers, self._mlp.places
        depth = next((i for i, l in enumerate(layers) if uid in l), 0)
        if depth == 0 or any(l.dst == uid for l in net.links.values()):
            return []
        lines = [link_line(p.centre[src], p.centre[uid], p.radius, self.theme.colors.edge, self.theme.strokes.link)
                 .set_z_index(Z_LINK) for src in layers[depth - 1] if src in st.units]
        st.plain += lines
        return [Create(m) for m in lines]

    @draws("link_appear")
    def draw_link(self, cue: Cue, step: StepScratch) -> Anims:
        st = self.network
        weight = cue.ids[0]
        if weight in st.links or weight not in self._mlp.net.links:
            return []
        line = self._line(self._mlp.places, weight, self.theme.colors.edge, self.theme.strokes.link)
        st.links[weight] = line.set_z_index(Z_LINK)
        return [Create(line)]

    # ----- counting passes --------------------------------------------------------------------
    @draws("pass_count")
    def draw_pass_count(self, cue: Cue, step: StepScratch) -> Anims:
        """Reverse mode (a backward call) on the first row; forward mode's k / N on the second.
        A new pass clears the previous pass's trace (and the first, the reverse sweep), and dims
        the latest readout, which holds the previous pass's derivative until this pass lands."""
        st = self.network
        t = self.theme
        count, total = cue.text("count") or "", cue.text("total")
        row, words = (0, t.labels.reverse_count) if total is None else (1, t.labels.forward_count)
        text = f"{words} {count}" if total is None else f"{words} {count} / {total}"
        if total is None:
            st.reverse_text = text
        out: Anims = self._set_row(row, text, t.colors.grad if total is None else t.colors.wavefront, step)
        for s in cue.strings:
            self.ctx.record(s)
        if total is not None:
            out += [FadeOut(m) for m in st.sweep + st.trace]
            st.sweep, st.trace = [], []
            out += self._dim_readout(step)
        return out

    def _dim_readout(self, step: StepScratch) -> Anims:
        """Fade the readout row; when it lands in this same step (a fast pass at a low frame
        rate), it comes in faded instead, as one shape takes one animation per step."""
        readout = self.network.rows.get(LATEST)
        if readout is None:
            return []
        if id(readout) in step.arriving:
            readout.fade(self.theme.opacity.dimmed)
            return []
        return [readout.animate.fade(self.theme.opacity.dimmed)]

    def _set_row(self, row: int, text: str, colour: str, step: StepScratch) -> Anims:
        st = self.network
        left, bottom, right, top = self._mlp.band
        h = self._row_height()
        m = tag(label(text, self.theme.fonts.sans, self.theme.font_sizes.counter, colour), "label", id=f"row {row}")
        shrink_to_fit(m, right - left, h)  # its id is its row's: the checks follow a counter changing in place
        m.move_to([left, top - h * (row + 0.5), 0], aligned_edge=[-1, 0, 0]).set_z_index(Z_UNIT)
        old = st.rows.pop(row, None)
        st.rows[row] = m
        step.arriving.add(id(m))
        return cut(old, m) if old is not None else [FadeIn(m)]  # a counter changes in place

    # ----- reverse mode: one sweep ------------------------------------------------------------
    @draws("sweep_step")
    def draw_sweep_step(self, cue: Cue, step: StepScratch) -> Anims:
        mark = self._mark(cue.ids[0], self.theme.colors.grad, backward=True)  # a gradient flowing
        if mark is None:
            return []
        self.network.sweep.append(mark)
        return [Create(mark)]

    @draws("link_fill")
    def draw_link_fill(self, cue: Cue, step: StepScratch) -> Anims:
        mark = self._mark(cue.ids[0], self.theme.colors.bucket, backward=True)
        if mark is None:
            return []
        self.network.sweep.append(mark.set_z_index(Z_DONE))
        return [Create(mark)]

    @draws("reach_count")
    def draw_reach_count(self, cue: Cue, step: StepScratch) -> Anims:
        """How many weights the one reverse pass has reached so far, beside its pass count."""
        st, t = self.network, self.theme
        for s in cue.strings:
            self.ctx.record(s)
        text = f"{st.reverse_text or ''}   {t.labels.reached} {cue.text('reached')} / {cue.text('total')}".strip()
        return self._set_row(0, text, t.colors.grad, step)

    # ----- forward mode: one pass per weight --------------------------------------------------
    @draws("tangent_sweep")
    def draw_tangent_sweep(self, cue: Cue, step: StepScratch) -> Anims:
        marks = [m for m in (self._mark(o, self.theme.colors.wavefront, backward=False) for o in cue.ids) if m is not None]
        self.network.trace += marks
        return [LaggedStart(*[Create(m) for m in marks], lag_ratio=0.5)] if marks else []

    @draws("jvp_fill")
    def draw_jvp_fill(self, cue: Cue, step: StepScratch) -> Anims:
        """The pass's derivative lands on its weight (drawn as done) and in a readout row: the
        first pass's keeps its own row for the rest of the clip, as it is the one compared with
        that weight's ``.grad`` from backward() and the one a closing line names; each later
        pass's replaces the one before on the row under it."""
        st = self.network
        seed = cue.ids[0]
        out: Anims = []
        done = self._mark(seed, self.theme.colors.bucket, backward=False)
        if done is not None and seed not in st.done:
            st.done[seed] = done.set_z_index(Z_DONE)
            out.append(Create(done))
        name, value = cue.text("name") or "", cue.text("value") or ""
        row = FIRST if FIRST not in st.rows else LATEST
        out += self._set_row(row, f"{name}  {value}", self.theme.colors.text, step)
        for s in cue.strings:
            self.ctx.record(s)
        return out
