"""What a recap board names as drawn, and what it keeps out of: the cards and buckets its rows
name (it stands by the first row's), and a network's column of layer names.

Why apart from :mod:`scenes.draw.recap`: where the board goes is the recap's; what it stands by
and keeps out of is read off the picture, the same for every placing it tries.
"""

from __future__ import annotations

from manim import Mobject

from scenes.draw.collisions import MIN_OPACITY
from scenes.draw.context import DrawContext
from scenes.draw.frame_spots import bounds
from scenes.draw.record import opacity
from scenes.storyboard.cues import Cue
from scenes.storyboard.recap import NAME
from scenes.theme import Rect


def rows_named(ctx: DrawContext, cue: Cue) -> list[list[tuple[str, Mobject]]]:
    """Per row of the board, what it names as drawn, with their layout keys: a gradient's
    bucket then its card (``w1.grad``: ``bucket:t1``, ``t1``), else the card (``L``); none
    where it is not drawn."""
    out: list[list[tuple[str, Mobject]]] = []
    strings = list(cue.strings)
    for n, name in enumerate(strings):
        if name.role != NAME:
            continue
        value = next((s for s in strings[n + 1:] if s.role != NAME and s.seq is not None), None)
        row: list[tuple[str, Mobject]] = []
        out.append(row)
        if value is None or value.seq is None or not 0 <= value.seq < len(ctx.events):
            continue
        ev = ctx.events[value.seq]
        tid = getattr(ev, "tensor", None) or getattr(ev, "id", None)
        if not isinstance(tid, str):
            continue
        g, item = ctx.state.graph, ctx.item(tid)
        found = [(f"bucket:{item}", g.buckets.get(item) if name.text.endswith(".grad") else None),
                 (item, g.cards.get(item))]
        row += [(k, m) for k, m in found if m is not None and opacity(m) >= MIN_OPACITY]
    return out


def rulers(ctx: DrawContext) -> list[Rect]:
    """A network's layer names (input, hidden 1, ..., loss) as one column, top to bottom, with
    a gap round it: the board keeps out of the column, not only off each name. Why: set in
    the room between two names, reverse_mode's ``w1_0_0.grad = -0.0754`` read as a row of
    the network, squeezed between "loss" and "output" (issue 39, items 6 and 7)."""
    names = [m for m in ctx.state.network.layer_labels.values() if opacity(m) >= MIN_OPACITY and m.width > 0]
    if not names:
        return []
    gap = ctx.theme.spacing.item_gap
    boxes = [bounds(m) for m in names]
    return [(min(b[0] for b in boxes) - gap, min(b[1] for b in boxes) - gap,
             max(b[2] for b in boxes) + gap, max(b[3] for b in boxes) + gap)]
