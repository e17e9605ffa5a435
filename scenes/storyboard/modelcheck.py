"""Check plain YAML data with the pydantic model and report its errors as located problems.

Why a translation: pydantic finds every problem at once, but names them by ``loc`` (a path through
the model, union tags included) and in its own words. Each error is mapped back to the YAML node
it is about (``FILE:LINE:COL`` from the loader's marks), its field path (``beats[2].visual``) and
the author's words: did-you-mean for unknown keys and closed lists, what is allowed, what was given.
The types are only read here, to name what was expected; pydantic alone decides what is valid.

>>> from .model import Numbers
>>> from .yamlsafe import load_text
>>> doc = load_text("style: decimal\\nplaces: 2\\n", "n.yaml")
>>> errors = ErrorList("n.yaml")
>>> check(doc, (), Numbers, errors)
Numbers(style='decimal', places=2, digits=3)
>>> check(load_text("style: decimal\\nplace: 9\\n", "n.yaml"), (), Numbers, errors)
INVALID
>>> print(errors.problems[0])
n.yaml:2:1: unknown key 'place' in numbers; did you mean 'places'? (at place)
"""

from __future__ import annotations

from dataclasses import dataclass
import types
import typing
from typing import Any, Union

from annotated_types import Ge, Le
from pydantic import BaseModel, Tag, TypeAdapter, ValidationError

from .errors import ErrorList, Path, did_you_mean
from .model import yaml_shape
from .yamlsafe import Document


class _Invalid:
    def __repr__(self) -> str:
        return "INVALID"


INVALID: Any = _Invalid()
"""Returned for a value that failed; its problems are already in the ErrorList."""


def check(doc: Document, path: Path, tp: Any, errors: ErrorList) -> Any:
    """Validate the value at ``path`` as ``tp`` (a model or an annotated type); the typed value,
    or INVALID with every problem added to ``errors``."""
    value = _get(doc.data, path)
    try:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return tp.model_validate(value)
        return TypeAdapter(tp).validate_python(value)
    except ValidationError as exc:
        for line, col, message, at in problems(doc, path, tp, exc.errors()):
            errors.add(line, col, message, at)
        return INVALID


def problems(doc: Document, path: Path, tp: Any, found: list[Any]) -> list[tuple[int, int, str, Path]]:
    """``(line, col, message, path)`` for each of pydantic's errors about the value at ``path``."""
    out: list[tuple[int, int, str, Path]] = []
    suggested: set[Path] = set()  # a missing key that a did-you-mean already names is not repeated
    for err in found:
        if err["type"] == "extra_forbidden":
            at, model, _ = _walk(tp, err["loc"][:-1], path)
            key = str(err["loc"][-1])
            fields = keys_of(model)
            hint = did_you_mean(key, fields)
            if hint:
                suggested.add(at + (hint.split("'")[1],))
            line, col = doc.key_pos.get(at + (key,), doc.at(at))
            out.append((line, col, f"unknown key '{key}' in {path_label(at, model)}"
                        f"{hint or '; allowed: ' + ', '.join(fields)}", at + (key,)))
    for err in found:
        if err["type"] != "extra_forbidden":
            got = _message(doc, tp, path, err, suggested)
            if got is not None:
                at, message = got
                out.append((*doc.at(at), message, at))
    return out


def _message(doc: Document, root: Any, base: Path, err: Any, suggested: set[Path]) -> tuple[Path, str] | None:
    """The data path and the author's words for one error (not an unknown key), or None when
    another problem already says it."""
    kind, loc = err["type"], err["loc"]
    if kind == "missing":
        at, parent, _ = _walk(root, loc[:-1], base)
        if _is_model(parent):
            name = str(loc[-1])
            return None if at + (name,) in suggested else (at, f"{path_label(at, parent)} needs '{name}'")
        return at, f"{_name(at)} must be {_describe(parent)}, got {len(_get(doc.data, at))} items"
    at, tp, meta = _walk(root, loc, base)
    name = next((m.text for m in meta if isinstance(m, _Label)), _name(at))
    value = err.get("input")
    if kind == "model_type":
        return at, f"{path_label(at, tp)} must be a mapping of keys, got {_shown(value)}"
    if kind == "dict_type":
        return at, f"{path_label(at, tp)} must be a mapping of keys to values, got {_shown(value)}"
    if kind == "literal_error":
        choices = [str(a) for a in typing.get_args(tp)]
        return at, f"unknown {name} {value!r}{did_you_mean(str(value), choices)} (one of: {', '.join(choices)})"
    if kind == "shape":
        return at, f"{name} {err['msg']}"
    if kind == "too_short" and len(value) >= err["ctx"]["min_length"]:
        return None  # pydantic counts the items that passed; the failed ones are reported already
    if kind in ("string_too_short", "blank") or kind == "too_short" and _variadic(tp):
        return at, f"{name} must not be empty"
    if kind in ("too_short", "too_long"):
        return at, f"{name} must be {_describe(tp)}, got {len(value)} items"
    if kind in ("int_type", "string_type", "tuple_type"):
        if _NULLABLE in meta and yaml_shape(value) != _shape_of(tp):  # ``steps: 3``: the shape is the news
            return at, f"{name} must be {_describe(tp)}"
        return at, f"{name} must be {_describe(tp)}, got {_shown(value)}"
    if kind in ("greater_than_equal", "less_than_equal"):
        low = next((m.ge for m in meta if isinstance(m, Ge)), None)
        high = next((m.le for m in meta if isinstance(m, Le)), None)
        bounds = f"at least {low}" if high is None else f"between {low} and {high}"
        return at, f"{name} must be {bounds}, got {value}"
    return at, f"{name}: {err['msg']}"  # pragma: no cover - a constraint the model does not use yet


def _walk(root: Any, loc: tuple[Any, ...], base: Path) -> tuple[Path, Any, list[Any]]:
    """Follow pydantic's ``loc`` through the types from ``root``: the data path (``base`` plus
    ``loc`` without union tags), the plain type found there and its metadata (bounds)."""
    at, (tp, meta) = list(base), _plain(root, [])
    for i, part in enumerate(loc):
        if part == "[key]":  # the previous part was a mapping's key, not its value
            continue
        if typing.get_origin(tp) is dict:  # ``names``: a key's own error, or the value under it
            key_error = loc[i + 1:i + 2] == ("[key]",)
            mapping = _name(tuple(at))
            label = f"{mapping}: a key" if key_error else f"{mapping}: the value of {str(part)!r}"
            tp, meta = _plain(typing.get_args(tp)[0 if key_error else 1], [_Label(label)])
            at.append(part)
        elif _is_model(tp):
            field = next(f for n, f in tp.model_fields.items() if part in (n, f.alias))
            tp, meta = _plain(field.annotation, list(field.metadata))
            at.append(part)
        elif typing.get_origin(tp) in (Union, types.UnionType):  # a tagged union: the tag is no data
            member = next(m for m in typing.get_args(tp) if _tag(m) == part)
            tp, meta = _plain(member, meta)
        else:  # a tuple: every item of tuple[X, ...], or item ``part`` of tuple[X, Y]
            args = typing.get_args(tp)
            tp, meta = _plain(args[0] if _variadic(tp) else args[part], [])
            at.append(part)
    return tuple(at), tp, meta


@dataclass(frozen=True)
class _Label:
    """In a path's metadata: how the message names the place (a mapping's key or value)."""

    text: str


_NULLABLE = "nullable"
"""In a path's metadata: the type was ``X | None``."""


def _plain(tp: Any, meta: list[Any]) -> tuple[Any, list[Any]]:
    """``tp`` without ``Annotated`` (its metadata appended to ``meta``) and without ``| None``
    (noted as ``_NULLABLE`` in ``meta``)."""
    while True:
        if typing.get_origin(tp) is typing.Annotated:
            meta = meta + list(tp.__metadata__)
            tp = tp.__origin__
        elif typing.get_origin(tp) in (Union, types.UnionType) and type(None) in typing.get_args(tp):
            rest = [a for a in typing.get_args(tp) if a is not type(None)]
            tp = rest[0] if len(rest) == 1 else Union[tuple(rest)]
            meta = meta + [_NULLABLE]
        else:
            return tp, meta


def _tag(member: Any) -> str | None:
    if typing.get_origin(member) is typing.Annotated:
        return next((m.tag for m in member.__metadata__ if isinstance(m, Tag)), None)
    return None


def keys_of(model: Any) -> list[str]:
    """The YAML keys of a model: each field's alias where it has one (``pass``, a Python word)."""
    return [f.alias or n for n, f in model.model_fields.items()]


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _variadic(tp: Any) -> bool:
    args = typing.get_args(tp)
    return typing.get_origin(tp) is tuple and len(args) == 2 and args[1] is Ellipsis


def _shape_of(tp: Any) -> str:
    """The YAML shape a value of ``tp`` has (see :func:`.model.yaml_shape`)."""
    return "list" if typing.get_origin(tp) is tuple else "mapping" if _is_model(tp) else "scalar"


def _describe(tp: Any) -> str:
    """What a value of ``tp`` looks like to an author: ``a whole number``, ``a list [a, b]``."""
    if typing.get_origin(tp) is tuple:
        return "a list" if _variadic(tp) else "a list [" + ", ".join("ab"[:len(typing.get_args(tp))]) + "]"
    return {int: "a whole number", str: "text"}.get(tp, "a mapping" if _is_model(tp) else str(tp))


def _name(path: Path) -> str:
    return next((p for p in reversed(path) if isinstance(p, str)), "value")


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


def path_label(path: Path, cls: Any) -> str:
    """``beat 3`` for ``beats[2]``, else the class name in lower case (``storyboard``)."""
    if path and isinstance(path[-1], int):
        return f"beat {path[-1] + 1}" if path[:-1] == ("beats",) else f"item {path[-1] + 1}"
    return cls.__name__.lower() if not path else str(path[-1])

