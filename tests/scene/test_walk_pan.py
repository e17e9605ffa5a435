"""The walk's camera moves the graph aside where no closer view leaves a visit's note room beside
its card (REVIEW6 items 1 and 2: at 9:16 the rules of add, mul and relu were written a row or two
above their nodes, beside another card, while the camera stayed home)."""

from __future__ import annotations

from scenes.layout.camera import WHOLE, visit_view
from scenes.layout.place import Box

GAP = 0.3


def _lay(boxes: dict[str, Box]) -> object:
    return type("L", (), {"boxes": boxes})()


def test_a_note_with_no_room_beside_its_card_at_home_gets_it_from_a_move_aside() -> None:
    """Two cards side by side, as wide as a tall frame leaves no closer view of: the note of the
    right one fits neither past it (the frame ends) nor left of it (the other card). The camera
    moves the graph sideways, not larger, so that the note stands level with its card, inside
    the frame, and touches no card."""
    boxes = {"y": Box("y", "op", -1.2, 0.0, 2.0, 1.0), "a": Box("a", "op", 1.2, 0.0, 2.0, 1.0)}
    region, note = (-3.5, -0.5, 3.5, 0.5), (2.2, 0.6)  # as tall as the cards: no closer view
    z = visit_view(_lay(boxes), ["y", "a"], note, region, 2.0, GAP, ["a"], past=0.5)
    assert z != WHOLE and z.factor == 1.0
    (left, bottom), (right, top) = z.point((2.2, -0.3)), z.point((2.2 + GAP + note[0], 0.3))
    assert region[0] <= left and right <= region[2] and region[1] <= bottom and top <= region[3]
    assert region[0] <= z.point((-2.2, 0.0))[0]  # the other card stays in the frame too


def test_a_note_with_room_at_home_leaves_the_camera_home() -> None:
    """Where the note fits beside its card as laid out, the camera does not move for it."""
    boxes = {"y": Box("y", "op", -1.2, 0.0, 2.0, 1.0), "a": Box("a", "op", 1.2, 0.0, 2.0, 1.0)}
    z = visit_view(_lay(boxes), ["y", "a"], (1.0, 0.6), (-3.5, -0.5, 4.5, 0.5), 2.0, GAP, ["a"], past=0.5)
    assert z == WHOLE
