"""The cue builder: lays the cues of one beat out in time, for the views' planners to call.

Why apart from the plan: the planners of each view (:mod:`.views`) add cues through it, and the
plan drives it beat by beat; this module holds what they share (the clock, the code line, how a
tensor's name and a logged number become :class:`~.placeholders.Shown` strings).
"""

from __future__ import annotations

from typing import Any

from .cues import Cue, cue_kind
from .logindex import Event, LogIndex
from .model import Storyboard
from .placeholders import Shown
from .narration import _number
from .timings import PlanTimings


def _t(x: float) -> float:
    return round(x, 3)


class Builder:
    """Lays the cues of one beat out in time; ``now`` is where the next cue starts. ``state`` is
    the view's own per-beat record (the network view's sweep), or None."""

    def __init__(self, index: LogIndex, board: Storyboard, beat_no: int, start: float, tm: PlanTimings,
                 state: Any = None):
        self.index, self.board, self.beat_no, self.now, self.tm = index, board, beat_no, start, tm
        self.numbers = board.number_style
        self.cues: list[Cue] = []
        self.line: int | None = None
        self.state = state

    def add(self, kind: str, duration: float, ids=(), strings=(), seqs=(), at: float | None = None,
            advance: bool = True) -> None:
        """Append a cue of ``kind`` (one :data:`~.cues.CUE_KINDS` declares) at ``at`` or now."""
        cue_kind(kind)
        start = self.now if at is None else at
        self.cues.append(Cue(_t(start), _t(duration), kind, self.beat_no, tuple(i for i in ids if i),
                             tuple(strings), self.line, tuple(seqs)))
        if advance:
            self.now = max(self.now, start + duration)

    def name_of(self, tensor: str | None, role: str = "name") -> list[Shown]:
        ev = self.index.tensor_event.get(tensor or "")
        if ev is None or not ev.name:
            return []
        return [Shown(ev.name, ev.seq, "name", role)]

    def value(self, ev: Event, key: str, exact_key: str, str_key: str | None, role: str) -> Shown:
        s = _number(ev, key, exact_key, str_key, self.numbers)
        return Shown(s.text, s.seq, s.field, role, s.number)

    def code_line(self, ev: Event) -> None:
        """Move the code pane's bar to ``ev``'s program line (a ``code_line`` cue) unless it is there."""
        if ev.line == self.line:
            return
        self.line = ev.line
        lines = self.index.lines
        text = lines[self.line - 1] if 0 < self.line <= len(lines) else ""
        self.add("code_line", self.tm.code_highlight_move, strings=[Shown(text, None, "source", "code")])
