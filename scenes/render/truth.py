"""Is what a clip shows true at that moment? Card values, buckets and printed lines against the log.

Why: a number on screen is read from the log when its cue is planned, but the scene keeps it until
something redraws it. A weight's card that no ``update`` redraws, a bucket that keeps a gradient
after ``p.grad = None``, a value too long for its bucket or a printed line pushed out of the console
would each show a moment the program has left. This reads ``render inspect``'s samples
(docs/inspect.md) beside the plan and the event log, so it needs no frame drawn.

What "the log at time t" is: the events of every cue begun by ``t`` have happened; those of a cue
still running may or may not have (a value changing shows either). So a card's value must be one
its tensor held from the last cue finished to the last cue begun, formatted as the storyboard
formats it; a bucket's value likewise one its ``.grad`` held (``None`` once reset), and a bucket
shown while ``.grad`` holds a number that no cue is changing must show it. An event no cue draws
happened by the next one drawn (a reset the storyboard skips still empties the bucket), except a
fill: a beat of ``visits`` shows the walk without its fills, and the bucket waits for a beat that
shows them (where none does, the bucket stays empty: not counted here).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.records import Accumulate, Event, Expr, GradReset, Print, Tensor, Update
from scenes.draw.collisions import visible
from scenes.storyboard.cues import Cue
from scenes.storyboard.errors import plain
from scenes.storyboard.model import Numbers
from scenes.storyboard.narration import _shown
from scenes.storyboard.plan import Plan
from scenes.storyboard.views.graph import NONE_TEXT


@dataclass(frozen=True)
class Untrue:
    """One thing on screen that the log contradicts at ``time``: ``what`` it is, whose (``id``),
    what it shows and what the log allows."""

    time: float
    what: str
    id: str
    shown: str
    log: tuple[str, ...]

    def describe(self) -> str:
        allowed = " or ".join(repr(t) for t in self.log) or "nothing"
        return f"{self.what} {self.id} shows {self.shown!r} at {self.time:.2f} s where the log says {allowed}"


@dataclass(frozen=True)
class _History:
    """One tensor's (or one .grad's) texts over the clip: when each change is drawn (its cue's
    start and end, in seconds) and the text it leaves."""

    changes: tuple[tuple[float, float, str | None], ...]

    def at(self, time: float) -> set[str | None]:
        """The texts that may show at ``time``: the one the last change finished by then left
        (None before any), and those of the changes begun but not finished."""
        done = [c for c in self.changes if c[1] <= time]
        held = {done[-1][2] if done else None}
        return held | {text for start, end, text in self.changes if start <= time < end}


class Truth:
    """What the log says at each moment of one planned clip. ``events``: the log; ``plan``: the
    clip's plan (its cues' times and seqs); ``numbers``: the storyboard's number style."""

    def __init__(self, events: Sequence[Event], plan: Plan, numbers: Numbers) -> None:
        drawn = _drawn_at(events, plan.cues)
        drawn_by_cue = {seq for c in plan.cues for seq in c.seqs}
        values: dict[str, list[tuple[float, float, str | None]]] = {}
        grads: dict[str, list[tuple[float, float, str | None]]] = {}
        self.printed: list[tuple[float, str]] = []
        self.feeds: dict[str, list[str]] = {}
        """Each result's tensor inputs: a deep graph folds a result into the card it feeds
        (scenes/layout/collapse.py), which shows the folded value until its own comes."""
        for ev in events:
            when = drawn[ev.seq]
            if isinstance(ev, (Tensor, Update)):
                key = ev.id if isinstance(ev, Tensor) else ev.tensor
                values.setdefault(key, []).append(
                    (*when, _shown(ev.value, ev.exact, ev.str, ev.seq, ("value", "exact", "str"), numbers).text))
                if isinstance(ev, Tensor):
                    self.feeds[key] = [i for i in ev.inputs or [] if isinstance(i, str)]
            elif isinstance(ev, Accumulate):
                if ev.seq not in drawn_by_cue:
                    continue  # a `visits` span that stops short of the fills: the bucket waits (below)
                grads.setdefault(ev.tensor, []).append(
                    (*when, _shown(ev.after, ev.after_exact, ev.str, ev.seq, ("after", "after_exact", "str"), numbers).text))
            elif isinstance(ev, GradReset):
                grads.setdefault(ev.tensor, []).append(
                    (*when, None if ev.to is None else _shown(ev.to, "0", None, ev.seq, ("to", "to", None), numbers).text))
            elif isinstance(ev, (Print, Expr)):
                self.printed.append((when[0], plain(ev.text if isinstance(ev, Print) else ev.str)))
        self.values = {k: _History(tuple(v)) for k, v in values.items()}
        self.grads = {k: _History(tuple(v)) for k, v in grads.items()}
        self._outputs = sorted((c.start, c.start + c.duration, c.beat, max(c.seqs)) for c in plan.cues
                               if c.kind == "output_line" and c.seqs)
        self._beats = {b.index: (b.start, b.start + b.duration) for b in plan.beats}
        self._texts = {ev.seq: plain(ev.text if isinstance(ev, Print) else ev.str)
                       for ev in events if isinstance(ev, (Print, Expr))}

    def grad_texts(self, leaf: str, time: float) -> set[str | None]:
        """The texts ``leaf``'s bucket may show at ``time`` (None: empty, as before any)."""
        return self.grads.get(leaf, _History(())).at(time)

    def check(self, sample: Mapping[str, Any]) -> list[Untrue]:
        """Everything in one ``render inspect`` sample that the log contradicts at its time."""
        time = float(sample["time"])
        seen = visible(sample["items"])  # faint, or under a backdrop (the curve's, the network's): not read
        out: list[Untrue] = []
        bucket_texts: dict[str, list[str]] = {}
        for it in seen:
            owner, text = it.get("id") or "", it.get("text")
            if it["kind"] != "text" or it["role"] != "value" or text is None:
                continue
            if owner.startswith("bucket:"):
                bucket_texts.setdefault(owner[len("bucket:"):], []).append(text)
                continue
            history = self.values.get(owner)
            if history is None or not _one_number(text):
                continue  # a folded expression or arithmetic: not one tensor's value
            allowed = history.at(time)
            folded = {t for src in self.feeds.get(owner, []) if src in self.values
                      for t in self.values[src].at(time)}
            if not written_as(text, allowed | folded):
                out.append(Untrue(time, "card", owner, text, said_texts(allowed)))
        shown_buckets = {_bucket_of(it.get("id") or "") for it in seen
                         if it["kind"] == "shape" and it["role"] in ("bucket", "arrow")} - {""}
        for leaf in shown_buckets | set(bucket_texts):
            history = self.grads.get(leaf, _History(()))
            allowed = history.at(time)
            for written in bucket_texts.get(leaf, []):
                if not _one_number(written) and written != NONE_TEXT:
                    continue
                if (None if written == NONE_TEXT else written) not in allowed:
                    out.append(Untrue(time, "bucket", leaf, written, said_texts(allowed)))
            if leaf in shown_buckets and not bucket_texts.get(leaf) and None not in allowed:
                out.append(Untrue(time, "bucket", leaf, "", said_texts(allowed)))
        out += self._console(time, [it["text"] for it in seen if it["role"] == "console" and it.get("text")])
        return out

    def _console(self, time: float, lines: list[str]) -> list[Untrue]:
        """A printed line shown must have been printed by ``time``; while the beat that printed
        lines is on screen (its output cues finished), every line it printed must show. Compared
        with their spaces collapsed (`_words`): the console wraps a long line between words."""
        out: list[Untrue] = []
        lines = [_words(line) for line in lines]
        printed_by = {_words(text) for when, text in self.printed if when <= time}
        every = {_words(text) for _, text in self.printed}
        for line in lines:
            if line in every and line not in printed_by:
                out.append(Untrue(time, "console", "printed line", line, said_texts(printed_by)))
        for start, end, beat, seq in self._outputs:
            _, beat_end = self._beats.get(beat, (start, end))
            printed = self._texts.get(seq)
            if printed is not None and end <= time < beat_end and _words(printed) not in lines:
                out.append(Untrue(time, "console", "printed line", "", (printed,)))
        return out


def _drawn_at(events: Sequence[Event], cues: Sequence[Cue]) -> dict[int, tuple[float, float]]:
    """When each event is drawn: the first cue that names its seq (its start and end); an event
    no cue draws takes the time of the next one drawn after it in the log (it happened before
    that one); after the last one drawn, never (the clip tells the log up to there: a closing
    title card reads the moment the last beat ended)."""
    first: dict[int, tuple[float, float]] = {}
    for c in cues:
        for seq in c.seqs:
            if seq not in first or c.start < first[seq][0]:
                first[seq] = (c.start, c.start + c.duration)
    out: dict[int, tuple[float, float]] = {}
    later = (math.inf, math.inf)
    for ev in sorted(events, key=lambda e: -e.seq):
        later = first.get(ev.seq, later)
        out[ev.seq] = later
    return out


def _bucket_of(owner: str) -> str:
    """The leaf whose bucket a shape's id names: ``bucket:t1`` (the bucket) or ``bucket:t1->t1``
    (the edge from the leaf's card into it, shown with it); "" for any other shape."""
    if not owner.startswith("bucket:"):
        return ""
    return owner[len("bucket:"):].split("->", 1)[0]


def written_as(text: str, allowed: Iterable[str | None]) -> bool:
    """Whether ``text`` is one of ``allowed``, or one of their decimals with zeros after it: the
    same value at a finer precision, as numbers read together are written (a unit's products and
    their sum, `scenes.storyboard.numfmt.one_precision`).

    >>> written_as("0.37500", {"0.3750"}), written_as("0.37501", {"0.3750"}), written_as("10", {"1"})
    (True, False, False)
    """
    return any(text == a or (a is not None and "." in a and text.startswith(a) and set(text[len(a):]) <= {"0"})
               for a in allowed)


def _one_number(text: str) -> bool:
    """Whether ``text`` is one number as a style writes it (``-0.3715``, ``13/10``, ``5.52e-06``,
    ``tensor(0.5000)``), not arithmetic (``0.5 × 2``)."""
    t = text.strip()
    if t.startswith("tensor(") or t in ("nan", "inf", "-inf"):
        return True
    try:
        float(t)
        return True
    except ValueError:
        pass
    num, _, den = t.partition("/")
    return bool(den) and num.lstrip("-").isdigit() and den.isdigit()


def _words(text: str) -> str:
    """``text`` with every run of spaces and line breaks one space: a printed line as the
    console shows it wrapped (``tensor(-1.3429) tensor(1.3429)`` over ``tensor(0.3500)``) reads
    as the line printed.

    >>> _words("tensor(-1.3429) tensor(1.3429)\\ntensor(0.3500)")
    'tensor(-1.3429) tensor(1.3429) tensor(0.3500)'
    """
    return " ".join(text.split())


def said_texts(texts: Iterable[str | None]) -> tuple[str, ...]:
    """``texts`` as an `Untrue` lists what the log allows: sorted, None written as the clip writes it."""
    return tuple(sorted(NONE_TEXT if t is None else t for t in texts))
