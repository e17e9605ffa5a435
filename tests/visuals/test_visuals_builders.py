"""Builder tests: construct each mobject and check bounding boxes. Why: a label that spills out
of its card or a caption that leaves the frame is a bug a viewer sees at once, and bounding boxes
catch it without rendering a frame."""

from __future__ import annotations

import itertools
from dataclasses import replace
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("manim")

from engine.records import Tensor
from graph_fixtures import SEED_SOURCE, mlp_events, seed_events_by_hand  # noqa: E402
from scenes.layout.detail import Detail  # noqa: E402
from scenes.layout.place import Box, layout_events  # noqa: E402
from scenes.layout.routes import Route  # noqa: E402
from scenes.theme import default_theme  # noqa: E402
from scenes.draw.visuals import (  # noqa: E402
    CodePane, bucket, caption_bar, soft_wrap, card_tag, edge_arrow, grad_token, label, node_card, route_path, text_width, token_ride, wavefront,
    wrap_words,
)

THEME = default_theme()
EPS = 1e-3


def bbox(m) -> tuple[float, float, float, float]:
    (x0, y0, _), (x1, y1, _) = m.get_corner([-1, -1, 0]), m.get_corner([1, 1, 0])
    return (x0, y0, x1, y1)


def inside(inner, outer, eps: float = EPS) -> bool:
    return inner[0] >= outer[0] - eps and inner[1] >= outer[1] - eps and inner[2] <= outer[2] + eps and inner[3] <= outer[3] + eps


def overlap(a, b) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > EPS and min(a[3], b[3]) - max(a[1], b[1]) > EPS


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
def test_seed_cards_keep_their_text_inside_and_apart(aspect: str) -> None:
    ev = seed_events_by_hand()
    lay = layout_events(ev, aspect, THEME)
    tensors = {e.id: e for e in ev if isinstance(e, Tensor)}
    for box in lay.boxes.values():
        if box.kind == "bucket":
            continue
        t = tensors[box.id]
        card = node_card(box, THEME, name=t.name, value=t.exact, grad_fn=t.grad_fn,
                         requires_grad=t.requires_grad, detail=lay.detail, scale=lay.scale)
        frame = bbox(card.frame)
        assert inside(frame, box.bounds)
        texts = [m for m in (card.name, card.value, card.sub) if m is not None]
        assert card.name is not None  # at the seed's scale every card keeps its name
        for m in texts:
            assert inside(bbox(m), frame)
        for a, b in itertools.combinations(texts, 2):
            assert not overlap(bbox(a), bbox(b))
    w1 = tensors["t1"]
    z = THEME.sizes
    full = Box("t1", "leaf_grad", 0, 0, z.card_width, z.card_height)
    leaf = node_card(full, THEME, name="w1", value="1/3", grad_fn=None, requires_grad=True, detail=Detail.FULL, scale=1.0)
    # a weight is told by its colour (and the legend), not by a requires_grad=True micro-label
    assert w1.requires_grad and leaf.sub is None and leaf.value is not None
    assert leaf.frame.get_stroke_color().to_hex().lower() == THEME.colors.leaf_grad.lower()


def test_every_card_sets_its_name_and_value_apart_the_same_way() -> None:
    """Issue 39: missing_gradient's ``z - 1  2`` read as ``z - 12`` on a phone, ``L1  4`` as
    ``L14``; and a card that wrote ``yh - y = 2/3`` beside ``yh 2/3`` and ``x 1`` showed a name
    and its value two ways. Every card that shows both on one row, a leaf, a named result or an
    expression, has the theme's separator between them, level with the value's digits."""
    z = THEME.sizes
    box = Box("t5", "op", 0, 0, z.card_width, z.card_height)
    leaf = Box("t0", "leaf_nograd", 0, 0, z.card_width, z.card_height)
    for b, name, value, fn in ((box, "z - 1", "2", "SubBackward0"), (box, "z", "3", "MulBackward0"),
                               (leaf, "x", "1", None), (box, "L1", "4", "PowBackward0")):
        card = node_card(b, THEME, name=name, value=value, grad_fn=fn, detail=Detail.FULL, scale=1.0)
        sep = getattr(card, "sep", None)
        assert sep is not None, name
        assert card.name.get_right()[0] < sep.get_left()[0] < sep.get_right()[0] < card.value.get_left()[0]
        assert abs(sep.get_center()[1] - card.value.get_center()[1]) < EPS


@pytest.mark.parametrize("detail", [Detail.DENSE, Detail.COMPACT])
def test_the_equals_sign_fits_in_the_card_the_layout_made_for_name_and_value(detail: Detail) -> None:
    """A compact layout sizes a card for its name, a gap and a value `layout.value_chars` long
    (`scenes.layout.compact`), no "=": cubic_fit3's ``b -1.0000`` and ``mul -1.7500`` lost their
    values when "=" came with a whole gap either side (the row, shrunk under the least readable
    size, kept the name alone). The "=" stands in the gap, so every such card keeps its value, at
    the size it had without it."""
    from scenes.layout.compact import dense_dims, compact_dims
    from scenes.layout.graph import Item

    dims = dense_dims if detail is Detail.DENSE else compact_dims
    for name, value, fn in (("b", "-1.0000", None), ("mul", "-1.7500", "MulBackward0"), ("x", "0.2500", None)):
        kind = "op" if fn else "leaf_nograd"
        item = Item("t1", kind, "t1", None, name, fn)
        w, h = dims({"t1": item}, THEME, 0.3).cards["t1"]
        box = Box("t1", kind, 0, 0, w * 0.3, h * 0.3)
        card = node_card(box, THEME, name=name, value=value, grad_fn=fn, detail=detail, scale=0.3)
        assert card.value is not None, (name, value)
        if card.value.get_top()[1] < card.name.get_bottom()[1]:  # a compact leaf: its value under its name
            assert detail is Detail.COMPACT and kind.startswith("leaf") and getattr(card, "sep", None) is None
        else:  # on one row: the "=" between them
            assert getattr(card, "sep", None) is not None, (name, value)


def test_tiny_cards_drop_labels_instead_of_smudging() -> None:
    card = node_card(Box("t9", "op", 0, 0, 0.12, 0.08), THEME, name="a_long_name", value="0.1234", grad_fn="MulBackward0", detail=Detail.NAME, scale=0.08)
    assert card.name is None and len(card) == 1


def test_mlp_cards_fit_at_1080p() -> None:
    # with the loss on top in every aspect the 109-node graph is drawn small enough that its cards
    # may be bare boxes (the MLP clip draws the network view, units and weights, not this graph):
    # what is drawn must still fit, and a card either keeps its name or drops it whole
    lay = layout_events(mlp_events(), "16:9", THEME)
    named = 0
    for box in list(lay.boxes.values())[:40]:
        if box.kind == "bucket":
            continue
        card = node_card(box, THEME, name=box.id, value=None, grad_fn=lay.items[box.id].grad_fn, detail=lay.detail, scale=lay.scale)
        for m in card[1:]:
            assert inside(bbox(m), box.bounds)
        named += card.name is not None
        assert card.name is not None or len(card) == 1


def test_bucket_fill_and_label_stay_in_the_bucket() -> None:
    box = Box("bucket:t1", "bucket", 1.0, -1.0, 0.8, 0.55)
    for level in (0.0, 0.4, 1.0, 3.0):
        b = bucket(box, THEME, level=level, value="8/3")
        assert inside(bbox(b.fill), box.bounds) and inside(bbox(b.outline), box.bounds)
        assert b.value is not None and inside(bbox(b.value), box.bounds)
    assert bucket(box, THEME, level=1.0).fill.height > bucket(box, THEME, level=0.5).fill.height


def test_edges_follow_routes_and_flip_backward() -> None:
    lay = layout_events(seed_events_by_hand(), "16:9", THEME)
    for r in lay.routes:
        fwd, bwd = edge_arrow(r, THEME, scale=lay.scale), edge_arrow(r, THEME, backward=True, scale=lay.scale)
        assert np.allclose(fwd.tip.get_vertices()[0][:2], r.points[-1])
        assert np.allclose(bwd.tip.get_vertices()[0][:2], r.points[0])
        assert np.allclose(route_path(r, backward=True).get_end()[:2], r.points[0])


def test_a_riding_token_waits_clear_of_the_card_it_reaches() -> None:
    """A gradient token leaves from the route's start and, where the route is long enough, stops
    just short of the card the backward path reaches (it used to stop on the card, over
    "MulBackward0"); on a route too short for that, halfway."""
    tok = grad_token("4/3", THEME)
    w, h = tok.width, tok.height
    gap = THEME.spacing.edge_clearance
    card = Box("a", "leaf_grad", 0.0, -0.4, 1.0, 0.6)  # the route's source: backward, its end
    for length, (dx, dy) in itertools.product((3.0, 0.3), ((0.0, 1.0), (0.8, 0.6))):
        route = Route("a", "b", 0, True, ((0.0, -0.1 + gap), (dx * length, -0.1 + gap + dy * length)))
        path, ride = route_path(route, backward=True), token_ride(route, (w, h), THEME, card.bounds)
        assert np.allclose(ride.get_start(), path.get_start())
        x, y = ride.get_end()[:2]
        left, bottom, right, top = card.bounds
        apart = max(left - (x + w / 2), (x - w / 2) - right, bottom - (y + h / 2), (y - h / 2) - top)
        if length == 3.0:  # room to stop short: off the card by the clearance, and no further
            assert gap - EPS <= apart <= gap + 0.01, (dx, dy, apart)
        else:  # no room: it stops at the least share of the way the theme allows
            assert apart < gap and np.allclose(ride.get_end(), path.point_from_proportion(THEME.proportions.token_wait_min))


def test_code_pane_fits_and_span_sits_on_its_columns() -> None:
    for aspect in ("16:9", "9:16", "1:1"):
        rect = THEME.aspect(aspect).code
        pane = CodePane(SEED_SOURCE, rect, THEME)
        lines = SEED_SOURCE.rstrip("\n").split("\n")
        if aspect == "1:1":  # too little height for nine readable lines: a window, following line 9
            assert pane.window[1] - pane.window[0] + 1 < len(lines) and not pane.shows(9)
            pane = CodePane(SEED_SOURCE, rect, THEME, first=pane.window_for(9))
            assert pane.shows(9) and pane.font_size >= THEME.font_sizes.code_min - EPS
        assert inside(bbox(pane), rect)
        assert len(pane.lines) == pane.window[1] - pane.window[0] + 1
        assert pane.window == (1, len(lines)) or aspect == "1:1"
        row = pane.lines[9 - pane.window[0]][0]  # its one row
        bar = pane.bar(9, (6, 12))  # the `yh - y` inside `L  = (yh - y)**2`
        first, last = row[3], row[6]  # glyphs "y" (col 6) and "y" (col 11)
        span = bar[1]
        assert span.get_left()[0] <= first.get_left()[0] + EPS and last.get_right()[0] <= span.get_right()[0] + EPS
        assert row[2].get_right()[0] < span.get_left()[0] + EPS  # "(" stays outside
        assert row[7].get_left()[0] > span.get_right()[0] - EPS  # so does ")"
        for a, b in zip(pane.line_extent, pane.line_extent[1:]):
            assert b[1] <= a[0] + EPS  # lines do not overlap vertically
        assert pane.highlight(9) is pane.bar_slot and pane.submobjects.index(pane.bar_slot) == 1


def test_soft_wrap_breaks_at_spaces_and_keeps_every_character() -> None:
    line = "    W = [[torch.tensor(0.5, requires_grad=True), torch.tensor(-0.5, requires_grad=True)],"
    rows = soft_wrap(line, 30)
    assert len(rows) > 1 and all(len(text) <= 30 for _, text in rows)
    assert all(text.startswith(" " * 8) for _, text in rows[1:])  # a hanging indent under the line's own
    assert "".join(text.strip() for _, text in rows).replace(" ", "") == line.replace(" ", "")
    for start, text in rows:  # each row's start is where its text is in the line
        assert line[start:].lstrip(" ").startswith(text.strip())
    assert all(line[start - 1] in " ([" for start, _ in rows[1:])  # after a space or an opening bracket
    assert soft_wrap("x = 1", 30) == [(0, "x = 1")]
    assert [t for _, t in soft_wrap("a" * 25, 10)] == ["a" * 10, "    " + "a" * 6, "    " + "a" * 6, "    aaa"]


def test_code_pane_wraps_long_lines_at_a_readable_size() -> None:
    """A line too wide for the pane is wrapped, not shrunk below ``code_min``; its bar covers all
    its rows and a span lands on the row that holds those columns."""
    long = "b = torch.tensor(6.8813735870195432, requires_grad=True, dtype=torch.float32)"
    source = f"import torch\nx = torch.tensor(2.0)\n{long}\nn = x * b\n"
    for aspect in ("16:9", "9:16", "1:1"):
        rect = THEME.aspect(aspect).code
        pane = CodePane(source, rect, THEME)
        pane = CodePane(source, rect, THEME, first=pane.window_for(3))  # 1:1 has room for a window only
        assert pane.font_size >= THEME.font_sizes.code_min - EPS
        assert inside(bbox(pane), rect)
        assert pane.shows(3) and (pane.window == (1, 4) or aspect == "1:1")
        k = 3 - pane.window[0]
        assert len(pane.lines[k]) > 1
        for a, b in zip(pane.line_extent, pane.line_extent[1:]):
            assert b[1] <= a[0] + EPS
        bottom, top = pane.line_extent[k]
        assert all(bottom - EPS <= r.get_y() <= top + EPS for r in pane.lines[k])
        col = long.index("dtype")
        box = pane.bar(3, (col, col + 5))[1]
        holder = next(r for r in pane.lines[k] if r.get_bottom()[1] - EPS <= box.get_y() <= r.get_top()[1] + EPS)
        assert holder is pane.lines[k][-1]
        assert holder.get_left()[0] - pane.adv / 2 <= box.get_left()[0] and box.get_right()[0] <= holder.get_right()[0] + pane.adv / 2


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
def test_caption_wraps_and_never_leaves_its_bar(aspect: str) -> None:
    rect = THEME.aspect(aspect).caption
    long = " ".join(["Reverse mode starts from the single loss and reaches every weight in one sweep."] * 4)
    for text in ("Typing the forward pass builds the graph: the loss is 4/9.", long):
        cap = caption_bar(text, rect, THEME)
        assert inside(bbox(cap.text), rect) and inside(bbox(cap.bg), rect)
    assert len(wrap_words(long, THEME.fonts.sans, THEME.font_sizes.caption, 3.0)) > 4


def test_caption_lines_are_balanced_not_greedy() -> None:
    """A caption that needs two lines gets two lines of about the same width, not a full line
    and a lone word (as greedy wrapping gave this one: "... is twice" / "d.")."""
    text = "The walk starts with a gradient of 1 at the loss. Pow: the local derivative of d² is twice d."
    left, _, right, _ = THEME.aspect("16:9").caption
    width = right - left - 2 * THEME.sizes.caption_pad
    font, size = THEME.fonts.sans, THEME.font_sizes.caption
    greedy, lines = wrap_words(text, font, size, width), caption_bar(text, THEME.aspect("16:9").caption, THEME).lines
    assert len(lines) == len(greedy) == 2 and " ".join(lines) == text
    widths = [text_width(line, font, size) for line in lines]
    assert min(widths) > 0.7 * max(widths), lines


def test_token_wavefront_and_label_cache() -> None:
    tok = grad_token("8/3", THEME)
    assert inside(bbox(tok.text), bbox(tok.pill))
    box = Box("t4", "op", 0.5, 0.5, 1.0, 0.6)
    glow = wavefront([box], THEME)
    assert inside(box.bounds, bbox(glow[0]))
    a, b = label("4/9", THEME.fonts.mono, 20, THEME.colors.text), label("4/9", THEME.fonts.mono, 20, THEME.colors.text)
    assert a is not b and np.allclose(a.get_center(), b.get_center())


def test_a_copy_of_a_label_makes_its_glyphs_and_not_the_svg_groups_of_them() -> None:
    """A label's copy (every label is one, and so is every card, note or caption holding labels
    when a move or a fade copies it) makes the Text, its glyphs and their ``chars`` group: not
    the SVG's groups of them by id, four more per glyph, which Manim keeps and nothing draws or
    reads (they made the copy four times dearer)."""
    import copy

    from manim import Mobject

    text = label("x.grad = 2.0", THEME.fonts.mono, 20, THEME.colors.text)
    made: dict[int, object] = {}
    copy.deepcopy(text, made)
    shapes = [m for m in made.values() if isinstance(m, Mobject)]
    assert len(shapes) <= len(text.get_family()) + 1, len(shapes)


def test_a_token_drawn_close_is_the_one_seen_back_home() -> None:
    """A camera drawing a layout ``zoom`` times larger draws its tokens, arrowheads and their
    placing size that much larger than at home, floored at home: a token made in a close view
    at the close view's scale, floored there, shrank under the least readable size once the
    camera moved back out (micrograd_readme with the walk camera)."""
    from scenes.draw.visuals import arrow_length, nominal_token_size
    from scenes.layout.focus import Zoom, zoomed

    lay = layout_events(seed_events_by_hand(), "16:9", THEME)
    small = replace(lay, scale=THEME.proportions.min_token_scale / 2)  # under the floor at home
    close = zoomed(small, Zoom(2.0, (0.0, 0.0), (0.0, 0.0)))
    assert close.zoom == 2.0 and close.scale == 2 * small.scale
    home_tok, close_tok = grad_token("8/3", THEME, scale=small.scale), grad_token("8/3", THEME, scale=close.scale, zoom=close.zoom)
    assert close_tok.height == pytest.approx(2 * home_tok.height, rel=0.01)  # glyphs round to pixels
    home_size, close_size = nominal_token_size(THEME, scale=small.scale), nominal_token_size(THEME, scale=close.scale, zoom=2.0)
    assert close_size == pytest.approx((2 * home_size[0], 2 * home_size[1]), rel=0.01)
    assert arrow_length(THEME, close.scale, close.zoom) == pytest.approx(2 * arrow_length(THEME, small.scale))


def test_the_glow_round_a_bucket_is_a_ring_with_nothing_inside() -> None:
    """A visit of AccumulateGrad lights its bucket: behind an open bucket, the glow's fill read
    as liquid in an empty one (grad_accumulation, before its first fill); a card hides its own."""
    card, cup = Box("t4", "op", 0.0, 0.0, 1.0, 0.6), Box("bucket:t0", "bucket", 0.0, -1.0, 0.6, 0.4)
    ring, glow = wavefront([cup, card], THEME)
    assert ring.get_fill_opacity() == 0.0 and ring.get_stroke_width() > 0
    assert glow.get_fill_opacity() == THEME.opacity.wavefront_glow > 0


def test_a_tag_stands_on_a_halo_that_breaks_a_glow_ring_under_it() -> None:
    """A tag sits where a lit card's glow ring runs: it is drawn on an outline of its own letters
    in the background colour, drawn first, so the ring breaks off around the text."""
    box = Box("t5", "op", 0.0, 0.0, 1.2, 0.7)
    halo, text = card_tag("sub", box, THEME)
    colour = lambda c: c.to_hex().lower()  # noqa: E731
    assert colour(halo.get_stroke_color()) == colour(halo.get_fill_color()) == THEME.colors.background.lower()
    assert halo.get_stroke_width() > 0 and halo.get_stroke_opacity() == 1.0
    assert colour(text.get_fill_color()) == THEME.colors.text_muted.lower()
    assert np.allclose(halo.get_all_points(), text.get_all_points())  # under the letters, not a box
    assert np.allclose((halo.get_center(), text.get_center()), 0.0)


def test_builders_hold_no_colour_literals() -> None:
    root = Path(__file__).resolve().parents[2] / "scenes" / "visuals"
    for path in root.glob("*.py"):
        assert not re.search(r"#[0-9a-fA-F]{6}\b", path.read_text()), path


@pytest.mark.parametrize("across", [False, True])
def test_legend_entries_do_not_overlap(across: bool) -> None:
    """A legend's entries sit apart, in a column or in a row (a row once put every entry at the
    first one's left edge, its words over each other)."""
    from scenes.draw.visuals import legend

    c, w = THEME.colors, THEME.labels
    m = legend([(c.leaf_grad, w.legend_weight), (c.leaf_nograd, w.legend_input), (c.op, w.legend_result)],
               THEME, across=across)
    for a, b in itertools.combinations(m.submobjects, 2):
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = bbox(a), bbox(b)
        assert min(ax1, bx1) <= max(ax0, bx0) + EPS or min(ay1, by1) <= max(ay0, by0) + EPS


def test_legend_swatches_and_words_line_up_in_a_column() -> None:
    """Issue 39: at 480p the words started 2-5 px apart from row to row ("weight" against
    "result" and "loss"), each swatch sized by its own words' height: one column of swatches,
    one left edge for the words."""
    from scenes.draw.visuals import legend

    c, w = THEME.colors, THEME.labels
    m = legend([(c.leaf_grad, w.legend_weight), (c.leaf_nograd, w.legend_input), (c.op, w.legend_result),
                (c.loss, w.legend_loss), (c.grad, w.legend_grad)], THEME)
    swatches = {(round(r[0].width, 6), round(r[0].get_left()[0], 6)) for r in m.submobjects}
    assert len(swatches) == 1
    assert max(r[1].get_left()[0] for r in m.submobjects) - min(r[1].get_left()[0] for r in m.submobjects) < EPS


def test_a_wrapped_legend_puts_its_widest_entry_on_two_lines_by_its_swatch() -> None:
    """``wrap``: "weight (requires_grad)", a third wider than the next entry, goes on two lines
    (grad_accumulation 9:16's legend fits between its cards only so), the legend narrower; its
    swatch stands by the first line, as a one-line entry's does; the other entries keep one line."""
    from scenes.draw.visuals import legend

    c, w = THEME.colors, THEME.labels
    entries = [(c.leaf_grad, w.legend_weight), (c.loss, w.legend_loss), (c.grad, w.legend_grad)]
    flat, wrapped = legend(entries, THEME, size=15), legend(entries, THEME, size=15, wrap=True)
    assert wrapped.width < flat.width * 0.8
    swatch, lines = wrapped[0][0], wrapped[0][1]
    assert [line.text for line in lines] == w.legend_weight.split(" ", 1)
    assert abs(swatch.get_y() - lines[0].get_y()) < EPS and lines[1].get_top()[1] < swatch.get_bottom()[1]
    assert [r[1].text for r in wrapped[1:]] == [w.legend_loss, w.legend_grad]


def test_a_unit_still_to_come_is_recorded_as_a_dimmed_unit() -> None:
    """The dimmed outline of a unit not yet computed is drawn, so `render inspect` lists it (role
    ``unit``, meaning ``skipped``, the dimmed colour): the frame checks see the network's shape."""
    from scenes.draw.record import tag_of
    from scenes.draw.visuals.network import ghost_circle

    found = tag_of(ghost_circle((0.0, 0.0), 0.3, THEME))
    assert found is not None and (found.kind, found.role, found.meaning) == ("shape", "unit", "skipped")
    assert THEME.colour("skipped") == THEME.colors.dimmed


def test_a_large_pane_shrinks_to_its_column_line_by_line() -> None:
    """The code pane shown large before the first picture goes to its column (`reflow` with
    ``grow``): each line starts the move at its size and place in the large pane and ends it at
    its column's, so that no line jumps or pops to another size."""
    from scenes.draw.scroll import reflow

    rect = THEME.aspect("16:9").code
    big = CodePane(SEED_SOURCE, (-4.0, -2.0, 4.0, 4.0), THEME, most=1.6)
    small = CodePane(SEED_SOURCE, rect, THEME)
    assert big.font_size > small.font_size * 1.2
    was = [bbox(line) for line in big.lines]
    now = [bbox(line) for line in small.lines]
    anims = reflow(big, small, 2, 2, grow=True)
    for alpha, want in ((0.0, was), (1.0, now)):
        for a in anims:
            a.interpolate(alpha)
        assert all(np.allclose(bbox(line), box, atol=1e-3) for line, box in zip(small.lines, want)), alpha


def test_a_bar_unseen_in_the_pane_before_fades_in_as_the_pane_comes_back_whole() -> None:
    """A pane whose lit line shows no bar, coming back whole on the same line (`reflow`, as the
    whole graph goes home: leaf_nodes 16:9 at 44.1 s): the whole pane's bar fades in with the
    lines that come, not cut in at full as the move starts."""
    from scenes.draw.scroll import reflow

    rect = THEME.aspect("16:9").code
    aside = CodePane(SEED_SOURCE, rect, THEME, first=4, max_rows=1)
    aside.highlight(4)
    aside.bar_slot.set_opacity(0.0)  # unseen
    whole = CodePane(SEED_SOURCE, rect, THEME)
    whole.highlight(4)
    anims = reflow(aside, whole, 4, 4)

    def seen(alpha: float) -> float:
        for a in anims:
            a.interpolate(alpha)
        return max(p.get_fill_opacity() for p in whole.bar_slot.family_members_with_points())

    assert seen(0.0) < 0.01 and seen(1.0) > 0.1


@pytest.mark.parametrize("stepping_aside", [True, False])
def test_the_bar_glides_to_a_newly_lit_line_as_the_pane_changes_size(stepping_aside: bool) -> None:
    """The pane stepping aside to the walk's lit line from another lit line (`reflow`: 16:9's
    ``L.backward()`` after ``L = ...``), or coming back whole to light a line the stepped-aside
    pane showed (missing_gradient's ``print(w.grad)`` over ``L1.backward()``): the bar goes from
    the old lit line to the new one as the lines slide, whole on every frame, nearer its line
    each frame and on it at the end. Once the new bar was faded as a row near the sliding lines
    is, its own line too: the pane stood aside with no bar at all, never showing which line ran."""
    from scenes.draw.scroll import reflow

    rect = THEME.aspect("16:9").code
    whole = CodePane(SEED_SOURCE, rect, THEME)
    aside = CodePane(SEED_SOURCE, rect, THEME, first=8, max_rows=2)
    assert aside.window == (8, 9)
    old, new, was_lit, lit = (whole, aside, 7, 9) if stepping_aside else (aside, whole, 9, 8)
    old.highlight(was_lit)
    new.highlight(lit)
    y = lambda m: float(m.get_center()[1])  # noqa: E731
    row = new.lines[lit - new.window[0]]
    under = y(new.bar_slot) - y(row)  # the bar to its line's glyphs, at rest
    start = y(old.bar_slot)
    anims = reflow(old, new, was_lit, lit)
    shown, off, at = [], [], []
    for alpha in np.linspace(0.0, 1.0, 11):
        for a in anims:
            a.interpolate(alpha)
        bars = [m for p in (old, new) for m in p.bar_slot.family_members_with_points() if m.get_fill_opacity() > 0.01]
        assert len(bars) == 1, alpha  # one bar, never two, never none
        shown.append(bars[0].get_fill_opacity())
        off.append(abs(y(bars[0]) - y(row) - under))
        at.append(y(bars[0]))
    assert abs(at[0] - start) < EPS  # from the old lit line's place
    assert min(shown) > 0.99 and off[-1] < EPS, (shown, off)
    assert all(b <= a + EPS for a, b in zip(off, off[1:])), off  # nearer its line each frame
