"""Digests of what is on screen: the part of a segment's key that only the picture knows.

Why here, below the player and the keys: the keys (Manim-free) and the player (Manim) both need
the same canonical form of a value; a mobject is digested by what Cairo would draw of it, and
Manim is imported only when one is met.
"""

from __future__ import annotations

import hashlib
from dataclasses import fields, is_dataclass
from typing import Any, Iterator

import numpy as np


def quantized(values: Any) -> bytes:
    """Numbers to a millionth: a token moved along its path ends 1e-15 away from one put at the
    end directly, which no pixel shows (a pixel is 4e-3 scene units even at 4K)."""
    return np.round(np.asarray(values, dtype=float) * 1e6).astype(np.int64).tobytes()


def canonical(value: Any, depth: int = 0) -> Any:
    """A repr-able, deterministic stand-in for a value: containers item by item, arrays and
    mobjects by digest (a mobject by :func:`picture_digest`, which imports Manim only
    when a mobject is met)."""
    if depth > 24:
        return "..."
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return sorted((repr(k), canonical(v, depth + 1)) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [canonical(v, depth + 1) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, np.ndarray):
        return hashlib.sha256(quantized(value)).hexdigest()
    if hasattr(value, "get_family") and type(value).__module__.startswith(("manim", "scenes")):
        return "mob:" + picture_digest([value])
    if callable(value):
        return type(value).__name__
    if hasattr(value, "__dict__"):
        return [type(value).__name__, canonical(vars(value), depth + 1)]
    return repr(value)


def picture_digest(mobjects: list[Any]) -> str:
    """sha256 over what Cairo draws of these mobjects' families, in drawing order."""
    from manim.utils.family import extract_mobject_family_members

    h = hashlib.sha256()
    for m in extract_mobject_family_members(mobjects, use_z_index=True, only_those_with_points=True):
        h.update(type(m).__name__.encode())
        h.update(quantized(m.points))
        for attr in ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas"):
            value = getattr(m, attr, None)
            if value is not None:
                h.update(quantized(value))
        h.update(repr((getattr(m, "stroke_width", None), getattr(m, "background_stroke_width", None),
                       getattr(m, "sheen_factor", None), m.z_index)).encode())
    return h.hexdigest()


def state_digest(scene: Any, state: Any) -> str:
    """sha256 over the picture on screen and every field of ``state``, the scene's records (a
    dataclass whose fields may be records again; :mod:`scenes.draw.state`)."""
    from manim.utils.iterables import list_update

    h = hashlib.sha256(picture_digest(list_update(scene.mobjects, scene.foreground_mobjects)).encode())
    for name, value in record_fields(state):
        h.update(name.encode() + b"=" + repr(canonical(value)).encode())
    return h.hexdigest()


def record_fields(record: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted name, value) of every field of the dataclass ``record``, nested records field by field."""
    for f in fields(record):
        value = getattr(record, f.name)
        if is_dataclass(value) and not isinstance(value, type):
            yield from record_fields(value, f"{prefix}{f.name}.")
        else:
            yield f"{prefix}{f.name}", value
