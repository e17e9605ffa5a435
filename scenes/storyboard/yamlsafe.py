"""Load YAML as plain data with the position of every key and value, within hard limits.

Why not ``yaml.safe_load`` alone: it forgets where things were, so no message could point at a
line; and it expands anchors, so a ten-line "billion laughs" file can eat the memory. This loader
scans the event stream first (refusing anchors, aliases, explicit tags, deep nesting and too many
nodes), then composes nodes, which keep their marks, and builds plain dicts, lists and scalars.

Scalars are read as YAML 1.2 reads them (its core schema), not as PyYAML's YAML 1.1: ``1:30`` is
the text "1:30", not the sexagesimal 90; ``yes``, ``no``, ``on`` and ``off`` are words, not
booleans; ``017`` is 17, ``0o17`` is 15, ``1_000`` and ``0b10`` are text; ``2024-01-01`` is text,
not a date. Why: an author (and the editor's YAML 1.2 language server reading the JSON Schema)
reads ``pass: 1:30`` as written, and a message must quote it so, not as "pass 90".

>>> doc = load_text("title: Hi\\nbeats:\\n  - pace: fast\\n", "a.yaml")
>>> doc.data["beats"][0]["pace"], doc.pos[("beats", 0, "pace")]
('fast', (3, 11))
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import Any, ClassVar

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from .errors import ErrorList, Path, StoryboardError

MAX_BYTES = 256 * 1024
MAX_DEPTH = 16
MAX_NODES = 20_000


_CORE_SCHEMA = (  # YAML 1.2.2, 10.3.2 "Tag Resolution": (tag, pattern, first characters)
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    ("tag:yaml.org,2002:float", (r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                                 r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"), list("-+.0123456789")),
)


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2's core schema for plain scalars: every other plain
    scalar (``1:30``, ``yes``, ``2024-01-01``, ``<<``) is a string."""

    yaml_implicit_resolvers: ClassVar[dict] = {}


for _tag, _pattern, _first in _CORE_SCHEMA:
    Yaml12Loader.add_implicit_resolver(_tag, re.compile(_pattern), _first)


class _Yaml12Constructor(SafeConstructor):
    """Builds what :class:`Yaml12Loader` resolved; an int is read as YAML 1.2 writes it (``017``
    is decimal, ``0o17`` octal), where PyYAML's 1.1 reading takes a leading 0 as octal."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        text = self.construct_scalar(node)
        return int(text, 0) if text.startswith(("0o", "0x")) else int(text, 10)


_Yaml12Constructor.add_constructor("tag:yaml.org,2002:int", _Yaml12Constructor.construct_yaml_int)


@dataclass
class Document:
    """Plain data plus 1-based ``(line, col)`` marks: ``pos`` for values, ``key_pos`` for keys.

    ``nodes`` keeps the composed node of each path, for callers that need the raw scalar (the
    program's block style and indentation).
    """

    file: str
    data: Any
    pos: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_pos: dict[Path, tuple[int, int]] = field(default_factory=dict)
    nodes: dict[Path, yaml.Node] = field(default_factory=dict)
    text: str = ""

    def at(self, path: Path) -> tuple[int, int]:
        """The mark of ``path``, or of its nearest ancestor that has one (1:1 at worst)."""
        while path:
            if path in self.pos:
                return self.pos[path]
            path = path[:-1]
        return self.pos.get((), (1, 1))


def _mark(node_or_event: Any) -> tuple[int, int]:
    m = node_or_event.start_mark
    return m.line + 1, m.column + 1


def _scan(text: str, errors: ErrorList) -> bool:
    """Check the event stream against the limits; True when composing is safe."""
    depth = 0
    count = 0
    docs = 0
    ok = True
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            line, col = _mark(event)
            if isinstance(event, yaml.DocumentStartEvent):
                docs += 1
                if docs > 1:
                    errors.add(line, col, "a storyboard is one YAML document; remove the second '---'")
                    return False
            if isinstance(event, yaml.AliasEvent):
                errors.add(line, col, f"aliases (*{event.anchor}) are not allowed in a storyboard")
                ok = False
                continue
            anchor = getattr(event, "anchor", None)
            if anchor is not None:
                errors.add(line, col, f"anchors (&{anchor}) are not allowed in a storyboard")
                ok = False
            tag = getattr(event, "tag", None)
            if tag not in (None, "!"):
                errors.add(line, col, f"explicit tags ({tag}) are not allowed in a storyboard")
                ok = False
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    errors.add(line, col, f"nesting deeper than {MAX_DEPTH} levels")
                    return False
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                count += 1
                if count > MAX_NODES:
                    errors.add(line, col, f"more than {MAX_NODES} YAML nodes")
                    return False
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        errors.add(line, col, f"YAML syntax: {exc.problem or exc.context}")
        return False
    except yaml.reader.ReaderError as exc:  # a raw control character (BEL, ESC...) in the file
        line, col = _text_position(text, exc.position)
        errors.add(line, col, f"the control character U+{exc.character:04X} is not allowed in a storyboard")
        return False
    return ok


def _text_position(text: str, at: int) -> tuple[int, int]:
    """1-based (line, column) of character ``at`` of ``text``."""
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


class _Builder:
    """Turns composed nodes into plain data, recording marks and refusing duplicate keys."""

    def __init__(self, doc: Document, errors: ErrorList):
        self.doc = doc
        self.errors = errors
        self.constructor = _Yaml12Constructor()

    def build(self, node: yaml.Node, path: Path) -> Any:
        self.doc.pos[path] = _mark(node)
        self.doc.nodes[path] = node
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    line, col = _mark(key_node)
                    self.errors.add(line, col, "a key must be a plain word", path)
                    continue
                key = self._scalar(key_node, path)
                if not isinstance(key, str):
                    key = str(key)
                if key in out:
                    line, col = _mark(key_node)
                    first = self.doc.key_pos[path + (key,)][0]
                    self.errors.add(line, col, f"duplicate key '{key}' (first given on line {first})", path + (key,))
                    continue
                self.doc.key_pos[path + (key,)] = _mark(key_node)
                out[key] = self.build(value_node, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self._scalar(node, path)

    def _scalar(self, node: yaml.ScalarNode, path: Path) -> Any:
        try:
            return self.constructor.construct_object(node, deep=True)
        except ConstructorError as exc:
            line, col = _mark(node)
            self.errors.add(line, col, f"YAML value: {exc.problem}", path)
            return None
        except ValueError:  # Python reads at most 4300 digits of an int
            line, col = _mark(node)
            self.errors.add(line, col, f"YAML value: a number of {len(node.value)} digits; write one of at "
                            f"most {sys.get_int_max_str_digits()}", path)
            return None


def load_text(text: str, file: str) -> Document:
    """Parse ``text``; raise :class:`StoryboardError` with every problem found, located."""
    errors = ErrorList(file)
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        errors.add(1, 1, f"file is {size} bytes; a storyboard may be at most {MAX_BYTES}")
        errors.raise_if_any()
    if not _scan(text, errors):
        errors.raise_if_any()
    doc = Document(file=file, data=None, text=text)
    try:
        node = yaml.compose(text, Loader=Yaml12Loader)
    except yaml.MarkedYAMLError as exc:  # pragma: no cover - _scan saw the same stream
        mark = exc.problem_mark
        errors.add(mark.line + 1 if mark else 1, mark.column + 1 if mark else 1, f"YAML syntax: {exc.problem}")
        errors.raise_if_any()
        raise
    if node is None:
        errors.add(1, 1, "the file is empty; a storyboard needs title, program and beats")
        errors.raise_if_any()
    doc.data = _Builder(doc, errors).build(node, ())
    errors.raise_if_any()
    return doc


def read_bounded(path: str, display: str | None = None) -> bytes:
    """The bytes of a storyboard file, read no further than :data:`MAX_BYTES` (an 8 GiB file
    costs no more than a small one); an unreadable or oversized file is a located error."""
    import errno

    from scenes.atomic import read_regular

    name = display or path
    try:
        return read_regular(path, MAX_BYTES)
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise StoryboardError([_problem(name, f"file is larger than {MAX_BYTES} bytes, the most a storyboard "
                                                  "may be; split it into several storyboards")]) from None
        raise StoryboardError([_problem(name, f"cannot read: {exc.strerror}")]) from None


def load_file(path: str, display: str | None = None) -> Document:
    """Read and load a file; an unreadable or oversized file is a located error too."""
    name = display or path
    raw = read_bounded(path, display)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = utf8_position(raw, exc.start)
        raise StoryboardError([_problem(name, f"not UTF-8: byte 0x{raw[exc.start]:02x} is no UTF-8 text",
                                        line, col)]) from None
    return load_text(text, name)


def utf8_position(raw: bytes, at: int) -> tuple[int, int]:
    """The 1-based (line, column) of byte ``at`` of ``raw`` (columns counted in characters)."""
    start = raw.rfind(b"\n", 0, at) + 1
    return raw.count(b"\n", 0, at) + 1, len(raw[start:at].decode("utf-8", "replace")) + 1


def _problem(file: str, message: str, line: int = 1, col: int = 1):
    from .errors import Problem

    return Problem(file, line, col, message)
