"""``render log PROGRAM.py`` (or a storyboard's NAME or FILE.yaml): run a program on the engine
and print its event log.

The JSONL goes to stdout exactly as docs/event-log.md specifies; ``--pretty`` prints a table. A
program outside the subset (or a bad ``--set``) gives one located line on stderr and exit 2; a
program that raises at run time still gives its log (the error is an event) and exit 0. A
storyboard whose program runs but whose beats or narration are wrong gives the whole log too, its
problems on stderr and exit 1 (:data:`LOG_BUT_REFUSED`): the log is what an author needs to fix them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine import DEFAULT_MAX_OPS
from engine.errors import ProgramError
from engine.records import (
    Accumulate,
    Backward,
    Branch,
    Error,
    Event,
    Expr,
    ForwardPass,
    GradReset,
    Jvp,
    Loop,
    Node,
    Number,
    Print,
    Tangent,
    Tensor,
    Update,
    Visit,
    Warn,
)


LOG_BUT_REFUSED = 1
"""Exit status of ``render log FILE.yaml`` when the program ran (its whole log is on stdout) but
the storyboard has problems (on stderr): not 0, so a script sees the storyboard is not ready; not
2, which means refused with nothing printed."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("log", help="print the event log of a program or a storyboard's program",
                       description="Run a program on gradreel's engine and print its event log "
                                   "(format: docs/event-log.md).")
    p.add_argument("program", metavar="PROGRAM.py|NAME|FILE.yaml",
                   help="a program file, the NAME of a storyboard in scenes/storyboards/, or a storyboard file")
    p.add_argument("--pretty", action="store_true", help="a readable table instead of JSON Lines")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
                   help="change a number of the program, e.g. --set w1=0.5 (repeatable)")
    p.add_argument("--max-ops", type=int, default=None, metavar="N",
                   help=f"stop a runaway program after N operations (default {DEFAULT_MAX_OPS})")
    p.add_argument("--forward-mode", metavar="NAME", default=None,
                   help="also differentiate the tensor NAME in forward mode, one pass per leaf")
    p.set_defaults(run=run)


def parse_overrides(items: list[str], where: str) -> dict[str, str]:
    """``["w1=0.5"]`` -> ``{"w1": "0.5"}``, refusing a malformed item with a located message."""
    from scenes.storyboard.program import parse_sets
    out, problems = parse_sets(items)
    if problems:
        raise ProgramError(where, 1, 1, problems[0])
    return out


def run(args: argparse.Namespace) -> int:
    from scenes.commands.main import UsageError

    path = Path(args.program)
    if path.suffix in (".yaml", ".yml") or (path.suffix != ".py" and not path.exists()):
        return _storyboard_log(args)
    source = read_program(path)
    if args.max_ops is None:
        args.max_ops = DEFAULT_MAX_OPS
    if args.max_ops < 1:
        raise UsageError(f"--max-ops {args.max_ops}: expected a whole number of operations of at least 1")
    from engine import run_program

    log = run_program(source, str(path), max_ops=args.max_ops,
                      overrides=parse_overrides(args.overrides, str(path)),
                      forward_mode=args.forward_mode)
    sys.stdout.write(pretty(log) if args.pretty else log.to_jsonl())
    sys.stdout.flush()
    if log.limit is not None:
        raise ProgramError(str(path), log.limit.line, log.limit.col, str(log.limit))
    return 0


def read_program(path: Path) -> str:
    """A program file's text: a regular file of at most the engine's size limit, read no further
    than that (``/dev/zero`` and FIFOs are refused), and UTF-8 (a bad byte is located)."""
    from engine.subset import MAX_SOURCE_BYTES
    from scenes.atomic import read_regular
    from scenes.commands.main import UsageError
    from scenes.storyboard.yamlsafe import utf8_position

    try:
        raw = read_regular(path, MAX_SOURCE_BYTES)
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = utf8_position(raw, exc.start)
        raise ProgramError(str(path), line, col, f"not UTF-8: byte 0x{raw[exc.start]:02x} is no UTF-8 text") from None


def _storyboard_log(args: argparse.Namespace) -> int:
    """``render log backward_walk``: the log of a storyboard's program (checked with it). The
    program runs as the clip's does, so ``--max-ops`` and ``--forward-mode`` are refused, not ignored."""
    from scenes.commands.main import UsageError
    from scenes.storyboard import load, storyboard_path

    if args.forward_mode is not None:
        raise UsageError(f"--forward-mode {args.forward_mode}: for a program file; a storyboard gives "
                         "forward_mode: in its YAML")
    if args.max_ops is not None:
        raise UsageError(f"--max-ops {args.max_ops}: for a program file; a storyboard's program runs under "
                         f"the bound of {DEFAULT_MAX_OPS} operations, as its clip does")
    from scenes.storyboard import StoryboardError

    try:
        log = load(storyboard_path(args.program), sets=args.overrides).run.log
    except StoryboardError as exc:
        if exc.log is None:  # the program did not run as written: there is no log to print
            raise
        sys.stdout.write(pretty(exc.log) if args.pretty else exc.log.to_jsonl())
        sys.stdout.flush()
        n = len(exc.problems)
        sys.stderr.write(f"the program ran and its whole log is above; the storyboard has {n} "
                         f"problem{'s' * (n != 1)} (render check refuses it until they are fixed):\n{exc}\n")
        return LOG_BUT_REFUSED
    sys.stdout.write(pretty(log) if args.pretty else log.to_jsonl())
    return 0


def _n(v) -> str:
    return "None" if v is None else (v if isinstance(v, str) else f"{v:.6g}")


def _summary(e: Event) -> str:
    match e:
        case Tensor():
            who = e.name or "(unnamed)"
            exact = f"  = {e.exact}" if e.exact is not None and e.dtype == "float32" else ""
            return f"{e.id} {who}: {e.str}{exact}"
        case Node():
            return f"{e.id} {e.grad_fn} -> {e.edges}"
        case Update():
            return f"{e.tensor} {e.name} := {e.str}"
        case Backward():
            return f"call {e.call} from {e.root} at {e.node}"
        case Visit():
            outs = ", ".join(_n(g) for g in e.grads_out)
            return f"call {e.call}: {e.node} {e.grad_fn}  in {_n(e.grad_in)}  out [{outs}]"
        case Accumulate():
            return f"{e.name}.grad {_n(e.before)} + {_n(e.add)} = {_n(e.after)}  {e.str}"
        case GradReset():
            return f"{e.name}.grad = {'None' if e.to is None else 0}"
        case Branch():
            return f"if {e.test}: {'taken' if e.taken else 'not taken'}"
        case Loop():
            return f"pass {e.pass_} of the loop (lines {e.line}-{e.end})"
        case Number():
            return f"{e.name} = {e.value!r}" + (f"  = {e.exact}" if e.exact is not None else "")
        case Print():
            return e.text
        case Expr():
            return f"{e.source} -> {e.str}"
        case ForwardPass():
            return f"pass {e.pass_}/{e.passes}: seed {e.name} with tangent 1"
        case Tangent():
            return f"pass {e.pass_}: {e.node} carries {_n(e.value)}"
        case Jvp():
            return f"pass {e.pass_}: d{e.root}/d{e.name} = {_n(e.value)}"
        case Warn() | Error():
            kind = e.type if e.type is not None else e.kind
            return f"{kind}: {e.message[:100]}{'...' if len(e.message) > 100 else ''}"
    return ""


def pretty(log) -> str:
    """One row an event: seq, line, kind, and what happened, in words a person reads. Control
    characters and direction overrides are written as escapes (``\\x1b``, ``\\u202e``, by
    :func:`~scenes.storyboard.errors.plain`): what a program prints must not move the cursor,
    ring the bell, recolour or turn around the terminal of whoever reads the table."""
    from scenes.storyboard.errors import plain

    rows = [plain(f"# {log.header['program']}  ({len(log.events)} events, {log.header['engine']})"),
            f"{'seq':>5} {'line':>4}  {'kind':<10}  what"]
    for e in log.events:
        rows.append(f"{e.seq:>5} {e.line:>4}  {e.kind:<10}  {plain(_summary(e))}")
    return "\n".join(rows) + "\n"
