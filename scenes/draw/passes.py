"""Passes over the MLP view: reverse mode's one sweep against forward mode's pass per weight.

Why a view of its own: counting passes is the reverse_mode clip's idea, apart from drawing the
network it counts them on (:mod:`scenes.draw.network`, which it asks for the units' places, a
unit's or weight's mark and the tallies' rows). It writes the passes' part of ``state.network``
(the tallies, the sweep, the traces, the readouts); its drawers return animations and record
every string they draw in the ledger.
"""

from __future__ import annotations

from manim import DOWN, LEFT, Create, FadeIn, FadeOut, LaggedStart, Mobject, VGroup

from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.crossfade import at_end, cut
from scenes.draw.drawers import draws
from scenes.draw.network import Z_DONE, Z_UNIT, NetworkDiagram
from scenes.draw.record import tag, tag_of
from scenes.draw.state import NetworkView
from scenes.draw.visuals.glyphs import label, shrink_to_fit
from scenes.draw.visuals.network import Places
from scenes.draw.visuals.baseline import baseline
from scenes.layout.netplace import (COUNTS, FIRST, FORWARD, FORWARD_HEAD, LATEST, REACHED, REVERSE, REVERSE_HEAD,
                                    row_box)
from scenes.storyboard.timings import BLINK
from scenes.storyboard.cues import Cue


def _owner(mark: Mobject) -> str | None:
    """The unit or weight a mark lights (its tag's id, `PassCounts._mark`)."""
    t = tag_of(mark)
    return None if t is None else t.id


class PassCounts(View):
    """Draws pass_count, sweep_step, link_fill, reach_count, tangent_sweep and jvp_fill on
    ``diagram``'s network, and shows the one reverse sweep again as the takeaway starts
    (``recall_sweep``)."""

    def __init__(self, ctx: DrawContext, diagram: NetworkDiagram) -> None:
        super().__init__(ctx)
        self.diagram = diagram

    @property
    def network(self) -> NetworkView:
        return self.ctx.state.network

    # ----- counting passes --------------------------------------------------------------------
    @draws("pass_count")
    def draw_pass_count(self, cue: Cue, step: StepScratch) -> Anims:
        """Reverse mode's count (a backward call) in its tally, forward mode's k / N in the
        other, each large under its words, in its role's colour: one pass against 36 is the
        contrast the clip is about. A new forward pass dims the path lit before it (the previous
        pass's trace, or the reverse sweep) when its own sweep comes a blink later or more
        (`_dim_path`), and dims the latest readout, which holds the previous pass's derivative
        until this pass lands."""
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
            out += self._dim_path(cue)
            out += self._dim_readout(step)
        return out

    def _dim_path(self, cue: Cue) -> Anims:
        """The path lit before (the reverse sweep, or the previous forward pass) dimmed as a new
        pass is counted, where the new pass's sweep comes a blink or more later (``BLINK``): it is
        seen to start again from its weight over the faded path. Where it comes sooner (rushed
        passes, three a second), the path stays lit: put out and lit again it strobed. The new
        pass's sweep takes it away (:meth:`draw_tangent_sweep`)."""
        st = self.network
        sweep = next((c.start for c in self.ctx.plan.cues if c.kind == "tangent_sweep" and c.start >= cue.start), None)
        if sweep is None or sweep - cue.start < BLINK:
            return []
        return [m.animate.set_stroke(opacity=1 - self.theme.opacity.dimmed) for m in st.sweep + st.trace]

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
        regions = self.diagram.geometry.regions
        assert regions.tallies is not None  # a clip that counts passes has its tallies' box
        left, bottom, right, top = row_box(row, regions.tallies, regions.side, self.diagram.row_height(),
                                           self.diagram.big_height(), self.theme.spacing.item_gap, regions.latest)
        head = next((st.rows.get(h) for h, c in COUNTS.items() if c == row), None) if not regions.side else None
        if head is not None:  # in a band, the count on its words' line, after them
            left = float(head.get_right()[0]) + self.theme.spacing.item_gap
        size = self.theme.font_sizes.tally if row in (REVERSE, FORWARD) else self.theme.font_sizes.counter * self._words_scale()
        colour = self.theme.colors.text if meaning is None else self.theme.colour(meaning)
        def words(s: str) -> Mobject:
            return tag(label(s, self.theme.fonts.sans, size, colour), "label", id=f"row {row}", meaning=meaning)

        m = words(text)
        if parts is not None and m.width > right - left and top - bottom >= 2 * self.diagram.row_height() - 1e-9:
            m = VGroup(*(words(p) for p in parts)).arrange(DOWN, aligned_edge=LEFT, buff=self.theme.sizes.token_pad)
        shrink_to_fit(m, right - left, top - bottom)  # its id is its row's: the checks follow a counter changing in place
        m.move_to([left, (top + bottom) / 2, 0], aligned_edge=[-1, 0, 0]).set_z_index(Z_UNIT)
        if head is not None:  # the count's figures and its words on one baseline
            m.shift([0.0, baseline(head) - baseline(m), 0.0])
        elif row in COUNTS and not regions.side:  # words on the baseline of the count to come, centred in the line
            figures = label("36", self.theme.fonts.sans, self.theme.font_sizes.tally, colour)
            m.shift([0.0, (top + bottom) / 2 - figures.height / 2 - baseline(m), 0.0])
        old = st.rows.pop(row, None)
        st.rows[row] = m
        step.arriving.add(id(m))
        return cut(old, m) if old is not None else [FadeIn(m)]  # a counter changes in place

    def _words_scale(self) -> float:
        """The tallies' words (headings, weights reached, readouts) all at one size: as small as
        the wider heading needs to fit the tallies' width. Why: shrunk each to its own row, the
        headings stood smaller than the rows under them in 16:9's narrow column."""
        tallies = self.diagram.geometry.regions.tallies
        assert tallies is not None
        return min(1.0, (tallies[2] - tallies[0]) / self.diagram.heading_width(self.theme.font_sizes.counter))

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

    def _mark(self, owner: str, meaning: str, backward: bool) -> Mobject | None:
        """The diagram's mark of ``owner`` (a unit's ring, a weight's line), known by its owner's
        id: the continuity checks follow a lit unit or weight from frame to frame, so one put out
        and lit again within a blink is seen (`scenes.render.continuity.blinks`)."""
        mark = self.diagram.mark(owner, meaning, backward)
        return None if mark is None else tag(mark, "mark", id=owner)

    def _lit(self, owner: str) -> None:
        if owner not in self.network.swept:
            self.network.swept.append(owner)

    def recall_sweep(self, kind: str, step: StepScratch) -> Anims:
        """As the takeaway starts (its ``recap``), the network shows the one reverse sweep again,
        in the gradient's colour, where forward mode's passes had covered it in theirs; the tallies
        keep both counts, each in its own colour. Why: the takeaway says "one backward sweep gives
        every weight its gradient"; over a network lit in forward mode's colour from end to end,
        the contrast (1 against 36) was left to the words (issue 39, items 6 and 7). A small
        picture of the sweep kept beside reverse mode's count from the first forward pass was
        50-90 px high at 480p, its layers unreadable (review 6, item 10): the one large network
        shows the sweep, then the passes, then the sweep again beside both counts."""
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
        """A forward pass's path drawn from its weight up to the loss, in forward mode's own
        colour (never the reverse sweep's). The previous pass's marks on the same units and
        weights stay until the new ones are drawn over them (gone at the play's end, with no
        frame between); only those off the new path fade, as do the reverse sweep's. Why: rushed
        passes put the whole path out and drew it again three times a second, a strobe over two
        thirds of the network."""
        st = self.network
        marks = [m for m in (self._mark(o, "forward_mode", backward=False) for o in cue.ids) if m is not None]
        drawn = [LaggedStart(*[Create(m) for m in marks], lag_ratio=0.5)] if marks else []
        span = drawn[0].run_time if drawn else 1.0  # the step's length, in its animations' time
        before, st.sweep, st.trace = st.sweep + st.trace, [], marks
        path = set(cue.ids)
        return drawn + [FadeOut(m, run_time=span) if _owner(m) not in path else
                                FadeOut(m, rate_func=at_end, run_time=span) for m in before]

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
        p: Places = self.diagram.geometry.places
        link = self.diagram.geometry.net.links.get(weight)
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
