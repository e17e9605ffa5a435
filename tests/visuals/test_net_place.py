"""The MLP view's placement (scenes/layout/netplace.py): no weight's line runs through a unit it
does not join, names stay readable, and the network uses its region at 16:9 and 9:16, with and
without the pass tallies (issue 39: five layers squeezed into 200 px, flat lines across circles)."""

from __future__ import annotations

import pytest

from scenes.draw.visuals.network import network_places, unit_rules
from scenes.layout.clip import graph_region
from scenes.layout.netplace import (FORWARD, FORWARD_HEAD, REVERSE, REVERSE_HEAD, ring_clearance, row_box, split_region,
                                    tally_height, through_units)
from scenes.storyboard import load_and_plan
from scenes.storyboard.network import Network, read_network
from scenes.storyboard.store import storyboard_path
from scenes.theme import default_theme

THEME = default_theme()


@pytest.fixture(scope="module")
def mlp() -> tuple[Network, object, str]:
    checked, plan = load_and_plan(storyboard_path("mlp"))
    return read_network(checked.run.events), plan, checked.index.source


def _evenly(net: Network, region: tuple[float, float, float, float]) -> tuple[dict[str, tuple[float, float]], float]:
    """The placement before issue 39, by hand: a layer per equal slice of the region's height,
    whatever the lines between them, under a four-row counters' band at 16:9."""
    left, bottom, right, top = region
    layers = net.layers
    main, cross = (top - bottom) / len(layers), (right - left) / max(len(l) for l in layers)
    radius = min(0.36, 0.34 * main, 0.38 * cross)
    centre = {u: ((left + right) / 2 + (j + 0.5 - len(l) / 2) * cross, bottom + (i + 0.5) * main)
              for i, l in enumerate(layers) for j, u in enumerate(l)}
    return centre, radius


def test_a_line_through_a_unit_is_found(mlp) -> None:
    """The flat layers of the old reverse_mode (layers 0.8 apart, units 3.15 across) let the
    line from h1_0 to h1_3's inputs graze the units beside it: the check must say so."""
    net = mlp[0]
    centre, radius = _evenly(net, (-5.76, -2.55, 6.86, 1.43))
    rules = unit_rules(net, THEME)
    crossed = through_units(centre, net.lines(), ring_clearance(radius, rules))
    assert crossed and radius < rules.radius_min


def _names_width(net: Network) -> float:
    names = net.layer_names(THEME.labels)
    size = max(THEME.font_sizes.card_flag, THEME.font_sizes.unit_name_least)
    return max(map(len, names)) * THEME.layout.glyph_advance_sans * size + THEME.spacing.item_gap


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
@pytest.mark.parametrize("tallies", [False, True])
def test_the_network_fills_its_region_with_no_line_through_a_unit(mlp, aspect: str, tallies: bool) -> None:
    net, plan, source = mlp
    region = graph_region(plan, source, THEME.aspect(aspect), THEME)
    row = THEME.layout.glyph_height * THEME.font_sizes.counter * 1.3
    big = THEME.layout.glyph_height * THEME.font_sizes.tally * 1.1
    parts = split_region(region, _names_width(net), (row, big) if tallies else None, THEME.proportions.tally_side,
                         THEME.spacing.item_gap)
    places = network_places(net, parts.units, THEME)
    rules = unit_rules(net, THEME)
    assert places.radius >= rules.radius_min - 1e-9  # the longest name fits at 11 px
    assert through_units(places.centre, net.lines(), ring_clearance(places.radius, rules)) == []
    ys = [y for _, y in places.centre.values()]
    left, bottom, right, top = parts.units
    assert max(ys) - min(ys) >= 0.75 * (top - bottom)  # layers spaced to the frame, not squeezed
    rows = sorted(set(round(y, 6) for y in ys))
    pitches = [b - a for a, b in zip(rows, rows[1:])]
    # one pitch between every two layers (issue 39: the output and the loss stood 66 px apart at
    # 16:9, the hidden layers 95 px)
    assert max(pitches) - min(pitches) < 1e-4, pitches
    assert all(left < x - places.radius and x + places.radius < right for x, _ in places.centre.values())
    # the widest layer from the region's left edge to its right, past its ring only (review 6 item 5:
    # units centred in equal slices left half a slice empty at each side)
    reach = places.radius * (1 + rules.ring) + 1e-9
    xs = [x for x, _ in places.centre.values()]
    assert min(xs) - reach <= left and max(xs) + reach >= right
    if tallies:
        assert parts.tallies is not None
        tl, tb, _, tt = parts.tallies
        need = tally_height(row, big, parts.side, THEME.spacing.item_gap)
        assert tt - tb >= need - 1e-9 and (tl >= right if parts.side else tb >= top)
        assert parts.side == (aspect == "16:9")  # beside the network in a wide frame, above it in a tall one


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_a_unit_s_name_is_readable_and_clear_of_its_ring(mlp, aspect: str) -> None:
    """Review 5: mlp's unit names touched their circles at 480p (``h1_0``'s corners 0-1 px from
    the ring's ink): each glyph's box stands 2 px at least inside the ring, at 11 px glyphs."""
    pytest.importorskip("manim")
    from scenes.draw.collisions import SHORT_SIDE, glyph_height
    from scenes.draw.visuals.bucket import STROKE_UNIT
    from scenes.draw.visuals.network import unit_circle

    net, plan, source = mlp
    spec = THEME.aspect(aspect)
    px = SHORT_SIDE / min(spec.frame_width, spec.frame_height)  # pixels per scene unit at 480p
    region = graph_region(plan, source, spec, THEME)
    parts = split_region(region, _names_width(net), None, THEME.proportions.tally_side, THEME.spacing.item_gap)
    places = network_places(net, parts.units, THEME)
    for uid, unit in net.units.items():
        drawn = unit_circle(unit.name, places.centre[uid], places.radius, "result", THEME)
        text, ring = drawn.text, drawn.ring
        (cx, cy) = places.centre[uid]
        corner = max(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 for glyph in text.submobjects
                     for x, y, _ in (glyph.get_corner(c) for c in ([1, 1, 0], [-1, 1, 0], [1, -1, 0], [-1, -1, 0])))
        inner = places.radius - ring.get_stroke_width() * STROKE_UNIT / 2
        assert (inner - corner) * px >= 2.0, (unit.name, round((inner - corner) * px, 2))
        assert glyph_height({"bbox": [0, 0, text.width * px, text.height * px], "text": unit.name}) >= 11, unit.name


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_two_tallies_stand_one_over_the_other(aspect: str) -> None:
    """Review 6 item 10: at 9:16 the band put reverse mode's tally and forward mode's side by
    side, their headings 18 px apart on one line, read as one. Reverse mode's tally is over
    forward mode's at both aspects; in the band each count is on its words' line."""
    checked, plan = load_and_plan(storyboard_path("reverse_mode"))
    region = graph_region(plan, checked.index.source, THEME.aspect(aspect), THEME)
    row = THEME.layout.glyph_height * THEME.font_sizes.counter * 1.6
    big = THEME.layout.glyph_height * THEME.font_sizes.tally * 1.3
    gap = THEME.spacing.item_gap
    parts = split_region(region, 0.0, (row, big), THEME.proportions.tally_side, gap)
    assert parts.tallies is not None
    box = {r: row_box(r, parts.tallies, parts.side, row, big, gap) for r in (REVERSE_HEAD, REVERSE, FORWARD_HEAD, FORWARD)}
    assert box[REVERSE_HEAD][1] >= box[FORWARD_HEAD][3] - 1e-9  # reverse mode's words over forward mode's
    assert box[REVERSE][1] >= box[FORWARD_HEAD][3] - 1e-9
    if not parts.side:
        assert box[REVERSE] == box[REVERSE_HEAD] and box[FORWARD] == box[FORWARD_HEAD]
