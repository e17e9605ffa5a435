"""The collision checker on synthetic items: what collides, and what does not.

What must hold: two visible texts that overlap collide; a text on a card or bucket it does not
belong to collides, its own does not; two cards overlapping collide; anything past the frame's
edge collides; what is faint (fading in from nothing) or only touching does not.
"""

from __future__ import annotations

from scenes.draw.collisions import MIN_OPACITY, TOUCH, collisions
from scenes.draw.reading import waits_reading_on

FRAME = (854, 480)


def text(bbox, role="label", text="pow", id=None, opacity=1.0) -> dict:
    return {"kind": "text", "role": role, "text": text, "bbox": list(bbox), "opacity": opacity, "id": id}


def shape(bbox, role="card", id=None, opacity=1.0) -> dict:
    return {"kind": "shape", "role": role, "text": None, "bbox": list(bbox), "opacity": opacity, "id": id}


def whats(items) -> list[str]:
    return [c.what for c in collisions(items, FRAME)]


def test_overlapping_texts_collide_and_neighbours_do_not() -> None:
    op = text((100, 100, 130, 110), text="pow", id="t8")
    badge = text((125, 104, 150, 120), role="badge", text="4/3")
    assert whats([op, badge]) == ["texts overlap"]
    beside = text((130 + 2 * TOUCH, 100, 160, 110), role="badge", text="4/3")
    assert whats([op, beside]) == []
    touching = text((130 - TOUCH / 2, 100, 160, 110), role="badge", text="4/3")
    assert whats([op, touching]) == []


def test_a_label_over_a_value_inside_its_own_card_collides() -> None:
    card = shape((100, 100, 200, 160), id="t1")
    name = text((120, 105, 180, 130), text="w1", id="t1")
    value = text((120, 125, 180, 150), role="value", text="1/3", id="t1")
    assert whats([card, name, value]) == ["texts overlap"]  # the card is theirs: only the texts collide


def test_a_text_on_a_card_or_bucket_not_its_own_collides() -> None:
    card = shape((100, 100, 200, 160), id="t0")
    bucket = shape((210, 100, 250, 130), role="bucket", id="bucket:t1")
    badge = text((190, 110, 220, 125), role="badge", text="6")
    got = whats([card, bucket, badge])
    assert sorted(got) == ["text on a bucket not its own", "text on a card not its own"]
    mine = text((215, 105, 245, 125), role="value", text="6", id="bucket:t1")
    assert whats([card, bucket, mine]) == []
    caption = text((50, 150, 800, 170), role="caption", text="The loss is 4/9.", id="caption")
    assert whats([card, caption]) == ["text on a card not its own"]


def test_cards_on_cards_collide() -> None:
    assert whats([shape((100, 100, 200, 160), id="t0"), shape((190, 150, 290, 210), id="t1")]) == ["card on a card"]
    assert whats([shape((100, 100, 200, 160), id="t0"), shape((210, 100, 300, 160), id="t1")]) == []


def test_anything_leaving_the_frame_collides() -> None:
    assert whats([shape((800, 100, 860, 120), role="arrow")]) == ["leaves the frame"]
    assert whats([text((-3, 0, 20, 10))]) == ["leaves the frame"]
    assert whats([text((0, 470, 854, 480))]) == []


def test_what_is_faint_does_not_collide() -> None:
    a = text((100, 100, 130, 110))
    assert whats([a, text((100, 100, 130, 110), opacity=MIN_OPACITY / 2)]) == []
    assert whats([a, text((100, 100, 130, 110), opacity=MIN_OPACITY)]) == ["texts overlap"]
    assert whats([shape((900, 0, 950, 10), opacity=0.0)]) == []


def test_describe_names_both_items() -> None:
    (c,) = collisions([text((100, 100, 130, 110), id="t8"), text((125, 104, 150, 120), role="badge", text="4/3")], FRAME)
    line = c.describe()
    assert "label 'pow' (t8)" in line and "badge '4/3'" in line and "[100, 100, 130, 110]" in line


def test_what_lies_under_an_opaque_panel_is_hidden_and_what_shows_through_is_not() -> None:
    """The loss curve's backdrop covers the graph: its axis label over a card under it is no
    collision once it is opaque, is one while it fades in (the card still shows through), and
    a card only partly under it, or drawn over it, still counts."""
    card = shape((100, 100, 160, 130), id="t2")
    axis = text((120, 125, 150, 138), text="pass")
    for backdrop, expected in ((0.95, []), (0.5, ["text on a card not its own"])):
        panel = shape((50, 50, 400, 300), role="panel", opacity=backdrop)
        assert whats([card, panel, axis]) == expected, backdrop
    panel = shape((50, 50, 400, 300), role="panel")
    assert whats([panel, card, axis]) == ["text on a card not its own"]  # drawn over the panel
    wide = shape((20, 100, 160, 130), id="t2")  # reaches out from under it
    assert whats([wide, panel, axis]) == ["text on a card not its own"]


def test_a_text_beside_a_card_under_its_ring_collides_and_its_own_texts_do_not() -> None:
    """The walk's ring round the visited card reaches past the card: a rule written flush with
    the card starts under it (issue 39, leaf_nodes' ``w1: 1/2 × 2 =``); the card's own name
    inside it, and a token riding away from the card, do not collide with it."""
    card = shape((100, 100, 200, 160), id="t4")
    ring = shape((96, 96, 204, 164), role="ring", id="t4")
    rule = text((200.2, 120, 300, 135), role="note", text="w1: 1/2 × 2 =", id="note:t4")
    assert whats([card, ring, rule]) == ["text on a ring"]
    clear = text((206, 120, 300, 135), role="note", text="w1: 1/2 × 2 =", id="note:t4")
    name = text((110, 105, 180, 130), text="w1 * x", id="t4")
    riding = text((190, 150, 215, 170), role="badge", text="1", id="t2->t4")
    assert whats([card, ring, clear, name, riding]) == []


def test_a_number_waiting_just_past_a_value_reads_with_it() -> None:
    """L1's ``= 4`` and the gradient ``1`` waiting level with it past the card's edge read
    ``= 4 1`` (issue 39, as ``z - 1 2`` did); off the card's corner, or riding past, they do not."""
    four = text((708, 110, 720, 127), role="value", text="4", id="t5")
    one = text((771, 118, 786, 140), role="badge", text="1", id="t5")
    assert [c.what for c in waits_reading_on([one], [four, one])] == ["badge reads as more of a value"]
    below = text((771, 136, 786, 157), role="badge", text="1", id="t5")
    assert waits_reading_on([below], [four, below]) == []
    assert waits_reading_on([], [four, one]) == []  # riding past: not waiting


def test_a_number_waiting_just_past_a_rules_result_reads_with_it() -> None:
    """REVIEW5 item 5: L1's seed ``1`` waiting just right of the pow rule's product ``4`` read
    ``1 × 2 × 2 = 4 1``; the pill ends a note's row ``... =``, so it is the rule's result."""
    row = {"kind": "text", "role": "note", "text": "1 × 2 × 2 =", "bbox": [416, 142, 557, 159], "opacity": 1.0,
           "id": "note:t5"}
    pill = {"kind": "text", "role": "badge", "text": "4", "bbox": [562, 137, 584, 164], "opacity": 1.0, "id": "t4->t5"}
    seed = {"kind": "text", "role": "badge", "text": "1", "bbox": [586, 122, 606, 149], "opacity": 1.0, "id": "t5"}
    assert [c.what for c in waits_reading_on([seed, pill], [row, pill, seed])] == ["badge reads as more of a rule's result"]
    assert waits_reading_on([seed, pill], [dict(row, text="pow: d² → × 2d"), pill, seed]) == []  # no result there
    ride = dict(pill, bbox=[586, 137, 608, 164])  # its copy setting off along the edge: not a second number
    assert waits_reading_on([ride, pill], [row, pill, ride]) == []
    assert waits_reading_on([dict(seed, bbox=[587, 128, 606, 154]), pill],
                            [dict(row, bbox=[423, 93, 559, 109]), dict(pill, bbox=[564, 88, 585, 114]),
                             dict(seed, bbox=[587, 128, 606, 154])]) == []  # the rule set higher: apart
