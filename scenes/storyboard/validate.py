"""From a YAML file to a checked storyboard and its log, reporting every problem at once.

Why in stages that all report: the model check (keys, types, closed lists) and the program run are
independent, so both always run; the checks that need the log (does backward call 2 exist? is
``{w3.grad}`` a name?) run when the program ran. One :class:`StoryboardError` carries them all.

>>> checked = load("scenes/storyboards/backward_walk.yaml")      # doctest: +SKIP
>>> checked.storyboard.title, len(checked.index.events)           # doctest: +SKIP
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path as FsPath

from .errors import ErrorList, Path, did_you_mean, one_of
from .inputcheck import (check_forward_mode_name, check_program_glyphs, check_set_errors, check_text_bounds,
                         check_voice)
from engine.records import Accumulate, Branch, Error, GradReset

from .logindex import LogIndex
from .model import SPAN_KEYS, Beat, Numbers, NumberStyle, Storyboard
from .modelcheck import INVALID, check
from .cuemarks import PATH, marks, op_word, unmarked
from .placeholders import parse
from .narration import resolve, unknown_name
from .articletext import check_article
from .readcheck import check_captions, filled_problem
from .program import ProgramPlace, Run, defined_names, program_place, parse_sets, run
from .spanhint import empty_span, needs_hint
from .store import name_problem
from .timings import default_timings
from .visuals import TABLE
from .yamlsafe import Document, load_file

SCHEMA_LINE = "# yaml-language-server: $schema=../schema/storyboard.schema.json"


@dataclass(frozen=True)
class Checked:
    """A storyboard that passed every check, with the log its program gave."""

    name: str
    file: str
    storyboard: Storyboard
    run: Run
    index: LogIndex
    place: ProgramPlace
    doc: Document


def load(file: str, overrides: dict[str, str] | None = None, name: str | None = None,
         sets: list[str] | None = None) -> Checked:
    """Load, check and run one storyboard file; raise StoryboardError listing every problem.

    ``sets`` are raw ``--set NAME=VALUE`` words (merged into ``overrides``); a malformed one is
    reported at the program, like a bad name or value the engine refuses.
    """
    display = os.path.relpath(file) if os.path.isabs(file) else file
    doc = load_file(file, display)
    errors = ErrorList(display)
    parsed, bad_sets = parse_sets(sets)
    overrides = {**(overrides or {}), **parsed}
    for message in bad_sets:
        line, col = doc.at(("program",))
        errors.add(line, col, message, ("program",))
    board = check(doc, (), Storyboard, errors)
    check_text_bounds(doc, errors)
    check_voice(doc, FsPath(file).parent, errors)
    place = program_place(doc, errors)
    source = doc.data.get("program") if isinstance(doc.data, dict) else None
    result, index = None, None
    stem = name or FsPath(file).stem
    if (bad_name := name_problem(stem)) is not None:
        errors.add(1, 1, bad_name)
    fmode = doc.data.get("forward_mode") if isinstance(doc.data, dict) else None
    check_forward_mode_name(doc, fmode, errors)
    if place is not None and isinstance(source, str):
        check_program_glyphs(source, place, errors)
        result = run(source, f"{stem}.py", place, errors, overrides,
                     forward_mode=fmode if isinstance(fmode, str) and fmode.isidentifier() else None,
                     forward_mode_at=doc.pos.get(("forward_mode",), (1, 1)))
    sets_refused = len(errors.problems)
    if result is not None and place is not None and overrides:
        check_set_errors(result, overrides, place, errors)
    ran_as_written = result is not None and not bad_sets and len(errors.problems) == sets_refused
    if result is not None and place is not None:
        index = LogIndex.build(result.events, result.header["source"])
        _check_names(doc, board, index, errors, defined_names(source))
        beats, numbers = _usable_parts(doc, board)
        items = doc.data.get("checklist") if isinstance(doc.data, dict) else None
        check_beats(doc, beats, numbers, index, errors, defined_names(source),
                    len(items) if isinstance(items, list) else 0)
        if board is not INVALID:
            if board.takeaway is not None:
                _check_marks(doc, None, ("takeaway", "text"), index, _known(defined_names(source), index), errors,
                             board.takeaway.text)
            check_errors_shown(board, index, place, errors)
            check_captions(doc, board, index, errors, default_timings().reading)
            check_article(doc, board, index, errors)
    errors.raise_if_any(result.log if ran_as_written and result is not None else None)
    assert board is not INVALID and result is not None and place is not None and index is not None
    return Checked(stem, display, board, result, index, place, doc)


def _check_names(doc: Document, board: Storyboard, index: LogIndex, errors: ErrorList,
                 program_names: list[str]) -> None:
    """``names:``: each expression must make a tensor, each name be new and a plain name."""
    names = board.names if board is not INVALID else {}
    for expr, name in names.items():
        at: Path = ("names", expr)
        line, col = doc.key_pos.get(at, doc.at(at))
        if not name.isidentifier():
            errors.add(line, col, f"names: '{name}' must be a plain name (letters, digits, _)", at)
        elif name in program_names or name in index.name_tensors:
            errors.add(line, col, f"names: the program already has a '{name}'; choose another name", at)
    for expr in index.name_results(names):
        at = ("names", expr)
        line, col = doc.key_pos.get(at, doc.at(at))
        errors.add(line, col, f"names: no expression {expr!r} in the program makes a tensor (write it as "
                   "the program does, e.g. \"b**3\")", at)


def check_errors_shown(board: Storyboard, index: LogIndex, place: ProgramPlace, errors: ErrorList) -> None:
    """An error the program raises must be on screen: a clip may show a failing backward on
    purpose, but an error no beat shows (``name 'torch' is not defined``) is a mistake."""
    shown = {e.seq for beat in board.beats if beat.span_key()
             for e in index.select(beat) if type(e) in TABLE[beat.visual].kinds}
    for ev in index.events:
        if isinstance(ev, Error) and ev.seq not in shown:
            line, col = place.yaml_pos(ev.line, 1)
            errors.add(line, col, f"program line {ev.line} raises {ev.type or 'an error'}: "
                       f"{ev.message}; no beat shows it", ("program",))


def _usable_parts(doc: Document, board: Storyboard) -> tuple[list[tuple[int, Beat]], Numbers]:
    """The beats (and number style) that passed the model check, even when others did not.

    Why: an author should see a bad pace in beat 1 and a missing backward call in beat 2 in one
    run; the beats that are well formed still get their log checks.
    """
    if board is not INVALID:
        return list(enumerate(board.beats)), board.number_style
    scratch = ErrorList(doc.file)
    beats: list[tuple[int, Beat]] = []
    raw = doc.data.get("beats") if isinstance(doc.data, dict) else None
    for i in range(len(raw) if isinstance(raw, list) else 0):
        beat = check(doc, ("beats", i), Beat, scratch)
        if beat is not INVALID:
            beats.append((i, beat))
    numbers = Numbers()
    if isinstance(doc.data, dict) and "numbers" in doc.data:
        got = check(doc, ("numbers",), NumberStyle, scratch)
        if got is not INVALID:
            numbers = got if isinstance(got, Numbers) else Numbers(style=got)
    return beats, numbers


def _known(names: list[str], index: LogIndex) -> list[str]:
    """The names a storyboard may use: the program's and those the log binds, once each."""
    return list(dict.fromkeys(names + [n for n in index.logged_names() if n.isidentifier()]))


def check_beats(doc: Document, beats: list[tuple[int, Beat]], numbers: Numbers, index: LogIndex,
                errors: ErrorList, names: list[str], checklist: int = 0) -> None:
    """The checks that need the log: spans exist, names are the program's, narration resolves;
    and each ``check:`` names an item of the ``checklist`` (``checklist`` items)."""
    cutoff = -1
    known = _known(names, index)
    filled_by: dict[int, tuple[int, Beat]] = {}  # an accumulate event's seq -> the beat that shows it
    for i, beat in beats:
        at: Path = ("beats", i)
        span_ok = _check_span(doc, beat, at, index, errors)
        if span_ok:
            _check_fills_once(doc, beat, at, index, filled_by, errors)
        for key in ("emphasis", "dim"):
            for j, name in enumerate(getattr(beat, key)):
                if name not in known:
                    line, col = doc.at(at + (key, j))
                    errors.add(line, col, f"'{name}' is not a name the program defines (it defines "
                               f"{', '.join(known) or 'no names'}){did_you_mean(name, known)}", at + (key, j))
        tensors = index.logged_names()
        for j, name in enumerate(beat.focus):
            if name not in tensors:
                line, col = doc.at(at + ("focus", j))
                errors.add(line, col, f"focus: '{name}' is not a tensor of the log (its tensors are "
                           f"{', '.join(tensors) or 'none'}){did_you_mean(name, tensors)}", at + ("focus", j))
        for key in ("check", "asks"):
            item = getattr(beat, key)
            if item is not None and item > checklist:
                line, col = doc.at(at + (key,))
                errors.add(line, col, f"{key}: {item} names no item of the checklist (it has {checklist})",
                           at + (key,))
        both = set(beat.emphasis) & set(beat.dim)
        if both:
            line, col = doc.at(at + ("dim",))
            errors.add(line, col, f"{', '.join(sorted(both))} both emphasised and dimmed", at + ("dim",))
        selected = index.select(beat) if beat.span_key() else []
        if selected:
            cutoff = max(e.seq for e in selected)
        _check_narration(doc, beat, at, index, cutoff, numbers, errors, resolve_too=span_ok)
        _check_marks(doc, beat, at, index, known, errors)


def _check_fills_once(doc: Document, beat: Beat, at: Path, index: LogIndex,
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


def _check_span(doc: Document, beat: Beat, at: Path, index: LogIndex, errors: ErrorList) -> bool:
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


def _narration_col(doc: Document, path: Path, offset: int) -> tuple[int, int]:
    """Position of character ``offset`` of a narration scalar (exact for one-line scalars)."""
    line, col = doc.at(path)
    node = doc.nodes.get(path)
    style = getattr(node, "style", None)
    value = getattr(node, "value", "")  # the scalar as written (a beat's narration or the takeaway's text)
    if node is not None and isinstance(value, str) and "\n" not in value and node.start_mark.line == node.end_mark.line:
        return line, col + offset + (1 if style in ('"', "'") else 0)
    return line, col


def _check_marks(doc: Document, beat: Beat | None, at: Path, index: LogIndex, known: list[str],
                 errors: ErrorList, text: str | None = None) -> None:
    """Each cue mark (:mod:`.cuemarks`) is ``[[NAME]]`` naming a tensor or an op of the log, or
    ``[[from NAME]]`` naming a result; ``text`` (at ``at``): the takeaway's, instead of a beat's narration."""
    path = at + ("narration",) if text is None else at
    _, found, problems = marks(text if text is not None else beat.narration if beat is not None else "")
    for offset, message in problems:
        errors.add(*_narration_col(doc, path, offset), message, path)
    ops = sorted({re.sub(r"Backward\d*$", "", n.grad_fn) for n in index.node_event.values() if n.grad_fn})
    for m in found:
        if m.name.startswith(PATH):  # a path starts at a result: a tensor with a node
            made = [index.tensor_event[i] for i in index.ids_of(m.name[len(PATH):]) if i in index.tensor_event]
            if any(t.grad_fn and t.node for t in made):
                continue
            results = [n for n in known if any((t := index.tensor_event.get(i)) is not None and t.grad_fn
                                               for i in index.ids_of(n))]
            errors.add(*_narration_col(doc, path, m.raw), f"cue mark [[{m.name}]] names no result of the program "
                       f"(a tensor with a grad_fn) to trace the path back from (its results: "
                       f"{', '.join(results) or 'none'})", path)
            continue
        if index.ids_of(m.name) or (op_word(m.name) or "-") in {op_word(o) for o in ops}:
            continue
        errors.add(*_narration_col(doc, path, m.raw), f"cue mark [[{m.name}]] names no tensor or op of the program "
                   f"(its names: {', '.join(known) or 'none'}; its ops: {', '.join(ops) or 'none'})"
                   f"{did_you_mean(m.name, known + ops)}", path)


def _check_narration(doc: Document, beat: Beat, at: Path, index: LogIndex, cutoff: int,
                     numbers: Numbers, errors: ErrorList, resolve_too: bool = True) -> None:
    path = at + ("narration",)
    placeholders, problems = parse(beat.narration)
    for offset, message in problems:
        line, col = _narration_col(doc, path, offset)
        errors.add(line, col, message, path)
    values = []
    for p in placeholders:  # with a bad span, the moment is unknown but a wrong name is still wrong
        got = resolve(p, index, cutoff, numbers) if resolve_too else unknown_name(p, index)
        if isinstance(got, str):
            line, col = _narration_col(doc, path, p.start)
            errors.add(line, col, got, path)
        elif got is not None:
            values.append((p, got))
    if resolve_too and not problems and len(values) == len(placeholders):
        clean = unmarked(beat.narration)  # the text the captions show, its placeholders where they are there
        values = [(q, got) for q, (_, got) in zip(parse(clean)[0], values)]
        why = filled_problem(f"beat {at[1] + 1}'s narration", clean, values, default_timings().reading)
        if why is not None:
            errors.add(*doc.at(path), why, path)
