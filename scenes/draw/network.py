"""MLP-view cues of the clip scene: the network's units and weights.

Why a second picture of the same program: a network of a few dozen weights has over a hundred
autograd nodes, whose cards cannot carry readable labels even at 1080p. The unit diagram can, so
these handlers draw the network that :mod:`scenes.storyboard.network` reads from the log; the
passes over it (reverse mode reaches every weight in one, forward mode needs one per weight) are
:mod:`scenes.draw.passes`. A view of ``ClipScene``, owning ``state.network`` with the passes;
its drawers return animations and record every string they draw in the ledger.
"""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

from manim import Circle, Create, FadeIn, FadeOut, Mobject

from scenes.draw.grow_in import GrowIn
from scenes.draw.context import Anims, StepScratch, View
from scenes.draw.crossfade import cut, first_half
from scenes.draw.curve import graph_backdrop
from scenes.draw.drawers import draws
from scenes.draw.record import tag
from scenes.draw.frame_spots import bounds
from scenes.draw.state import NetworkView
from scenes.layout.clear_rects import meets
from scenes.storyboard.cues import Cue
from scenes.storyboard.placeholders import Shown
from scenes.storyboard.network import Network, read_network
from scenes.theme import Rect
from scenes.draw.visuals.glyphs import label
from scenes.draw.visuals.network import Places, ghost_circle, link_line, network_places, unit_circle
from scenes.layout.netplace import NetRegions, split_region

Z_PANEL, Z_LINK, Z_TRACE, Z_DONE, Z_UNIT = 1.2, 1.22, 1.24, 1.26, 1.3  # over the cards and tokens its backdrop hides
Z_LIT = 1.28
"""A light's ring or line (:mod:`scenes.draw.lights`): over the passes' marks it points at, under the units."""
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
    """Draws unit_appear and link_appear (the passes drawn on it are :mod:`scenes.draw.passes`');
    takes the network away and brings it back as the graph's cards take turns with it
    (``give_way``); tells the titles whether it is up (``drawn``) and where a title may go over
    it (``title_band``); gives the passes its ``geometry``, a unit's or weight's ``mark`` and
    the tallies' row heights."""

    @property
    def network(self) -> NetworkView:
        return self.ctx.state.network

    # ----- state and geometry -----------------------------------------------------------------
    @cached_property
    def geometry(self) -> NetGeometry:
        """The network read from the log, where its units go, the tallies' box and the title
        band: fixed for the clip, so worked out on first use and not part of the state."""
        net = read_network(self.ctx.events)
        regions, band = self._net_regions(net)
        # a unit's inputs written at their circles (mlp's unit_weights) need the room beside the
        # outer units: there the units stay centred in equal slices (`place_units`)
        edges = not any(c.kind == "unit_weights" for c in self.ctx.plan.cues)
        return NetGeometry(net, network_places(net, regions.units, self.theme, edges), regions, band)

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
        if any(c.kind == "unit_weights" for c in cues):  # a unit's inputs' values go under the input row
            t = self.theme
            under = label("0.", t.fonts.mono, t.font_sizes.card_value, t.colors.text).height + 4 * t.sizes.token_pad
            region = (region[0], region[1] + under, region[2], region[3])
        tally = (self.row_height(), self.big_height()) if counters else None
        latest = sum(1 for c in cues if c.kind == "jvp_fill" and c.text("name") is not None) > 1  # a second readout
        t = self.theme
        regions = split_region(region, self._label_column(net), tally, t.proportions.tally_side, t.spacing.item_gap,
                               latest, self.heading_width(t.font_sizes.counter_least))
        return regions, (left, top - band_h, right, top)

    def heading_width(self, size: float) -> float:
        """The wider of the two tallies' headings at font ``size``."""
        t = self.theme
        return max(label(w, t.fonts.sans, size, t.colors.text).width for w in (t.labels.reverse_count, t.labels.forward_count))

    def row_height(self) -> float:
        """A tally's row of words."""
        return label("Ag", self.theme.fonts.sans, self.theme.font_sizes.counter, self.theme.colors.text).height * 1.6

    def big_height(self) -> float:
        """A tally's large count."""
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
        return self.geometry.band

    def _line(self, p: Places, weight: str, colour: str, width: float, backward: bool = False) -> Mobject:
        link = self.geometry.net.links[weight]
        a, b = p.centre[link.src], p.centre[link.dst]
        return link_line(b, a, p.radius, colour, width) if backward else link_line(a, b, p.radius, colour, width)

    def mark(self, owner: str, meaning: str, backward: bool) -> Mobject | None:
        """A unit's glow ring or a weight's overlay line in ``meaning``'s colour: a gradient for
        reverse mode's sweep and the weights it fills, forward_mode for forward mode's passes,
        now for what a phrase points at (a light)."""
        p: Places = self.geometry.places
        t = self.theme
        colour = t.colour(meaning)
        if owner in self.geometry.net.links:
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
        p: Places = self.geometry.places
        if uid not in p.centre:
            return []
        t = self.theme
        value = next((s for s in cue.strings if s.role == "value"), None)
        if uid in st.units:  # a later pass's unit: the circle with its name is there already
            self.ctx.record_all([s for s in cue.strings if s.role == "name"])
            return self._new_value(st.units[uid], value, cue.ids[-1])
        name = next(s for s in cue.strings if s.role == "name")
        unit = unit_circle(name.text, p.centre[uid], p.radius, self.geometry.net.meaning(uid), self.theme)
        outline = self._skeleton(uid) if not st.units else []
        st.units[uid] = unit
        ghost = st.ghosts.pop(uid, None)
        self.ctx.record(name)
        unit.value = None
        if value is not None:  # the network's result, or the loss: its value beside its circle
            has_targets = any(s.role == "target" for s in cue.strings)  # (they take its left)
            unit.value = self._value_label(unit, value.text, cue.ids[-1], None if not has_targets else 1.0)
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
        p: Places = self.geometry.places
        for uid, at in p.centre.items():
            if uid != first:
                st.ghosts[uid] = ghost_circle(at, p.radius, self.theme).set_z_index(Z_LINK)
        labels = [a for layer in self.geometry.net.layers if layer for a in self._layer_label(layer[0])]
        return [FadeIn(m) for m in st.ghosts.values()] + labels

    def _value_label(self, unit: Mobject, text: str, owner: str, side: float | None = None) -> Mobject:
        """A unit's value, beside its circle on the right (``side`` 1.0) or left (-1.0), tagged with its
        tensor's id. ``side`` None: on the right, but where that reaches past the units' box (into the
        tallies' column beside it: net221_pass2 16:9's '1.0055' under the count '2', the units placed
        without room for it) on the left, where that keeps off the layers' names and the other units."""
        t = self.theme
        m = tag(label(text, t.fonts.mono, t.font_sizes.card_value, t.colors.text), "value", id=owner)
        m.next_to(unit.ring, [1, 0, 0] if side is None else [side, 0, 0], buff=self._beside())
        regions, st = self.geometry.regions, self.network
        if side is None and m.get_right()[0] > regions.units[2]:
            left = m.copy().next_to(unit.ring, [-1, 0, 0], buff=self._beside())
            gap = t.spacing.edge_clearance  # (a word space off the layer's name, as the value is off its ring)
            x0, y0, x1, y1 = bounds(left)
            near = [bounds(o) for o in [*st.layer_labels.values(), *(u.ring for u in st.units.values() if u is not unit)]]
            if x0 >= regions.names_x and not any(meets((x0 - gap, y0, x1, y1), r) for r in near):
                m.move_to(left.get_center())
        return m

    def _beside(self) -> float:
        """The gap between a unit's circle and its value or target: past the ring a lit unit
        wears (with its stroke), and a tag's gap beyond."""
        t = self.theme
        return self.geometry.places.radius * t.proportions.unit_ring + t.sizes.token_pad * 2

    def _new_value(self, unit: Mobject, value: Shown | None, owner: str) -> Anims:
        """A drawn unit's value replaced by this pass's (``owner``'s), where it has one."""
        old = getattr(unit, "value", None)
        if value is None or old is None:
            return []
        new = self._value_label(unit, value.text, owner,  # on the side it was (a number does not jump)
                                1.0 if old.get_center()[0] >= unit.ring.get_center()[0] else -1.0)
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
        layers, p = self.geometry.net.layers, self.geometry.places
        depth = next((i for i, l in enumerate(layers) if uid in l), None)
        if depth is None or depth in st.layer_labels:
            return []
        t = self.theme
        m = label(self._layer_name(self.geometry.net, depth), t.fonts.sans, self._name_size(), t.colors.text_muted)
        m.move_to([self.geometry.regions.names_x, p.centre[uid][1], 0], aligned_edge=[-1, 0, 0]).set_z_index(Z_UNIT)
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
        net: Network = self.geometry.net
        layers, p = net.layers, self.geometry.places
        depth = next((i for i, l in enumerate(layers) if uid in l), 0)
        if depth == 0 or any(l.dst == uid for l in net.links.values()):
            return []
        forward = self.theme.colour("forward")
        lines = [tag(link_line(p.centre[src], p.centre[uid], p.radius, forward, self.theme.strokes.link),
                     "link", meaning="forward").set_z_index(Z_LINK) for src in layers[depth - 1] if src in st.units]
        st.plain += lines
        return [Create(m) for m in lines]

    @draws("link_appear")
    def draw_link(self, cue: Cue, step: StepScratch) -> Anims:
        st = self.network
        weight = cue.ids[0]
        if weight in st.links or weight not in self.geometry.net.links:
            return []
        line = self._line(self.geometry.places, weight, self.theme.colour("forward"), self.theme.strokes.link)
        st.links[weight] = tag(line, "link", meaning="forward").set_z_index(Z_LINK)
        return [Create(line)]
