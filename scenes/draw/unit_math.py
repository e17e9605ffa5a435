"""One unit's arithmetic on the MLP view: its weights on its lines, their sum, its activation.

Why a view of its own: the network (:mod:`scenes.draw.network`) draws units and lines, and its
passes (:mod:`scenes.draw.passes`) count sweeps over them; what one unit computes, as a storyboard's
``unit:`` asks for it, is a third idea. "Each unit multiplies every input by its own weight, sums,
and applies ReLU" was said over a network standing still (review of session 6): here the unit's
incoming lines light in the weight's colour, each with its weight's value on it (``× 0.3750``,
times the input the line comes from), the sum is written beside the unit (``Σ = 1.4062``), then
its activation and output under it (``relu(Σ) = 1.4062``), and all of it goes as the whole network
comes back. Every number is a logged one (the plan's ``unit_*`` cues); the values are tagged with
their tensors' ids, so the frame checks hold them to the log.
"""

from __future__ import annotations

from manim import Create, FadeIn, FadeOut, Line, Mobject, Rectangle, VGroup

from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.drawers import draws
from scenes.draw.frame_spots import bounds
from scenes.draw.network import Z_UNIT, NetworkDiagram
from scenes.draw.record import tag, tag_of
from scenes.draw.visuals.glyphs import label
from scenes.layout.label_spots import crosses, inside, meet, rect_around
from scenes.storyboard.cues import Cue
from scenes.theme import Rect

Z_BACK = Z_UNIT - 0.01
"""A weight's backdrop: over the line it sits on, under its text."""


class UnitMath(View):
    """Draws unit_weights, unit_sum, unit_act and unit_done on ``diagram``'s network; keeps what
    it drew in ``state.network.math`` until unit_done takes it away."""

    def __init__(self, ctx: DrawContext, diagram: NetworkDiagram) -> None:
        super().__init__(ctx)
        self.diagram = diagram

    @property
    def drawn(self) -> list[Mobject]:
        return self.ctx.state.network.math

    # ----- sizes and places -------------------------------------------------------------------
    def _text(self, text: str, colour: str) -> Mobject:
        t = self.theme
        return label(text, t.fonts.mono, t.font_sizes.card_value, colour)

    def _gap(self) -> float:
        return self.theme.sizes.token_pad * 2

    def _taken(self, skip: tuple[str, ...] = ()) -> list[Rect]:
        """What a new text keeps off: every unit's circle (drawn or still an outline), the layers'
        names, and what this view has written."""
        st = self.ctx.state.network
        rings = [bounds(m) for u, m in st.units.items() if u not in skip] + [bounds(m) for m in st.ghosts.values()]
        return rings + [bounds(m) for m in st.layer_labels.values()] + [bounds(m) for m in self.drawn
                                                                           if not isinstance(m, (Rectangle, Line))]

    def _lines(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        st = self.ctx.state.network
        out = []
        for m in [*st.links.values(), *st.plain]:
            a, b = m.get_start(), m.get_end()
            out.append(((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))))
        return out

    def _within(self) -> Rect:
        return self.ctx.graph_region()

    # ----- the weights ------------------------------------------------------------------------
    @draws("unit_weights")
    def draw_unit_weights(self, cue: Cue, step: StepScratch) -> Anims:
        """Each incoming line lit in the weight's colour, its weight's value on it near the input
        it multiplies (``× 0.3750``), over a backdrop that cuts the line under the text."""
        geo = self.diagram.geometry
        p, t = geo.places, self.theme
        out: Anims = []
        weights = [w for w in cue.ids[1:] if w in geo.net.links]
        texts = [s for s in cue.strings if s.role == "weight"]
        for weight, shown in zip(weights, texts):
            mark = self.diagram.mark(weight, "weight", backward=False)
            if mark is not None:
                self.drawn.append(mark)
                out.append(Create(mark))
            link = geo.net.links[weight]
            times = label("×", t.fonts.mono, t.font_sizes.card_value, t.colors.text_muted)
            value = tag(self._text(shown.text, t.colour("weight")), "value", id=weight, meaning="weight")
            row = VGroup(times, value).arrange(buff=t.sizes.token_pad)
            tag(times, "label", text="×")
            row.move_to([*self._on_line(p.centre[link.src], p.centre[link.dst], row, link.src), 0])
            back = Rectangle(width=row.width + 2 * t.sizes.token_pad, height=row.height + 2 * t.sizes.token_pad,
                             stroke_width=0).set_fill(t.colors.background, opacity=1.0).move_to(row)
            back.set_z_index(Z_BACK)
            row.set_z_index(Z_UNIT)
            self.drawn.extend([back, times, value])
            out += [FadeIn(back), FadeIn(row)]
            self.ctx.record(shown)
        return out

    def _on_line(self, src: tuple[float, float], dst: tuple[float, float], row: Mobject, own: str) -> tuple[float, float]:
        """A point on the line from ``src`` to ``dst`` where ``row`` (centred there) clears the
        input's circle and what is written already: the nearest to the input, as the line is
        the input's, times the weight."""
        dx, dy = dst[0] - src[0], dst[1] - src[1]
        n = (dx * dx + dy * dy) ** 0.5 or 1.0
        size = (row.width + 2 * self.theme.sizes.token_pad, row.height + 2 * self.theme.sizes.token_pad)
        taken = self._taken()
        r = self.diagram.geometry.places.radius
        k = 0
        while True:
            d = r + k * 0.02
            if d > n - r:
                break
            at = (src[0] + dx * d / n, src[1] + dy * d / n)
            rect = rect_around(at[0], at[1], size, self._gap() / 2)
            if not any(meet(rect, o) for o in taken):
                return at
            k += 1
        return src[0] + dx / 2, src[1] + dy / 2

    # ----- the sum and the activation ---------------------------------------------------------
    @draws("unit_sum")
    def draw_unit_sum(self, cue: Cue, step: StepScratch) -> Anims:
        """``Σ = value`` beside the unit, where the activation's part will fit after it on the
        same row (one row fits between two layers at 16:9, where two did not)."""
        value = cue.strings[0]
        row = self._row(f"Σ {self.theme.labels.name_value}", value.text, cue.ids[1])
        space = self._text("0", self.theme.colors.text).width
        room = VGroup(row.copy(), self._row("→ relu →", value.text, cue.ids[0])).arrange(buff=space)
        room.move_to([*self._beside(cue.ids[0], room), 0])
        row.move_to(room[0])
        self.drawn.append(row)
        self.ctx.record(value)
        return [FadeIn(row)]

    @draws("unit_act")
    def draw_unit_act(self, cue: Cue, step: StepScratch) -> Anims:
        """``→ relu → value`` after the sum (the row whose value is the sum's tensor, ids[1]): the
        activation, as the program calls it, and the unit's output (the unit's own tensor)."""
        op, value = cue.text("op") or "", next(s for s in cue.strings if s.role == "value")
        row = self._row(f"→ {op} →", value.text, cue.ids[0])
        before = next((m for m in self.drawn if isinstance(m, VGroup) and len(m) == 2
                       and (tg := tag_of(m[1])) is not None and tg.id == cue.ids[1]), None)
        if before is not None:
            row.next_to(before, [1, 0, 0], buff=self._text("0", self.theme.colors.text).width)
        else:
            row.move_to([*self._beside(cue.ids[0], row), 0])
        self.drawn.append(row)
        self.ctx.record(value)
        self.ctx.record_all([s for s in cue.strings if s.role == "op"])
        return [FadeIn(row)]

    def _row(self, words: str, number: str, owner: str) -> VGroup:
        """``words number``: the words muted, the number a value of tensor ``owner``."""
        t = self.theme
        said = tag(self._text(words, t.colors.text_muted), "label")
        value = tag(self._text(number, t.colors.text), "value", id=owner)
        space = self._text("0", t.colors.text).width  # a mono space: the row reads as one line of text
        return VGroup(said, value).arrange(buff=space).set_z_index(Z_UNIT)

    def _beside(self, uid: str, block: Mobject) -> tuple[float, float]:
        """The centre of ``block`` beside unit ``uid``: level with it on its right, then in the
        band over it (from its left edge, its middle, centred, to its right edge), under it, then
        level on its left: the first inside the network's region that touches no circle, no
        layer's name and nothing written, and that no drawn line crosses; else the one inside
        the region that meets the fewest."""
        p = self.diagram.geometry.places
        x, y = p.centre[uid]
        w, h = block.width, block.height
        rim = p.radius * (1 + self.theme.proportions.unit_ring)
        g = self._gap() + rim
        up, down = y + g + h / 2, y - g - h / 2
        spots = [(x + g + w / 2, y)] + [(sx, sy) for sy in (up, down)
                                       for sx in (x - rim + w / 2, x + w / 2, x, x + rim - w / 2)]
        spots.append((x - g - w / 2, y))
        within, taken, lines = self._within(), self._taken(), self._lines()

        def cost(at: tuple[float, float]) -> float:
            rect = rect_around(at[0], at[1], (w, h), self._gap() / 2)
            if not inside(rect_around(at[0], at[1], (w, h)), within):
                return float("inf")
            return sum(meet(rect, o) for o in taken) + sum(crosses(rect, a, b) for a, b in lines)

        return min(spots, key=cost)

    # ----- back to the whole network ----------------------------------------------------------
    @draws("unit_done")
    def draw_unit_done(self, cue: Cue, step: StepScratch) -> Anims:
        """Everything this view wrote goes: the lit lines, the weights, the sum and the output."""
        gone = list(self.drawn)
        self.drawn.clear()
        return [FadeOut(m) for m in gone]

