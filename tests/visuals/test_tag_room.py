"""The room an op name takes over its card (`scenes.layout.tag_room`) and the layout keeping it
over the top card (`scenes.layout.lowered`). Why: with no room over the loss's card, its ``** 2``
went level with the card, right of its value, and ``L = 1/16 ** 2`` read as 1/16 squared
(review 4 item 6); and a fixed gap let a large card's border run under its tag's halo, so that
``mul`` over y at scale 1.8 read as struck through."""

from __future__ import annotations

import pytest

from scenes.commands.storyboard import clip_layouts, storyboard_path
from scenes.layout.lowered import lowered_top
from scenes.layout.place import layout_events
from scenes.layout.tag_room import card_stroke, tag_gap, tag_halo, tag_height, tag_reach
from scenes.storyboard import load, plan_of
from scenes.theme import default_theme

THEME = default_theme()
CARDED = ("graph_build", "backward_graph", "backward_walk", "leaf_nodes", "missing_gradient", "grad_accumulation",
          "dynamic_graph")
"""The clips that draw the graph as cards, each op named over its card."""


@pytest.mark.parametrize("name", CARDED)
def test_the_op_name_over_the_top_card_fits_in_the_frame(name: str) -> None:
    """At every aspect, the op name over the highest op's card (`tag_reach` at the layout's
    scale) stays inside the frame's safe rectangle, so it is drawn there and not level with the
    card (leaf_nodes at 16:9: made room for between the layers, `lowered_top`)."""
    checked = load(storyboard_path(name))
    for aspect, lay in clip_layouts(checked, plan_of(checked)).items():
        top = max(b.bounds[3] for b in lay.boxes.values() if b.kind in ("op", "loss"))
        over = top + tag_reach(THEME, lay.scale) - THEME.safe_rect(THEME.aspect(aspect))[3]
        assert over <= 1e-9, f"{name} {aspect}: the op name over the top card reaches {over:.3f} past the frame's margin"


def test_lowering_the_top_layer_keeps_cards_and_arrows_together() -> None:
    """`lowered_top` moves the top layer down by the room asked, keeps every card's size and the
    gaps at an op name's room at least, and each arrow still starts and ends where its cards'
    edges moved to."""
    from graph_fixtures import seed_events_by_hand

    lay = layout_events(seed_events_by_hand(), "16:9", THEME)
    room = 0.05
    low = lowered_top(lay, room, THEME)
    assert low is not None
    top = max(lay.boxes.values(), key=lambda b: b.y)
    assert low.boxes[top.id].y == pytest.approx(top.y - room)
    assert all((b.w, b.h) == (lay.boxes[k].w, lay.boxes[k].h) for k, b in low.boxes.items())
    for old, new in zip(lay.routes, low.routes):
        for end in (0, -1):
            owner = min(lay.boxes.values(), key=lambda b: _distance(old.points[end], b.bounds))
            edge_gap = _distance(old.points[end], owner.bounds)
            assert _distance(new.points[end], low.boxes[owner.id].bounds) == pytest.approx(edge_gap, abs=1e-9)
    assert lowered_top(lay, 100.0, THEME) is None  # more than the gaps have to give


def _distance(p: tuple[float, float], r: tuple[float, float, float, float]) -> float:
    dx = max(r[0] - p[0], 0.0, p[0] - r[2])
    dy = max(r[1] - p[1], 0.0, p[1] - r[3])
    return (dx * dx + dy * dy) ** 0.5


@pytest.mark.parametrize("scale", [0.3, 0.754, 1.0, 1.8])
def test_a_tag_s_halo_keeps_off_its_card_s_border(scale: float) -> None:
    """The gap between a card and its op name leaves the tag's halo (which breaks off what lies
    under it) clear of the card's border by `proportions.tag_gap` of the tag's height, and the
    reserved room (`tag_reach`) holds that gap."""
    gap = tag_gap(THEME, scale)
    clear = gap - card_stroke(THEME, scale) - tag_halo(THEME, scale)
    assert clear >= THEME.proportions.tag_gap * tag_height(THEME, scale) - 1e-12
    assert tag_reach(THEME, scale) == pytest.approx(gap + tag_height(THEME, scale) + THEME.spacing.edge_clearance)
