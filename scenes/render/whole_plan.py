"""When the whole graph grows into the frame the code pane frees: the ``whole`` cues of a clip at
one aspect, laid into pauses its plan has.

Why: once the program is typed and its graph built, what the clip says next is about the graph
as a whole (its last teaching beat's close, its takeaway), and a graph laid out beside or under
the whole code pane is small (issue 39 item 4: half the frame at its largest). The move takes no
time of its own, as the walk's camera takes none (`scenes.render.camera_plan`): it goes in the
last pause at least ``camera_move`` long (else the longest of at least ``camera_least``) after
the graph's last card or arrow is drawn and before the next beat's first cue, landing at its
end, as what comes next begins; and where a later cue needs the whole pane (a line lit, a line
printed), a ``whole_back`` cue takes it back in the pause before that cue (where that pause is
the one the graph grew in, it grows in its first half; no room for both, or
for the graph to stay grown as long as a move takes: no move).
In a clip with a backward walk, the walk's camera has the graph until the last walk is over
and the camera is back out for the whole (``moves``, the camera's cues), and the takeaway's
recap is on screen (the grown graph keeps off its board): the graph grows in the first pause
after that at least ``camera_least`` long (not the clip's last), and stays; what the program
printed stays on screen under the lit line (`CodeView.lines_foot`: the takeaways quote it,
grad_accumulation's 12 then 6, missing_gradient's None). A graph that fills
``layout.fill_graph`` of the frame at home, or an aspect whose ``whole_graph`` is ``home``, has
no move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scenes.layout.camera import graph_bounds
from scenes.layout.clip import shows_code
from scenes.layout.place import Layout
from scenes.layout.whole import area
from scenes.render.pauses import beat_at, pauses, pick
from scenes.storyboard.cues import BUILDS, CONSOLE_KINDS, Cue, cue_kind
from scenes.storyboard.plan import Plan
from scenes.storyboard.timings import default_timings
from scenes.theme import Theme


def _needs_pane(c: Cue) -> bool:
    """Whether cue ``c`` needs the whole code pane: it lights a line, or prints under it."""
    return c.kind == "code_line" or c.kind in CONSOLE_KINDS or cue_kind(c.kind).follows_line


def whole_cues(p: Plan, home: Layout, source: str | None, spec: Any, theme: Theme,
               moves: Sequence[Cue] = ()) -> list[Cue]:
    """The ``whole`` cue of ``p`` (an aspect-free plan) at the aspect of ``spec``, where the clip
    is laid out as ``home`` and the walk's camera moves at ``moves``, and its ``whole_back``
    where a later cue needs the pane (the module's doc); none where it has no move."""
    if (spec.whole_graph != "grow" or not home.boxes or not shows_code(p, source)
            or area(graph_bounds(home)) >= theme.layout.fill_graph * spec.frame_width * spec.frame_height):
        return []
    builds = [c for c in p.cues if c.kind in BUILDS]
    if not builds:
        return []
    busy = [(c.start, c.start + c.duration) for c in (*p.cues, *moves)]
    last = max(builds, key=lambda c: c.start + c.duration)
    built, beat = last.start + last.duration, last.beat
    walks = [c for c in p.cues if c.kind == "visit"]
    if not walks:
        return _grow_from(p, busy, built, beat)
    # the camera's until the last walk is over and the camera is back out, and past the recap
    # (its board then on screen, the grown graph keeps off it): in the first pause then, and stays
    after = [*walks, *moves, *(c for c in p.cues if _needs_pane(c) or c.kind == "recap")]
    built = max([built, *(c.start + c.duration for c in after)])
    tm = default_timings()
    span = next((s for s in pauses(busy, built, p.duration) if s[1] - s[0] >= tm.camera_least - 1e-9), None)
    if span is None or span[1] >= p.duration - 1e-9:
        return []
    d = round(min(tm.camera_move, span[1] - span[0]), 3)
    start = round(span[1] - d, 3)
    return [Cue(start, d, "whole", beat_at(p, start))]


def _grow_from(p: Plan, busy: list[tuple[float, float]], built: float, beat: int) -> list[Cue]:
    """The ``whole`` cue in a pause after ``built`` before the beat after ``beat``, and its
    ``whole_back`` where a later cue needs the pane (the module's doc); none where it has no move."""
    tm = default_timings()
    then = min([c.start for c in p.cues if c.beat > beat], default=p.duration)

    def move(lo: float, hi: float, kind: str) -> Cue | None:
        span = pick(pauses(busy, lo, hi), tm.camera_move, tm.camera_least)
        if span is None:
            return None
        d = round(min(tm.camera_move, span[1] - span[0]), 3)
        start = round(span[1] - d, 3)
        return Cue(start, d, kind, beat_at(p, start))

    grow = move(built, then, "whole")
    if grow is None:
        return []
    needs = [c.start for c in p.cues if c.start >= grow.start + grow.duration - 1e-9 and _needs_pane(c)]
    if not needs:
        return [grow]
    back = move(grow.start + grow.duration, min(needs), "whole_back")
    if back is None:  # the pause before the pane is needed again is the one it grew in: grow earlier in it
        grow = move(built, (built + then) / 2, "whole")
        back = move(grow.start + grow.duration, min(needs), "whole_back") if grow is not None else None
    if grow is None or back is None or back.start - grow.start - grow.duration < tm.camera_move - 1e-9:
        return []  # grown for less than a move takes: not worth the moves
    return [grow, back]
