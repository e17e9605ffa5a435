"""Run a storyboard's program in real PyTorch and refuse any difference from the engine's log.

Why: the clip claims to show what PyTorch does. Where torch is installed, ``render check`` runs the
same program (``--set`` applied) in a child Python and compares, per program name: the tensor's
``str()``, its ``.grad`` as printed, everything the program printed, and the errors raised.

How, without eval/exec in this code base: the program is written to a temporary script in which
each top-level statement is wrapped in ``try/except`` (the engine also goes on after an error),
followed by a dump of the names' tensors as JSON; the script runs as ``python SCRIPT``.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from .logindex import LogIndex

MARK = "__GRADREEL_ORACLE__"
TIMEOUT = 120

_DUMP = f"""
import json as _gr_json, warnings as _gr_warnings
_gr_warnings.simplefilter("ignore")
_gr_out = {{}}
for _gr_k, _gr_v in list(globals().items()):
    if not _gr_k.startswith("_") and isinstance(_gr_v, torch.Tensor):
        _gr_g = _gr_v.grad if _gr_v.is_leaf else None
        _gr_out[_gr_k] = {{"str": str(_gr_v), "grad": None if _gr_g is None else str(_gr_g)}}
print("{MARK}" + _gr_json.dumps({{"vars": _gr_out, "errors": _gr_errors}}))
"""


def torch_available() -> bool:
    """True when ``import torch`` would work in this interpreter."""
    return importlib.util.find_spec("torch") is not None


@dataclass(frozen=True)
class Difference:
    """One disagreement, at program ``line``."""

    line: int
    message: str


def script(source: str) -> str:
    """The child script for ``source`` (top-level statements wrapped, the dump appended)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    out = ["import torch", "_gr_errors = []"]
    for stmt in tree.body:
        body = lines[stmt.lineno - 1: stmt.end_lineno]
        out.append("try:")
        out.extend("    " + text for text in body)
        out.append("except Exception as _gr_e:")
        out.append(f"    _gr_errors.append([{stmt.lineno}, type(_gr_e).__name__, str(_gr_e).splitlines()[0] if str(_gr_e) else ''])")
    return "\n".join(out) + "\n" + _DUMP


def run_torch(source: str) -> tuple[dict, list[str]]:
    """``(dump, printed lines)`` from running ``source`` in real PyTorch."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "program.py")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(script(source))
        proc = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=TIMEOUT,
                              env={**os.environ, "PYTHONWARNINGS": "ignore"})
    printed = proc.stdout.splitlines()
    dumps = [p for p in printed if p.startswith(MARK)]
    if proc.returncode != 0 or not dumps:
        raise RuntimeError(f"PyTorch run failed: {proc.stderr.strip().splitlines()[-1:] or proc.returncode}")
    return json.loads(dumps[-1][len(MARK):]), [p for p in printed if not p.startswith(MARK)]


def engine_state(index: LogIndex) -> tuple[dict[str, dict], list[str], list[list]]:
    """Per name, the final ``str`` and ``.grad`` text the log implies; prints; errors."""
    state: dict[str, dict] = {}
    current: dict[str, str] = {}  # tensor id -> str
    grads: dict[str, str | None] = {}
    where: dict[str, int] = {}
    printed: list[str] = []
    errors: list[list] = []
    for ev in index.events:
        kind = ev["kind"]
        if kind == "tensor":
            current[ev["id"]] = ev["str"]
            if ev.get("name"):
                state[ev["name"]] = {"id": ev["id"]}
                where[ev["name"]] = ev["line"]
        elif kind == "update":
            current[ev["tensor"]] = ev["str"]
        elif kind == "accumulate":
            grads[ev["tensor"]] = ev["str"]
        elif kind == "grad_reset":
            grads[ev["tensor"]] = None if ev.get("to") is None else "tensor(0.)"
        elif kind == "print":
            printed.extend(ev["text"].splitlines() or [""])
        elif kind == "error":
            msg = ev["message"].splitlines()[0] if ev["message"] else ""
            errors.append([ev["line"], ev.get("type", ""), msg])
    out = {name: {"str": current[v["id"]], "grad": grads.get(v["id"]), "line": where[name]}
           for name, v in state.items()}
    return out, printed, errors


def compare(index: LogIndex, source: str) -> list[Difference]:
    """Every difference between the engine's log and real PyTorch running ``source``."""
    dump, torch_printed = run_torch(source)
    mine, printed, errors = engine_state(index)
    diffs: list[Difference] = []
    for name, got in mine.items():
        real = dump["vars"].get(name)
        if real is None:
            continue
        for key, what in (("str", name), ("grad", f"{name}.grad")):
            if got[key] != real[key]:
                diffs.append(Difference(got["line"], f"PyTorch disagrees: {what} is {real[key]} in PyTorch, "
                                        f"{got[key]} in the engine"))
    if printed != torch_printed:
        diffs.append(Difference(1, f"PyTorch disagrees: the program prints {torch_printed!r} in PyTorch, "
                                f"{printed!r} in the engine"))
    real_errors = [list(e) for e in dump["errors"]]
    if [e[:2] for e in real_errors] != [e[:2] for e in errors]:
        diffs.append(Difference(real_errors[0][0] if real_errors else errors[0][0],
                                f"PyTorch disagrees: errors {real_errors!r} in PyTorch, {errors!r} in the engine"))
    return diffs
