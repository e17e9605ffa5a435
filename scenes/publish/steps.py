"""The backward walk as steps a reader takes one by one: one step per visit the log holds.

Each step is a visit cue of the plan (its start time in the clip, the node it lights, the
gradient that arrived) with the arithmetic the clip writes beside the node
(:mod:`.arithmetic`'s records, read from the plan's ``local_rule`` cues), so the stepping figure
says what the screen says at that moment, and a step can seek the clip to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from scenes.publish.arithmetic import VisitArithmetic, visit_arithmetic
from scenes.publish.arithmetic import called
from scenes.storyboard.logindex import LogIndex
from scenes.storyboard.plan import Plan


@dataclass(frozen=True)
class VisitStep:
    """One visit: ``index`` among the log's visits, where it starts in the clip, the beat it is
    in, the node and tensor it belongs to (ids) and what the node is called, its grad_fn, what
    arrived (``parts`` when two or more gradients met and added up), the rule's words and the
    arithmetic per edge it sends a gradient along (at a bucket, what ``.grad`` becomes)."""

    index: int
    start: float
    beat: int
    seq: int
    call: int | None
    node: str
    tensor: str | None
    called: str
    grad_fn: str
    arrived: str
    parts: tuple[str, ...]
    words: str
    sends: tuple[VisitArithmetic, ...]
    into: str = ""  # at a bucket: what .grad becomes (``6 + 6 = 12`` where it held 6)

    @property
    def heading(self) -> str:
        """``PowBackward0 at L: 1 arrived``: the node, and what arrived (a sum where paths met)."""
        at = f" at {self.called}" if self.called else ""
        came = f"{' + '.join(self.parts)} = {self.arrived}" if self.parts else self.arrived
        return f"{self.grad_fn}{at}: {came} arrived" if came else f"{self.grad_fn}{at}"

    @property
    def lines(self) -> tuple[str, ...]:
        """The step as the figure writes it: the heading, the rule's words, one row per edge
        (``yh - y gets 1 × 2 × 2/3 = 4/3``); at a bucket, what goes into ``.grad``."""
        if self.grad_fn == "AccumulateGrad":
            into = f"{self.called}.grad" if self.called else ".grad"
            return (self.heading, f"{into}: {self.into or self.arrived}")
        rows = tuple(f"{a.target or a.shown_target or 'next'} gets {a.formula}" for a in self.sends)
        return (self.heading, *((self.words,) if self.words else ()), *rows)

    @property
    def text(self) -> str:
        """The step in one sentence-like line, for the step list and the live announcement."""
        return "; ".join(self.lines)


def visit_steps(p: Plan, index: LogIndex) -> list[VisitStep]:
    """A step per visit cue of the plan, in clip order, each with its arithmetic."""
    rules = [c for c in p.cues if c.kind == "local_rule" and len(c.ids) >= 2]
    sums: dict[tuple[str, float], list[VisitArithmetic]] = {}
    for cue, a in zip(rules, visit_arithmetic(p, index)):
        sums.setdefault((cue.ids[0], cue.start), []).append(a)
    fills = [c for c in p.cues if c.kind == "bucket_fill" and c.ids and c.seqs]
    out: list[VisitStep] = []
    for cue in p.cues:
        if cue.kind != "visit" or not cue.ids or not cue.seqs:
            continue
        tensor = cue.ids[1] if len(cue.ids) > 1 else None
        ev = index.events[cue.seqs[0]] if 0 <= cue.seqs[0] < len(index.events) else None
        arrived, parts = cue.text("grad") or "", tuple(s.text for s in cue.strings if s.role == "part")
        fill = next((f for f in fills if f.ids[0] == cue.ids[0] and f.seqs[0] > cue.seqs[0]), None)
        into = ""
        if fill is not None and cue.text("grad_fn") == "AccumulateGrad":
            before, add = fill.text("before"), fill.text("add") or ""
            into = f"{before} + {add} = {fill.text('after')}" if before is not None else add
            if not arrived:  # gradients met at the bucket: the fill writes what each path sent and their sum
                arrived, parts = add, tuple(s.text for s in fill.strings if s.role == "part")
        out.append(VisitStep(
            index=len(out), start=cue.start, beat=cue.beat, seq=cue.seqs[0], call=getattr(ev, "call", None),
            node=cue.ids[0], tensor=tensor, called=called(index, tensor), grad_fn=cue.text("grad_fn") or "",
            arrived=arrived, parts=parts, words=cue.text("rule") or "", into=into or arrived,
            sends=tuple(sums.get((cue.ids[0], cue.start), ()))))
    return out


def step_before(steps: list[VisitStep] | tuple[VisitStep, ...], seq: int) -> int:
    """The index of the last step whose visit the log holds before ``seq`` (-1: none)."""
    return max((s.index for s in steps if s.seq <= seq), default=-1)
