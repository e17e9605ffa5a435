"""The figure of a ``network*`` beat: the program's MLP as the clip ends the beat on it, as SVG.

Why from the plan's cues: the clip draws the network that :mod:`scenes.storyboard.network` reads
from the log, one cue at a time (a unit, a weight, the reverse sweep lighting weights, a forward
pass reaching the loss, the counters); replaying the cues of beats 0..k gives what beat k ends
on, with the numbers the clip shows. The drawing is laid out for a page: layers stacked from the
input at the bottom to the loss on top (the clip's orientation), their names in a column at the
left, the layers far enough apart that no weight's line passes through a circle, and text no
smaller than :data:`~.svg.MIN_TEXT_PX` in a phone's column. Presentation attributes, no style.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from typing import Any

from scenes.publish.figures import figure_region
from scenes.publish.svg import MIN_TEXT_PX, PHONE_COLUMN_PX, SANS_ADVANCE, SVG_NS, STROKE, TEXT_PX_AT_NATURAL, U, \
    Svg, svg_num, svg_text
from scenes.layout.netplace import through_units
from scenes.storyboard.network import Network, read_network
from scenes.theme import Theme

FIRST, LATEST = 0, 1  # forward mode's readouts: the first pass's derivative, and the latest one's


@dataclass
class NetPicture:
    """The network at the end of a beat: the units drawn (name, value, target), the weights
    drawn, what the reverse sweep lit (``sweep``: units and weights; ``filled``: weights whose
    ``.grad`` it wrote), what the latest forward pass reached (``trace``) and the weights whose
    pass is done, and the counters' words (each None until its cue)."""

    units: dict[str, tuple[str, str | None, str | None]] = field(default_factory=dict)
    links: list[str] = field(default_factory=list)
    sweep: set[str] = field(default_factory=set)
    filled: set[str] = field(default_factory=set)
    trace: set[str] = field(default_factory=set)
    done: list[str] = field(default_factory=list)
    reverse: str | None = None  # the backward call's count
    reached: tuple[str, str] | None = None  # weights reached / of
    forward: tuple[str, str] | None = None  # pass k / N
    readouts: dict[int, tuple[str, str]] = field(default_factory=dict)  # FIRST/LATEST -> (weight, derivative)
    loss: str | None = None  # the sweep's root, by name

    def copy(self) -> NetPicture:
        return NetPicture(dict(self.units), list(self.links), set(self.sweep), set(self.filled), set(self.trace),
                          list(self.done), self.reverse, self.reached, self.forward, dict(self.readouts), self.loss)


def net_pictures(index: Any, p: Any, views: list[str]) -> tuple[Network, list[NetPicture | None]]:
    """The network and, per beat, the picture it ends on (None: the beat's view is not the network)."""
    net = read_network(index.events)
    pic, out = NetPicture(), []
    for beat in p.beats:
        for cue in (c for c in p.cues if c.beat == beat.index):
            _apply(pic, cue, net)
        out.append(pic.copy() if views[beat.index] == "network" and pic.units else None)
    return net, out


def _apply(pic: NetPicture, cue: Any, net: Network) -> None:
    """One cue's change, as :mod:`scenes.draw.network` draws it."""
    kind, ids = cue.kind, cue.ids
    if kind == "unit_appear" and ids and ids[0] in net.units:
        names = [s.text for s in cue.strings if s.role == "target_name"]
        values = [s.text for s in cue.strings if s.role == "target"]
        target = "   ".join(f"{n} = {v}" for n, v in zip(names, values)) or None
        pic.units[ids[0]] = (cue.text("name") or net.units[ids[0]].name, cue.text("value"), target)
    elif kind == "link_appear" and ids and ids[0] in net.links and ids[0] not in pic.links:
        pic.links.append(ids[0])
    elif kind == "pass_count" and cue.text("total") is None:
        pic.reverse, pic.reached, pic.sweep, pic.filled = cue.text("count"), None, set(), set()
        pic.loss = net.units[ids[0]].name if ids and ids[0] in net.units else None
    elif kind == "pass_count":
        pic.forward = (cue.text("count") or "", cue.text("total") or "")
        pic.sweep, pic.filled, pic.trace = set(), set(), set()  # a new pass clears the last one's marks
    elif kind == "sweep_step" and ids:
        pic.sweep.add(ids[0])
    elif kind == "link_fill" and ids:
        pic.filled.add(ids[0])
    elif kind == "reach_count":
        pic.reached = (cue.text("reached") or "", cue.text("total") or "")
    elif kind == "tangent_sweep":
        pic.trace |= set(ids)
    elif kind == "jvp_fill" and ids:
        if ids[0] not in pic.done:
            pic.done.append(ids[0])
        if cue.text("name") is None:  # a rushed pass writes no readout, as in the clip
            pic.readouts.pop(LATEST, None)
        else:
            pic.readouts[FIRST if FIRST not in pic.readouts else LATEST] = (cue.text("name") or "", cue.text("value") or "")


def describe_net(pic: NetPicture, net: Network, theme: Theme) -> str:
    """What the figure shows, in sentences: the layers and their units, the weights, what the
    sweep reached and what the forward passes found, with the clip's numbers."""
    names = net.layer_names(theme.labels)
    layers = []
    for depth, layer in enumerate(net.layers):
        shown = [pic.units[u] for u in layer if u in pic.units]
        if not shown:
            continue
        units = ", ".join(f"{n} = {v}" if v else n for n, v, _ in shown)
        targets = "; ".join(t for _, _, t in shown if t)
        layers.append(f"{names[depth]} ({len(shown)} unit{'s' if len(shown) != 1 else ''}): {units}"
                      + (f", against the target {targets}" if targets else ""))
    out = ["Layers from the bottom up: " + "; ".join(layers) + "."]
    if pic.links:
        out.append(f"{len(pic.links)} weights, each a line joining a unit to one of the next layer.")
    if pic.reverse is not None:
        out.append(f"{_capital(theme.labels.reverse_count)} {pic.reverse}.")
        if pic.reached:
            every = " down through every layer" if pic.reached[0] == pic.reached[1] else ""
            out.append(f"One backward sweep from {pic.loss or 'the loss'}{every} has reached {pic.reached[0]} of "
                       f"the {pic.reached[1]} weights" + (", each weight's line lit." if pic.sweep and every else "."))
    if pic.forward is not None:
        count, total = pic.forward
        out.append(f"{_capital(theme.labels.forward_count)} {count} / {total}: each pass pushes a derivative from "
                   f"one weight up to the loss; {len(pic.done)} of the {len(net.links)} weights done so far.")
        words = {FIRST: "first pass", LATEST: "latest pass"}
        out += [f"The {words[k]} gives {n} {v}." for k, (n, v) in sorted(pic.readouts.items())]
        if pic.trace and pic.readouts:
            seed = pic.readouts[max(pic.readouts)][0]
            out.append(f"Lit: the latest pass's way from {seed} up to {_top_name(pic, net)}.")
    return " ".join(out)


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def _top_name(pic: NetPicture, net: Network) -> str:
    """The name of the unit at the top (the loss), as drawn."""
    top = net.layers[-1] if net.layers else []
    return pic.units[top[0]][0] if top and top[0] in pic.units else "the loss"


@dataclass(frozen=True)
class _Geo:
    """Where things go: each unit's centre, the circles' radius, the ems, the view's box."""

    centre: dict[str, tuple[float, float]]
    radius: float
    em: float
    counter_em: float
    label_x: float
    x0: float
    width: float
    bottom: float

    def top(self, units: list[str], head: float) -> float:
        """The figure's top when ``units`` are drawn: ``head`` high of counter rows over the
        highest of them (a figure of the first layers leaves out the room of the layers still
        to come)."""
        head += self.label_x - self.x0 if head else 0.0
        return min(self.centre[u][1] for u in units) - self.radius - self.em - head


def _width(text: str, em: float) -> float:
    return len(text) * em * SANS_ADVANCE


def _frame(theme: Theme) -> tuple[float, float, float, float]:
    """The view's width and padding, the units' em and the counters' em: the theme's sizes, or
    larger where a phone's column would draw them under :data:`~.svg.MIN_TEXT_PX`."""
    left, _, right, _ = figure_region(theme)
    pad = theme.spacing.item_gap * U
    width = (right - left) * U + 2 * pad
    floor = MIN_TEXT_PX * width / PHONE_COLUMN_PX
    g = theme.layout.glyph_height * U / 1.2
    return width, pad, max(floor, theme.font_sizes.unit_name * g), max(floor, theme.font_sizes.counter * g)


def _geometry(net: Network, theme: Theme) -> _Geo:
    """The layout of the whole network (the same in every figure of the clip, so they compare)."""
    left, _, right, _ = figure_region(theme)
    width, pad, em, counter_em = _frame(theme)
    names = net.layer_names(theme.labels)
    column = max(_width(n, em) for n in names) + pad
    x_left, x_right = left * U + column, right * U
    widest = max(len(l) for l in net.layers)
    pitch = (x_right - x_left) / widest
    q = theme.proportions
    longest = max(_width(u.name, em) for u in net.units.values())
    radius = min(q.unit_cross * pitch, max(theme.sizes.unit_radius * U, longest / (2 * q.unit_label)))
    ring = radius * (1 + q.unit_ring) + theme.strokes.wavefront * STROKE * U
    gap = 2 * radius + theme.spacing.layer_gap_min * U
    top = -(figure_region(theme)[3] * U) - pad
    while True:
        centre = {}
        for depth, layer in enumerate(net.layers):
            y = top + radius + em + (len(net.layers) - 1 - depth) * gap
            for j, uid in enumerate(layer):
                centre[uid] = ((x_left + x_right) / 2 + (j + 0.5 - len(layer) / 2) * pitch, y)
        if not through_units(centre, net.lines(), ring) or gap > 20 * radius:
            break
        gap *= 1.08
    bottom = max(y for _, y in centre.values()) + radius + em
    return _Geo(centre, radius, em, counter_em, left * U, left * U - pad, width, bottom + pad)


def _line(a: tuple[float, float], b: tuple[float, float], r: float, colour: str, width: float,
          cls: str) -> str:
    """A weight's line between two circles, stopping at their rims."""
    (x1, y1), (x2, y2) = a, b
    d = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    return (f'<line x1="{svg_num(x1 + ux * r)}" y1="{svg_num(y1 + uy * r)}" x2="{svg_num(x2 - ux * r)}" '
            f'y2="{svg_num(y2 - uy * r)}" class="{cls}" stroke="{colour}" stroke-width="{svg_num(width)}" '
            f'stroke-linecap="round"/>')


@dataclass(frozen=True)
class _Row:
    """A counter row over the network: its words, their colour, mono or not, and the count
    drawn large after them (reverse mode's 1 against forward mode's k / 36, as the clip's tallies)."""

    text: str
    colour: str
    mono: bool = False
    count: str = ""


def _counter_rows(pic: NetPicture, theme: Theme) -> list[_Row]:
    """The counters above the network, as the clip's tallies show them: each mode's words and
    its count, reverse mode's weights reached, forward mode's first and latest derivatives."""
    c, w = theme.colors, theme.labels
    rows: list[_Row] = []
    if pic.reverse is not None:
        rows.append(_Row(w.reverse_count, c.grad, count=pic.reverse))
        if pic.reached:
            rows.append(_Row(f"{w.reached} {pic.reached[0]} / {pic.reached[1]}", c.grad))
    if pic.forward is not None:
        rows.append(_Row(w.forward_count, theme.colour("forward_mode"), count=f"{pic.forward[0]} / {pic.forward[1]}"))
    rows += [_Row(f"{n}  {v}", c.text, True) for _, (n, v) in sorted(pic.readouts.items())]
    return rows


def _pitch(row: _Row, em: float, theme: Theme) -> float:
    """A row's height: a count's row as much taller as the count's font is."""
    return 1.5 * em * (theme.font_sizes.tally / theme.font_sizes.counter if row.count else 1.0)


def draw_net(pic: NetPicture, net: Network, theme: Theme, fig_id: str, title: str, desc: str) -> Svg:
    """``pic`` as an ``<svg>``, its counters at its top."""
    c, t = theme.colors, theme
    geo = _geometry(net, theme)
    rows_drawn = _counter_rows(pic, theme)
    pitches = [_pitch(row, geo.counter_em, theme) for row in rows_drawn]
    r, em = geo.radius, geo.em
    link_w = t.strokes.link * STROKE * U
    lit_w = link_w * 2
    top = geo.top(list(pic.units), sum(pitches))
    height = geo.bottom - top
    body = [f'<rect x="{svg_num(geo.x0)}" y="{svg_num(top)}" width="{svg_num(geo.width)}" height="{svg_num(height)}" '
            f'rx="{svg_num(t.radii.card * U)}" fill="{c.background}"/>']
    layers = net.layers
    plain = [(a, b) for a, b in net.plain() if a in pic.units and b in pic.units]
    body += [_line(geo.centre[a], geo.centre[b], r, c.edge, link_w, "link") for a, b in plain]
    marks: list[tuple[set[str] | list[str], str, str]] = [
        (pic.sweep, c.grad, "swept"), (pic.filled, c.bucket, "filled"),
        (pic.trace, t.colour("forward_mode"), "traced"), (pic.done, t.colour("forward_mode"), "done")]
    for w in pic.links:
        link = net.links[w]
        colour, width, cls = c.edge, link_w, "link"
        for owners, col, name in marks:
            if w in owners:
                colour, width, cls = col, lit_w, f"link {name}"
        body.append(_line(geo.centre[link.src], geo.centre[link.dst], r, colour, width, cls))
    ring_r = r * (1 + t.proportions.unit_ring)
    names = net.layer_names(theme.labels)
    for depth, layer in enumerate(layers):
        shown = [u for u in layer if u in pic.units]
        if not shown:
            continue
        y = geo.centre[shown[0]][1]
        body.append(svg_text(geo.label_x, y, names[depth], em, c.text_muted, t.fonts.sans, "start"))
        for u in shown:  # by what the unit is (`Network.meaning`): only the loss in the loss's colour
            body.append(_unit(pic, u, geo, t.colour(net.meaning(u)), ring_r, theme, layer))
    y = top + (geo.label_x - geo.x0)
    for row, pitch in zip(rows_drawn, pitches):
        mid = y + pitch / (2 if row.count else 3)  # a count's row centred; a row of words half an em down, as before
        body.append(svg_text(geo.label_x, mid, row.text, geo.counter_em, row.colour,
                             t.fonts.mono if row.mono else t.fonts.sans, "start"))
        if row.count:
            x = geo.label_x + _width(row.text, geo.counter_em) + geo.counter_em / 2
            body.append(svg_text(x, mid, row.count, pitch / 1.5, row.colour, t.fonts.sans, "start"))
        y += pitch
    font_px = TEXT_PX_AT_NATURAL / em
    markup = (f'<svg xmlns="{SVG_NS}" class="figure network" viewBox="{svg_num(geo.x0)} {svg_num(top)} '
              f'{svg_num(geo.width)} {svg_num(height)}" width="{svg_num(geo.width * font_px)}" '
              f'height="{svg_num(height * font_px)}" role="img" aria-labelledby="{fig_id}-title {fig_id}-desc">'
              f'<title id="{fig_id}-title">{escape(title)}</title><desc id="{fig_id}-desc">{escape(desc)}</desc>'
              + "".join(body) + "</svg>")
    return Svg(markup, geo.width * font_px, height * font_px, geo.width, em)


def _unit(pic: NetPicture, u: str, geo: _Geo, colour: str, ring_r: float, theme: Theme, layer: list[str]) -> str:
    """A unit's circle with its name inside, its ring when a sweep or pass lit it, and its value
    at its right (the output, the loss) and its target at its left."""
    c, t = theme.colors, theme
    (x, y), r, em = geo.centre[u], geo.radius, geo.em
    name, value, target = pic.units[u]
    out = [f'<g class="unit" data-unit="{escape(u)}">']
    for owners, col in ((pic.sweep, c.grad), (pic.trace, t.colour("forward_mode"))):
        if u in owners:
            out.append(f'<circle cx="{svg_num(x)}" cy="{svg_num(y)}" r="{svg_num(ring_r)}" class="ring" fill="none" '
                       f'stroke="{col}" stroke-width="{svg_num(t.strokes.wavefront * STROKE * U)}"/>')
            break
    out.append(f'<circle cx="{svg_num(x)}" cy="{svg_num(y)}" r="{svg_num(r)}" fill="{c.card_fill}" stroke="{colour}" '
               f'stroke-width="{svg_num(t.strokes.card * STROKE * U)}"/>')
    out.append(svg_text(x, y, name, em, c.text, t.fonts.mono))
    gap = t.sizes.token_pad * 2 * U + (ring_r - r)
    if value and len(layer) == 1:
        out.append(svg_text(x + ring_r + gap, y, value, em, c.text, t.fonts.mono, "start"))
    if target and len(layer) == 1:
        out.append(svg_text(x - ring_r - gap, y, target, em, c.text_muted, t.fonts.mono, "end"))
    return "".join(out) + "</g>"


def network_figures(index: Any, p: Any, views: list[str], headings: list[str], theme: Theme
                    ) -> list[tuple[str, str] | None]:
    """Each beat's network figure as (markup, description), None where the beat shows no network."""
    net, pics = net_pictures(index, p, views)
    if not any(pics):
        return [None] * len(pics)
    out: list[tuple[str, str] | None] = []
    for k, pic in enumerate(pics):
        if pic is None:
            out.append(None)
            continue
        desc = describe_net(pic, net, theme)
        out.append((draw_net(pic, net, theme, f"fig-{k + 1}", f"The network: {headings[k]}", desc).markup, desc))
    return out
