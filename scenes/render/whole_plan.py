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
recap is on screen (the grown graph keeps off its board; or before the recap, where the pane
stands beside the graph and nothing prints after the walk, `_before_recap`: the board then finds
its room in what the grown graph leaves): the graph grows in the first pause after that at least
``camera_least`` long (not the clip's last), and stays; what the program
printed stays on screen under the lit line (`CodeView.lines_foot`: the takeaways quote it,
grad_accumulation's 12 then 6, missing_gradient's None). Before that, where the pane stands aside
beside the graph after a walk until a cue lights another line, the graph grows into the column it
frees and goes back with the pane before that cue (`_after_walks`). A graph that fills
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
from scenes.storyboard.cues import BUILDS, CONSOLE_KINDS, Cue, cue_kind, needs_pane
from scenes.storyboard.plan import Plan
from scenes.storyboard.timings import default_timings
from scenes.theme import Theme


def whole_cues(p: Plan, home: Layout, source: str | None, spec: Any, theme: Theme,
               moves: Sequence[Cue] = (), events: Sequence[Any] = ()) -> list[Cue]:
    """The ``whole`` cue of ``p`` (an aspect-free plan) at the aspect of ``spec``, where the clip
    is laid out as ``home`` and the walk's camera moves at ``moves``, and its ``whole_back``
    where a later cue needs the pane (the module's doc); none where it has no move. With the
    log's ``events`` (the lines its cues light), a grow and a way back after a walk too, where
    the pane stays aside beside the graph (`_after_walks`)."""
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
    # (its board then on screen, the grown graph keeps off it; or before it, `_before_recap`):
    # in the first pause then, and stays
    early = _before_recap(p, spec, home, walks)
    after = [*walks, *moves, *(c for c in p.cues if needs_pane(c) or (c.kind == "recap" and not early))]
    built = max([built, *(c.start + c.duration for c in after)])
    tm = default_timings()
    span = next((s for s in pauses(busy, built, p.duration) if s[1] - s[0] >= tm.camera_least - 1e-9), None)
    final: list[Cue] = []
    if span is not None and span[1] < p.duration - 1e-9:
        d = round(min(tm.camera_move, span[1] - span[0]), 3)
        start = round(span[1] - d, 3)
        final = [Cue(start, d, "whole", beat_at(p, start))]
    if not pane_beside(spec, home) or not events:
        return final
    until = final[0].start if final else p.duration
    return _after_walks(p, busy, moves, last.start + last.duration, until, events) + final


def _before_recap(p: Plan, spec: Any, home: Layout, walks: Sequence[Cue]) -> bool:
    """Whether the whole graph grows before the takeaway's recap, not after it: where the pane
    stands aside beside the graph (`pane_beside`) and nothing prints after the last walk. The
    board then finds its room in what the grown graph leaves (the top of the column the pane
    frees, under the lit line and the legend lifted there), set at the grown cards' value size:
    set first, amid the column, it kept the graph beside it (backward_walk 16:9: 45 % of the
    frame, 55 % grown first). Not where a line prints after the walk (the pane's step aside for
    the grow took missing_gradient 16:9's printed None while its caption was up), nor where the
    pane stands over the graph (backward_walk 9:16: the grown graph left the board no room)."""
    if not pane_beside(spec, home) or not walks:
        return False
    end = max(c.start + c.duration for c in walks)
    return not any(c.kind in CONSOLE_KINDS for c in p.cues if c.start >= end - 1e-9)


def pane_beside(spec: Any, home: Layout) -> bool:
    """Whether the code pane, stepped aside to the walk's lit line, stands beside the graph (left
    of it, at the aspect of ``spec``, the clip laid out as ``home``): the column it frees is the
    whole graph's to grow into after a walk (`_after_walks`)."""
    return spec.walk_code == "lit" and not home.code_lit and spec.code[2] <= spec.graph[0]


def _after_walks(p: Plan, busy: list[tuple[float, float]], moves: Sequence[Cue], built: float, until: float,
                 events: Sequence[Any]) -> list[Cue]:
    """After each walk's move out (a ``camera`` cue of ``moves`` with no ids) once the graph is
    built (``built``), and before ``until``: the pane, beside the graph, stands aside to the
    walk's lit line until a cue lights another (`needs_pane`; a line that printed all it shows
    keeps it aside, and the graph is back all the same), and home leaves the column it freed
    empty (leaf_nodes 16:9: 38.2-46.4 s, the buckets filling). The whole graph grows into it in
    the first pause at least ``camera_least`` long after the move out, and goes back (the pane
    with it, `scenes.draw.whole`) landing at the end of the last before that cue; none where the
    next walk, camera move, build or recap comes first, or no such cue comes before ``until`` (the
    graph grows for good then: backward_walk 16:9 grew, and shrank 4 s before it), or it would be
    held grown under ``camera_hold`` (grown and back within a breath, a pump)."""
    tm = default_timings()

    def line_of(c: Cue) -> int | None:
        if c.kind == "code_line" or not c.seqs:
            return c.line
        return events[c.seqs[0]].line if cue_kind(c.kind).follows_line else None

    visits = [c for c in p.cues if c.kind == "visit"]
    out: list[Cue] = []
    for o in (m for m in moves if m.kind == "camera" and not m.ids and m.start >= built - 1e-9):
        end = o.start + o.duration
        walked = [v for v in visits if v.start < o.start]
        if not walked:
            continue
        lit = line_of(walked[-1])
        later = [c for c in (*p.cues, *moves) if c.start >= end - 1e-9 and c is not o]
        back = min([c.start for c in later if needs_pane(c) and line_of(c) != lit], default=until)
        stop = min([back, *(c.start for c in later if c.kind in ("visit", "camera", "recap") or c.kind in BUILDS)])
        if back >= until or stop < back - 1e-9:  # the pane is not needed whole before the graph grows for good,
            continue  # or something else comes first
        found = [s for s in pauses(busy, end, back) if s[1] - s[0] >= tm.camera_least - 1e-9]
        if not found:
            continue
        grow = Cue(round(found[0][0], 3), round(min(tm.camera_move, found[0][1] - found[0][0]), 3), "whole",
                   beat_at(p, found[0][0]))
        d = round(min(tm.camera_move, found[-1][1] - found[-1][0]), 3)
        start = round(found[-1][1] - d, 3)
        if start - (grow.start + grow.duration) < tm.camera_hold - 1e-9:
            continue
        out += [grow, Cue(start, d, "whole_back", beat_at(p, start))]
    return out


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
    needs = [c.start for c in p.cues if c.start >= grow.start + grow.duration - 1e-9 and needs_pane(c)]
    if not needs:
        return [grow]
    back = move(grow.start + grow.duration, min(needs), "whole_back")
    if back is None:  # the pause before the pane is needed again is the one it grew in: grow earlier in it
        grow = move(built, (built + then) / 2, "whole")
        back = move(grow.start + grow.duration, min(needs), "whole_back") if grow is not None else None
    if grow is None or back is None or back.start - grow.start - grow.duration < tm.camera_move - 1e-9:
        return []  # grown for less than a move takes: not worth the moves
    return [grow, back]
