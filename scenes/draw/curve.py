"""Curve cues of the clip scene: a value per pass of a loop (the loss), on axes drawn as lines.

Why plain lines and labels: Manim's Axes label their ticks through LaTeX, which the project does
not depend on; a curve of a few passes needs only two axes, a point and a label per pass. The
panel covers the graph region while the curve is up, and goes when a cue of another picture
comes. A view of ``ClipScene``, owning ``state.curve``.
"""

from __future__ import annotations

from manim import Create, Dot, FadeIn, FadeOut, Line, RoundedRectangle, VGroup

from engine.records import Tensor as TensorEvent

from scenes.draw.collisions import PANEL
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.crossfade import first_half, second_half
from scenes.draw.drawers import draws
from scenes.draw.record import tag
from scenes.draw.state import CurveView
from scenes.draw.visuals import label
from scenes.draw.visuals.glyphs import shrink_to_fit
from scenes.storyboard.cues import Cue

Z_CURVE = 1.5  # over the graph's cards and tokens, under the caption
CURVE_KINDS = frozenset({"curve_axes", "curve_point"})


def graph_backdrop(ctx: DrawContext) -> RoundedRectangle:
    """An opaque backdrop over the graph region, for a picture drawn in its place (the curve,
    the network): it covers the cards that reach the region's edge too, short of the code pane
    beside it, and is tagged a panel, so what it covers is hidden for `render inspect` and the
    frame check too."""
    t = ctx.theme
    left, bottom, right, top = ctx.graph_region()
    m = ctx.spec.margin
    left, bottom, right, top = left - 0.8 * m, bottom - 0.8 * m, right + m, top + m
    bg = RoundedRectangle(width=right - left, height=top - bottom, corner_radius=t.radii.code, stroke_width=0,
                          fill_color=t.colors.background, fill_opacity=1.0)
    return tag(bg.move_to([(left + right) / 2, (top + bottom) / 2, 0]), PANEL)


class LossCurve(View):
    """Draws curve_axes and curve_point; ``give_way`` takes the panel away for another picture."""

    @property
    def curve(self) -> CurveView:
        return self.ctx.state.curve

    def give_way(self, kind: str) -> Anims:
        """Take the curve's panel away when a cue of another picture comes."""
        if self.curve.panel is None or kind in CURVE_KINDS:
            return []
        panel, self.curve.panel, self.curve.last = self.curve.panel, None, None
        return [FadeOut(panel)]

    def _curve_box(self) -> tuple[float, float, float, float]:
        """The axes' rectangle inside the graph region, padded for the labels."""
        left, bottom, right, top = self.ctx.graph_region()
        pad = self.theme.sizes.curve_pad
        return left + 1.6 * pad, bottom + pad, right - pad, top - pad

    @draws("curve_axes")
    def draw_axes(self, cue: Cue, step: StepScratch) -> Anims:
        t, c = self.theme, self.theme.colors
        out: Anims = []
        if self.curve.panel is not None:
            out.append(FadeOut(self.curve.panel))
        bg = graph_backdrop(self.ctx)
        x0, y0, x1, y1 = self._curve_box()
        values = [self._value(s) for s in cue.seqs]
        hi, lo = max(values + [0.0]), min(values + [0.0])
        self.curve.range = (lo, hi if hi > lo else lo + 1.0)
        self.curve.total = int(cue.text("total") or 1)
        self.curve.box = (x0, y0, x1, y1)
        base = self._curve_y(0.0)
        axes = VGroup(Line([x0, y0, 0], [x0, y1, 0]), Line([x0, base, 0], [x1, base, 0]))
        axes.set_stroke(c.edge, width=t.strokes.curve_axis)
        size = t.font_sizes.curve_label
        name = label(cue.text("name") or "", t.fonts.mono, size, c.text)
        name.next_to(axes[0].get_top(), [0, 1, 0], buff=t.sizes.curve_dot).align_to(axes[0], [-1, 0, 0])
        top_label = label(cue.text("top") or "", t.fonts.sans, size, c.text_muted)
        shrink_to_fit(top_label, 1.4 * t.sizes.curve_pad, y1 - y0)
        top_label.next_to([x0, self._curve_y(hi), 0], [-1, 0, 0], buff=t.sizes.curve_pad / 4)
        passes = label(t.labels.curve_passes, t.fonts.sans, size, c.text_muted)
        passes.next_to(axes[1].get_right(), [0, -1, 0], buff=t.sizes.curve_pad / 4).align_to(axes[1], [1, 0, 0])
        self.ctx.record_all(cue.strings)
        self.curve.panel = VGroup(bg, axes, name, top_label, passes).set_z_index(Z_CURVE)
        # the backdrop first, then what is drawn on it: while it fades in the cards under it
        # still show, and the axes' labels must not come in over them
        return out + [FadeIn(bg, rate_func=first_half), FadeIn(VGroup(axes, name, top_label, passes), rate_func=second_half)]

    def _value(self, seq: int) -> float:
        """The value of the loss tensor that log entry ``seq`` made (a curve's points are those)."""
        ev = self.ctx.events[seq]
        assert isinstance(ev, TensorEvent), ev
        return float(ev.value)

    def _curve_y(self, v: float) -> float:
        lo, hi = self.curve.range
        x0, y0, x1, y1 = self.curve.box
        return y0 + (v - lo) / (hi - lo) * (y1 - y0)

    @draws("curve_point")
    def draw_point(self, cue: Cue, step: StepScratch) -> Anims:
        if self.curve.panel is None:
            return []
        t, c = self.theme, self.theme.colors
        x0, y0, x1, y1 = self.curve.box
        k = int(cue.text("count") or len(self.curve.panel) - 4)
        x = x0 + (k - 0.5) / max(self.curve.total, 1) * (x1 - x0)
        y = self._curve_y(self._value(cue.seqs[0]))
        dot = Dot([x, y, 0], radius=t.sizes.curve_dot, color=c.loss)
        size = t.font_sizes.curve_label
        value = label(cue.text("value") or "", t.fonts.sans, size, c.text)
        shrink_to_fit(value, (x1 - x0) / max(self.curve.total, 1), y1 - y0)
        value.next_to(dot, [0, 1, 0], buff=t.sizes.curve_dot)
        if value.get_top()[1] > y1 + t.sizes.curve_pad:  # the highest point: its label goes beside it
            value.next_to(dot, [1, 0, 0], buff=t.sizes.curve_dot)
        tick = label(cue.text("count") or "", t.fonts.sans, size, c.text_muted)
        tick.next_to([x, self._curve_y(0.0), 0], [0, -1, 0], buff=t.sizes.curve_dot)
        parts = VGroup(dot, value, tick).set_z_index(Z_CURVE)
        out: Anims = [FadeIn(parts)]
        if self.curve.last is not None:
            line = Line(self.curve.last, [x, y, 0]).set_stroke(c.loss, width=t.strokes.curve_line).set_z_index(Z_CURVE)
            self.curve.panel.add(line)
            out.insert(0, Create(line))
        self.curve.panel.add(parts)
        self.curve.last = (x, y, 0)
        self.ctx.record_all(cue.strings)
        return out
