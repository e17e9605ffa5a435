"""The whole graph moved up, not grown, into the band the code pane frees stepping aside over a
tall frame's graph: room under it for the recap board by what it names.

Why: at 9:16 a graph as wide as the frame finds no grow (`clear_view`), and the board found
room only far from what it names (issue 39 item 6: missing_gradient's ``w.grad = 8`` by sub's
card, 0.41 of the frame's height from w's bucket; under x's card beside w's bucket 47 px were
free, 48 needed). The pane stepping aside to its lit line (its printed lines under it) frees a
band over the graph; the graph moving up into it, as little as gives the board a spot where it
reads as the note of what it names (`reads_as_its`), frees as much under it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from scenes.draw.whole_board import clear_of_marks, reads_as_its, side_spots
from scenes.layout.label_sides import gap_between
from scenes.layout.whole import Stretch
from scenes.theme import Rect

STEPS = 8
"""The even steps up to the whole band in which `shift_up` tries the graph's move."""


def rise(dy: float) -> Stretch:
    """The whole graph's move straight up by ``dy``, its cards no larger.

    >>> rise(2.0).point((1.0, 1.0))
    (1.0, 3.0)
    """
    return Stretch(1.0, 1.0, 1.0, (0.0, 0.0), (0.0, dy))


def shift_up(room: Rect, size: tuple[float, float], most: float, shapes_at: Callable[[float], list[Rect]],
             boxes_at: Callable[[float], Mapping[str, Rect]], rows: Sequence[Sequence[str]], far: float,
             gap: float) -> tuple[float, Rect] | None:
    """The least move up (of `STEPS` up to ``most``) that gives a board of ``size`` a spot along
    the sides of ``room`` (`side_spots`), ``gap`` off every shape moved (``shapes_at``: what the
    graph and the marks going with it cover, moved up that far), where it reads as the note of
    what one of ``rows`` names (``boxes_at``: the cards and buckets so moved, within ``far``);
    that move and, of the spots, the one nearest what it names. None where no move does.

    >>> boxes = lambda dy: {"w": (0.0, 1.0 + dy, 1.0, 2.0 + dy), "x": (2.0, 1.0 + dy, 3.0, 2.0 + dy)}
    >>> shift_up((0.0, 0.0, 3.0, 3.0), (1.0, 1.0), 2.0, lambda dy: list(boxes(dy).values()), boxes,
    ...          [["w"]], 1.0, 0.3)
    (0.5, (0.0, 0.0, 1.0, 1.0))
    """
    for i in range(1, STEPS + 1):
        dy = most * i / STEPS
        shapes, boxes = shapes_at(dy), boxes_at(dy)
        spots = [s for s in side_spots(room, size) if clear_of_marks(s, shapes, gap)
                 and reads_as_its(s, boxes, rows, far)]
        if spots:
            return dy, min(spots, key=lambda s: min(gap_between(s, boxes[k]) for row in rows for k in row
                                                    if k in boxes))
    return None
