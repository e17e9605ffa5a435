"""The pure plan: (events, storyboard, timings) -> timed cues and caption spans.

Why pure: the plan is where time, order and every displayed string are decided, so it can be
tested as data with no Manim; the scene only draws cues. Every string a cue shows is a
:class:`~.placeholders.Shown` naming the event (``seq``) and field it was read from.

Cue kinds, what their ``ids`` name and the ``role`` of their strings (the scene's contract), are
declared in :mod:`.cues`; the visuals, the spans they accept and the events they draw, in
:mod:`.visuals`; how each event becomes cues, in the visual's view (:mod:`.views`).

Facts that are not shown as text (requires_grad, is_leaf, dtype) are read from ``events[seq]``
for the seqs a cue lists.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.records import GradReset, Update, Visit

from .builder import Builder, _t
from scenes.voice.speech import Speaker

from .binding import bind
from .caption_events import CaptionEvent, CaptionSpan, events_of, first_shown
from .cuemarks import marks, unmarked
from .cues import Cue
from .logindex import Event, LogIndex
from .model import Storyboard
from .placeholders import Shown
from .narration import fill
from .nograd import leaf_grad_none
from .phrase_timing import phrases_of
from .phrases import lay_beat, lay_out_phrases
from .recap import recap_strings
from .timings import PlanTimings
from .views import VIEWS
from .views import graph as graph_view
from .visuals import TABLE, VISUAL_KINDS

__all__ = ["BeatTime", "CaptionSpan", "Cue", "Plan", "VISUAL_KINDS", "plan", "plan_dict"]


@dataclass(frozen=True)
class BeatTime:
    index: int
    visual: str
    start: float
    duration: float
    title: str | None = None
    """The storyboard's ``title:`` of the beat (its chapter's and article section's), if given."""


@dataclass(frozen=True)
class Plan:
    title: str
    duration: float
    cues: tuple[Cue, ...]
    captions: tuple[CaptionSpan, ...]
    beats: tuple[BeatTime, ...] = field(default=())

    def to_json(self) -> str:
        """The plan as JSON data (``render plan NAME --json``), keys in a fixed order."""
        return json.dumps(asdict(self), indent=1, ensure_ascii=False)

    def displayed(self) -> list[Shown]:
        """Every string the clip shows: cue strings, then caption numbers."""
        return [s for c in self.cues for s in c.strings] + [s for c in self.captions for s in c.strings]


class TooLong(Exception):
    """The beats planned so far already last ``seconds``, more than the plan was allowed; the
    beats after them (``beats`` were planned) were not."""

    def __init__(self, seconds: float, beats: int):
        super().__init__(f"the first {beats} beats last {seconds:.0f} s")
        self.seconds, self.beats = seconds, beats


def plan(events: list[Event], board: Storyboard, timings: PlanTimings, source: str | None = None,
         index: LogIndex | None = None, longest: float | None = None, speak: Speaker | None = None) -> Plan:
    """Lay the storyboard's beats out over the log; deterministic and free of side effects.

    ``source`` is the program text the code pane shows (the log header's, which carries any
    ``--set``); it defaults to the storyboard's program. ``index``: the log's index, when the
    caller has built it already (a checked storyboard has). ``longest``: seconds past which the
    beats still to plan are not (:class:`TooLong`), so a clip far too long costs no more to refuse.
    ``speak``: the voice that says each caption event (its timing: :mod:`scenes.voice.speech`);
    None, no voice: each event is up for its reading time. Either way each beat's cues are
    re-timed to its phrases (:mod:`.phrases`).
    """
    if index is None:
        index = LogIndex.build(events, source if source is not None else board.program)
        index.name_results(board.names)
    cues: list[Cue] = []
    captions: list[CaptionSpan] = []
    beats: list[BeatTime] = []
    now, cutoff = 0.0, -1
    shown_pass: tuple[int, int] | None = None  # (for line, pass) the code pane marks
    seen: dict[str, float] = {}  # when each string the cues show first comes on screen
    for i, beat in enumerate(board.beats):
        tm = timings.scaled(beat.pace)
        spec = TABLE[beat.visual]
        view = VIEWS[spec.view]
        b = Builder(index, board, i, now, tm, view.state(index) if view.state else None)
        selected = index.select(beat) if beat.span_key() else []
        made = max([e.seq for e in selected], default=cutoff)  # a name means what it is bound to by now
        for key, kind in (("emphasis", "emphasis"), ("dim", "dim")):
            ids = [x for name in getattr(beat, key) for x in index.ids_of(name, until=made)]
            if ids:
                b.add(kind, tm.caption_fade, ids, advance=False)
        focus = [t for name in beat.focus for t in index.ids_of(name, until=made) if t in index.tensor_event]
        if focus:  # the camera moves to those cards first, and back once the beat has shown its span
            b.add("focus", tm.focus_move, focus)
        checklist = [Shown(item, None, "checklist", "item") for item in board.checklist]
        asked = beat.check is not None or beat.asks is not None
        if asked and not any(c.kind == "check" for c in [*cues, *b.cues]):
            b.add("check", tm.node_appear, (), checklist, advance=False)  # the list comes in, nothing ticked
        if view.begin is not None:
            view.begin(b)
        if selected and spec.view in CATCH_UP_VIEWS:
            _catch_up(b, index, cutoff, min(e.seq for e in selected))
        elif selected and spec.every_pass:  # a loss_curve reads on to its last pass: the graph beside it too
            _catch_up(b, index, cutoff, max(e.seq for e in selected))
        for ev in selected:
            planner = view.planners.get(type(ev)) if type(ev) in spec.kinds else None
            if planner is None:
                continue
            if spec.lights_code:
                b.code_line(ev)
            planner(b, ev)
        # the pass mark sits beside the code pane's for line: a network picture has no pane
        at_pass = _loop_pass(index, selected) if selected and not spec.every_pass and spec.view != "network" else None
        if at_pass != shown_pass and (at_pass or shown_pass):
            _add_loop_pass(b, index, at_pass, now)
            shown_pass = at_pass
        for name in beat.grad_none:  # a result's .grad is None: its note comes as the words name it
            _add_grad_none(b, index, name, made)
        if beat.check is not None:  # ticked once the beat has shown what it checks, not as it asks
            b.add("check", tm.node_appear, (), checklist + [Shown(board.checklist[beat.check - 1], None,
                                                                   "checklist", "ticked")])
        if focus:
            b.add("unfocus", tm.focus_move, ())
        if selected:
            cutoff = max(e.seq for e in selected)
        said = _events(beat.narration, index, cutoff, board, tm, i)
        if i == 0 and beat.visual != "title_card":  # the title over the first beat's picture
            said = [CaptionEvent(board.title, (), "title")] + said
        phrases = phrases_of(said, speak, tm)
        bound = bind(phrases, b.cues, index, made, voiced=speak is not None)
        laid, spans, end = lay_beat(phrases, bound, now, seen, tm, i, len(captions) + 1)
        cues.extend(laid)
        for text, start in first_shown(laid).items():  # kept up to date, not found again each beat
            seen[text] = min(start, seen.get(text, start))
        captions += spans
        nxt = on_grid(end + _pause_after(board, i, tm), tm.beat_grid)
        beats.append(BeatTime(i, beat.visual, _t(now), _t(nxt - now), beat.title))
        now = nxt
        if longest is not None and now > longest and i + 1 < len(board.beats):
            raise TooLong(now, i + 1)
    if board.takeaway is not None:
        now = _takeaway(board, index, timings, now, cues, captions, beats, speak)
    return Plan(board.title, _t(now), tuple(cues), tuple(captions), tuple(beats))


def _pause_after(board: Storyboard, i: int, tm: PlanTimings) -> float:
    """Seconds from beat ``i``'s end to the next beat's start: ``beat_pause``, or where the next
    beat walks backward with the walk's camera (``camera: visits``, no ``focus:``), long enough
    for the camera's move in too (``camera_least``): the move takes no time of its own
    (`scenes.render.camera_plan`) and may take out of view what this beat's last caption names,
    so it waits until that caption is gone (missing_gradient: w, under "reading w.grad before
    backward gives None")."""
    nxt = board.beats[i + 1] if i + 1 < len(board.beats) else None
    walks = nxt is not None and Visit in TABLE[nxt.visual].kinds and not nxt.focus and board.camera == "visits"
    return max(tm.beat_pause, tm.camera_least) if walks else tm.beat_pause


def _add_grad_none(b: Builder, index: LogIndex, name: str, made: int) -> None:
    """The ``grad_none`` cue of ``name``'s latest tensor by seq ``made``: its name, and ``None``
    read from the log: its ``is_leaf`` (false: backward never fills a result's .grad), or for a
    leaf no fill of its bucket by then, or a ``name.grad = None`` after the last one."""
    tid = next((t for t in reversed(index.ids_of(name, until=made)) if t in index.tensor_event), None)
    ev = index.tensor_event.get(tid or "")
    if ev is None or (ev.is_leaf and not leaf_grad_none(name, index, made)):  # refused by validation
        return
    reset = index.latest(name, (GradReset,), made) if ev.is_leaf else None
    strings = [Shown(ev.name or name, ev.seq if ev.name else None, "name", "name"),
               Shown(graph_view.NONE_TEXT, reset.seq if reset is not None else ev.seq, "grad", "after")]
    b.add("grad_none", b.tm.node_appear, (ev.id, ev.node), strings, [ev.seq])


def on_grid(t: float, grid: float) -> float:
    """The first multiple of ``grid`` at or after ``t`` (to the millisecond): where the next beat starts.

    >>> on_grid(3.21, 0.2), on_grid(3.4, 0.2), on_grid(0.0, 0.2)
    (3.4, 3.4, 0.0)
    """
    return _t(math.ceil(round(t / grid, 6)) * grid)


CATCH_UP_VIEWS = ("graph", "step")
"""The views whose picture keeps weights' cards and buckets from beat to beat."""


def _catch_up(b: Builder, index: LogIndex, after: int, before: int) -> None:
    """What the beats skipped between seq ``after`` and ``before`` and the picture still shows:
    an update's new value on the weight's card, a reset's empty bucket, at the beat's start and
    all at once. A storyboard that shows pass one's step and then pass three's graph (the steps
    between untold) would otherwise show pass three computed from pass one's weights."""
    t, end = b.now, b.now
    for ev in index.events[after + 1:max(after + 1, before)]:
        if isinstance(ev, (Update, GradReset)):
            (graph_view.update if isinstance(ev, Update) else graph_view.grad_reset)(b, ev)
            end, b.now = max(end, b.now), t
    b.now = end


def _events(narration: str, index: LogIndex, cutoff: int, board: Storyboard, tm: PlanTimings,
            i: int | None, style: str = "caption") -> list[CaptionEvent]:
    """Beat ``i``'s narration (``None``: the takeaway) filled at seq ``cutoff`` and cut into
    caption events, its cue marks (:mod:`.cuemarks`) taken out and kept with the events they fall in."""
    clean, found, _ = marks(narration)
    text, shown, problems = fill(clean, index, cutoff, board.number_style)
    if problems:
        where = "takeaway" if i is None else f"beat {i + 1}"
        raise ValueError(f"{where}: {problems[0]}")  # validation refuses this earlier
    at = []
    for m in found:  # where the mark falls once the placeholders before it are filled
        before = fill(clean[:m.at], index, cutoff, board.number_style)[0]
        at.append((len(" ".join(before.split())) + (1 if before.strip() and before[-1].isspace() else 0), m.name))
    return events_of(text, shown, tm.reading, style, marks=at)


def _takeaway(board: Storyboard, index: LogIndex, tm: PlanTimings, now: float, cues: list[Cue],
              captions: list[CaptionSpan], beats: list[BeatTime], speak: Speaker | None) -> float:
    """The closing beat: the takeaway, its numbers read at the end of the log, over the last
    picture, and those numbers side by side in it as the takeaway starts (a ``recap`` cue,
    :mod:`.recap`). Returns the clip's end."""
    assert board.takeaway is not None
    said = _events(board.takeaway.text, index, len(index.events) - 1, board, tm, None, "takeaway")
    k = len(beats)
    named = recap_strings(unmarked(board.takeaway.text), index, board.number_style)
    if named:
        cues.append(Cue(_t(now), _t(tm.node_appear), "recap", k, strings=named))
    lit, spans, end = lay_out_phrases(phrases_of(said, speak, tm), now, tm, k, len(captions) + 1, index,
                                      voiced=speak is not None)
    cues += lit
    captions += spans
    beat = BeatTime(k, "takeaway", _t(now), _t(end - now + tm.beat_pause))
    beats.append(beat)
    return beat.start + beat.duration  # the clip ends where its last beat does, to the millisecond


def _loop_pass(index: LogIndex, selected: list[Event]) -> tuple[int, int] | None:
    """``(for line, pass)`` of the innermost loop that ran more than once around the beat's
    first event, or None when that event is outside such loops."""
    first = selected[0]
    around = [lp for lp in index.loops.values() if len(lp.passes) > 1 and lp.holds(first.line, first.line)]
    for loop in sorted(around, key=lambda lp: -lp.line):
        for k, (a, z) in enumerate(loop.passes, 1):
            if a <= first.seq <= z:
                return loop.line, k
    return None


def _add_loop_pass(b: Builder, index: LogIndex, at_pass: tuple[int, int] | None, start: float) -> None:
    """A ``loop_pass`` cue at the beat's start: the pass count beside the for line, or none."""
    strings: list[Shown] = []
    line, kept = None, b.line
    if at_pass is not None:
        line, k = at_pass
        loop = index.loops[line]
        first, last = index.events[loop.passes[k - 1][0]], index.events[loop.passes[-1][0]]
        strings = [Shown(str(first.pass_), first.seq, "pass", "count"),
                   Shown(str(last.pass_), last.seq, "pass", "total")]
    b.line = line
    b.add("loop_pass", b.tm.code_highlight_move, strings=strings, at=start, advance=False)
    b.line = kept


def plan_dict(p: Plan) -> dict[str, Any]:
    """The plan as plain data (what ``--json`` prints)."""
    return asdict(p)
