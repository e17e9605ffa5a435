"""Each visit's arithmetic as the clip writes it beside the node, as typed records for a page.

What: per edge a visit sends a gradient along, ``what arrived × the local derivative's factors
= what it sends`` (``Pow: yh - y gets 1 × 2 × 2/3 = 4/3``), with the rule's words, the node it
belongs to and the tensor the gradient goes to.

Why from the plan's ``local_rule`` cues: the plan builds them from the log through the engine's
rule table (``scenes.storyboard.views.graph.visit``), in the storyboard's number style, and the
scene draws exactly their strings; reading them here, a page lists the very numbers the screen
shows and does no arithmetic of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from scenes.storyboard.cues import Cue
from scenes.storyboard.logindex import LogIndex
from scenes.storyboard.plan import Plan
from scenes.storyboard.views.graph import expression_text

TIMES = " × "
"""How the screen joins the factors (``scenes.draw.backward``'s visit note)."""


@dataclass(frozen=True)
class VisitArithmetic:
    """One edge of one visit: ``arrived × factors = product`` sent from ``node`` to ``target``.

    ``op`` is the rule's operation as a word (``Pow``), ``words`` the rule as the screen writes
    it (``pow: d² → × 2d``); ``node`` and ``target`` are what the visited node and the receiving
    node belong to, by program name or by their code (``yh - y``), "" when neither is known;
    ``shown_target`` is the name the screen writes before the product ("" for an unnamed one)."""

    beat: int
    op: str
    words: str
    node: str
    target: str
    arrived: str
    factors: tuple[str, ...]
    product: str
    shown_target: str = ""

    @property
    def formula(self) -> str:
        """``1 × 2 × 2/3 = 4/3``: the product as the screen writes it after the target's name."""
        return f"{TIMES.join((self.arrived, *self.factors))} = {self.product}"

    @property
    def screen(self) -> str:
        """The row the screen draws: ``w2: 4/3 × 1/3 = 4/9`` (no name when the target has none)."""
        return f"{self.shown_target + ': ' if self.shown_target else ''}{self.formula}"

    @property
    def line(self) -> str:
        """The row as a sentence's list item: ``Mul: w2 gets 4/3 × 1/3 = 4/9``."""
        gets = f"{self.target} gets " if self.target else ""
        return f"{self.op}: {gets}{self.formula}"


def called(index: LogIndex, tensor: str | None) -> str:
    """A tensor's program name, else its code (``yh - y``), else ""."""
    ev = index.tensor_event.get(tensor or "")
    if ev is None:
        return ""
    return ev.name or expression_text(ev, index.lines, index.tensor_event) or ""


def _visit_cue(cues: dict[tuple[str, float], Cue], rule: Cue) -> Cue | None:
    return cues.get((rule.ids[0], rule.start))


def visit_arithmetic(p: Plan, index: LogIndex) -> list[VisitArithmetic]:
    """Every visit's arithmetic the clip writes, in the order the plan writes it."""
    visits = {(c.ids[0], c.start): c for c in p.cues if c.kind == "visit" and c.ids}
    out = []
    for cue in p.cues:
        if cue.kind != "local_rule" or len(cue.ids) < 2:
            continue
        visit = _visit_cue(visits, cue)
        words = (visit.text("rule") if visit else None) or ""
        node = index.node_event.get(cue.ids[0])
        target = index.node_event.get(cue.ids[1])
        out.append(VisitArithmetic(
            beat=cue.beat, op=words.split(":", 1)[0].strip().capitalize(), words=words,
            node=called(index, node.tensor if node else None),
            target=called(index, target.tensor if target else None),
            arrived=cue.text("in") or "", factors=tuple(s.text for s in cue.strings if s.role == "factor"),
            product=cue.text("out") or "", shown_target=cue.text("target") or ""))
    return out


def beat_arithmetic(p: Plan, index: LogIndex) -> list[list[VisitArithmetic]]:
    """:func:`visit_arithmetic` per beat of the plan (the takeaway's included, empty)."""
    per: list[list[VisitArithmetic]] = [[] for _ in p.beats]
    for a in visit_arithmetic(p, index):
        if 0 <= a.beat < len(per):
            per[a.beat].append(a)
    return per
