"""Where a figure writes a ``.grad`` that is None: ``v.grad = None`` beside v's empty bucket, and
a result's ``yh.grad = None`` (after a small empty bucket, yh having none of its own) beside its
card, as the clip places them.

Why its own module: the clip places these words with one search over the layout
(`scenes.layout.note_spots.form_spot`: the first of a note's forms with a spot that reads as
its card's or bucket's, else the last where there is room), in the same forms and order as
`scenes.draw.bucket_notes.BucketNotes.none_words` (two lines, then one row; a third of a sum's gap off
the bucket) and `scenes.draw.unkept.UnkeptGrads` (one row, then bucket over words, then two
lines). The figure asks the same search with its own text sizes (the page's, not the frame's),
so the words sit beside what they name instead of in a list under the graph; `draw_unkept`
writes them where they were placed.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace as _replace
from html import escape

from scenes.layout.compact import floored
from scenes.layout.label_sides import LABEL_REACH
from scenes.layout.note_spots import NONE_WORDS_GAP, form_spot
from scenes.layout.place import Layout, Point
from scenes.publish.figures import Picture
from scenes.publish.svg_paths import SANS_ADVANCE, svg_rect, svg_text
from scenes.theme import Rect, Theme

PITCH = 1.35
"""A line's height per em, as the figure's notes are set."""
BUCKET_W, BUCKET_H, BUCKET_GAP = 1.6, 0.9, 0.5
"""The small empty bucket before a result's words, and its gap to them, per em."""


@dataclass(frozen=True)
class Unkept:
    """One ``.grad`` told None as the figure writes it: its lines, whether a small empty bucket
    comes first (a result's: beside the words, or over them when ``stacked``), and its centre
    and size in scene units."""

    tensor: str
    lines: tuple[str, ...]
    bucket: bool
    stacked: bool
    centre: Point
    size: Point


def _size(lines: tuple[str, ...], bucket: bool, stacked: bool, em: float, u: float) -> Point:
    """The note's width and height in scene units (``u`` user units a scene unit)."""
    words = max(len(t) for t in lines) * SANS_ADVANCE * em
    h = len(lines) * PITCH * em
    if bucket and stacked:
        return max(words, BUCKET_W * em) / u, (h + BUCKET_H * em + BUCKET_GAP * em) / u
    if bucket:
        return (words + (BUCKET_W + BUCKET_GAP) * em) / u, h / u
    return words / u, h / u


def place_unkept(pic: Picture, lay: Layout, shown: set[str], theme: Theme, em: float, u: float, within: Rect,
                 avoid: list[Rect]) -> list[Unkept]:
    """Each of ``pic.unkept`` placed beside its bucket (a leaf's, when the figure shows it) or its
    card, among the ``shown`` cards and buckets, ``within`` the figure's width and as high as the
    graph with room for a note above and below it (the figure grows to hold it there, never
    wider: its cards keep their size), off ``avoid`` (the gradients' numbers) and off the notes
    placed before it; ``em`` the words' size in user units."""
    seen = _replace(lay, boxes={k: b for k, b in lay.boxes.items() if k in shown},
                    routes=tuple(r for r in lay.routes if r.src in shown and r.dst in shown and not pic.cut(r.src, r.dst)))
    gap = theme.spacing.item_gap * lay.scale
    clear = theme.sizes.arrow_tip * floored(lay.scale, theme.proportions.min_stroke_scale, 1.0) \
        * theme.proportions.arrow_tip_half_width  # as `scenes.draw.visuals.edges.arrow_reach`
    sep, out, taken = theme.labels.name_value, [], list(avoid)
    room = 2 * PITCH * em / u + gap  # above and below the graph, a two-line note's height and a gap
    within = (within[0], within[1] - room, within[2], within[3] + room)
    for tensor in sorted(pic.unkept):
        name, after = pic.unkept[tensor]
        one, two = (f"{name}.grad {sep} {after}",), (f"{name}.grad", f"{sep} {after}")
        bucket = f"bucket:{tensor}"
        if bucket in seen.boxes:  # a leaf's bucket wears the words (`BucketNotes.none_words`)
            box, forms, snug = seen.boxes[bucket], [(two, False, False), (one, False, False)], NONE_WORDS_GAP
        elif tensor in seen.boxes:  # a result's note beside its card (`UnkeptGrads.draw_grad_none`)
            box, forms, snug = seen.boxes[tensor], [(one, True, False), (two, True, True), (two, True, False)], NONE_WORDS_GAP
        else:
            continue
        last = next(f for f in forms if f[0] == one)  # where none is its own: one row, as both do
        (lines, small, stacked), at = form_spot(seen, box, forms, lambda f: _size(*f, em, u), lambda: last,
                                                gap=gap * snug, clear=clear, beside=0.0, within=within,
                                                avoid=[*taken, box.bounds], reach=LABEL_REACH * PITCH * em / u)  # as the clip's
        size = _size(lines, small, stacked, em, u)
        out.append(Unkept(tensor, lines, small, stacked, at, size))
        taken.append((at[0] - size[0] / 2, at[1] - size[1] / 2, at[0] + size[0] / 2, at[1] + size[1] / 2))
    return out



def draw_unkept(n: Unkept, em: float, theme: Theme, u: float, stroke: float) -> str:
    """A ``.grad`` told None where `place_unkept` put it: ``v.grad = None`` beside v's empty
    bucket; a result's after a small empty bucket (the grammar's None), beside its card or under
    that bucket; the words in the gradient's colour (``u`` user units a scene unit, ``stroke``
    the bucket's outline in user units)."""
    c = theme.colors
    cx, cy = n.centre[0] * u, -n.centre[1] * u
    w, h = n.size[0] * u, n.size[1] * u
    left, top, out = cx - w / 2, cy - h / 2, []
    if n.bucket:
        bx, by = (cx, top + BUCKET_H * em / 2) if n.stacked else (left + BUCKET_W * em / 2, top + PITCH * em / 2)
        out.append(svg_rect(bx, by, BUCKET_W * em, BUCKET_H * em, theme.radii.bucket * u, c.card_fill, c.bucket,
                            stroke))
    x = left + ((BUCKET_W + BUCKET_GAP) * em if n.bucket and not n.stacked else 0.0)
    y = top + ((BUCKET_H + BUCKET_GAP) * em if n.bucket and n.stacked else 0.0)
    out += [svg_text(cx if n.stacked else x, y + (k + 0.5) * PITCH * em, line, em, c.grad, theme.fonts.mono,
                     "middle" if n.stacked else "start") for k, line in enumerate(n.lines)]
    return f'<g class="unkept" data-item="{escape(n.tensor)}">{"".join(out)}</g>'
