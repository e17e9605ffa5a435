"""Where tags and gradient badges go around cards, at the sizes the clips really draw them
(`card_tag`, `grad_token`, `arrow_reach`). Why: a label under an arrow head or over another card
is unreadable, and a badge that moves when a number changes makes two renders of one storyboard
look like different clips."""

from __future__ import annotations

import pytest

pytest.importorskip("manim")

from graph_fixtures import seed_events_by_hand  # noqa: E402
from scenes.layout.clear_rects import meets  # noqa: E402
from scenes.layout.label_spots import (Rect, badge_centre, badge_spots, crosses, inside, route_ends,  # noqa: E402
                                      tag_centre)
from scenes.layout.place import Box, Layout, layout_events  # noqa: E402
from scenes.theme import default_theme  # noqa: E402
from scenes.draw.visuals import arrow_length, arrow_reach, card_tag, grad_token, nominal_token_size, token_rests  # noqa: E402
from tests.clips import ASPECTS

THEME = default_theme()
OPS = {"t4": "mul", "t5": "relu", "t6": "mul", "t7": "sub", "t8": "pow"}
"""The seed's op names, as the clips tag its cards."""


def _rect(x: float, y: float, w: float, h: float, grown: float = 0.0) -> Rect:
    return (x - w / 2 - grown, y - h / 2 - grown, x + w / 2 + grown, y + h / 2 + grown)


def _sampled_cross(rect: Rect, p: tuple[float, float], q: tuple[float, float]) -> bool:
    """Whether any of 400 points along p-q lies inside rect: a second way of asking `crosses`."""
    return any(rect[0] < p[0] + (q[0] - p[0]) * i / 400 < rect[2] and rect[1] < p[1] + (q[1] - p[1]) * i / 400 < rect[3]
               for i in range(401))


def _hits(lay: Layout, box: Box, rect: Rect, reach: float, avoid: list[Rect] = ()) -> list[str]:
    """What a label's rectangle runs into: routes within ``reach``, other cards, ``avoid``."""
    grown = (rect[0] - reach, rect[1] - reach, rect[2] + reach, rect[3] + reach)
    out = [f"route {r.src}->{r.dst}" for r in lay.routes
           if any(_sampled_cross(grown, p, q) for p, q in zip(r.points, r.points[1:]))]
    out += [f"card {b.id}" for b in lay.boxes.values() if b.id != box.id and meets(rect, b.bounds)]
    return out + [f"tag {a}" for a in avoid if meets(rect, a)]


def _tag_rect(lay: Layout, box: Box, text: str, above: bool) -> Rect:
    m = card_tag(text, box, THEME, scale=lay.scale)
    x, y = tag_centre(lay, box, (m.width, m.height), above=above, gap=THEME.spacing.edge_clearance,
                      clear=arrow_reach(THEME, lay.scale), step=THEME.proportions.tag_slide_step,
                      avoid=_rests(lay, box))
    return _rect(x, y, m.width, m.height)


def _rests(lay: Layout, box: Box) -> list[Rect]:
    """Where tokens wait at ``box``, as the clips ask (`CardLabels.token_rests`)."""
    return token_rests(lay, box.id, nominal_token_size(THEME, scale=lay.scale), THEME)


@pytest.mark.parametrize("aspect", ASPECTS)
def test_tags_keep_clear_of_arrows_and_other_cards(aspect: str) -> None:
    """Each op's name above its card and AccumulateGrad below each bucket crosses no arrow and
    touches no other card. relu's and pow's cards have one input each; top to bottom, it meets
    the card in the middle, so there the name must move aside."""
    lay = layout_events(seed_events_by_hand(), aspect, THEME)
    reach = arrow_reach(THEME, lay.scale)
    moved = set()
    for box in lay.boxes.values():
        tags = [(OPS[box.id], True)] if box.id in OPS else [("AccumulateGrad", False)] if box.kind == "bucket" else []
        for text, above in tags:
            rect = _tag_rect(lay, box, text, above)
            assert not _hits(lay, box, rect, reach), (aspect, box.id, text, _hits(lay, box, rect, reach))
            if abs((rect[0] + rect[2]) / 2 - box.x) > 1e-9:
                moved.add(box.id)
    if lay.flow == "down":
        assert {"t5", "t8"} <= moved, moved


@pytest.mark.parametrize("aspect", ASPECTS)
def test_visit_badges_sit_beside_cards_clear_of_arrows_tags_and_the_code(aspect: str) -> None:
    """A visit's gradient badge stays inside the graph's region (never over the code) and touches
    no other card and no tag of its card; top to bottom, it also crosses no arrow (every backward
    edge leaves a card's top, where the badge used to sit) and stands on no arrowhead."""
    lay = layout_events(seed_events_by_hand(), aspect, THEME)
    reach, gap = arrow_reach(THEME, lay.scale), THEME.spacing.edge_clearance
    head = arrow_length(THEME, lay.scale)
    nominal = nominal_token_size(THEME, scale=lay.scale)
    tok = grad_token("8/3", THEME, scale=lay.scale)
    left, bottom, right, top = lay.region
    for box in lay.boxes.values():
        if box.id not in OPS and box.kind != "bucket":
            continue
        tags = [_tag_rect(lay, box, OPS[box.id], True)] if box.id in OPS else [_tag_rect(lay, box, "AccumulateGrad", False)]
        x, y = badge_centre(lay, box, (tok.width, tok.height), nominal=nominal, gap=gap, clear=reach, head=head,
                            avoid=tags)
        rect = _rect(x, y, tok.width, tok.height)
        assert left <= rect[0] and rect[2] <= right and bottom <= rect[1] and rect[3] <= top, (aspect, box.id)
        hits = [h for h in _hits(lay, box, rect, reach, tags) if lay.flow == "down" or not h.startswith("route")]
        assert not hits, (aspect, box.id, hits)
        assert not any(meets(rect, h) for h in route_ends(lay, head)), (aspect, box.id, "on an arrowhead")


def _covers(lay: Layout, box: Box, centre: tuple[float, float], size: tuple[float, float]) -> list[str]:
    """The other cards a badge of ``size`` at ``centre`` beside ``box`` touches."""
    return [b.id for b in lay.boxes.values() if b.id != box.id and meets(_rect(*centre, *size), b.bounds)]


@pytest.mark.parametrize("aspect", ASPECTS)
def test_a_badge_keeps_its_spot_whatever_number_it_shows(aspect: str) -> None:
    """Badges of "1", "8/3" and "-0.6667" on one card take the same spot, with the same inner
    edge, wherever the widest fits there too: changing a number in the program does not move
    things about, unless the new number would cover another card (the next test)."""
    lay = layout_events(seed_events_by_hand(), aspect, THEME)
    reach, gap = arrow_reach(THEME, lay.scale), THEME.spacing.edge_clearance
    nominal = nominal_token_size(THEME, scale=lay.scale)
    kept = 0
    for box in lay.boxes.values():
        spots, sizes = set(), []
        for text in ("1", "8/3", "-0.6667"):
            tok = grad_token(text, THEME, scale=lay.scale)
            sizes.append((tok.width, tok.height))
            centre = badge_centre(lay, box, sizes[-1], nominal=nominal, gap=gap, clear=reach,
                                  head=arrow_length(THEME, lay.scale))
            spots.add(badge_spots(box, sizes[-1], gap).index(centre))
        first = min(spots)
        if not _covers(lay, box, badge_spots(box, sizes[-1], gap)[first], sizes[-1]):  # the widest fits there
            kept += 1
            assert len(spots) == 1, (aspect, box.id, spots)
    assert kept >= len(lay.boxes) - 3, (aspect, kept)


@pytest.mark.parametrize("aspect", ASPECTS)
def test_a_wide_badge_covers_no_other_card(aspect: str) -> None:
    """A badge wider than the nominal one it is placed by ("-0.6667", twice as wide) touches no
    other card where a spot by its box inside the graph's region allows: set by the nominal's
    spot alone, it covered the next card of a row (the seed's a beside b at 16:9 and 1:1; a bucket
    beside the next bucket in a row of leaves, tanh_sgd_lists 16:9 at 73 s, issue 39)."""
    lay = layout_events(seed_events_by_hand(), aspect, THEME)
    reach, gap = arrow_reach(THEME, lay.scale), THEME.spacing.edge_clearance
    nominal = nominal_token_size(THEME, scale=lay.scale)
    tok = grad_token("-0.6667", THEME, scale=lay.scale)
    size = (tok.width, tok.height)
    for box in lay.boxes.values():
        centre = badge_centre(lay, box, size, nominal=nominal, gap=gap, clear=reach, head=arrow_length(THEME, lay.scale))
        room = [p for p, q in zip(badge_spots(box, size, gap), badge_spots(box, nominal, gap))
                if not _covers(lay, box, p, size) and inside(_rect(*q, *nominal), lay.region)]
        if room:
            assert not _covers(lay, box, centre, size), (aspect, box.id)


def test_crosses_agrees_with_sampling() -> None:
    """Liang-Barsky against 400 samples along the segment, on segments through, beside, along
    the edge of and inside a rectangle."""
    rect = (0.0, 0.0, 2.0, 1.0)
    cases = {((-1, 0.5), (3, 0.5)): True, ((-1, 2), (3, 2)): False, ((1, -1), (1, 2)): True,
             ((0.5, 0.5), (1.5, 0.6)): True, ((-1, -1), (1.5, 3)): True, ((-1, -1), (0.5, 3)): False, ((-1, 1.5), (0.2, 3)): False,
             ((2.5, -1), (2.5, 3)): False, ((3, 3), (3, 3)): False, ((1, 0.5), (1, 0.5)): True}
    for (p, q), want in cases.items():
        assert crosses(rect, p, q) is want, (p, q)
        assert _sampled_cross(rect, p, q) is want, (p, q)


@pytest.mark.parametrize("aspect", ASPECTS)
def test_no_waiting_token_hides_a_tag(aspect: str) -> None:
    """A gradient token waits on its edge beside the card it reaches (`token_ride`); on the
    seed's short edges that is halfway, just outside the card it left, where "pow" sat under
    the token arriving from L. Each op's name, and AccumulateGrad, stays out of every waiting
    token's rectangle, as well as off arrows and other cards (the test above)."""
    lay = layout_events(seed_events_by_hand(), aspect, THEME)
    rests = [rest for box in lay.boxes.values() for rest in _rests(lay, box)]
    hidden = []
    for box in lay.boxes.values():
        tags = [(OPS[box.id], True)] if box.id in OPS else [("AccumulateGrad", False)] if box.kind == "bucket" else []
        hidden += [f"{text} of {box.id}" for text, above in tags if any(meets(_tag_rect(lay, box, text, above), r) for r in rests)]
    assert not hidden


def test_a_badge_kept_off_the_value_s_row_goes_beside_the_lower_row_on_that_side_first() -> None:
    """``low``: with the spot level with the card's middle taken (the value's run, where a number
    reads as more of it: ``= 4 1``), a badge goes level with the card's bottom edge on the same
    side before it crosses to the other side, where the visit's note keeps its room."""
    box = Box("t5", "op", 0.0, 0.0, 2.0, 1.0)
    plain, low = badge_spots(box, (0.3, 0.2), 0.05), badge_spots(box, (0.3, 0.2), 0.05, low=True)
    assert low[0] == plain[0] and low[2] == plain[1]
    x, y = low[1]
    assert x == plain[0][0] and y - 0.1 == pytest.approx(box.bounds[1])  # the same side, its bottom at the card's
    assert low[4:] == plain[2:]
