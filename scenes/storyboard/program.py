"""The storyboard's inline program: where it sits in the YAML file, and running it.

Why map positions: the program is a literal block scalar (``program: |``), so its line 3 column 5
is, say, line 9 column 7 of the YAML file. A refusal from the engine (an unsupported statement, a
bad ``--set``) is reported there, so an editor jumps to the right character.

>>> place = ProgramPlace(first_line=4, indent=2)
>>> place.yaml_pos(3, 5)
(6, 7)
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import yaml

from engine import DEFAULT_MAX_OPS
from engine.records import Event

from .errors import ErrorList
from .yamlsafe import Document


@dataclass(frozen=True)
class ProgramPlace:
    """Program line 1 is YAML line ``first_line``; every program column is shifted by ``indent``."""

    first_line: int
    indent: int

    def yaml_pos(self, line: int, col: int) -> tuple[int, int]:
        """YAML (line, col) of program (line, col); both 1-based."""
        return self.first_line + max(line, 1) - 1, self.indent + max(col, 1)


def program_place(doc: Document, errors: ErrorList) -> ProgramPlace | None:
    """Locate the program block; refuse anything but a literal block (``program: |``)."""
    node = doc.nodes.get(("program",))
    if not isinstance(node, yaml.ScalarNode) or not isinstance(doc.data.get("program"), str):
        return None  # the model check reports a missing or non-text program
    if node.style != "|":
        line, col = doc.pos[("program",)]
        errors.add(line, col, "program must be a literal block (program: |) so the clip shows it "
                   "exactly as written", ("program",))
        return None
    text_lines = doc.text.splitlines()
    first = node.start_mark.line + 1  # 0-based index of the block's first content line
    indent = 0
    for raw in text_lines[first:node.end_mark.line + 1]:
        if raw.strip():
            indent = len(raw) - len(raw.lstrip(" "))
            break
    return ProgramPlace(first_line=first + 1, indent=indent)


def defined_names(source: str) -> list[str]:
    """Names the program assigns, in order of first assignment (``[]`` if it does not parse).

    Why from the source and not only the log: a name is defined even when the run stops early,
    and the list is what an author sees in a "did you mean" message.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.For):
            targets = [node.target]
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Name) and sub.id not in names:
                    names.append(sub.id)
    order = {n: i for i, n in enumerate(names)}
    return sorted(names, key=lambda n: order[n])


@lru_cache(maxsize=8)
def grad_bindings(source: str) -> dict[str, tuple[tuple[int, str], ...]]:
    """``{"g": ((5, "w"),)}`` for each ``g = w.grad`` of the program: the line and the tensor
    (``w``, ``ws[2]``) whose ``.grad`` a plain name is bound to. Why: such a name is the grad
    tensor itself, which the log names ``w.grad``, so a ``{g}`` placeholder must say to write
    ``{w.grad}``; the mapping is read from the source, as the log keeps no binding of ``g``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    out: dict[str, list[tuple[int, str]]] = {}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Attribute) and node.value.attr == "grad"):
            out.setdefault(node.targets[0].id, []).append((node.lineno, ast.unparse(node.value.value)))
    return {name: tuple(sorted(found)) for name, found in out.items()}


@dataclass(frozen=True)
class Run:
    """What running the program gave: the log's header and events."""

    header: dict[str, Any]
    events: list[Event]
    jsonl: str
    log: Any = None  # the engine's Log, for the PyTorch comparison


def run(source: str, filename: str, place: ProgramPlace, errors: ErrorList,
        overrides: dict[str, str] | None = None, max_ops: int = DEFAULT_MAX_OPS,
        forward_mode: str | None = None, forward_mode_at: tuple[int, int] = (1, 1)) -> Run | None:
    """Run ``source`` through the engine; a ProgramError becomes a located problem.

    ``forward_mode`` (the storyboard's top-level key, at ``forward_mode_at``) asks the engine to
    also differentiate that name in forward mode, so a clip can show the passes it really took."""
    from engine import ProgramError, run_program
    from engine.errors import ForwardModeError

    try:
        log = run_program(source, filename, max_ops=max_ops, overrides=overrides or None,
                          forward_mode=forward_mode)
    except ForwardModeError as exc:
        ends = ", ".join(exc.tensors) or "none"
        errors.add(*forward_mode_at, f"forward_mode: the program ends with no tensor named {exc.name} "
                   f"(it ends with {ends})", ("forward_mode",))
        return None
    except ProgramError as exc:
        line, col = place.yaml_pos(exc.line, exc.col)
        errors.add(line, col, f"program line {exc.line}: {exc.message}", ("program",))
        return None
    return Run(header=dict(log.header), events=list(log.events), jsonl=log.to_jsonl(), log=log)


def parse_sets(items: list[str] | None) -> tuple[dict[str, str], list[str]]:
    """``["w1=0.5"]`` -> ``{"w1": "0.5"}`` and messages for malformed items."""
    out: dict[str, str] = {}
    problems: list[str] = []
    for item in items or []:
        name, eq, value = item.partition("=")
        if not eq or not name.strip() or not value.strip():
            problems.append(f"--set {item!r}: expected NAME=VALUE, e.g. --set w1=0.5")
            continue
        if name.strip() in out and out[name.strip()] != value.strip():
            problems.append(f"--set {name.strip()} given twice ({out[name.strip()]} and {value.strip()}); "
                            "give it once")
            continue
        out[name.strip()] = value.strip()
    return out, problems
