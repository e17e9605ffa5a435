"""gradreel's engine: a scalar autograd that behaves as PyTorch does, and records what it does.

>>> from engine import run_program
>>> log = run_program("import torch\\nw = torch.tensor(3., requires_grad=True)\\n(w*w).backward()\\n", "p.py")
>>> from engine.records import Accumulate
>>> [e.after for e in log.of_kind(Accumulate)]
[6.0]

Standard library and numpy only: no Manim, no YAML, no pydantic (docs/architecture.md, "Which way the imports point").
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import ProgramError, TorchError
    from .events import Log, LogFormatError, read_log
    from .interpreter import OperationLimit
    from .run import run_program


__all__ = ["run_program", "ProgramError", "TorchError", "Log", "LogFormatError", "read_log",
           "OperationLimit", "VERSION", "DEFAULT_MAX_OPS"]

VERSION = "0.1.0"
DEFAULT_MAX_OPS = 100_000

_HOME = {"run_program": "run", "ProgramError": "errors", "TorchError": "errors", "Log": "events",
         "LogFormatError": "events", "read_log": "events", "OperationLimit": "interpreter"}
"""Each public name and the module it comes from. Imported when first used (PEP 562): a caller
that needs only the error types (the command line, before it knows a program will run) does
not pay for numpy and the interpreter."""


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))
