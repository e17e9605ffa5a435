"""Does a beat's span (lines, a backward call, its steps, a pass, a reset) exist in the log?

Split from :mod:`.validate` so that one module holds what a span may select and the messages
that say how to fix one that selects nothing; each check reports at the key that is wrong.
"""

from __future__ import annotations

from engine.records import Accumulate, Branch, GradReset

from .errors import ErrorList, Path, one_of
from .logindex import LogIndex
from .model import SPAN_KEYS, Beat
from .spanhint import empty_span, needs_hint
from .visuals import TABLE
from .yamlsafe import Document


def check_fills_once(doc: Document, beat: Beat, at: Path, index: LogIndex,
                      filled_by: dict[int, tuple[int, Beat]], errors: ErrorList) -> None:
    """A bucket fill may be shown by one beat only. Why: a beat shows a fill from the bucket's
    value before it, so a second beat showing the same fill empties the bucket back (12 back to
    6) and fills it again, which tells the viewer the opposite of accumulation. The usual cause
    is ``backward: K`` (the walk with its fills) before ``accumulations: K``."""
    if Accumulate not in TABLE[beat.visual].kinds:
        return
    fills = [e for e in index.select(beat) if isinstance(e, Accumulate)]
    shown = [filled_by[e.seq] for e in fills if e.seq in filled_by]
    for e in fills:
        filled_by.setdefault(e.seq, (at[1], beat))
    if not shown:
        return
    j, first = min(shown, key=lambda jb: jb[0])
    key = first.span_key()
    call = fills[0].call
    hint = (f"; to show the walk there without its fills, write visits: {call} in beat {j + 1}"
            if key == "backward" else "; show them in one beat")
    line, col = doc.at(at + (beat.span_key(),))
    errors.add(line, col, f"beat {j + 1} ({key}: {getattr(first, key)}) already shows the bucket fills of "
               f"backward call {call}: shown again, each bucket would drop back and fill twice{hint}",
               at + (beat.span_key(),))


def _span_problem(beat: Beat, index: LogIndex, nlines: int) -> tuple[str, str] | None:
    """``(key, message)`` when the span names something the log does not have."""
    ncalls = len(index.calls)
    calls = "never calls backward()" if ncalls == 0 else f"calls backward() {ncalls} time{'s' * (ncalls > 1)}"
    if beat.lines is not None:
        a, b = (beat.lines, beat.lines) if isinstance(beat.lines, int) else beat.lines
        if a > b:
            return "lines", f"lines [{a}, {b}] run backwards; write [{b}, {a}]"
        if b > nlines:
            return "lines", f"line {b} is past the end of the program ({nlines} lines)"
    for key in ("backward", "visits", "accumulations"):
        k = getattr(beat, key)
        if k is not None and k > ncalls:
            return key, f"backward call {k} does not exist: the program {calls}"
    if beat.steps is not None:
        if beat.visits is None:
            return "steps", "steps only goes with visits: K"
        got = index.step_range(beat.visits, beat.steps)
        if isinstance(got, str):
            return "steps", got
        i, j = got
        n = len(index.visits(beat.visits))
        if i > j and any(isinstance(s, str) for s in beat.steps):
            return "steps", (f"steps [{', '.join(map(str, beat.steps))}]: the walk reaches {beat.steps[1]} "
                             f"(visit {j}) before {beat.steps[0]} (visit {i})")
        if i > j or j > n:
            return "steps", f"steps [{i}, {j}] is outside the walk: backward call {beat.visits} visits {n} nodes"
    if beat.passes is not None:
        a, b = (beat.passes, beat.passes) if isinstance(beat.passes, int) else beat.passes
        n = index.forward_passes()
        if n == 0:
            return "passes", "passes needs forward mode: add forward_mode: NAME (the loss) at the top"
        if a > b or b > n:
            return "passes", f"passes [{a}, {b}] is outside forward mode: it makes {n} passes"
    problem = _pass_problem(beat, index)
    if problem:
        return problem
    for key, record in (("reset", GradReset), ("branch", Branch)):
        kind = record.kind
        n = getattr(beat, key)
        if n is not None and not index.select(beat):
            where = index.lines_with(record)
            hint = f"; {kind} events are on line {one_of(str(x) for x in where)}" if where else \
                f"; the program logs no {kind} event at all"
            return key, f"program line {n} logs no {kind} event{hint}"
    return None


def _pass_problem(beat: Beat, index: LogIndex) -> tuple[str, str] | None:
    """A span inside a loop that ran more than once must say which pass it shows; ``pass``
    needs such a span and a pass that ran."""
    lines = index.span_lines(beat)
    if lines is None:
        return ("pass", "pass goes with lines, reset or branch (a backward call is one pass already)") \
            if beat.pass_ is not None else None
    a, b = lines
    shown = f"line {a}" if a == b else f"lines [{a}, {b}]"
    verb = "is" if a == b else "are"
    for loop in index.loops.values():
        if loop.cuts(a, b):
            return ("lines", f"{shown} cut the for loop of lines {loop.line}-{loop.end}: select lines "
                    f"inside its body (with pass: N) or the whole loop, [{loop.line}, {loop.end}]")
    loop = index.loop_around(a, b)
    if loop is None:
        return ("pass", f"{shown} {verb} not inside a for loop that ran; remove pass") \
            if beat.pass_ is not None else None
    n = len(loop.passes)
    if beat.pass_ is None and TABLE[beat.visual].every_pass:
        return None
    if beat.pass_ is None:
        return (None, f"{shown} {verb} inside the for loop on line {loop.line}, which ran {n} times: "
                f"add pass: N (1 to {n}) to choose one") if n > 1 else None
    if beat.pass_ > n:
        return ("pass", f"pass {beat.pass_} does not exist: the for loop on line {loop.line} ran "
                f"{n} time{'s' * (n != 1)}")
    return None


def check_span(doc: Document, beat: Beat, at: Path, index: LogIndex, errors: ErrorList) -> bool:
    """Report a span the log cannot satisfy; True when the span is usable."""
    given = [k for k in SPAN_KEYS if getattr(beat, k) is not None]
    spec = TABLE[beat.visual]
    allowed = spec.spans
    if not allowed:
        if given:
            line, col = doc.key_pos.get(at + (given[0],), doc.at(at))
            errors.add(line, col, f"a {beat.visual} beat shows no span of the log; remove '{given[0]}'", at + (given[0],))
        return not given
    if not given:
        line, col = doc.at(at)
        errors.add(line, col, f"beat {at[1] + 1} needs a span: {one_of(allowed)}", at)
        return False
    if len(given) > 1:
        line, col = doc.key_pos.get(at + (given[1],), doc.at(at))
        errors.add(line, col, f"a beat selects one span, but gives {' and '.join(given)}", at + (given[1],))
        return False
    key = given[0]
    if key not in allowed:
        line, col = doc.key_pos.get(at + (key,), doc.at(at))
        errors.add(line, col, f"visual {beat.visual} shows {one_of(allowed)}, not {key}", at + (key,))
        return False
    problem = _span_problem(beat, index, len(index.lines))
    if problem:
        k, message = problem
        where = at + (k,) if k is not None else at  # None: the beat as a whole lacks a key
        line, col = doc.at(where)
        errors.add(line, col, message, where)
        return False
    if not index.select(beat):
        line, col = doc.at(at + (key,))
        errors.add(line, col, empty_span(beat, index), at + (key,))
    elif spec.needs is not None and not any(type(e) in spec.needs.kinds for e in index.select(beat)):
        line, col = doc.at(at + (key,))
        lines = index.span_lines(beat)
        hint = needs_hint(beat.visual, index, *lines) if lines is not None else ""
        errors.add(line, col, spec.needs.message + (f"; {hint}" if hint else ""), at + (key,))
    else:
        return True
    return False
