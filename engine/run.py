"""Running a program: check it against the subset, interpret it, return its event log."""

from __future__ import annotations

from typing import Optional

import numpy as np

from . import DEFAULT_MAX_OPS, VERSION
from .errors import ForwardModeError
from .events import Log
from .forward_mode import ForwardModeTooLong, forward_mode
from .interpreter import Interpreter, OperationLimit
from .overrides import apply_overrides
from .subset import parse
from .tensor import Tensor


def run_program(source: str, filename: str = "<program>", *, max_ops: int = DEFAULT_MAX_OPS,
                overrides: Optional[dict[str, str]] = None, forward_mode: Optional[str] = None) -> Log:
    """Check ``source`` against the subset, run it, and return its event log.

    Raises :class:`ProgramError` (located) when the program is outside the subset or an override
    is wrong, before any line runs. Run-time errors are ``error`` events, not exceptions. When
    ``max_ops`` is exceeded the log ends with an ``error`` event of type ``OperationLimit`` and
    :attr:`Log.limit` holds the located :class:`OperationLimit`.

    ``forward_mode="L"``: after the program, differentiate the tensor that ``L`` holds in forward
    mode, one pass per leaf (``forward_pass``, ``tangent`` and ``jvp`` events); its passes times
    its op nodes are bounded by ``max_ops`` too (an ``OperationLimit`` before the first pass).
    """
    tree = parse(source, filename)
    if overrides:  # the header then carries the program that really ran
        source = apply_overrides(source, overrides, filename)
        tree = parse(source, filename)
    interp = Interpreter(source, filename, max_ops)
    limit = None
    with np.errstate(all="ignore"):
        try:
            interp.run(tree)
        except OperationLimit as exc:
            interp.rec.line = exc.line
            interp.rec({"kind": "error", "type": "OperationLimit", "message": str(exc)})
            limit = exc
        if forward_mode is not None and limit is None:
            try:
                _forward_mode(interp, forward_mode, filename, max_ops)
            except ForwardModeTooLong as exc:  # the bound on operations, for forward mode's passes
                limit = OperationLimit(interp.rec.line, 1, max_ops, message=str(exc))
                interp.rec({"kind": "error", "type": "OperationLimit", "message": str(exc)})
    header = {"program": filename, "source": source, "engine": f"gradreel {VERSION}", "max_ops": max_ops}
    if forward_mode is not None:
        header["forward_mode"] = forward_mode
    log = Log(header, interp.rec.events)
    log.limit = limit
    return log


def _forward_mode(interp: Interpreter, name: str, filename: str, max_ops: int) -> None:
    root = interp.env.get(name)
    if not isinstance(root, Tensor) or not name.isidentifier():
        raise ForwardModeError(filename, name, [k for k, v in interp.env.items() if isinstance(v, Tensor)])
    born = [e for e in interp.rec.events if e["kind"] == "tensor" and e["id"] == root.id]
    interp.rec.line = born[0]["line"] if born else interp.rec.line
    forward_mode(root, interp.rec, max_ops)
