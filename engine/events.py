"""The event log: writing it byte for byte the same every time, and reading it back with checks.

The format is documented as a file format in docs/event-log.md; :data:`REQUIRED` below is the
contract's table of required fields, and :func:`read_log` enforces it, so a scene never meets a
log it cannot trust. A finished log holds its events as the typed records of
:mod:`engine.records`, read once, which is all a scene sees of them.

>>> log = Log({"program": "p.py"}, [])
>>> log.to_jsonl().splitlines()[0][:40]
'{"format":"gradreel-events","version":1,'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, TypeVar

from .records import KINDS, Event, Tensor, as_dict, record_of

FORMAT = "gradreel-events"
VERSION = 1

# The contract (docs/event-log.md, "Events"): each kind's required fields, beyond seq, kind and line.
REQUIRED: dict[str, tuple[str, ...]] = {
    "tensor": ("id", "name", "value", "exact", "str", "requires_grad", "is_leaf", "grad_fn", "node",
               "edges"),
    "update": ("tensor", "name", "value", "str"),
    "backward": ("root", "call"),
    "visit": ("node", "grad_fn", "tensor", "grad_in", "grads_out"),
    "accumulate": ("tensor", "name", "before", "add", "after"),
    "grad_reset": ("tensor", "name", "to"),
    "branch": ("test", "taken"),
    "loop": ("pass", "end"),
    "number": ("name", "value", "exact"),
    "print": ("text",),
    "warning": ("message",),
    "error": ("message",),
    "node": ("id", "grad_fn", "tensor", "edges"),
    "expr": ("source", "str"),
    "forward_pass": ("pass", "seed", "name"),
    "tangent": ("pass", "node", "tensor", "value"),
    "jvp": ("pass", "seed", "name", "root", "value"),
}


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class LogFormatError(ValueError):
    """A log that is not a gradreel event log v1: ``FILE:LINE: what is wrong``."""


class Recorder:
    """Collects events in order, stamping ``seq`` and the current program ``line``."""

    def __init__(self) -> None:
        self.events: list[dict] = []
        self.line = 0

    def __call__(self, event: dict) -> None:
        kind = event.pop("kind")
        self.events.append({"seq": len(self.events), "kind": kind, "line": self.line, **event})


E = TypeVar("E", bound=Event)


class Log:
    """A finished run: the header and the events, read once into typed records
    (:mod:`engine.records`); written back to JSONL byte for byte as the engine recorded them."""

    def __init__(self, header: dict, events: Iterable[dict | Event]):
        self.header = {"format": FORMAT, "version": VERSION, **header}
        self.events: list[Event] = [e if isinstance(e, Event) else record_of(e) for e in events]

    def to_jsonl(self) -> str:
        dump = _ENCODER.encode
        return "".join(dump(o) + "\n" for o in [self.header, *map(as_dict, self.events)])

    def of_kind(self, kind: type[E]) -> list[E]:
        """The events of one kind, in order: ``log.of_kind(Visit)``."""
        return [e for e in self.events if isinstance(e, kind)]

    def tensor(self, name: str) -> Tensor | None:
        """The last tensor event bound to ``name`` (what the variable holds at the end)."""
        found = None
        for e in self.events:
            if isinstance(e, Tensor) and e.name == name:
                found = e
        return found


def read_log(source: str | Path | Iterable[str], name: str = "<log>") -> Log:
    """Parse a JSONL event log into records, refusing a wrong format, a wrong version, an unknown
    kind or a missing field."""
    if isinstance(source, Path) or (isinstance(source, str) and "\n" not in source
                                     and Path(source).is_file()):
        name = str(source)
        lines = Path(source).read_text(encoding="utf-8").splitlines()
    elif isinstance(source, str):
        lines = source.splitlines()
    else:
        lines = list(source)
    if not lines:
        raise LogFormatError(f"{name}:1: empty file; expected a gradreel event log header")
    objs = []
    for i, text in enumerate(lines, 1):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LogFormatError(f"{name}:{i}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise LogFormatError(f"{name}:{i}: expected a JSON object")
        objs.append(obj)
    header = objs[0]
    if header.get("format") != FORMAT:
        raise LogFormatError(f"{name}:1: expected a header with \"format\": \"{FORMAT}\"")
    if header.get("version") != VERSION:
        raise LogFormatError(
            f"{name}:1: event log version {header.get('version')!r} is not supported; "
            f"this gradreel reads version {VERSION}")
    events = objs[1:]
    for i, ev in enumerate(events):
        where = f"{name}:{i + 2}"
        for key in ("seq", "kind", "line"):
            if key not in ev:
                raise LogFormatError(f"{where}: event without \"{key}\"")
        if ev["seq"] != i:
            raise LogFormatError(f"{where}: expected seq {i}, found {ev['seq']}")
        if ev["kind"] not in KINDS:
            raise LogFormatError(f"{where}: unknown event kind {ev['kind']!r}; expected one of "
                                 f"{', '.join(KINDS)}")
        missing = [f for f in REQUIRED.get(ev["kind"], ()) if f not in ev]
        if missing:
            raise LogFormatError(f"{where}: {ev['kind']} event without {', '.join(missing)}")
    h = dict(header)
    h.pop("format")
    h.pop("version")
    return Log(h, events)
