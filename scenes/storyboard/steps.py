"""A beat's cues grouped into steps: what a phrase is bound to and what is laid out in time.

Why a module: binding (:mod:`.binding`) finds the step a phrase names, and laying out
(:mod:`.phrases`) places each step in time; both read the same grouping, in which the code
pane's move goes with the cues it introduces, a node's arrows with the node, and a beat's
decor at its start stays where it is.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Callable

from .cues import Cue, cue_kind

LEAD_KINDS = frozenset({"code_line"})
"""Cue kinds that introduce the cues after them: a step of only these goes with the next."""
TAIL_KINDS = frozenset({"edge_grow"})
"""Cue kinds that finish the cues before them (a node's arrows in): a step of only these goes
with the one before, so a node and its arrows are never said apart."""
DECOR = frozenset({"emphasis", "dim", "focus", "check", "loop_pass"})
"""Cue kinds that set a beat's scene as it starts rather than show something a phrase names:
they stay at the beat's start."""

@dataclass
class Steps:
    """A beat's cues grouped by start: step k holds the cues starting at ``times[k]``, and the
    code pane's move to a line just before them (it leads in: it goes with what it introduces);
    a decor cue at the beat's start is in none (step -1): it stays where it is."""

    cues: list[Cue]
    times: list[float]
    step: list[int]  # per cue, its step

    @classmethod
    def of(cls, cues: list[Cue], own_first: bool = False) -> "Steps":
        """``own_first``: the first lead-in is a step of its own (what the title shows, when
        the cues after it are named later)."""
        start = min((c.start for c in cues), default=0.0)
        fixed = [c.kind in DECOR and c.start == start for c in cues]
        at: dict[float, list[Cue]] = {}  # the cues starting at each time (a long walk has thousands)
        for c, f in zip(cues, fixed):
            if not f:
                at.setdefault(c.start, []).append(c)
        times = sorted(at)
        leads = {t for t in times[int(own_first):-1] if all(c.kind in LEAD_KINDS for c in at[t])}
        tails = {t for t in times[1:] if t not in leads and all(c.kind in TAIL_KINDS for c in at[t])}
        kept = [t for t in times if t not in leads | tails]
        where = {t: k for k, t in enumerate(kept)}
        for t in sorted(tails):  # a tail goes with the step before it
            where[t] = where[kept[bisect_right(kept, t) - 1]]
        for t in leads:  # a lead-in goes with the step after it
            where[t] = where[kept[bisect_right(kept, t)]]
        return cls(cues, kept, [-1 if f else where[c.start] for c, f in zip(cues, fixed)])

    def __post_init__(self) -> None:
        self._members: dict[int, list[Cue]] = {}
        for c, k in zip(self.cues, self.step):
            self._members.setdefault(k, []).append(c)

    def lead(self, k: int) -> float:
        """How long before ``times[k]`` step k's first cue starts (its code line's move)."""
        return max([0.0] + [self.times[k] - c.start for c in self.in_step(k)])

    def reveal(self, k: int) -> float:
        """How long after ``times[k]`` the numbers step k shows are whole on screen (its cues'
        ``reveals``): a phrase naming them starts the step that much before it names them."""
        return max([0.0] + [c.start - self.times[k] + cue_kind(c.kind).reveals * c.duration
                            for c in self.in_step(k) if cue_kind(c.kind).reveals > 0])

    def carried(self, k: int) -> set[str]:
        """The numbers step k's carrying cues (``carries``) move from one card to another."""
        return {x.text for c in self.in_step(k) if cue_kind(c.kind).carries for x in c.strings}

    def arrival(self, k: int) -> float:
        """How long after ``times[k]`` the numbers step k carries have landed: a phrase saying
        one starts the step that much before it says it."""
        return max([0.0] + [c.start - self.times[k] + c.duration for c in self.in_step(k) if cue_kind(c.kind).carries])

    def length(self, k: int) -> float:
        """From ``times[k]`` to the end of step k's last cue."""
        return max([0.0] + [c.start + c.duration - self.times[k] for c in self.in_step(k)])

    def first(self, after: int, test: Callable[[Cue], bool]) -> int | None:
        """The first step after ``after`` with a cue passing ``test`` (not a decor cue)."""
        hits = [self.step[i] for i, c in enumerate(self.cues)
                if self.step[i] > after and c.kind not in DECOR and test(c)]
        return min(hits, default=None)

    def in_step(self, k: int) -> list[Cue]:
        return self._members.get(k, [])
