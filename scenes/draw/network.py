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

from manim import DOWN, LEFT, Circle, Create, FadeIn, FadeOut, LaggedStart, Mobject, VGroup

from scenes.draw.grow_in import GrowIn
from scenes.draw.context import Anims, StepScratch, View
from scenes.draw.crossfade import cut, first_half
from scenes.draw.curve import graph_backdrop
from scenes.draw.drawers import draws
from scenes.draw.record import tag
from scenes.draw.state import NetworkView
from scenes.storyboard.cues import Cue
from scenes.storyboard.placeholders import Shown
from scenes.storyboard.network import Network, read_network
from scenes.theme import Rect
from scenes.draw.visuals.glyphs import label, shrink_to_fit
from scenes.draw.visuals.network import Places, ghost_circle, link_line, network_places, unit_circle
from scenes.layout.netplace import FIRST, FORWARD, FORWARD_HEAD, LATEST, REACHED, REVERSE, REVERSE_HEAD, NetRegions, \
    row_box, split_region

Z_PANEL, Z_LINK, Z_TRACE, Z_DONE, Z_UNIT = 1.2, 1.22, 1.24, 1.26, 1.3  # over the cards and tokens its backdrop hides
NETWORK_KINDS = frozenset({"unit_appear", "link_appear", "pass_count", "sweep_step", "link_fill", "reach_count",
                           "tangent_sweep", "jvp_fill"})
GRAPH_KINDS = frozenset({"node_appear", "edge_grow", "grad_fn_appear", "backward_start", "visit", "local_rule",
                         "grad_travel", "bucket_appear", "bucket_fill", "bucket_reset", "update_step", "value_update"})
"""The cues drawn on the graph's cards, which share the graph region with the network."""

class NetGeometry(NamedTuple):
    """The MLP view's fixed part: the network read from the log, its units' places, its region
    split (units, layers' names, tallies) and the band a later title goes in."""

    net: Network
    places: Places
    regions: NetRegions
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
        """The network read from the log, where its units go, the tallies' box and the title
        band: fixed for the clip, so worked out on first use and not part of the state."""
        net = read_network(self.ctx.events)
        regions, band = self._net_regions(net)
        return NetGeometry(net, network_places(net, regions.units, self.theme), regions, band)

    def _net_regions(self, net: Network) -> tuple[NetRegions, Rect]:
        """The graph region split for the units, the layers' names and the tallies (when the
        clip counts passes), and the band a title after the first unit goes in: kept free above
        the network only when such a title comes (else the frame's height goes to the layers)."""
        region = self.ctx.graph_region()
        left, bottom, right, top = region
        cap = self.ctx.spec.caption
        cues = self.ctx.plan.cues
        counters = any(c.kind == "pass_count" for c in cues)
        first = min((c.start for c in cues if c.kind == "unit_appear"), default=None)
        late_title = first is not None and any(c.kind == "title" and c.start > first for c in cues)
        band_h = cap[3] - cap[1]
        if late_title:
            region = (left, bottom, right, top - band_h)
        tally = (self._row_height(), self._big_height()) if counters else None
        regions = split_region(region, self._label_column(net), tally, self.theme.proportions.tally_side,
                               self.theme.spacing.item_gap)
        return regions, (left, top - band_h, right, top)

    def _row_height(self) -> float:
        return label("Ag", self.theme.fonts.sans, self.theme.font_sizes.counter, self.theme.colors.text).height * 1.6

    def _big_height(self) -> float:
        return label("36", self.theme.fonts.sans, self.theme.font_sizes.tally, self.theme.colors.text).height * 1.3

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
        return [m for m in (st.panel, *st.ghosts.values(), *st.units.values(), *st.links.values(), *st.plain,
                            *st.sweep, *st.trace,
                            *st.done.values(), *st.rows.values(), *st.layer_labels.values(), *st.names.values())
                if m is not None]

    def title_band(self) -> Rect:
        """The band at the region's top, kept free above the network when a title comes after
        its first unit."""
        return self._mlp.band

    def _line(self, p: Places, weight: str, colour: str, width: float, backward: bool = False) -> Mobject:
        link = self._mlp.net.links[weight]
        a, b = p.centre[link.src], p.centre[link.dst]
        return link_line(b, a, p.radius, colour, width) if backward else link_line(a, b, p.radius, colour, width)

    def _mark(self, owner: str, meaning: str, backward: bool) -> Mobject | None:
        """A unit's glow ring or a weight's overlay line in ``meaning``'s colour: a gradient for
        reverse mode's sweep and the weights it fills, forward_mode for forward mode's passes."""
        p: Places = self._mlp.places
        t = self.theme
        colour = t.colour(meaning)
        if owner in self._mlp.net.links:
            line = self._line(p, owner, colour, t.strokes.link * 2, backward).set_z_index(Z_TRACE)
            return tag(line, "mark", meaning=meaning)
        if owner in p.centre:
            ring = Circle(radius=p.radius * (1 + t.proportions.unit_ring), color=colour, stroke_width=t.strokes.wavefront)
            return tag(ring.move_to([*p.centre[owner], 0]).set_z_index(Z_TRACE), "mark", meaning=meaning)
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
        unit = unit_circle(name.text, p.centre[uid], p.radius, self._mlp.net.meaning(uid), self.theme)
        outline = self._skeleton(uid) if not st.units else []
        st.units[uid] = unit
        ghost = st.ghosts.pop(uid, None)
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
            unit.add(m.next_to(unit.ring, [-1, 0, 0], buff=self._beside()))
            for s in names + targets:
                self.ctx.record(s)
        unit.set_z_index(Z_UNIT)  # the value and the target too, over the backdrop
        out: Anims = outline + [GrowIn(unit)] + self._plain_links(uid)
        return out + ([FadeOut(ghost)] if ghost is not None else [])

    def _skeleton(self, first: str) -> Anims:
        """With the first unit, the network's shape: every layer's name, and the outline of
        every unit still to come. Why: the input layer is named for some 15 s before the first
        hidden unit comes; alone at the foot of an empty frame it said nothing of the hidden
        layers, the output and the loss the caption speaks of."""
        st = self.network
        p: Places = self._mlp.places
        for uid, at in p.centre.items():
            if uid != first:
                st.ghosts[uid] = ghost_circle(at, p.radius, self.theme).set_z_index(Z_LINK)
        labels = [a for layer in self._mlp.net.layers if layer for a in self._layer_label(layer[0])]
        return [FadeIn(m) for m in st.ghosts.values()] + labels

    def _value_label(self, unit: Mobject, text: str, owner: str) -> Mobject:
        """A unit's value, beside its circle on the right, tagged with its tensor's id."""
        t = self.theme
        m = tag(label(text, t.fonts.mono, t.font_sizes.card_value, t.colors.text), "value", id=owner)
        return m.next_to(unit.ring, [1, 0, 0], buff=self._beside())

    def _beside(self) -> float:
        """The gap between a unit's circle and its value or target: past the ring a lit unit
        wears (with its stroke), and a tag's gap beyond."""
        t = self.theme
        return self._mlp.places.radius * t.proportions.unit_ring + t.sizes.token_pad * 2

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
        """A layer's name at the left of its row, in the labels' column (with the first unit drawn)."""
        st = self.network
        layers, p = self._mlp.net.layers, self._mlp.places
        depth = next((i for i, l in enumerate(layers) if uid in l), None)
        if depth is None or depth in st.layer_labels:
            return []
        t = self.theme
        m = label(self._layer_name(self._mlp.net, depth), t.fonts.sans, self._name_size(), t.colors.text_muted)
        m.move_to([self._mlp.regions.names_x, p.centre[uid][1], 0], aligned_edge=[-1, 0, 0]).set_z_index(Z_UNIT)
        st.layer_labels[depth] = m
        return [FadeIn(m)]

    def _name_size(self) -> float:
        """A layer's name is a name: no smaller than a unit's (11 px), larger than a card's flag."""
        return max(self.theme.font_sizes.card_flag, self.theme.font_sizes.unit_name_least)

    def _label_column(self, net: Network) -> float:
        """The width kept at the network's left for its layers' names."""
        t = self.theme
        words = [self._layer_name(net, d) for d in range(len(net.layers))]
        return max((label(w, t.fonts.sans, self._name_size(), t.colors.text_muted).width for w in words),
                   default=0.0) + t.spacing.item_gap

    def _plain_links(self, uid: str) -> Anims:
        """A unit no weight feeds (the loss after the output) is joined to the layer before it."""
        st = self.network
        net: Network = self._mlp.net
        layers, p = net.layers, self._mlp.places
        depth = next((i for i, l in enumerate(layers) if uid in l), 0)
        if depth == 0 or any(l.dst == uid for l in net.links.values()):
            return []
        forward = self.theme.colour("forward")
        lines = [link_line(p.centre[src], p.centre[uid], p.radius, forward, self.theme.strokes.link)
                 .set_z_index(Z_LINK) for src in layers[depth - 1] if src in st.units]
        st.plain += lines
        return [Create(m) for m in lines]

    @draws("link_appear")
    def draw_link(self, cue: Cue, step: StepScratch) -> Anims:
        st = self.network
        weight = cue.ids[0]
        if weight in st.links or weight not in self._mlp.net.links:
            return []
        line = self._line(self._mlp.places, weight, self.theme.colour("forward"), self.theme.strokes.link)
        st.links[weight] = line.set_z_index(Z_LINK)
        return [Create(line)]

    # ----- counting passes --------------------------------------------------------------------
    @draws("pass_count")
    def draw_pass_count(self, cue: Cue, step: StepScratch) -> Anims:
        """Reverse mode's count (a backward call) in its tally, forward mode's k / N in the
        other, each large under its words, in its role's colour: one pass against 36 is the
        contrast the clip is about. A new pass clears the previous pass's trace (and the first,
        the reverse sweep), and dims the latest readout, which holds the previous pass's
        derivative until this pass lands."""
        st = self.network
        t = self.theme
        count, total = cue.text("count") or "", cue.text("total")
        meaning = "gradient" if total is None else "forward_mode"
        head, row, words = (REVERSE_HEAD, REVERSE, t.labels.reverse_count) if total is None else (
            FORWARD_HEAD, FORWARD, t.labels.forward_count)
        out: Anims = [] if head in st.rows else self._set_row(head, words, meaning, step)
        out += self._set_row(row, count if total is None else f"{count} / {total}", meaning, step)
        for s in cue.strings:
            self.ctx.record(s)
        if total is None:
            st.swept = []  # a new backward call: its own sweep
        else:
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

    def _set_row(self, row: int, text: str, meaning: str | None, step: StepScratch,
                 parts: tuple[str, str] | None = None) -> Anims:
        """A tally row's text in its box, in ``meaning``'s colour (None: plain text), shrunk to
        fit; ``parts``: the same text in two lines, taken when the box has room for two and one
        line would be shrunk."""
        st = self.network
        tallies = self._mlp.regions.tallies
        assert tallies is not None  # a clip that counts passes has its tallies' box
        left, bottom, right, top = row_box(row, tallies, self._mlp.regions.side, self._row_height(), self._big_height(),
                                           self.theme.spacing.item_gap)
        size = self.theme.font_sizes.tally if row in (REVERSE, FORWARD) else self.theme.font_sizes.counter
        colour = self.theme.colors.text if meaning is None else self.theme.colour(meaning)
        def words(s: str) -> Mobject:
            return tag(label(s, self.theme.fonts.sans, size, colour), "label", id=f"row {row}", meaning=meaning)

        m = words(text)
        if parts is not None and m.width > right - left and top - bottom >= 2 * self._row_height() - 1e-9:
            m = VGroup(*(words(p) for p in parts)).arrange(DOWN, aligned_edge=LEFT, buff=self.theme.sizes.token_pad)
        shrink_to_fit(m, right - left, top - bottom)  # its id is its row's: the checks follow a counter changing in place
        m.move_to([left, (top + bottom) / 2, 0], aligned_edge=[-1, 0, 0]).set_z_index(Z_UNIT)
        old = st.rows.pop(row, None)
        st.rows[row] = m
        step.arriving.add(id(m))
        return cut(old, m) if old is not None else [FadeIn(m)]  # a counter changes in place

    # ----- reverse mode: one sweep ------------------------------------------------------------
    @draws("sweep_step")
    def draw_sweep_step(self, cue: Cue, step: StepScratch) -> Anims:
        mark = self._mark(cue.ids[0], "gradient", backward=True)  # a gradient flowing
        if mark is None:
            return []
        self._lit(cue.ids[0])
        self.network.sweep.append(mark)
        return [Create(mark)]

    @draws("link_fill")
    def draw_link_fill(self, cue: Cue, step: StepScratch) -> Anims:
        mark = self._mark(cue.ids[0], "gradient", backward=True)  # .grad filled: the gradient's
        if mark is None:
            return []
        self._lit(cue.ids[0])
        self.network.sweep.append(mark.set_z_index(Z_DONE))
        return [Create(mark)]

    def _lit(self, owner: str) -> None:
        if owner not in self.network.swept:
            self.network.swept.append(owner)

    def recall_sweep(self, kind: str, step: StepScratch) -> Anims:
        """As the takeaway starts (its ``recap``), the network shows the one reverse sweep again,
        in the gradient's colour, where forward mode's passes had covered it in theirs; the tallies
        keep both counts, each in its own colour. Why: the takeaway says "one backward sweep gives
        every weight its gradient"; over a network lit in forward mode's colour from end to end,
        the contrast (1 against 36) was left to the words."""
        st = self.network
        if kind != "recap" or not st.swept or not (st.done or st.trace) or st.hidden:
            return []
        going = [*st.done.values(), *st.trace]
        st.done, st.trace = {}, []
        marks = [m for m in (self._mark(o, "gradient", backward=True) for o in st.swept) if m is not None]
        st.sweep = [m.set_z_index(Z_DONE) for m in marks]
        return [FadeOut(m) for m in going] + [FadeIn(m) for m in st.sweep]

    @draws("reach_count")
    def draw_reach_count(self, cue: Cue, step: StepScratch) -> Anims:
        """How many weights the one reverse pass has reached so far, under its pass count."""
        t = self.theme
        for s in cue.strings:
            self.ctx.record(s)
        words, count = t.labels.reached, f"{cue.text('reached')} / {cue.text('total')}"
        return self._set_row(REACHED, f"{words} {count}", "gradient", step, parts=(words, count))

    # ----- forward mode: one pass per weight --------------------------------------------------
    @draws("tangent_sweep")
    def draw_tangent_sweep(self, cue: Cue, step: StepScratch) -> Anims:
        # forward mode's own colour, never the reverse sweep's
        marks = [m for m in (self._mark(o, "forward_mode", backward=False) for o in cue.ids) if m is not None]
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
        done = self._mark(seed, "forward_mode", backward=False)
        if done is not None and seed not in st.done:
            st.done[seed] = done.set_z_index(Z_DONE)
            out.append(Create(done))
        name, value = cue.text("name"), cue.text("value") or ""
        if name is None:  # a rushed pass writes no readout: the latest one goes, the count says the rest
            latest = st.rows.pop(LATEST, None)
            return out + ([FadeOut(latest)] if latest is not None else [])
        row = FIRST if FIRST not in st.rows else LATEST
        out += self._set_row(row, f"{name}  {value}", None, step)
        if row == FIRST:
            out += self._weight_name(seed, name)
        for s in cue.strings:
            self.ctx.record(s)
        return out

    def _weight_name(self, weight: str, name: str) -> Anims:
        """The first pass's weight named beside its line, on the side away from the network's
        middle, as the readout row under the tally names it: the row "w1_0_0 -0.0754" named a
        weight the network did not show. The same logged string as the row's (recorded once)."""
        p: Places = self._mlp.places
        link = self._mlp.net.links.get(weight)
        if link is None or weight in self.network.names:
            return []
        t = self.theme
        (ax, ay), (bx, by) = p.centre[link.src], p.centre[link.dst]
        mid = ((ax + bx) / 2, (ay + by) / 2)
        middle = sum(x for x, _ in p.centre.values()) / len(p.centre)
        m = tag(label(name, t.fonts.mono, t.font_sizes.unit_name_least, t.colors.text), "label", id=weight)
        m.next_to([mid[0], mid[1], 0], [-1 if mid[0] <= middle else 1, 0, 0], buff=t.sizes.token_pad * 2)
        self.network.names[weight] = m.set_z_index(Z_UNIT)
        return [FadeIn(m)]
