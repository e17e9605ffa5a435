"""Look-ups over one event log that storyboards need: names, calls, spans of events.

Why a separate index: validation (does backward call 2 exist? is ``w3`` a name?) and the plan
(which events does this beat show?) ask the same questions, and must get the same answers.

A beat's span selects events:

* ``lines: [a, b]``: every forward event of program lines a..b (not the backward walk);
* ``backward: k``: the ``backward`` event of call k, its visits, its accumulations and any error
  the walk raised;
* ``visits: k`` (optionally ``steps: [i, j]``): only the visits; ``accumulations: k``: only the
  bucket fills; ``reset: N`` / ``branch: N``: the ``grad_reset`` / ``branch`` events of line N;
* ``passes: [a, b]``: the ``forward_pass``, ``tangent`` and ``jvp`` events of forward passes a..b.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .model import Beat

Event = dict[str, Any]
WALK_KINDS = frozenset({"backward", "visit", "accumulate"})
FORWARD_KINDS = frozenset({"forward_pass", "tangent", "jvp"})


@dataclass
class LogIndex:
    """Events of one run, with the maps the storyboard layer looks things up in."""

    events: list[Event]
    source: str = ""
    tensor_name: dict[str, str | None] = field(default_factory=dict)
    name_tensors: dict[str, list[str]] = field(default_factory=dict)
    tensor_event: dict[str, Event] = field(default_factory=dict)
    node_event: dict[str, Event] = field(default_factory=dict)
    calls: list[int] = field(default_factory=list)

    @classmethod
    def build(cls, events: list[Event], source: str = "") -> "LogIndex":
        index = cls(events=list(events), source=source)
        for ev in index.events:
            kind = ev.get("kind")
            if kind == "tensor":
                index.tensor_event[ev["id"]] = ev
                index.tensor_name[ev["id"]] = ev.get("name")
                if ev.get("name"):
                    index.name_tensors.setdefault(ev["name"], []).append(ev["id"])
            elif kind == "node":
                index.node_event[ev["id"]] = ev
            elif kind == "backward":
                index.calls.append(ev["call"])
        return index

    @property
    def lines(self) -> list[str]:
        """The program's lines as the code pane shows them."""
        return self.source.splitlines()

    def logged_names(self) -> list[str]:
        """Names bound to tensors, in the order the program first bound them."""
        return list(self.name_tensors)

    def ids_of(self, name: str, until: int | None = None) -> list[str]:
        """Tensor ids bound to ``name`` plus their autograd node ids (what a scene highlights);
        with ``until``, only the tensors made by that event (a later ``s`` is another tensor,
        not yet on screen: dimming the freed graph's ``s`` must not fade the next one's)."""
        out: list[str] = []
        for tid in self.name_tensors.get(name, []):
            if until is not None and self.tensor_event[tid]["seq"] > until:
                continue
            out.append(tid)
            node = self.tensor_event[tid].get("node")
            if node and node not in out:
                out.append(node)
        return out

    def visits(self, call: int) -> list[Event]:
        return [e for e in self.events if e["kind"] == "visit" and e.get("call") == call]

    def select(self, beat: Beat) -> list[Event]:
        """The events a beat's span selects, in log order (empty for a title card)."""
        if beat.lines is not None:
            a, b = (beat.lines, beat.lines) if isinstance(beat.lines, int) else beat.lines
            return [e for e in self.events if a <= e["line"] <= b and e["kind"] not in WALK_KINDS | FORWARD_KINDS
                    and not (e["kind"] in ("error", "warning") and e.get("node"))]
        if beat.backward is not None:
            return self.walk(beat.backward)
        if beat.visits is not None:
            visits = self.visits(beat.visits)
            if beat.steps is not None:
                visits = visits[beat.steps[0] - 1: beat.steps[1]]
            return visits
        if beat.accumulations is not None:
            return [e for e in self.events if e["kind"] == "accumulate" and e.get("call") == beat.accumulations]
        if beat.reset is not None:
            return [e for e in self.events if e["kind"] == "grad_reset" and e["line"] == beat.reset]
        if beat.branch is not None:
            return [e for e in self.events if e["kind"] == "branch" and e["line"] == beat.branch]
        if beat.passes is not None:
            a, b = (beat.passes, beat.passes) if isinstance(beat.passes, int) else beat.passes
            return [e for e in self.events if e["kind"] in FORWARD_KINDS and a <= e["pass"] <= b]
        return []

    def forward_passes(self) -> int:
        """How many forward-mode passes the log holds (0 without ``forward_mode``)."""
        return sum(1 for e in self.events if e["kind"] == "forward_pass")

    def walk(self, call: int) -> list[Event]:
        """The ``backward`` event of ``call`` and what the walk logged right after it."""
        out: list[Event] = []
        for ev in self.events:
            if not out:
                if ev["kind"] == "backward" and ev.get("call") == call:
                    out.append(ev)
                continue
            if ev["kind"] in ("visit", "accumulate") and ev.get("call") == call:
                out.append(ev)
            elif ev["kind"] in ("error", "warning") and ev["line"] == out[0]["line"]:
                out.append(ev)
            else:
                break
        return out

    def lines_with(self, kind: str) -> list[int]:
        """Program lines that logged an event of ``kind`` (for "it happens on lines ..." hints)."""
        return sorted({e["line"] for e in self.events if e["kind"] == kind})
