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

A ``lines``, ``reset`` or ``branch`` span inside a ``for`` loop may take ``pass: N``: only the
events of the Nth run of the innermost loop around those lines (runs counted over the whole
program, so a loop inside another loop numbers its runs on from one outer pass to the next).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TypeVar

from engine.records import (
    Accumulate,
    Backward,
    Branch,
    Error,
    Event,
    ForwardPass,
    GradReset,
    Jvp,
    Node,
    Number,
    Tangent,
    Tensor,
    Update,
    Visit,
    Warn,
)
from engine.records import Loop as LoopEvent

from .model import Beat

E = TypeVar("E", bound=Event)
WALK_KINDS = (Backward, Visit, Accumulate)
FORWARD_KINDS = (ForwardPass, Tangent, Jvp)


@dataclass(frozen=True)
class Loop:
    """A ``for`` loop that ran: its line, its last line, and the seqs each pass spans."""

    line: int
    end: int
    passes: tuple[tuple[int, int], ...]  # (first seq, last seq) of each pass, in order

    def holds(self, a: int, b: int) -> bool:
        """Whether program lines a..b lie inside the loop's body."""
        return self.line < a and b <= self.end

    def cuts(self, a: int, b: int) -> bool:
        """Whether lines a..b take part of the body and neither lie inside it nor hold it all."""
        inside_some = a <= self.end and b > self.line
        return inside_some and not self.holds(a, b) and not (a <= self.line and self.end <= b)


@dataclass
class LogIndex:
    """Events of one run, with the maps the storyboard layer looks things up in."""

    events: list[Event]
    source: str = ""
    tensor_name: dict[str, str | None] = field(default_factory=dict)
    name_tensors: dict[str, list[str]] = field(default_factory=dict)
    said_names: dict[str, str] = field(default_factory=dict)  # a storyboard's name for a result -> its expression
    tensor_event: dict[str, Tensor] = field(default_factory=dict)
    node_event: dict[str, Node] = field(default_factory=dict)
    calls: list[int] = field(default_factory=list)
    loops: dict[int, Loop] = field(default_factory=dict)
    numbers: dict[str, list[Number]] = field(default_factory=dict)  # Python numbers bound to a name
    by_call: dict[int | None, list[Visit]] = field(default_factory=dict)  # a backward call's visits, in order
    by_kind: dict[type[Event], list[Event]] = field(default_factory=dict)  # the events of each kind, in order
    walk_at: dict[int, int] = field(default_factory=dict)  # a backward call -> where its event is in the log
    passes_run: int = 0  # forward-mode passes
    _sent: dict[int, dict[str, list[tuple[Visit, int]]]] = field(default_factory=dict)
    _visited: dict[int, dict[str, Visit]] = field(default_factory=dict)
    _about: dict[str, dict[str, list[Event]]] | None = None
    _loop_of: dict[str, Loop | None] = field(default_factory=dict)
    _on_lines: dict[tuple[int, int], list[Event]] = field(default_factory=dict)  # a lines span's events, once

    @classmethod
    def build(cls, events: list[Event], source: str = "") -> "LogIndex":
        """Index ``events`` in one pass; the look-ups below then cost no scan of the whole log
        each (a visit's arrivals, a placeholder's value), so checks stay linear in the log."""
        index = cls(events=list(events), source=source)
        for at, ev in enumerate(index.events):
            index.by_kind.setdefault(type(ev), []).append(ev)
            match ev:
                case Backward(call=call):
                    index.walk_at.setdefault(call, at)
                    index.calls.append(call)
                case Visit(call=call):
                    index.by_call.setdefault(call, []).append(ev)
                case ForwardPass():
                    index.passes_run += 1
                case Tensor(id=tid, name=name):
                    index.tensor_event[tid] = ev
                    index.tensor_name[tid] = name
                    if name:
                        index.name_tensors.setdefault(name, []).append(tid)
                case Node(id=nid):
                    index.node_event[nid] = ev
                case Number(name=name):
                    index.numbers.setdefault(name, []).append(ev)
        index.loops = _loops(index.events)
        return index

    def name_results(self, names: dict[str, str]) -> list[str]:
        """Give the tensors made by each source expression (``"b**3"``, spaces ignored) a name
        for narration and emphasis; the graph keeps its own labels. Returns the expressions that
        made no tensor."""
        missing = []
        self._about, self._loop_of = None, {}  # names gained tensors: the look-ups by name are built again
        lines = self.lines
        for expr, name in names.items():
            want = "".join(expr.split())
            ids = [tid for tid, ev in self.tensor_event.items() if ev.span and 0 < ev.line <= len(lines)
                   and "".join(lines[ev.line - 1][ev.span[0]:ev.span[1]].split()) == want]
            if ids:
                if name not in self.name_tensors:
                    self.said_names[name] = " ".join(expr.split())
                self.name_tensors.setdefault(name, []).extend(i for i in ids if i not in self.name_tensors.get(name, []))
            else:
                missing.append(expr)
        return missing

    def loop_around(self, a: int, b: int) -> Loop | None:
        """The innermost loop that ran and whose body holds lines a..b."""
        inside = [lp for lp in self.loops.values() if lp.holds(a, b)]
        return max(inside, key=lambda lp: lp.line) if inside else None

    def span_lines(self, beat: Beat) -> tuple[int, int] | None:
        """The program lines a line-based span (lines, reset, branch) names."""
        if beat.lines is not None:
            return (beat.lines, beat.lines) if isinstance(beat.lines, int) else beat.lines
        for n in (beat.reset, beat.branch):
            if n is not None:
                return (n, n)
        return None

    def pass_seqs(self, beat: Beat) -> tuple[int, int] | None:
        """``(first, last)`` seq of the pass a beat names with ``pass: N``, if it can."""
        lines = self.span_lines(beat)
        loop = self.loop_around(*lines) if lines and beat.pass_ is not None else None
        if loop is None or beat.pass_ > len(loop.passes):
            return None
        return loop.passes[beat.pass_ - 1]

    @property
    def lines(self) -> list[str]:
        """The program's lines as the code pane shows them."""
        return self.source.splitlines()

    def logged_names(self) -> list[str]:
        """Names bound to tensors, in the order the program first bound them (then the
        storyboard's names for results, `said_names`)."""
        return list(self.name_tensors)

    def program_names(self) -> list[str]:
        """The names the program itself bound (`logged_names` without the storyboard's names for
        results, which no line of the program can use)."""
        return [n for n in self.name_tensors if n not in self.said_names]

    def ids_of(self, name: str, until: int | None = None) -> list[str]:
        """Tensor ids bound to ``name`` plus their autograd node ids (what a scene highlights);
        with ``until``, only the tensors made by that event (a later ``s`` is another tensor,
        not yet on screen: dimming the freed graph's ``s`` must not fade the next one's)."""
        out: list[str] = []
        for tid in self.name_tensors.get(name, []):
            if until is not None and self.tensor_event[tid].seq > until:
                continue
            out.append(tid)
            node = self.tensor_event[tid].node
            if node and node not in out:
                out.append(node)
        return out

    def step_range(self, call: int, steps: tuple[int | str, int | str]) -> tuple[int, int] | str:
        """``steps:`` as 1-based visit numbers of backward call ``call``; a name stands for the
        visit of its node (a leaf's AccumulateGrad). A message when a name is not visited."""
        visits = self.visits(call)
        out = []
        for ref in steps:
            if isinstance(ref, int):
                out.append(ref)
                continue
            ids = set(self.ids_of(ref))
            k = next((i for i, v in enumerate(visits, 1) if v.node in ids or v.tensor in ids), None)
            if k is None:
                seen = [self.tensor_name.get(v.tensor or "") or v.grad_fn for v in visits]
                return (f"steps: backward call {call} visits no node of '{ref}'; it visits, in order: "
                        f"{', '.join(str(s) for s in seen)}")
            out.append(k)
        return out[0], out[1]

    def visits(self, call: int) -> list[Visit]:
        """The visits of backward call ``call``, in order (the index's own list: not to change)."""
        return self.by_call.get(call, [])

    def sent_to(self, call: int, node: str) -> list[tuple[Visit, int]]:
        """What the visits of ``call`` sent to ``node``: (visit, edge number) in the order sent.
        Built for a call the first time it is asked, in one pass over its visits."""
        if call not in self._sent:
            sent: dict[str, list[tuple[Visit, int]]] = {}
            for e in self.visits(call):
                for j, (target, grad) in enumerate(zip(e.edges or [], e.grads_out or [])):
                    if target is not None and grad is not None:
                        sent.setdefault(target, []).append((e, j))
            self._sent[call] = sent
        return self._sent[call].get(node, [])

    def visit_of(self, call: int, node: str, before: int) -> Visit | None:
        """The first visit of ``node`` in backward call ``call`` before seq ``before``."""
        if call not in self._visited:
            firsts: dict[str, Visit] = {}
            for e in self.visits(call):
                firsts.setdefault(e.node, e)
            self._visited[call] = firsts
        e = self._visited[call].get(node)
        return e if e is not None and e.seq < before else None

    def latest(self, name: str, kinds: tuple[type[Event], ...], cutoff: int) -> Event | None:
        """The last event of one of ``kinds`` at or before seq ``cutoff`` about the tensors bound to
        ``name``: a tensor or update event of that name or id, or an event whose ``tensor`` is one
        of them. A binary search in the events about ``name`` (indexed once for every name)."""
        found = [e for e in self._around(name, kinds, cutoff, 0) if e is not None]
        return max(found, key=lambda e: e.seq, default=None)

    def first_after(self, name: str, kinds: tuple[type[Event], ...], after: int) -> Event | None:
        """The first event of one of ``kinds`` about ``name`` after seq ``after`` (what
        :meth:`latest` would find next): where a value a beat comes too early for is made."""
        found = [e for e in self._around(name, kinds, after, 1) if e is not None]
        return min(found, key=lambda e: e.seq, default=None)

    def _around(self, name: str, kinds: tuple[type[Event], ...], seq: int, side: int) -> list[Event | None]:
        """Per kind, the last event about ``name`` at or before ``seq`` (``side`` 0) or the first
        after it (``side`` 1); None where there is none."""
        if self._about is None:
            self._about = self._events_about()
        out: list[Event | None] = []
        for kind in kinds:
            evs = self._about.get(name, {}).get(kind, [])
            k = bisect_right(evs, seq, key=lambda e: e.seq) - 1 + side
            out.append(evs[k] if 0 <= k < len(evs) else None)
        return out

    def loop_of(self, name: str) -> Loop | None:
        """The innermost loop that ran around the last line that made, changed, visited, filled
        or reset a tensor bound to ``name`` (where ``{name@N}`` takes its pass N); found once a name."""
        if name not in self._loop_of:
            if self._about is None:
                self._about = self._events_about()
            evs = sorted((e for got in self._about.get(name, {}).values() for e in got), key=lambda e: e.seq)
            self._loop_of[name] = self._last_loop(evs)
        return self._loop_of[name]

    def number_loop(self, name: str) -> Loop | None:
        """The innermost loop that ran around the last line that bound the Python number ``name``."""
        key = f"number {name}"  # no program name has a space
        if key not in self._loop_of:
            self._loop_of[key] = self._last_loop(self.numbers.get(name, []))
        return self._loop_of[key]

    def _last_loop(self, evs: list[Event] | list[Number]) -> Loop | None:
        lines = dict.fromkeys(e.line for e in reversed(evs))  # each line once, the last first
        return next((lp for lp in (self.loop_around(n, n) for n in lines) if lp is not None), None)

    def _events_about(self) -> dict[str, dict[type[Event], list[Event]]]:
        names_of: dict[str, list[str]] = {}
        for name, ids in self.name_tensors.items():
            for i in ids:
                names_of.setdefault(i, []).append(name)
        about: dict[str, dict[type[Event], list[Event]]] = {}
        for ev in self.events:
            match ev:
                case Tensor(id=tid, name=name):
                    hits = set(names_of.get(tid, ()))
                case Update(tensor=tid, name=name):
                    hits = set(names_of.get(tid, ()))
                case Visit(tensor=tid) | Accumulate(tensor=tid) | GradReset(tensor=tid):
                    hits, name = set(names_of.get(tid or "", ())), None
                case _:
                    continue
            if name is not None and name in self.name_tensors:
                hits.add(name)
            for n in hits:
                about.setdefault(n, {}).setdefault(type(ev), []).append(ev)
        return about

    def select(self, beat: Beat) -> list[Event]:
        """The events a beat's span selects, in log order (empty for a title card)."""
        found = self._select(beat)
        if beat.pass_ is not None:
            within = self.pass_seqs(beat)
            found = [e for e in found if within and within[0] <= e.seq <= within[1]]
        return found

    def _select(self, beat: Beat) -> list[Event]:
        if beat.lines is not None:
            a, b = (beat.lines, beat.lines) if isinstance(beat.lines, int) else beat.lines
            if (a, b) not in self._on_lines:  # checks select a beat's span several times: the log is scanned once
                self._on_lines[(a, b)] = [e for e in self.events if a <= e.line <= b
                                          and not isinstance(e, WALK_KINDS + FORWARD_KINDS)
                                          and not (isinstance(e, Error) and e.node)]
            return list(self._on_lines[(a, b)])
        if beat.backward is not None:
            return self.walk(beat.backward)
        if beat.visits is not None:
            visits = self.visits(beat.visits)
            if beat.steps is not None:
                got = self.step_range(beat.visits, beat.steps)
                visits = visits[got[0] - 1: got[1]] if not isinstance(got, str) else []
            return visits
        if beat.accumulations is not None:
            return [e for e in self.of_kind(Accumulate) if e.call == beat.accumulations]
        if beat.reset is not None:
            return [e for e in self.of_kind(GradReset) if e.line == beat.reset]
        if beat.branch is not None:
            return [e for e in self.of_kind(Branch) if e.line == beat.branch]
        if beat.passes is not None:
            a, b = (beat.passes, beat.passes) if isinstance(beat.passes, int) else beat.passes
            return [e for e in self.events if isinstance(e, FORWARD_KINDS) and a <= e.pass_ <= b]
        return []

    def forward_passes(self) -> int:
        """How many forward-mode passes the log holds (0 without ``forward_mode``)."""
        return self.passes_run

    def of_kind(self, kind: type[E]) -> list[E]:
        """The events of ``kind``, in log order (the index's own list: not to change)."""
        return self.by_kind.get(kind, [])  # type: ignore[return-value]  # by_kind holds each type's own

    def walk(self, call: int) -> list[Event]:
        """The ``backward`` event of ``call`` and what the walk logged right after it."""
        if call not in self.walk_at:
            return []
        at = self.walk_at[call]
        out: list[Event] = [self.events[at]]
        for j in range(at + 1, len(self.events)):  # no events[at + 1:]: a copy per call
            ev = self.events[j]
            if isinstance(ev, (Visit, Accumulate)) and ev.call == call:
                out.append(ev)
            elif isinstance(ev, (Error, Warn)) and ev.line == out[0].line:
                out.append(ev)
            else:
                break
        return out

    def lines_with(self, kind: type[Event]) -> list[int]:
        """Program lines that logged an event of ``kind`` (for "it happens on lines ..." hints)."""
        return sorted({e.line for e in self.events if isinstance(e, kind)})


def _loops(events: list[Event]) -> dict[int, Loop]:
    """The loops of a run from its ``loop`` events: a pass runs from its ``loop`` event through
    the events of the loop's lines that follow (its target's binding and a nested loop's
    included) and ends at the first event outside them: the next pass's ``loop`` event, or what
    follows the loop."""
    found: dict[int, tuple[int, list[tuple[int, int]]]] = {}
    for i, ev in enumerate(events):
        if not isinstance(ev, LoopEvent):
            continue
        line, end = ev.line, ev.end
        last = ev.seq
        for j in range(i + 1, len(events)):  # no events[i + 1:]: a copy per pass was quadratic
            nxt = events[j]
            if not line <= nxt.line <= end or isinstance(nxt, FORWARD_KINDS) \
                    or (isinstance(nxt, LoopEvent) and nxt.line == line):
                break
            last = nxt.seq
        found.setdefault(line, (end, []))[1].append((ev.seq, last))
    return {line: Loop(line, end, tuple(p)) for line, (end, p) in found.items()}
