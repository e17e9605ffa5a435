"""A :class:`~.figures.Picture` drawn as SVG: cards, arrows, buckets and the visits' arithmetic,
in the theme's colours, as real ``<text>`` that a screen reader, find-in-page and a copy reach.

Why SVG from the layout: a frame of the clip is a 16:9 bitmap whose labels are 4-5 px on a phone;
the same layout drawn as vectors is crisp at any width, cropped to the graph, and its text is
sized for the page (:data:`TEXT_PX_AT_NATURAL` at its natural width, never under
:data:`MIN_TEXT_PX` in a phone's column, which :func:`min_text_px` computes).

A stepping figure (:func:`draw` with ``stepping``) holds every step's marks: each mark carries
``data-from`` (the step it comes at), each ring ``data-lit`` and each note ``data-at`` (the step
it belongs to), and ``gradreel.js`` toggles the class ``off`` on them. No inline style: colours,
sizes and opacities are SVG presentation attributes.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from html import escape

from scenes.layout.place import Box, Layout
from scenes.layout.routes import Route
from scenes.publish.figures import Picture
from scenes.publish.steps import VisitStep
from scenes.publish.svg_paths import SANS_ADVANCE, arrow, svg_num, svg_rect as _rect, svg_text
from scenes.publish.svg_unkept import draw_unkept, place_unkept
from scenes.theme import Theme

SVG_NS = "http://www.w3.org/2000/svg"

U = 100.0
"""User units per scene unit: coordinates come out as readable numbers."""

STROKE = 0.01
"""Scene units per unit of the theme's stroke widths (Manim's, about a hundredth of a unit)."""

MIN_TEXT_PX = 12
"""No text in a figure is smaller than this many CSS pixels in a phone's column."""

PHONE_COLUMN_PX = 358
"""A 390 px wide phone's column: the page's 1rem padding either side taken off."""

TEXT_PX_AT_NATURAL = 15
"""The figure's natural width is the one at which its smallest text is this many CSS pixels."""


@dataclass(frozen=True)
class Svg:
    """A drawn figure: its markup, its natural size in CSS px and its smallest font (user units)."""

    markup: str
    width: float
    height: float
    view_width: float
    least_font: float


def _em(theme: Theme, size: float, scale: float) -> float:
    """A theme font size (Manim's) as an em in user units at the layout's scale."""
    return size * theme.layout.glyph_height * scale * U / 1.2


def _xy(x: float, y: float) -> tuple[float, float]:
    return (x * U, -y * U)


def _fit(text: str, size: float, width: float, least: float) -> float:
    """``size``, smaller if ``text`` would be wider than ``width``, never under ``least``."""
    need = len(text) * size * SANS_ADVANCE
    return max(least, min(size, size * width / need)) if need > 0 else size


def _bounds(lay: Layout, ids: set[str]) -> tuple[float, float, float, float]:
    boxes = [lay.boxes[i].bounds for i in ids if i in lay.boxes]
    pts = [p for r in lay.routes if r.src in ids and r.dst in ids for p in r.points]
    xs = [b[0] for b in boxes] + [b[2] for b in boxes] + [p[0] for p in pts]
    ys = [b[1] for b in boxes] + [b[3] for b in boxes] + [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _route(lay: Layout, a: str, b: str, k: int = 0) -> Route | None:
    """The ``k``-th edge between items ``a`` and ``b`` (``w * w`` has two), else the first."""
    found = [r for r in lay.routes if {r.src, r.dst} == {a, b}]
    return found[k] if k < len(found) else (found[0] if found else None)


def draw(pic: Picture, lay: Layout, theme: Theme, fig_id: str, title: str, desc: str,
         stepping: int | None = None) -> Svg:
    """``pic`` as an ``<svg>``; ``stepping``: the step shown first, for a stepping figure."""
    c, s = theme.colors, lay.scale
    shown = set(pic.cards) | {b for b in pic.buckets if b in lay.items and lay.items[b].attached_to in pic.cards}
    left, bottom, right, top = _bounds(lay, shown)
    # as wide as the figure's region, at least: room for the arithmetic under a narrow graph, and
    # the same width (so the same size of card) in every figure of a clip
    least_half = (lay.region[2] - lay.region[0]) / 2
    mid = (left + right) / 2
    left, right = min(left, mid - least_half), max(right, mid + least_half)
    pad = theme.spacing.item_gap * U
    x0, y0 = left * U - pad, -top * U - pad
    width = (right - left) * U + 2 * pad
    floor = MIN_TEXT_PX * width / PHONE_COLUMN_PX  # a wide graph's text is larger than its cards' share
    name_em, value_em = (max(floor, _em(theme, f, s)) for f in (theme.font_sizes.card_name, theme.font_sizes.card_value))
    sub_em = max(floor, _em(theme, theme.font_sizes.card_fn, s))
    note_em = max(floor, _em(theme, theme.font_sizes.card_value, max(s, 1.0)))
    least = min(note_em, sub_em, value_em)
    tip = theme.sizes.arrow_tip * max(s, theme.proportions.min_stroke_scale) * U
    placed: list[tuple[float, float, float, float]] = []  # the gradients' numbers, as _gradients places them
    grads = _gradients(pic, lay, theme, note_em, tip, stepping, placed)
    said = place_unkept(pic, lay, shown, theme, note_em, U, (left, bottom, right, top),
                        [((x - w) / U, -(y + h) / U, (x + w) / U, -(y - h) / U) for x, y, w, h in placed])
    for n in said:  # a note above or below the graph: the figure grows to hold it (never wider)
        bottom, top = min(bottom, n.centre[1] - n.size[1] / 2), max(top, n.centre[1] + n.size[1] / 2)
    y0 = -top * U - pad
    notes, note_h = _notes(pic.visits, note_em, width - 2 * pad, stepping, theme, x0 + pad, bottom)
    height = (top - bottom) * U + 2 * pad + note_h
    body = [_rect(x0 + width / 2, y0 + height / 2, width, height, theme.radii.card * U, c.background)]
    turned = _turned(pic, lay)
    for r in lay.routes:
        if r.src in shown and r.dst in shown and not pic.cut(r.src, r.dst):
            dim = r.src in pic.dimmed or r.dst in pic.dimmed or not r.needs_grad
            colour = c.dimmed if dim else c.edge
            pts = [_xy(*p) for p in r.points]
            if r.src.startswith("bucket:"):
                continue  # a bucket's route is the gradient's way into it: drawn with the fill
            edge = f' data-edge="{escape(r.src)}->{escape(r.dst)}"'  # as the clip tags its arrow
            drawn = arrow(pts, colour, theme.strokes.edge * STROKE * U, tip, edge)
            step = turned.get(id(r))
            if step is None:
                body.append(drawn)
            elif stepping is not None:  # until its gradient is sent, in a stepping figure
                body.append(f'<g class="mark edge{" off" if step <= stepping else ""}" data-until="{step}">{drawn}</g>')
    for item in sorted(shown):
        box = lay.boxes.get(item)
        if box is None:
            continue
        if item in pic.buckets:
            body.append(_bucket(box, pic, theme, note_em, least, stepping))
        else:
            body.append(_card(box, pic, lay, theme, (name_em, value_em, sub_em), least))
    body += grads
    body += [draw_unkept(n, note_em, theme, U, theme.strokes.bucket * STROKE * U) for n in said]
    body += _rings(pic, lay, theme, stepping)
    body += notes
    font_px = TEXT_PX_AT_NATURAL / least
    labelled = f"{fig_id}-title {fig_id}-desc"
    markup = (f'<svg xmlns="{SVG_NS}" class="figure" viewBox="{svg_num(x0)} {svg_num(y0)} {svg_num(width)} '
              f'{svg_num(height)}" width="{svg_num(width * font_px)}" height="{svg_num(height * font_px)}" role="img" '
              f'aria-labelledby="{labelled}"><title id="{fig_id}-title">{escape(title)}</title>'
              f'<desc id="{fig_id}-desc">{escape(desc)}</desc>' + "".join(body) + "</svg>")
    return Svg(markup, width * font_px, height * font_px, width, least)


def min_text_px(svg: Svg, column_px: float = PHONE_COLUMN_PX) -> float:
    """The smallest text's size in CSS px when the figure is drawn ``column_px`` wide (or its
    natural width, if narrower)."""
    return svg.least_font * min(svg.width, column_px) / svg.view_width


def _dim_attr(item: str, pic: Picture, theme: Theme) -> str:
    return f' opacity="{theme.opacity.kept}"' if item in pic.dimmed or item in pic.ghost else ""


def _card(box: Box, pic: Picture, lay: Layout, theme: Theme, ems: tuple[float, float, float], least: float) -> str:
    from scenes.draw.visuals.cards import kind_colour

    c, q = theme.colors, theme.proportions
    card = pic.cards[box.id]
    colour = kind_colour(box.kind, theme)
    x, y = _xy(box.x, box.y)
    w, h = box.w * U, box.h * U
    out = [f'<g class="card" data-item="{escape(box.id)}"{_dim_attr(box.id, pic, theme)}>',
           _rect(x, y, w, h, min(theme.radii.card * lay.scale * U, h / 3), c.card_fill, colour,
                 theme.strokes.card * STROKE * U * max(lay.scale, q.min_stroke_scale))]
    sub = card.grad_fn if not box.kind.startswith("leaf") and box.kind != "internal" else None
    name_em, value_em, sub_em = ems
    top_h = h * ((q.card_name_row + q.card_value_row) / (q.card_name_row + q.card_value_row + q.card_sub_row)
                 if sub else 1.0)
    row_y = y - h / 2 + top_h / 2
    inner = w * q.label_fill
    name, value = card.title, card.value or ""
    sep = theme.labels.name_value  # between name and value, as on the clip's cards: ``yh = 2/3``
    if len(f"{name}  {value}") * least * SANS_ADVANCE > w:  # the "=" stands in the gap (as on the clip's)
        value = ""  # wider than the card at the least size (a printed tensor): the clip leaves it out too
    if value:
        size = _fit(f"{name} {sep} {value}", value_em, inner, least)
        gap = size * SANS_ADVANCE
        nw, sw, vw = (len(t) * size * SANS_ADVANCE for t in (name, sep, value))
        start = x - (nw + gap + sw + gap + vw) / 2
        out.append(svg_text(start, row_y, name, size, colour, theme.fonts.sans, "start", ' font-weight="bold"'))
        out.append(svg_text(start + nw + gap, row_y, sep, size, c.text_muted, theme.fonts.mono, "start"))
        out.append(svg_text(start + nw + gap + sw + gap, row_y, value, size, c.text, theme.fonts.mono, "start"))
    else:
        out.append(svg_text(x, row_y, name, _fit(name, name_em, inner, least), colour, theme.fonts.sans,
                         extra=' font-weight="bold"'))
    if sub:
        sub_y = y - h / 2 + top_h + (h - top_h) / 2 - h * 0.04
        out.append(svg_text(x, sub_y, sub, _fit(sub, sub_em, inner, least), c.text_muted, theme.fonts.sans))
    return "".join(out) + "</g>"


def _bucket(box: Box, pic: Picture, theme: Theme, em: float, least: float, stepping: int | None) -> str:
    c, q = theme.colors, theme.proportions
    x, y = _xy(box.x, box.y)
    w, h = box.w * U, box.h * U
    out = [f'<g class="bucket" data-item="{escape(box.id)}">',
           _rect(x, y, w, h, theme.radii.bucket * U, c.card_fill, c.bucket, theme.strokes.bucket * STROKE * U)]
    empty = ""  # .grad is None: an empty bucket, no word in it, as the clip draws it (docs/visual-grammar.md)
    fill = pic.fills.get(box.id)
    if fill is None:
        return "".join(out) + empty + "</g>"
    iw, ih = w * q.bucket_inner_width, h * q.bucket_inner_height

    def liquid(level: float) -> str:
        """The liquid up to ``level`` of the inside, from its floor (none at 0)."""
        lh = ih * min(max(level, 0.0), 1.0)
        return _rect(x, y + (ih - lh) / 2, iw, lh, min(theme.radii.bucket * U, lh / 2), c.bucket_fill) if lh > 0 else ""

    if stepping is not None:  # until its step, what it held before (empty if None); the new fill from it
        held = fill.before if fill.before not in (None, "None") else None
        before = empty if held is None else liquid(fill.held) + svg_text(
            x, y, held, _fit(held, em, w * q.bucket_label_width, least), c.text, theme.fonts.mono)
        out.append(f'<g class="mark{" off" if fill.step <= stepping else ""}" data-until="{fill.step}">{before}</g>')
    text = svg_text(x, y, fill.text, _fit(fill.text, em, w * q.bucket_label_width, least), c.text, theme.fonts.mono)
    out.append(f"<g{_step_attrs(fill.step, stepping)}>{liquid(fill.level)}{text}</g>")
    return "".join(out) + "</g>"


def _turned(pic: Picture, lay: Layout) -> dict[int, int]:
    """The forward edges a gradient was sent back along (by ``id`` of their route), with the step
    that sent it: as in the clip, the gradient's arrow takes the edge's place from then on,
    instead of a second arrow beside it."""
    out: dict[int, int] = {}
    for sent in pic.sent.values():
        r = _route(lay, sent.src, sent.dst, sent.path)
        if r is not None:
            out[id(r)] = min(sent.step, out.get(id(r), sent.step))
    return out


def _gradients(pic: Picture, lay: Layout, theme: Theme, em: float, tip: float, stepping: int | None,
               placed: list[tuple[float, float, float, float]]) -> list[str]:
    """Each gradient sent, as an arrow down its edge with its number, and each fill's arrow; each
    number's box (centre, half sizes) goes into ``placed``."""
    c = theme.colors
    width = theme.strokes.edge_backward * STROKE * U
    ways = [(sent.src, sent.dst, sent.text, sent.step, sent.path) for sent in pic.sent.values()]
    ways += [(lay.items[b].attached_to or "", b, "", f.step, 0) for b, f in pic.fills.items()
             if b in lay.items and lay.items[b].attached_to in pic.cards]
    out = []
    cards = [(x, y, b.w * U / 2, b.h * U / 2) for item, b in lay.boxes.items() if item in pic.cards
             for x, y in [_xy(b.x, b.y)]]
    for src, dst, text, step, path in ways:
        if src not in pic.cards and src not in pic.buckets or dst not in pic.cards and dst not in pic.buckets:
            continue
        r = _route(lay, src, dst, path)
        if r is None:
            continue
        pts = [_xy(*p) for p in r.points]
        if r.src != src:
            pts.reverse()
        extra = _step_attrs(step, stepping)
        label = ""
        if text:
            mx, my = _label_spot(pts, text, em, placed, cards)
            label = svg_text(mx, my, text, em, c.grad, theme.fonts.mono, extra=f' font-weight="bold" stroke="{c.background}" '
                          f'stroke-width="{svg_num(em * 0.35)}" paint-order="stroke"')
        out.append(f"<g{extra}>{arrow(pts, c.grad, width, tip)}{label}</g>")
    return out


LABEL_SPOTS = (None, 0.5, 0.35, 0.65, 0.25, 0.75, 0.15, 0.85)
"""Where a gradient's number may go: beside the middle of its arrow's last segment (None), else
beside the point that far along the whole arrow: the first spot that overlaps no other number and
no card, else the one that overlaps them least (where several arrows meet at one node, their
numbers would sit on each other)."""


def _label_spot(pts: list[tuple[float, float]], text: str, em: float,
                placed: list[tuple[float, float, float, float]],
                cards: list[tuple[float, float, float, float]]) -> tuple[float, float]:
    """The centre of a gradient's number beside its arrow, added to ``placed``."""
    half_w, half_h = len(text) * SANS_ADVANCE * em / 2 + em * 0.2, em * 0.6
    seg_len = [math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:])]
    total = sum(seg_len) or 1.0

    def at(where: float | None) -> tuple[float, float]:
        k, t = len(pts) - 2, 0.5
        if where is not None:
            run = where * total
            for k, n in enumerate(seg_len):
                if run <= n or k == len(seg_len) - 1:
                    t = run / n if n else 0.5
                    break
                run -= n
        (ax, ay), (bx, by) = pts[k], pts[k + 1]
        d = math.hypot(bx - ax, by - ay) or 1.0
        side = em * (0.4 + 0.6 * len(text) * SANS_ADVANCE * abs(by - ay) / d)  # beside the arrow, not on it
        return ax + (bx - ax) * t - (by - ay) / d * side, ay + (by - ay) * t + (bx - ax) / d * side

    def overlap(p: tuple[float, float]) -> float:
        return sum(max(0.0, half_w + ow - abs(p[0] - ox)) * max(0.0, half_h + oh - abs(p[1] - oy))
                   for ox, oy, ow, oh in placed + cards)

    x, y = min((at(where) for where in LABEL_SPOTS), key=overlap)  # the first of the least overlapping
    placed.append((x, y, half_w, half_h))
    return x, y


def _step_attrs(step: int, stepping: int | None) -> str:
    if stepping is None:
        return ""
    return f' class="mark{" off" if step > stepping else ""}" data-from="{step}"'


def _rings(pic: Picture, lay: Layout, theme: Theme, stepping: int | None) -> list[str]:
    """The wavefront's ring around the lit cards; in a stepping figure, one per step."""
    c = theme.colors
    pad = (theme.sizes.wavefront_pad + theme.spacing.edge_clearance) * U
    width = theme.strokes.wavefront * STROKE * U
    rings: list[tuple[str, int | None]]
    if stepping is None:
        rings = [(item, None) for item in sorted(pic.lit)]
    else:
        rings = [(lay.card_of(_item(lay, v)), v.index) for v in pic.visits]
    out = []
    for item, step in rings:
        box = lay.boxes.get(item)
        if box is None or item not in pic.cards:
            continue
        x, y = _xy(box.x, box.y)
        w, h = box.w * U + 2 * pad, box.h * U + 2 * pad
        cls = "" if step is None else f' class="ring{"" if step == stepping else " off"}" data-lit="{step}"'
        out.append(_rect(x, y, w, h, theme.radii.card * U * 1.5, "none", c.wavefront, width, cls))
    return out


def wrapped_note(line: str, per: int) -> list[str]:
    """A line of a visit's arithmetic in rows of at most ``per`` characters: after its last
    ``": "`` where that makes two rows (the node and what arrived keep together, not ``arrived``
    alone on a row), else at spaces.

    >>> wrapped_note("SubBackward0 at yh - y: 1/2 arrived", 30)
    ['SubBackward0 at yh - y:', '1/2 arrived']
    >>> wrapped_note("w gets 4 × 2 = 8", 30)
    ['w gets 4 × 2 = 8']
    """
    if len(line) <= per:
        return [line]
    head, sep, tail = line.rpartition(": ")
    if sep and len(head) + 1 <= per and len(tail) <= per:
        return [head + ":", tail]
    return textwrap.wrap(line, per)


def _item(lay: Layout, v: VisitStep) -> str:
    """The item a visit lights: its tensor's card, else its internal node."""
    return v.tensor if v.tensor is not None and v.tensor in lay.boxes else v.node


def _notes(visits: list[VisitStep], em: float, width: float, stepping: int | None, theme: Theme,
           x: float, bottom: float) -> tuple[list[str], float]:
    """The visits' arithmetic, written under the graph (the node and what arrived in the text's
    colour, the rule's words muted, the products in the gradient's); in a stepping figure one
    group per step, all but the shown one off. Returns the elements and the height they take."""
    c = theme.colors
    pitch = em * 1.35
    per = max(1, int(width / (em * SANS_ADVANCE)))

    def rows(v: VisitStep) -> list[tuple[str, str]]:
        coloured = [(c.text if k == 0 else c.text_muted if line == v.words else c.grad, line)
                    for k, line in enumerate(v.lines)]
        return [(colour, part) for colour, line in coloured for part in wrapped_note(line, per)]

    groups: list[tuple[int | None, list[tuple[str, str]]]] = []
    if stepping is None:
        groups.append((None, [r for v in visits for r in rows(v)]))
    else:
        groups += [(v.index, rows(v)) for v in visits]
    most = max((len(lines) for _, lines in groups), default=0)
    if most == 0:
        return [], 0.0
    top = -bottom * U + theme.spacing.item_gap * U + pitch / 2
    out = []
    for step, lines in groups:
        cls = "" if step is None else f' class="note{"" if step == stepping else " off"}" data-at="{step}"'
        texts = [svg_text(x, top + k * pitch, line, em, colour, theme.fonts.sans, "start")
                 for k, (colour, line) in enumerate(lines)]
        out.append(f"<g{cls}>{''.join(texts)}</g>")
    return out, most * pitch + theme.spacing.item_gap * U
