"""Where the recap board stands once the whole graph has grown at the takeaway: by what it names.

Why: at the takeaway's last grow the code pane goes (`WholeGraph._pane_away`) and the board slid
along its row to a side of the frame; where that left it across the frame from everything it
names, it read as nobody's note (issue 39 item 6: missing_gradient 16:9's ``w.grad = 8`` under
the checklist, top right, w's bucket bottom left, once the warning's three rows left it no room
under the printed lines). A board slid to within reach of something it names stays there
(`within_reach`); else it goes where it reads as the note of what it names, the card nearest it
(`reads_as_its`): a spot along the free frame's sides, the graph grown round it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scenes.layout.clear_rects import meets
from scenes.layout.label_sides import gap_between
from scenes.theme import Rect

SPOTS = 5
"""How many spots along each side of the free frame a board may take (its corners among them)."""


def side_spots(room: Rect, size: tuple[float, float]) -> list[Rect]:
    """The board's rectangles of ``size`` against the sides of ``room``, `SPOTS` along each side,
    evenly (each corner once)."""
    w, h = size
    xs = [room[0] + w / 2 + (room[2] - room[0] - w) * i / (SPOTS - 1) for i in range(SPOTS)]
    ys = [room[1] + h / 2 + (room[3] - room[1] - h) * i / (SPOTS - 1) for i in range(SPOTS)]
    centres = [(x, y) for x in xs for y in (ys[0], ys[-1])] + [(x, y) for y in ys[1:-1] for x in (xs[0], xs[-1])]
    return [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for x, y in centres]


def reads_as_its(board: Rect, boxes: Mapping[str, Rect], rows: Sequence[Sequence[str]], far: float) -> bool:
    """Whether ``board`` reads as the note of what one of its rows names (``rows``: per row, the
    keys in ``boxes`` of what it names, a gradient's bucket and its card): one of those is the
    card or bucket nearest the board, within ``far`` of it.

    >>> boxes = {"bucket:w": (0.0, 0.0, 1.0, 1.0), "w": (0.0, 1.5, 1.0, 2.5), "x": (3.0, 0.0, 4.0, 1.0)}
    >>> reads_as_its((1.2, 0.0, 2.0, 1.0), boxes, [["bucket:w", "w"]], 1.0)
    True
    >>> reads_as_its((2.1, 0.0, 2.9, 1.0), boxes, [["bucket:w", "w"]], 1.0)
    False
    """
    if not boxes:
        return False
    nearest = min(boxes, key=lambda k: gap_between(board, boxes[k]))
    return gap_between(board, boxes[nearest]) <= far and any(nearest in row for row in rows)


def within_reach(board: Rect, boxes: Mapping[str, Rect], rows: Sequence[Sequence[str]], far: float) -> bool:
    """Whether something one of ``board``'s rows names (``rows``, as `reads_as_its` has them)
    stands within ``far`` of it, nearest or not: a board slid there is left as it is (leaf_nodes
    16:9's, by b's bucket, x's card nearer).

    >>> boxes = {"bucket:w": (0.0, 0.0, 1.0, 1.0), "x": (3.0, 0.0, 4.0, 1.0)}
    >>> [within_reach((2.1, 0.0, 2.9, 1.0), boxes, [["bucket:w"]], far) for far in (1.5, 1.0)]
    [True, False]
    """
    return any(gap_between(board, boxes[k]) <= far for row in rows for k in row if k in boxes)


def clear_of_marks(board: Rect, marks: Sequence[Rect], gap: float) -> bool:
    """Whether ``board``, ``gap`` round it, meets none of ``marks`` (the legend, the checklist)."""
    grown = (board[0] - gap, board[1] - gap, board[2] + gap, board[3] + gap)
    return not any(meets(grown, m) for m in marks)
