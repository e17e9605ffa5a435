"""The pure plan: (events, storyboard, timings) -> timed cues and caption spans.

Why pure: the plan is where time, order and every displayed string are decided, so it can be
tested as data with no Manim; the scene only draws cues. Every string a cue shows is a
:class:`~.narration.Shown` naming the event (``seq``) and field it was read from.

Cue kinds, what their ``ids`` name and the ``role`` of their strings (the scene's contract), are
declared in :mod:`.cues`; the visuals, the spans they accept and the events they draw, in
:mod:`.visuals`; how each event becomes cues, in the visual's view (:mod:`.views`).

Facts that are not shown as text (requires_grad, is_leaf, dtype) are read from ``events[seq]``
for the seqs a cue lists.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from .builder import Builder, _t
from .cues import Cue
from .logindex import Event, LogIndex
from .model import Storyboard
from .narration import Shown, fill
from .timings import PlanTimings
from .views import VIEWS
from .visuals import TABLE, VISUAL_KINDS

__all__ = ["BeatTime", "CaptionSpan", "Cue", "Plan", "VISUAL_KINDS", "plan", "plan_dict"]


@dataclass(frozen=True)
class CaptionSpan:
    """A caption on screen from ``start`` to ``end``; ``strings`` are its filled numbers."""

    index: int
    start: float
    end: float
    text: str
    beat: int
    strings: tuple[Shown, ...] = ()


@dataclass(frozen=True)
class BeatTime:
    index: int
    visual: str
    start: float
    duration: float


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


def plan(events: list[Event], board: Storyboard, timings: PlanTimings, source: str | None = None,
         index: LogIndex | None = None) -> Plan:
    """Lay the storyboard's beats out over the log; deterministic and free of side effects.

    ``source`` is the program text the code pane shows (the log header's, which carries any
    ``--set``); it defaults to the storyboard's program. ``index``: the log's index, when the
    caller has built it already (a checked storyboard has).
    """
    if index is None:
        index = LogIndex.build(events, source if source is not None else board.program)
    cues: list[Cue] = []
    captions: list[CaptionSpan] = []
    beats: list[BeatTime] = []
    now, cutoff = 0.0, -1
    for i, beat in enumerate(board.beats):
        tm = timings.scaled(beat.pace)
        spec = TABLE[beat.visual]
        view = VIEWS[spec.view]
        b = Builder(index, board, i, now, tm, view.state(index) if view.state else None)
        selected = index.select(beat) if beat.span_key() else []
        made = max([e["seq"] for e in selected], default=cutoff)  # a name means what it is bound to by now
        for key, kind in (("emphasis", "emphasis"), ("dim", "dim")):
            ids = [x for name in getattr(beat, key) for x in index.ids_of(name, until=made)]
            if ids:
                b.add(kind, tm.caption_fade, ids, advance=False)
        if beat.check is not None:  # the checklist ticks one item as the beat starts
            b.add("check", tm.node_appear, (), [Shown(item, None, "checklist", "item") for item in board.checklist]
                  + [Shown(board.checklist[beat.check - 1], None, "checklist", "ticked")], advance=False)
        if view.begin is not None:
            view.begin(b)
        for ev in selected:
            planner = view.planners.get(ev["kind"]) if ev["kind"] in spec.kinds else None
            if planner is None:
                continue
            if spec.lights_code:
                b.code_line(ev)
            planner(b, ev)
        if selected:
            cutoff = max(e["seq"] for e in selected)
        text, shown, problems = fill(beat.narration, index, cutoff, board.number_style)
        if problems:
            raise ValueError(f"beat {i + 1}: {problems[0]}")  # validation refuses this earlier
        length = max(b.now - now, tm.reading(text))
        captions.append(CaptionSpan(i + 1, _t(now), _t(now + length), text, i, tuple(shown)))
        beats.append(BeatTime(i, beat.visual, _t(now), _t(length + tm.beat_pause)))
        cues.extend(b.cues)
        now = now + length + tm.beat_pause
    return Plan(board.title, _t(now), tuple(cues), tuple(captions), tuple(beats))


def plan_dict(p: Plan) -> dict[str, Any]:
    """The plan as plain data (what ``--json`` prints)."""
    return asdict(p)
