"""What a span's program lines hold, and which lines or span would give its visual something.

Why its own module: "this span selects no events of the log" left the author to guess whether
the lines were one off, the visual the wrong one, or the thing wanted (a backward call, the error
it raised) shown by another span. The log knows what each line did, so the message says it:
``lines [8, 9] hold: backward call 1 (line 8); line 9 logs nothing (`with torch.no_grad():`)``,
then what the visual draws and where the program does that (``the loss is made on line 7``).
"""

from __future__ import annotations

from engine.records import (
    Backward,
    Branch,
    Error,
    Event,
    Expr,
    GradReset,
    Loop,
    Number,
    Print,
    Tensor,
    Update,
    Warn,
)

from .errors import one_of
from .logindex import LogIndex
from .model import Beat
from .visuals import TABLE

MOST = 3
"""Lines a hint names at most (the nearest to the span)."""
MOST_LINES = 6
"""The span's lines a message describes at most (the first ones)."""


def empty_span(beat: Beat, index: LogIndex) -> str:
    """The message for a beat whose span selects no event: what its lines hold and what would
    give its visual something to draw."""
    lines = index.span_lines(beat)
    if lines is None or beat.lines is None:
        return "this span selects no events of the log"
    a, b = lines
    shown = f"line {a} holds" if a == b else f"lines [{a}, {b}] hold"
    loop = index.loop_around(a, b)
    if beat.pass_ is not None and loop is not None and index.select(beat.model_copy(update={"pass_": None})):
        ran = [k for k in range(1, len(loop.passes) + 1) if index.select(beat.model_copy(update={"pass_": k}))]
        return (f"this span selects no events of the log: {shown} nothing in pass {beat.pass_} of the for loop on "
                f"line {loop.line} (an if not taken then?); {'it logs' if a == b else 'they log'} in "
                f"pass{'es' * (len(ran) > 1)} {_and(ran)}: choose one of those")
    by_line: dict[int, list[Event]] = {}
    for e in index.events:  # once: a span of many lines over a long log scans it once
        if a <= e.line <= b:
            by_line.setdefault(e.line, []).append(e)
    held = [_held(index, n, by_line.get(n, [])) for n in range(a, min(b, a + MOST_LINES - 1) + 1)]
    said = "; ".join(held) + (f"; and {b - a + 1 - len(held)} lines more" if b - a + 1 > len(held) else "")
    parts = [f"this span selects no events of the log: {shown} {said}", _elsewhere(index, by_line),
             needs_hint(beat.visual, index, a, b)]
    return "; ".join(p for p in parts if p)


def needs_hint(visual: str, index: LogIndex, a: int, b: int) -> str:
    """``"loss_curve draws ...: the program makes loss on line 7 (lines: 7)"``: where the
    program logs what ``visual`` draws, the nearest lines to ``a..b`` first; empty when nowhere."""
    spec = TABLE[visual]
    kinds = spec.needs.kinds if spec.needs is not None else spec.kinds
    found: dict[int, list[str]] = {}
    for e in index.events:
        if type(e) not in kinds or not e.line or (isinstance(e, Error) and e.node) \
                or (spec.every_pass and index.loop_around(e.line, e.line) is None) \
                or (isinstance(e, Tensor) and not (e.name or "").isidentifier()):
            continue  # a walk's error, a line outside a loop, a tensor with no name of its own
        what = _what(e)
        if what and what not in found.setdefault(e.line, []):
            found[e.line].append(what)
    near = sorted(found, key=lambda n: (min(abs(n - a), abs(n - b)), n))[:MOST]
    draws = _DRAWS.get(visual, spec.doc)
    if not near:
        return f"{visual} draws {draws}, and no line of the program logs that"
    where = ", ".join(f"{' and '.join(found[n])} on line {n}" for n in sorted(near))
    return f"{visual} draws {draws}: the program has {where} (lines: {near[0]})"


_DRAWS = {
    "output": "what a line prints",
    "loss_curve": "a tensor a loop's line makes, one point a pass",
    "update": "a tensor changed in place (w -= lr * w.grad)",
    "network": "the tensors of lines that build an MLP",
}
"""What a lines-span visual needs, in the words of a hint (else the table's ``doc``)."""


def _held(index: LogIndex, n: int, evs: list[Event]) -> str:
    """What program line ``n`` logged (``evs``), in words; its code when it logged nothing."""
    calls = [e.call for e in evs if isinstance(e, Backward)]
    whats = list(dict.fromkeys(w for w in map(_what, evs) if w))
    if calls:
        whats.insert(0, f"backward call {calls[0]}" if len(calls) == 1 else f"backward calls {_calls(calls)}")
    if whats:
        return f"{', '.join(whats)} (line {n})"
    code = index.lines[n - 1].strip() if 0 < n <= len(index.lines) else ""
    return f"nothing logged on line {n}" + (f" (`{code}`)" if code else " (blank)")


def _and(items: list[int]) -> str:
    """``2``, ``2 and 3``, ``1, 2 and 4``."""
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _calls(calls: list[int]) -> str:
    """``1`` or ``1 to 3`` (a loop's calls are consecutive) or ``1, 4``."""
    if len(calls) > 2 and calls == list(range(calls[0], calls[-1] + 1)):
        return f"{calls[0]} to {calls[-1]}"
    return ", ".join(map(str, calls))


def _elsewhere(index: LogIndex, by_line: dict[int, list[Event]]) -> str:
    """Which spans show what the span's lines hold (``by_line``) outside a ``lines`` span: a
    backward call's walk, the error a walk raised. One hint a line."""
    out = []
    spans = one_of(v.name for v in TABLE.values() if "backward" in v.spans)
    for n, evs in sorted(by_line.items()):
        calls = [e.call for e in evs if isinstance(e, Backward)]
        raised = next((e for e in evs if isinstance(e, Error) and e.node), None)
        if raised is not None:
            call = _call_of(index, raised)
            out.append(f"the line that raised is {n}: its {raised.type or 'error'} is shown by a wavefront beat"
                       + (f" with backward: {call}" if call is not None else ""))
        elif calls:
            out.append(f"backward call {calls[0]} is shown by backward: {calls[0]} ({spans})" if len(calls) == 1
                       else f"each backward call K is shown by backward: K ({spans})")
    return "; ".join(out)


def _call_of(index: LogIndex, err: Error) -> int | None:
    """The backward call whose walk raised ``err`` (the last call started before it)."""
    calls = [e.call for e in index.of_kind(Backward) if e.seq < err.seq]
    return calls[-1] if calls else None


def _what(e: Event) -> str:
    """One event as a hint names it: ``a tensor w``, ``a print`` (a backward call: by its line)."""
    match e:
        case Tensor(name=name):
            return f"a tensor {name}" if name else f"a tensor ({e.grad_fn or 'unnamed'})"
        case Update(name=name):
            return f"an update of {name or 'a tensor'}"
        case GradReset(name=name):
            return f"a reset of {name or 'a tensor'}.grad"
        case Print():
            return "a print"
        case Expr():
            return "an expression shown"
        case Branch():
            return "an if"
        case Loop():
            return "a for loop"
        case Number(name=name):
            return f"a number {name}"
        case Error(type=kind) | Warn(type=kind):
            return f"a {kind or e.kind}"
    return ""

