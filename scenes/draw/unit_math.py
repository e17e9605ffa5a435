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
from scenes.draw.crossfade import first_half
from scenes.draw.drawers import draws
from scenes.draw.frame_spots import bounds
from scenes.draw.network import Z_UNIT, NetworkDiagram
from scenes.draw.record import tag, tag_of
from scenes.draw.visuals.glyphs import label
from scenes.layout.clear_rects import meets
from scenes.layout.label_spots import crosses, inside, rect_around
from scenes.storyboard.cues import Cue
from scenes.storyboard.placeholders import Shown
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

    def _taken(self, ghosts: bool = True) -> list[Rect]:
        """What a new text keeps off: every unit's circle (and, with ``ghosts``, the outline of
        each still to come), the layers' names, and what this view has written."""
        st = self.ctx.state.network
        rings = [bounds(m) for m in st.units.values()] + ([bounds(m) for m in st.ghosts.values()] if ghosts else [])
        return rings + [bounds(m) for m in st.layer_labels.values()] + [bounds(m) for m in self.drawn
                                                                           if not isinstance(m, Line)]

    def _lines(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        return [seg for _, seg in self._segments()]

    def _segments(self) -> list[tuple[str, tuple[tuple[float, float], tuple[float, float]]]]:
        """Every drawn line, rim to rim, with its weight (``""`` for a plain one)."""
        st = self.ctx.state.network
        out = []
        for w, m in [*st.links.items(), *(("", m) for m in st.plain)]:
            a, b = m.get_start(), m.get_end()
            out.append((w, ((float(a[0]), float(a[1])), (float(b[0]), float(b[1])))))
        return out

    def _within(self) -> Rect:
        return self.ctx.graph_region()

    # ----- the weights ------------------------------------------------------------------------
    @draws("unit_weights")
    def draw_unit_weights(self, cue: Cue, step: StepScratch) -> Anims:
        """Each incoming line lit in the weight's colour, its weight's value on it near the input
        it multiplies (``× 0.3750``), over a backdrop that cuts the line under the text and holds
        the product that takes its place with the sum (`draw_unit_sum`); and the value of each
        unit a line comes from at its circle (what the weight multiplies). All at the value size
        where each finds room on its line, else all at a name's least size (a square frame's
        converging lines; still 11 px glyphs at 854x480); crossed by no other line where that
        is to be had (1:1's lines converge too tightly for it: then as near their own as fits)."""
        geo = self.diagram.geometry
        t = self.theme
        weights = [w for w in cue.ids[1:] if w in geo.net.links]
        texts = [s for s in cue.strings if s.role == "weight"]
        products = self._products(cue)
        least = t.font_sizes.unit_name_least
        tries = [(t.font_sizes.card_value, "×", True), (least, "×", True), (least, "", True), (least, "", False)]
        for (size, sign, ghosts), apart in [(a, True) for a in tries] + [(a, False) for a in tries[1:]]:
            rows, fits = self._weight_rows(weights, [s.text for s in texts], products, size, sign, ghosts, apart)
            if fits:
                break
        out: Anims = []
        for weight, (back, times, value) in zip(weights, rows):
            mark = self.diagram.mark(weight, "weight", backward=False)
            if mark is not None:
                self.drawn.append(mark)
                out.append(Create(mark))
            written = [value] + ([times] if times.get_family()[-1].has_points() else [])
            self.drawn.extend([back, *written])
            self.ctx.state.network.spots[weight] = (float(back.get_x()), float(back.get_y()), size,
                                                      "=" if sign else "", written)
            out += [FadeIn(back), FadeIn(VGroup(times, value))]
        self.ctx.record_all(texts)
        return out + self._inputs(weights, [s for s in cue.strings if s.role == "input"])

    def _products(self, cue: Cue) -> list[str]:
        """The products the unit's sum will write in the weights' places (its unit_sum cue's):
        each weight's backdrop is made wide enough for either."""
        later = next((c for c in self.ctx.plan.cues if c.kind == "unit_sum" and c.ids[:1] == cue.ids[:1]
                      and c.start >= cue.start), None)
        return [s.text for s in later.strings if s.role == "product"] if later is not None else []

    def _inputs(self, weights: list[str], values: list[Shown]) -> Anims:
        """The value of the unit each line comes from (``1.0000`` by ``x0``), at its circle: under
        it, else beside or over it, where it touches no circle and crosses no line, a character's
        width off the others (4 px apart, "1.00000" and "0.50000" read as "1.000000.50000": mlp
        9:16); all centred under their circles at the value size, else at a name's least size,
        else each where it finds room at the value size (a value off centre read as the next
        input's)."""
        net, t = self.diagram.geometry.net, self.theme
        firsts: dict[str, Shown] = {}
        for weight, value in zip(weights, values):
            firsts.setdefault(net.links[weight].src, value)
        tries: list[list[Mobject]] = []
        for size in (t.font_sizes.card_value, t.font_sizes.unit_name_least):
            placed: list[Mobject] = []
            for src, value in firsts.items():
                m, centred = self._input_placed(src, value.text, size, placed)
                placed.append(m)
                if not centred:
                    break
            else:
                break
            tries.append(placed)
        else:  # nowhere all under their circles: each where it finds room, at the value size
            placed = list(tries[0])
            for src, value in list(firsts.items())[len(placed):]:
                placed.append(self._input_placed(src, value.text, t.font_sizes.card_value, placed)[0])
        self.drawn.extend(placed)
        for value in firsts.values():
            self.ctx.record(value)
        return [FadeIn(m) for m in placed]

    def _input_placed(self, src: str, text: str, size: float, placed: list[Mobject]) -> tuple[Mobject, bool]:
        """``text``, the value of the unit ``src``, at font ``size`` where `_beside` finds it room, a
        character's width off the values ``placed``; and whether it stands clear there, centred
        under its circle."""
        t = self.theme
        m = tag(label(text, t.fonts.mono, size, t.colors.text), "value", id=src).set_z_index(Z_UNIT)
        at, met = self._beside(src, m, under=True, apart=m.width / max(1, len(text)), more=placed)
        m.move_to([*at, 0])
        return m, not met and abs(at[0] - self.diagram.geometry.places.centre[src][0]) <= 1e-9

    def _weight_rows(self, weights: list[str], texts: list[str], products: list[str], size: float, sign: str,
                     ghosts: bool, apart: bool = True) -> tuple[list[list[Mobject]], bool]:
        """Each weight's backdrop, ``sign`` (``×``, or none where room is short) and value at font
        ``size``, each on its line (`_spots`; off the outlines of units still to come unless not
        ``ghosts``: a square frame's lines converge in a band too low for four values); the
        backdrop as wide as the weight's row or its product's (``= 0.1875``), whichever is wider;
        and whether every one found a clear spot."""
        geo, t = self.diagram.geometry, self.theme
        rows: list[list[Mobject]] = []
        boxes: list[tuple[float, float]] = []
        for k, (weight, text) in enumerate(zip(weights, texts)):
            value = tag(label(text, t.fonts.mono, size, t.colour("weight")), "value", id=weight, meaning="weight")
            times = tag(label(sign, t.fonts.mono, size, t.colors.text_muted), "label", text=sign) if sign else VGroup()
            row = VGroup(times, value).arrange(buff=t.sizes.token_pad) if sign else VGroup(times, value)
            row.set_z_index(Z_UNIT)
            width = row.width
            if k < len(products):
                width = max(width, self._product_row(products[k], "", size, sign and "=").width)
            boxes.append((width + 2 * t.sizes.token_pad, row.height + 2 * t.sizes.token_pad))
            rows.append([row, times, value])
        ends = [(geo.places.centre[geo.net.links[w].src], geo.places.centre[geo.net.links[w].dst]) for w in weights]
        spots = self._spots(weights, ends, boxes, ghosts, apart)
        out = []
        for (row, times, value), box, at in zip(rows, boxes, spots or [self._middle(*e) for e in ends]):
            row.move_to([*at, 0])
            back = Rectangle(width=box[0], height=box[1], stroke_width=0).set_fill(t.colors.background, opacity=1.0)
            out.append([back.move_to([*at, 0]).set_z_index(Z_BACK), times, value])
        return out, spots is not None

    def _product_row(self, text: str, owner: str, size: float, sign: str) -> VGroup:
        """A product on its weight's line: ``= 0.1875`` (no sign where the weight had none)."""
        t = self.theme
        value = tag(label(text, t.fonts.mono, size, t.colors.text), "value", id=owner)
        if not sign:
            return VGroup(VGroup(), value).set_z_index(Z_UNIT)
        equals = tag(label(sign, t.fonts.mono, size, t.colors.text_muted), "label", text=sign)
        return VGroup(equals, value).arrange(buff=t.sizes.token_pad).set_z_index(Z_UNIT)

    @staticmethod
    def _middle(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
        return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2

    def _spots(self, weights: list[str], ends: list[tuple[tuple[float, float], tuple[float, float]]],
               boxes: list[tuple[float, float]], ghosts: bool = True,
               apart: bool = True) -> list[tuple[float, float]] | None:
        """A centre on each line (from its input to its unit) for a box of its size, where the box
        clears every circle, the layers' names and the other boxes, and no other drawn line
        crosses it (review 5: at 9:16 four values stacked over each other's lines could not be
        told apart; unless not ``apart``): each as near its input as the others allow (the line
        is the input's, times the weight), else beside the line, touching it; found by trying
        the lines in turn, nearest spots first; None when there is no such set (then the
        middles)."""
        r = self.diagram.geometry.places.radius
        taken, grow = self._taken(ghosts=ghosts), self._gap() / 2
        options: list[list[tuple[float, float]]] = []
        lines = self._segments()
        for weight, ((sx, sy), (dx, dy)), box in zip(weights, ends, boxes):
            others = [seg for w, seg in lines if w != weight] if apart else []
            n = ((dx - sx) ** 2 + (dy - sy) ** 2) ** 0.5 or 1.0
            steps = max(1, min(24, int((n - 2 * r) / 0.02)))
            line = [(sx + (dx - sx) * d / n, sy + (dy - sy) * d / n)
                    for d in (r + k * (n - 2 * r) / steps for k in range(steps + 1))]
            beside = [(x + side * (box[0] / 2 + grow), y) for side in (-1, 1) for x, y in line]  # touching it
            options.append([p for p in line + beside if not any(meets(rect_around(*p, box, grow), o) for o in taken)
                            and not any(crosses(rect_around(*p, box), a, b) for a, b in others)])

        budget = [5000]  # tries: a crowded frame gives up early and goes down a size

        def place(k: int, chosen: list[Rect]) -> list[tuple[float, float]] | None:
            if k == len(options):
                return []
            for p in options[k]:
                budget[0] -= 1
                if budget[0] < 0:
                    return None
                rect = rect_around(*p, boxes[k], grow)
                if any(meets(rect, o) for o in chosen):
                    continue
                rest = place(k + 1, chosen + [rect])
                if rest is not None:
                    return [p] + rest
            return None

        return place(0, [])

    # ----- the sum and the activation ---------------------------------------------------------
    @draws("unit_sum")
    def draw_unit_sum(self, cue: Cue, step: StepScratch) -> Anims:
        """Each weight's value turns into its product in its place (``× 0.3750`` to ``= 0.1875``:
        the input at its circle times the weight), and ``Σ = value`` comes beside the unit, where
        the activation's part will fit after it on the same row (one row fits between two layers
        at 16:9, where two did not): what the Σ adds up is on the lines as it is written."""
        value = next(s for s in cue.strings if s.role == "value")
        out = self._to_products(cue, step)
        row = self._row(f"Σ {self.theme.labels.name_value}", value.text, cue.ids[1])
        space = self._text("0", self.theme.colors.text).width
        room = VGroup(row.copy(), self._row("→ relu →", value.text, cue.ids[0])).arrange(buff=space)
        room.move_to([*self._beside(cue.ids[0], room)[0], 0])
        row.move_to(room[0])
        self.drawn.append(row)
        self.ctx.record(value)
        return out + [FadeIn(row)]

    def _to_products(self, cue: Cue, step: StepScratch) -> Anims:
        """The weights' texts out by half time (``step.going``: what the step brings comes
        after, so a weight and its product never share a frame), the products (ids[2:], in the
        weights' order) in their places, as plain numbers: results, about to be summed."""
        st = self.ctx.state.network
        products = [s for s in cue.strings if s.role == "product"]
        out: Anims = []
        for (x, y, size, sign, texts), owner, shown in zip(st.spots.values(), cue.ids[2:], products):
            for m in texts:
                if m in self.drawn:
                    self.drawn.remove(m)
                    going = FadeOut(m, rate_func=first_half)
                    step.going.append(going)
                    out.append(going)
            row = self._product_row(shown.text, owner, size, sign).move_to([x, y, 0])
            self.drawn.append(row)
            self.ctx.record(shown)
            out.append(FadeIn(row))
        st.spots.clear()
        return out

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
            row.move_to([*self._beside(cue.ids[0], row)[0], 0])
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

    def _beside(self, uid: str, block: Mobject, under: bool = False, apart: float = 0.0,
                more: list[Mobject] | None = None) -> tuple[tuple[float, float], int]:
        """The centre of ``block`` beside unit ``uid``: level with it on its right, then in the
        band over it (from its left edge, its middle, centred, to its right edge), under it, then
        level on its left (``under``: centred under it first, where no line leaves an input):
        the first inside the network's region that touches no circle, no layer's name and
        nothing written (nor, by ``apart`` at least, ``more``), and that no drawn line crosses;
        else the one inside the region that meets the fewest. With how many it meets there."""
        p = self.diagram.geometry.places
        x, y = p.centre[uid]
        w, h = block.width, block.height
        rim = p.radius * (1 + self.theme.proportions.unit_ring)
        g = self._gap() + rim
        up, down = y + g + h / 2, y - g - h / 2
        spots = [(x + g + w / 2, y)] + [(sx, sy) for sy in (up, down)
                                       for sx in (x - rim + w / 2, x + w / 2, x, x + rim - w / 2)]
        spots.append((x - g - w / 2, y))
        if under:
            spots.insert(0, (x, down))
        within, taken, lines = self._within(), self._taken(), self._lines()
        near = [bounds(m) for m in more or []]

        def cost(at: tuple[float, float]) -> float:
            rect = rect_around(at[0], at[1], (w, h), self._gap() / 2)
            if not inside(rect_around(at[0], at[1], (w, h)), within):
                return float("inf")
            wide = rect_around(at[0], at[1], (w, h), max(self._gap() / 2, apart))
            return (sum(meets(rect, o) for o in taken) + sum(meets(wide, o) for o in near)
                    + sum(crosses(rect, a, b) for a, b in lines))

        best = min(spots, key=cost)
        met = cost(best)
        return best, int(met) if met != float("inf") else len(taken) + len(lines) + 1

    # ----- back to the whole network ----------------------------------------------------------
    @draws("unit_done")
    def draw_unit_done(self, cue: Cue, step: StepScratch) -> Anims:
        """Everything this view wrote goes: the lit lines, the weights, the sum and the output."""
        gone = list(self.drawn)
        self.drawn.clear()
        self.ctx.state.network.spots.clear()
        return [FadeOut(m) for m in gone]

