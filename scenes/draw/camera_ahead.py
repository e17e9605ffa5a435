"""What the walk's camera will do later in a walk, asked now: where it only moves the graph aside
(`scenes.layout.camera.pans_only`), the visits a move goes aside for, and where a note written now
stays in view through the moves to come.

Why: a move between two visits runs under the caption explaining the earlier one's note, up to
the next visit's start (the plan leaves no pause after it, `scenes.render.camera_plan`); moved
aside there for the next note, the graph took the one before out of the frame while it was read
(missing_gradient 9:16: 99 px right for mul's rule 0.6 s before "Sub's derivative ... unchanged"
ended; sub's rule, right of z - 1, left the frame). Pure: cues, rectangles and `Zoom` maps.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scenes.layout.focus import Zoom
from scenes.storyboard.cues import Cue
from scenes.theme import Rect


def walk_ahead(cues: Sequence[Cue], move: Cue, duration: float) -> list[Cue]:
    """The visits of the walk from the camera's ``move`` on, up to the move that takes the camera
    out (one with no ids; none: the clip's ``duration``): a move aside goes aside for the notes
    of all of them, so the camera moves once, as far as the last needs, and stays.

    >>> cues = [Cue(19.9, 0.6, "camera", 2, ("n3", "t4")), Cue(20.5, 0.5, "visit", 2, ("n3", "t4"), seqs=(16,)),
    ...         Cue(26.27, 0.5, "visit", 2, ("n2", "t3"), seqs=(17,)), Cue(30.0, 0.6, "camera", 2, ()),
    ...         Cue(40.0, 0.5, "visit", 4, ("n5", "t6"), seqs=(20,))]
    >>> [c.start for c in walk_ahead(cues, cues[0], 60.0)]
    [20.5, 26.27]
    """
    end = move.start + move.duration - 1e-6
    out = min((c.start for c in cues if c.kind == "camera" and not c.ids and c.start >= end), default=duration)
    return [c for c in cues if c.kind == "visit" and c.seqs and end <= c.start < out]


def kept_in_view(shown: Rect, moves: Iterable[Zoom | None]) -> Rect | None:
    """The part of ``shown`` (where a shape shows) that each of ``moves`` (a move of the graph
    from where it stands now; None: it stays) keeps in view: a note there stays through them.
    None where that is all of ``shown``, or where a move comes closer or farther (not a pan: the
    camera keeps the note in view itself, `VisitViews._explained`), or where no part is kept.

    >>> kept_in_view((-3.7, -4.9, 3.7, 6.6), [None, Zoom(1.0, (0.0, 0.0), (1.65, 0.0))])
    (-3.7, -4.9, 2.05, 6.6)
    >>> kept_in_view((-3.7, -4.9, 3.7, 6.6), [Zoom(1.2, (0.0, 0.0), (1.0, 0.0))]) is None
    True
    """
    x0, y0, x1, y1 = shown
    for z in moves:
        if z is None:
            continue
        if abs(z.factor - 1.0) > 1e-9:
            return None
        dx, dy = z.point((0.0, 0.0))  # what lands in view: the frame it shows, moved back
        x0, y0 = max(x0, shown[0] - dx), max(y0, shown[1] - dy)
        x1, y1 = min(x1, shown[2] - dx), min(y1, shown[3] - dy)
    kept = (round(x0, 9), round(y0, 9), round(x1, 9), round(y1, 9))
    return kept if x0 < x1 and y0 < y1 and kept != tuple(round(v, 9) for v in shown) else None
