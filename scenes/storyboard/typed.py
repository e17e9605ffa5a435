"""Check plain YAML data against the dataclass model, and generate its JSON Schema.

Why one module for both: the checker and the schema walk the same type hints (dataclasses,
``Literal``, ``int``, ``str``, ``tuple[X, ...]``, ``tuple[int, int]``, unions with ``None``), so an
editor's completion and ``render check`` accept exactly the same files.

>>> from .model import Numbers
>>> from .yamlsafe import load_text
>>> doc = load_text("style: decimal\\nplaces: 2\\n", "n.yaml")
>>> errors = ErrorList("n.yaml")
>>> convert(doc, (), Numbers, errors)
Numbers(style='decimal', places=2)
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Literal, Union

from .errors import ErrorList, Path, did_you_mean, one_of
from .yamlsafe import Document


class _Invalid:
    def __repr__(self) -> str:
        return "INVALID"


INVALID: Any = _Invalid()
"""Returned for a value that failed; the problem is already in the ErrorList."""


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _is_union(tp: Any) -> bool:
    return typing.get_origin(tp) in (Union, types.UnionType)


def _shape(value: Any) -> str:
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return "scalar"


def _type_shape(tp: Any) -> str:
    if dataclasses.is_dataclass(tp):
        return "mapping"
    if typing.get_origin(tp) is tuple:
        return "list"
    return "scalar"


def _describe(tp: Any) -> str:
    if dataclasses.is_dataclass(tp):
        return "a mapping"
    if typing.get_origin(tp) is Literal:
        return one_of(repr(a) for a in typing.get_args(tp))
    if typing.get_origin(tp) is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return "a list"
        return "a list [" + ", ".join("a" if i == 0 else "b" for i in range(len(args))) + "]"
    if tp is int:
        return "a whole number"
    if tp is str:
        return "text"
    if _is_union(tp):
        return " or ".join(_describe(a) for a in typing.get_args(tp) if a is not type(None))
    return getattr(tp, "__name__", str(tp))


def convert(doc: Document, path: Path, tp: Any, errors: ErrorList, meta: dict | None = None) -> Any:
    """Check the value at ``path`` against ``tp``; return the typed value or INVALID."""
    meta = meta or {}
    value = _get(doc.data, path)
    line, col = doc.at(path)
    name = next((p for p in reversed(path) if isinstance(p, str)), "value")
    if _is_union(tp):
        members = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None and len(members) < len(typing.get_args(tp)):
            return None
        for member in members:
            if _type_shape(member) == _shape(value):
                return convert(doc, path, member, errors, meta)
        errors.add(line, col, f"{name} must be {_describe(tp)}", path)
        return INVALID
    if dataclasses.is_dataclass(tp):
        return _convert_dataclass(doc, path, tp, errors)
    origin = typing.get_origin(tp)
    if origin is Literal:
        choices = [str(a) for a in typing.get_args(tp)]
        if isinstance(value, str) and value in choices:
            return value
        errors.add(line, col, f"unknown {name} {value!r}{did_you_mean(str(value), choices)} (one of: {', '.join(choices)})", path)
        return INVALID
    if origin is tuple:
        return _convert_tuple(doc, path, tp, errors, meta)
    if tp is str:
        if isinstance(value, str):
            if len(value.strip()) < int(meta.get("minLength", 0)):  # type: ignore[arg-type]
                errors.add(line, col, f"{name} must not be empty", path)
                return INVALID
            return value
        errors.add(line, col, f"{name} must be text, got {_shown(value)}", path)
        return INVALID
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            errors.add(line, col, f"{name} must be a whole number, got {_shown(value)}", path)
            return INVALID
        low, high = meta.get("minimum"), meta.get("maximum")
        if low is not None and value < low or high is not None and value > high:
            bounds = f"at least {low}" if high is None else f"between {low} and {high}"
            errors.add(line, col, f"{name} must be {bounds}, got {value}", path)
            return INVALID
        return value
    raise TypeError(f"unsupported type in model: {tp!r}")  # pragma: no cover


def _shown(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _get(data: Any, path: Path) -> Any:
    for part in path:
        data = data[part]
    return data


def _convert_tuple(doc: Document, path: Path, tp: Any, errors: ErrorList, meta: dict) -> Any:
    value = _get(doc.data, path)
    line, col = doc.at(path)
    name = next((p for p in reversed(path) if isinstance(p, str)), "value")
    args = typing.get_args(tp)
    if not isinstance(value, list):
        errors.add(line, col, f"{name} must be {_describe(tp)}, got {_shown(value)}", path)
        return INVALID
    if len(args) == 2 and args[1] is Ellipsis:
        item_types = [args[0]] * len(value)
        if len(value) < int(meta.get("minItems", 0)):  # type: ignore[arg-type]
            errors.add(line, col, f"{name} must not be empty", path)
            return INVALID
    else:
        item_types = list(args)
        if len(value) != len(args):
            errors.add(line, col, f"{name} must be {_describe(tp)}, got {len(value)} items", path)
            return INVALID
    out = [convert(doc, path + (i,), t, errors, meta) for i, t in enumerate(item_types)]
    return INVALID if any(v is INVALID for v in out) else tuple(out)


def _convert_dataclass(doc: Document, path: Path, cls: Any, errors: ErrorList) -> Any:
    value = _get(doc.data, path)
    line, col = doc.at(path)
    label = path_label(path, cls)
    if not isinstance(value, dict):
        errors.add(line, col, f"{label} must be a mapping of keys, got {_shown(value)}", path)
        return INVALID
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = _hints(cls)
    suggested: set[str] = set()
    for key in value:
        if key not in fields:
            kline, kcol = doc.key_pos.get(path + (key,), (line, col))
            hint = did_you_mean(key, fields)
            suggested.add(hint.split("'")[1] if hint else "")
            errors.add(kline, kcol, f"unknown key '{key}' in {label}{hint or '; allowed: ' + ', '.join(fields)}",
                       path + (key,))
    kwargs: dict[str, Any] = {}
    bad = False
    for fname, f in fields.items():
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if fname not in value:
            if required and fname not in suggested:  # the did-you-mean already says it
                errors.add(line, col, f"{label} needs '{fname}'", path)
            bad = bad or required
            continue
        got = convert(doc, path + (fname,), hints[fname], errors, dict(f.metadata))
        bad = bad or got is INVALID
        kwargs[fname] = got
    return INVALID if bad else cls(**kwargs)


def path_label(path: Path, cls: Any) -> str:
    """``beat 3`` for ``beats[2]``, else the class name in lower case (``storyboard``)."""
    if path and isinstance(path[-1], int):
        return f"beat {path[-1] + 1}" if path[:-1] == ("beats",) else f"item {path[-1] + 1}"
    return cls.__name__.lower() if not path else str(path[-1])


def schema_of(tp: Any, defs: dict[str, Any], meta: dict | None = None) -> dict[str, Any]:
    """JSON Schema (2020-12) for ``tp``; dataclasses go to ``defs`` and are referenced."""
    meta = dict(meta or {})
    out: dict[str, Any]
    if _is_union(tp):
        out = {"anyOf": [schema_of(a, defs, {k: v for k, v in meta.items() if k != "doc"})
                         for a in typing.get_args(tp) if a is not type(None)]}
        if type(None) in typing.get_args(tp):
            out["anyOf"].append({"type": "null"})
    elif dataclasses.is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder against recursion
            hints = _hints(tp)
            props = {f.name: schema_of(hints[f.name], defs, dict(f.metadata)) for f in dataclasses.fields(tp)}
            required = [f.name for f in dataclasses.fields(tp)
                        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
            defs[name] = {"type": "object", "description": " ".join((tp.__doc__ or "").split()),
                          "properties": props, "required": required, "additionalProperties": False}
        out = {"$ref": f"#/$defs/{name}"}
    elif typing.get_origin(tp) is Literal:
        out = {"enum": list(typing.get_args(tp))}
    elif typing.get_origin(tp) is tuple:
        args = typing.get_args(tp)
        item_meta = {k: v for k, v in meta.items() if k in ("minimum", "maximum")}
        if len(args) == 2 and args[1] is Ellipsis:
            out = {"type": "array", "items": schema_of(args[0], defs, item_meta)}
            if "minItems" in meta:
                out["minItems"] = meta["minItems"]
        else:
            out = {"type": "array", "prefixItems": [schema_of(a, defs, item_meta) for a in args],
                   "minItems": len(args), "maxItems": len(args), "items": False}
    elif tp is str:
        out = {"type": "string"}
        if "minLength" in meta:
            out["minLength"] = meta["minLength"]
    elif tp is int:
        out = {"type": "integer"}
        for k in ("minimum", "maximum"):
            if k in meta:
                out[k] = meta[k]
    else:  # pragma: no cover
        raise TypeError(f"unsupported type in model: {tp!r}")
    if "doc" in meta:
        out = {"description": meta["doc"], **out}
    return out
