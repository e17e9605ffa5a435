"""The visual theme, loaded from scenes/theme.yaml into the frozen, typed dataclasses of
scenes/theme_model.py (re-exported here: code imports the theme from this module).

Why a typed loader: a misspelt key or a colour like "#fff" in the YAML should fail at load time
with the file and the dotted key in the message, not as a wrong-looking frame minutes into a
render. Every visual constant lives in the YAML; code reads it through a `Theme`. This module
imports no Manim, so the pure layout can use it too.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from scenes.theme_model import (  # noqa: F401 - the model's names are the theme's
    MEANINGS, Aspect, Colors, Fonts, FontSizes, Labels, LayoutRules, Opacity, Pronounce, Proportions, Radii, Reading,
    Rect, Sizes, Spacing, Strokes, Theme, ThemeError, Timings,
)

DEFAULT_THEME_PATH = Path(__file__).resolve().parent / "theme.yaml"

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_CHOICES: dict[str, tuple[str, ...]] = {
    "flow": ("up", "right", "down"),
    "leaf_layer": ("consumer", "source"),
    "checklist": ("corner", "aside"),
    "walk_code": ("all", "lit"),
    "walk_camera": ("visits", "home"),
    "whole_graph": ("grow", "home"),
}


def _fail(path: Path, key: str, msg: str) -> ThemeError:
    return ThemeError(f"{path}: {key}: {msg}")


def _convert(tp: Any, value: Any, path: Path, key: str, colour: bool) -> Any:
    """Check one YAML value against its annotated type and return it in that type."""
    if dataclasses.is_dataclass(tp):
        return _build(tp, value, path, key)
    origin = typing.get_origin(tp)
    if origin is dict:
        if not isinstance(value, dict) or not value:
            raise _fail(path, key, "expected a non-empty mapping")
        _, vtp = typing.get_args(tp)
        return {str(k): _convert(vtp, v, path, f"{key}.{k}", colour) for k, v in value.items()}
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(value, list) or len(value) != len(args):
            raise _fail(path, key, f"expected a list of {len(args)} numbers, got {value!r}")
        return tuple(_convert(a, v, path, f"{key}[{i}]", colour) for i, (a, v) in enumerate(zip(args, value)))
    if tp is str:
        if not isinstance(value, str) or not value:
            raise _fail(path, key, f"expected a non-empty string, got {value!r}")
        if colour and not _HEX.match(value):
            raise _fail(path, key, f"expected a colour like '#1a2b3c', got {value!r}")
        leaf = key.rsplit(".", 1)[-1]
        if leaf in _CHOICES and value not in _CHOICES[leaf]:
            raise _fail(path, key, f"expected one of {list(_CHOICES[leaf])}, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise _fail(path, key, f"expected a positive integer, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _fail(path, key, f"expected a number, got {value!r}")
        return float(value)
    raise _fail(path, key, f"unsupported type {tp!r}")  # pragma: no cover - a coding error


def _build(cls: type, data: Any, path: Path, key: str) -> Any:
    """Build dataclass `cls` from a mapping, refusing missing and unknown keys."""
    if not isinstance(data, dict):
        raise _fail(path, key or "<top>", "expected a mapping")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(map(str, data)) - set(names))
    if unknown:
        raise _fail(path, f"{key}.{unknown[0]}" if key else unknown[0], "unknown key")
    kwargs = {}
    for name in names:
        sub = f"{key}.{name}" if key else name
        if name not in data:
            raise _fail(path, sub, "missing")
        kwargs[name] = _convert(hints[name], data[name], path, sub, colour=cls is Colors)
    return cls(**kwargs)


def _check_ranges(theme: Theme, path: Path) -> None:
    """Cross-field rules that types alone cannot say."""
    for group in ("opacity", "proportions"):
        for name, v in dataclasses.asdict(getattr(theme, group)).items():
            if not 0.0 <= v <= 1.0:
                raise _fail(path, f"{group}.{name}", f"expected a value in [0, 1], got {v}")
    if not theme.pronounce.pace > 0:
        raise _fail(path, "pronounce.pace", f"expected a length_scale above 0 (1 is the voice's own pace), got {theme.pronounce.pace}")
    if not 0 <= theme.pronounce.sentence_pause <= 5:
        raise _fail(path, "pronounce.sentence_pause", f"expected seconds in [0, 5], got {theme.pronounce.sentence_pause}")
    if theme.proportions.caption_shrink_step >= 1.0:
        raise _fail(path, "proportions.caption_shrink_step", "must be below 1 or captions never shrink")
    for group in ("font_sizes", "strokes", "radii", "sizes", "spacing", "timings"):
        for name, v in dataclasses.asdict(getattr(theme, group)).items():
            if v < 0:
                raise _fail(path, f"{group}.{name}", f"expected a value >= 0, got {v}")
    colours = {f.name for f in dataclasses.fields(Colors)}
    for meaning in MEANINGS:
        if meaning not in theme.meanings:
            raise _fail(path, f"meanings.{meaning}", "missing: the scenes draw it (docs/visual-grammar.md)")
    for meaning, keys in theme.meanings.items():
        bad = [k for k in keys.split() if k not in colours]
        if bad:
            raise _fail(path, f"meanings.{meaning}", f"{bad[0]!r} is not a key of colors")
    r = theme.reading
    if not 0 < r.min_seconds <= r.max_seconds or r.chars_per_second <= 0:
        raise _fail(path, "reading.min_seconds", "expected 0 < min_seconds <= max_seconds and chars_per_second > 0")
    if theme.spacing.layer_gap_min > theme.spacing.layer_gap_max:
        raise _fail(path, "spacing.layer_gap_min", "must not exceed spacing.layer_gap_max")
    if not 0 < theme.layout.detail_name <= theme.layout.detail_full:
        raise _fail(path, "layout.detail_name", "must be > 0 and <= layout.detail_full")
    for name, a in theme.aspects.items():
        for region in ("code", "graph", "caption"):
            left, bottom, right, top = getattr(a, region)
            key = f"aspects.{name}.{region}"
            if not (left < right and bottom < top):
                raise _fail(path, key, "expected [left, bottom, right, top] with left < right, bottom < top")
            lo_x, lo_y, hi_x, hi_y = theme.safe_rect(a)
            if left < lo_x - 1e-9 or right > hi_x + 1e-9 or bottom < lo_y - 1e-9 or top > hi_y + 1e-9:
                raise _fail(path, key, "region leaves the frame margin")


def shared_colours(theme: Theme) -> list[str]:
    """Each colour that two meanings of ``theme.meanings`` share, as one line saying which
    (empty: the grammar holds). Colours of one meaning may be equal (a bucket holds a gradient)."""
    c = dataclasses.asdict(theme.colors)
    owner: dict[str, str] = {}
    out: list[str] = []
    for meaning, keys in theme.meanings.items():
        for hexa in dict.fromkeys(c[k].lower() for k in keys.split()):
            if hexa in owner and owner[hexa] != meaning:
                out.append(f"{hexa} means both {owner[hexa]} and {meaning}")
            owner.setdefault(hexa, meaning)
    return out


def theme_file() -> Path:
    """The theme every render reads: one path, named once (tests point it elsewhere)."""
    return DEFAULT_THEME_PATH


def load_theme(path: str | Path | None = None) -> Theme:
    """Load and validate a theme file (the package's theme.yaml by default). A render
    asks for it several times (the plan, the segments, the scene); the file is parsed again only
    when its text changed."""
    p = Path(path) if path is not None else theme_file()
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ThemeError(f"{p}: cannot read theme: {exc.strerror}") from None
    return _parsed_theme(str(p), text)


@lru_cache(maxsize=8)
def _parsed_theme(path: str, text: str) -> Theme:
    p = Path(path)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:  # one line: where, and what the parser expected
        mark = getattr(exc, "problem_mark", None)
        where = f"{p}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(p)
        what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ThemeError(f"{where}: not valid YAML: {what}") from None
    theme = _build(Theme, data, p, "")
    _check_ranges(theme, p)
    return theme


def default_theme() -> Theme:
    """The project theme as the file says now (parsed again only when its text changed, so a
    long-lived ``render watch`` plans with a theme saved after it started)."""
    return load_theme()
