"""When a code pane stepped aside to the walk's lit line comes back whole, read off a plan.

Why: where the pane stands aside beside the graph (16:9), a walk's camera may slide the graph,
seen no closer than home, into the column the pane frees (`scenes.draw.camera_views`); it must be
back home before the pane comes back whole over that column, so the plan puts the walk's way out
before then (`scenes.render.camera_plan`) and the scene slides only where it did. Both read the
time here. The pane comes back at a cue that `opens_pane`, but for a print line's (its light and
what it prints) while nothing another line printed is on screen: the pane keeps its lit line
alone then, what it printed hanging under it (`scenes.draw.code`'s ``bar_to``, dynamic_graph 16:9's
first ``print(w.grad)``).
"""

from __future__ import annotations

from collections.abc import Sequence

from scenes.storyboard.cues import Cue, cue_kind, opens_pane


def keeps_aside(cues: Sequence[Cue], c: Cue) -> bool:
    """Whether ``c`` (of ``cues``, a plan's) lights or prints a line that prints while no other
    line has printed yet: the pane stepped aside keeps that line alone.

    >>> light, shown = Cue(35.6, 0.3, "code_line", 4, line=8), Cue(35.9, 0.6, "output_line", 4, line=8)
    >>> keeps_aside([light, shown], light), keeps_aside([Cue(9.0, 0.6, "output_line", 2, line=3), light, shown], light)
    (True, False)
    """
    if c.line is None or not (c.kind == "code_line" or cue_kind(c.kind).console):
        return False
    prints = [o for o in cues if o.kind == "output_line"]
    return any(o.line == c.line for o in prints) and not any(o.line != c.line and o.start < c.start for o in prints)


def back_whole(cues: Sequence[Cue], at: float) -> float:
    """When the pane stepped aside at ``at`` comes back whole: the first cue from then that
    `opens_pane` and does not keep it aside (`keeps_aside`); infinity where none does."""
    return min((c.start for c in cues if c.start >= at - 1e-9 and opens_pane(c) and not keeps_aside(cues, c)),
               default=float("inf"))


def way_out(cues: Sequence[Cue], cue: Cue) -> Cue | None:
    """The walk camera's move out (a ``camera`` cue with no ids) first after ``cue``."""
    return next((c for c in sorted(cues, key=lambda c: c.start)
                 if c.kind == "camera" and not c.ids and c.start > cue.start + 1e-9), None)


def out_before_pane(cues: Sequence[Cue], cue: Cue) -> bool:
    """Whether the walk's way out after the camera move ``cue`` lands before the pane comes back
    whole (`back_whole`): a view made at ``cue`` may stand in the column the pane freed."""
    out = way_out(cues, cue)
    return out is not None and out.start + out.duration <= back_whole(cues, cue.start) + 1e-9


def last_out_before_pane(cues: Sequence[Cue], cue: Cue) -> bool:
    """Whether the walk's way out after ``cue`` (`way_out`) lands before the pane comes back whole
    (`out_before_pane`) and no other camera move comes between: the view it moves to is the one
    the pane comes back beside (a move home after it would carry the graph on).

    >>> walk, out = Cue(79.0, 0.6, "camera", 12, ids=("h",)), Cue(83.8, 0.6, "camera", 12)
    >>> home = Cue(84.5, 0.6, "camera", 12)
    >>> back = Cue(85.2, 0.15, "code_line", 13, line=21)
    >>> last_out_before_pane([walk, out, back], walk), last_out_before_pane([walk, out, home, back], walk)
    (True, False)
    """
    out = way_out(cues, cue)
    if out is None or not out_before_pane(cues, cue):
        return False
    back = back_whole(cues, cue.start)
    return not any(c.kind == "camera" and out.start + 1e-9 < c.start < back - 1e-9 for c in cues)
