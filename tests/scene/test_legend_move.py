"""A legend moving to a new place never draws its rows over each other on the way
(`scenes.draw.legend_spots.legend_move`): a column of five rows morphed into two columns passed
the rows through each other for the frames of the move (leaf_nodes 9:16, 20.6 s: "input, no
gradient" over "(requires_grad)")."""

from __future__ import annotations

import pytest

pytest.importorskip("manim")

from manim import Animation, Mobject, ReplacementTransform  # noqa: E402

from scenes.draw.record import opacity  # noqa: E402
from scenes.draw.frame_spots import bounds  # noqa: E402
from scenes.draw.legend_spots import legend_move  # noqa: E402
from scenes.draw.visuals import legend  # noqa: E402
from scenes.layout.clear_rects import meets  # noqa: E402
from scenes.theme import default_theme  # noqa: E402

THEME = default_theme()
C, W = THEME.colors, THEME.labels
ENTRIES = [(C.leaf_grad, W.legend_weight), (C.leaf_nograd, W.legend_input), (C.op, W.legend_result),
           (C.loss, W.legend_loss), (C.grad, W.legend_grad)]


def _rows_met(anims: list[Animation], alpha: float) -> list[tuple[int, int]]:
    """The pairs of the legend's rows (of the one or two legends the animations show) drawn over
    each other at ``alpha`` of the move."""
    shown: list[Mobject] = []
    for a in anims:
        a.interpolate(alpha)
        shown += [r for r in a.mobject if opacity(r) > 0.05 and r.width > 0]
    boxes = [bounds(r) for r in shown]
    return [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes)) if meets(boxes[i], boxes[j])]


def _begun(anims: list[Animation]) -> list[Animation]:
    for a in anims:
        a.begin()
    return anims


def test_a_column_going_into_two_columns_never_draws_its_rows_over_each_other() -> None:
    """Five rows in one column, moved up and left into two columns (the tall frame's walk strip):
    at no point of the move does one row's box meet another's."""
    old = legend(ENTRIES, THEME).move_to([2.0, -1.0, 0.0])
    new = legend(ENTRIES, THEME, columns=2).move_to([-1.0, 2.5, 0.0])
    anims = _begun(legend_move(old, new, lambda t: t))
    met = {a: m for a in [i / 20 for i in range(21)] if (m := _rows_met(anims, a))}
    assert not met, met


def test_a_legend_of_one_shape_moves_whole() -> None:
    """The same column at a smaller size elsewhere is one move (the legend stays itself, no
    blink), its rows apart throughout."""
    old = legend(ENTRIES, THEME).move_to([2.0, -1.0, 0.0])
    new = legend(ENTRIES, THEME, size=THEME.font_sizes.card_flag * 0.8).move_to([-1.0, 2.5, 0.0])
    anims = _begun(legend_move(old, new, lambda t: t))
    assert [type(a) for a in anims] == [ReplacementTransform]
    assert not any(_rows_met(anims, i / 20) for i in range(21))
