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

from .errors import ErrorList, Path, did_you_mean
from .inputcheck import (check_forward_mode_name, check_program_glyphs, check_set_errors, check_text_bounds,
                         check_voice)
from engine.records import Error

from .logindex import LogIndex
from .model import Beat, Numbers, NumberStyle, Storyboard
from .modelcheck import INVALID, check
from .cuemarks import LAYER, PATH, marks, op_word, unmarked
from .lights import layer
from .network import read_network
from .placeholders import parse
from .narration import resolve, unknown_name
from .nograd import grad_none_problem
from .articletext import check_article
from .readcheck import check_captions, filled_problem
from .program import ProgramPlace, Run, defined_names, program_place, parse_sets, run
from .spancheck import check_fills_once, check_span
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
        span_ok = check_span(doc, beat, at, index, errors)
        if span_ok:
            check_fills_once(doc, beat, at, index, filled_by, errors)
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
        if beat.unit is not None:
            _check_unit(doc, beat, at, index, errors)
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
        for j, name in enumerate(beat.grad_none):
            problem = grad_none_problem(name, beat.narration, index, cutoff)
            if problem is not None:
                errors.add(*doc.at(at + ("grad_none", j)), problem, at + ("grad_none", j))
        _check_narration(doc, beat, at, index, cutoff, numbers, errors, resolve_too=span_ok)
        _check_marks(doc, beat, at, index, known, errors)


def _check_unit(doc: Document, beat: Beat, at: Path, index: LogIndex, errors: ErrorList) -> None:
    """``unit:`` names a unit of the program's network that weights feed (not an input), drawn
    by this beat's span, on a network visual: the beat writes that unit's arithmetic as it comes."""
    name, path = beat.unit, at + ("unit",)
    line, col = doc.at(path)
    if TABLE[beat.visual].view != "network":
        errors.add(line, col, f"unit: is for visual network (it writes one unit's arithmetic on the "
                   f"network's picture); visual {beat.visual} draws no units", path)
        return
    net = read_network(index.events)
    fed = {l.dst for l in net.links.values()}
    units = [u for u in net.units.values() if u.id in fed]
    unit = next((u for u in units if u.id in index.ids_of(name or "")), None)
    if unit is None:
        names = [u.name for u in units]
        errors.add(line, col, f"unit: '{name}' is no unit of the program's network that weights feed (its "
                   f"units: {', '.join(names) or 'none: the program multiplies no weight'})"
                   f"{did_you_mean(name or '', names)}", path)
        return
    if beat.span_key() and unit.seq not in {e.seq for e in index.select(beat)}:
        made = index.tensor_event[unit.id].line
        errors.add(line, col, f"unit: {unit.name} is made on program line {made}, outside this beat's span: "
                   f"a beat writes the arithmetic of a unit it draws", path)


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
    """Each cue mark (:mod:`.cuemarks`) is ``[[NAME]]`` naming a tensor or an op of the log,
    ``[[from NAME]]`` naming a result, or ``[[layer NAME]]`` naming a unit of the program's
    network; ``text`` (at ``at``): the takeaway's, instead of a beat's narration."""
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
        if m.name.startswith(LAYER):  # a layer is named by one of its units
            if layer(index, m.name[len(LAYER):]):
                continue
            units = [u.name for u in read_network(index.events).units.values()]
            errors.add(*_narration_col(doc, path, m.raw), f"cue mark [[{m.name}]] names no unit of the program's "
                       f"network (its units: {', '.join(units) or 'none: the program multiplies no weight'})", path)
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
