"""Which walks may slide their graph into the column a code pane stepped aside frees (16:9).

Why: where the pane stands aside beside the graph for the walk (``walk_code: lit``), home leaves
the column under the lit line empty; a graph as tall as the frame it may use is seen no closer
than home at its visits, and stays home right of that column through the walk (issue 39:
dynamic_graph 16:9, 26.6-40.0 s and 104.0-125.6 s, half the frame empty). Those walks' views
slide the graph into the column at its size (`scenes.draw.camera_views.VisitViews.slide`), and
their plan takes the camera out before the pane comes back whole over it
(`scenes.render.camera_plan`); both ask here which walks they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scenes.layout.camera import held
from scenes.layout.place import Layout
from scenes.theme import Rect

Sight = tuple[Rect, Sequence[Rect], float]
"""Where a shape may show while the camera is away from home: the frame, what it keeps off
there (the pane stepped aside, what it printed, the legend), and a card's slack at the frame's
side (`scenes.draw.focus.Sight`)."""


def column_walks(plan: Any, camera: frozenset[int], home: Layout, region: Rect, reach: float,
                 empty: float) -> frozenset[int]:
    """The beats of the walks (runs of beats with a visit of ``camera``, the seqs the camera
    moves on) whose first visit's close view, the cards it holds (`held`) with ``reach`` round
    them for their tags, is no larger than home in ``region`` (the walk's, `walk_region`: the
    graph as tall as the frame it may use) and leaves at home a column of ``region`` left of
    them ``empty`` large at least (``layout.fill_empty`` of the frame).

    >>> from scenes.layout.place import Box
    >>> from scenes.storyboard.cues import Cue
    >>> lay = type("L", (), {"boxes": {"t1": Box("t1", "op", 1.0, 0.0, 1.0, 4.0)}, "routes": []})()
    >>> p = type("P", (), {"cues": (Cue(1.0, 0.5, "visit", 2, ("n1", "t1"), seqs=(3,)),
    ...                             Cue(3.0, 0.5, "visit", 3, ("n1", "t1"), seqs=(4,)))})()
    >>> [column_walks(p, frozenset({3, 4}), lay, (-2.0, -2.1, 2.0, 2.1), 0.1, e) for e in (4.0, 12.0)]
    [frozenset({2, 3}), frozenset()]
    >>> column_walks(p, frozenset({3, 4}), lay, (-3.0, -3.0, 3.0, 3.0), 0.1, 4.0)
    frozenset()
    """
    visits = [c for c in plan.cues if c.kind == "visit" and c.seqs and c.seqs[0] in camera]
    beats = {v.beat for v in visits}
    out: set[int] = set()
    for v in visits:
        if v.beat - 1 in beats or any(c.beat == v.beat and c.start < v.start for c in visits):
            continue  # not the walk's first visit
        card = next((k for k in reversed(v.ids) if k in home.boxes), None)
        if card is None:
            continue
        bs = [home.boxes[k].bounds for k in held(home, card)]
        left = min(b[0] for b in bs) - reach
        w, h = max(b[2] for b in bs) + reach - left, max(b[3] for b in bs) - min(b[1] for b in bs) + 2 * reach
        if min((region[2] - region[0]) / w, (region[3] - region[1]) / h) <= 1.0 + 1e-9 \
                and (left - region[0]) * (region[3] - region[1]) >= empty - 1e-9:
            b = v.beat
            while b in beats:
                out.add(b)
                b += 1
    return frozenset(out)


def slid_left(cards: Sequence[Rect], notes: Sequence[Rect], sight: Sight, empty: float) -> float:
    """How far left a graph moves at its size into the column left of its ``cards`` (each with
    what reaches past it), where that column is ``empty`` large at least (else 0): to the
    middle of ``sight``'s frame, or as far as every card and its ``notes`` (the last visit's
    note) show inside its side and short of what it keeps off (their heights stay: only their
    sides move; a note beside the top card stops short of the lit line, dynamic_graph 16:9's
    first walk).

    >>> sight = ((-7.0, -3.0, 7.0, 4.0), [(-7.0, 3.2, -0.5, 4.0)], 0.05)
    >>> graph = [(2.0, -3.0, 6.0, 3.0)]
    >>> slid_left(graph, [], sight, 30.0), slid_left(graph, [(1.0, 3.0, 2.0, 3.5)], sight, 30.0)
    (4.0, 1.5)
    >>> slid_left(graph, [], sight, 70.0)
    0.0
    """
    shown, keep_off, slack = sight
    left, right = min(r[0] for r in cards), max(r[2] for r in cards)
    if (left - shown[0]) * (shown[3] - shown[1]) < empty - 1e-9:
        return 0.0
    rects = [*cards, *notes]
    far = min([r[0] - shown[0] + slack for r in rects]
              + [r[0] - o[2] for r in rects for o in keep_off if o[2] <= r[0] + 1e-9 and r[1] < o[3] and r[3] > o[1]])
    return max(0.0, min((left + right - shown[0] - shown[2]) / 2, far))
