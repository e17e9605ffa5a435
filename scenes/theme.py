"""The visual theme, loaded from scenes/theme.yaml into frozen, typed dataclasses.

Why a typed loader: a misspelt key or a colour like "#fff" in the YAML should fail at load time
with the file and the dotted key in the message, not as a wrong-looking frame minutes into a
render. Every visual constant lives in the YAML; code reads it through a `Theme`. This module
imports no Manim, so the pure layout can use it too.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

DEFAULT_THEME_PATH = Path(__file__).resolve().parent / "theme.yaml"

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
Rect = tuple[float, float, float, float]  # left, bottom, right, top


class ThemeError(ValueError):
    """A bad value in the theme file; the message names the file and the dotted key."""


@dataclass(frozen=True)
class Colors:
    background: str
    text: str
    text_muted: str
    leaf_grad: str
    leaf_nograd: str
    op: str
    loss: str
    bucket: str
    bucket_fill: str
    grad: str
    wavefront: str
    error: str
    dimmed: str
    edge: str
    card_fill: str
    code_bg: str
    code_text: str
    code_highlight: str
    code_span: str
    caption_bg: str
    caption_text: str


@dataclass(frozen=True)
class Opacity:
    card_fill: float
    code_bg: float
    caption_bg: float
    title_cover: float
    dimmed: float
    kept: float
    wavefront_glow: float


@dataclass(frozen=True)
class Fonts:
    sans: str
    mono: str


@dataclass(frozen=True)
class FontSizes:
    card_name: float
    card_value: float
    card_fn: float
    card_flag: float
    bucket_label: float
    token: float
    code: float
    code_min: float
    caption: float
    title: float
    unit_name: float
    counter: float
    code_pass: float
    curve_label: float
    note: float
    min_glyph_px: float
    glyph_cap: float

    @property
    def min_readable(self) -> float:
        """The least font size any text is drawn at: the one whose digits are `min_glyph_px`
        high at 854x480 (`glyph_cap` pixels per size unit). Smaller, a label is dropped."""
        return self.min_glyph_px / self.glyph_cap


@dataclass(frozen=True)
class Strokes:
    card: float
    edge: float
    edge_backward: float
    bucket: float
    wavefront: float
    code_bar: float
    link: float
    curve_axis: float
    curve_line: float
    tag_halo: float


@dataclass(frozen=True)
class Radii:
    card: float
    bucket: float
    code: float
    caption: float
    token: float


@dataclass(frozen=True)
class Sizes:
    card_width: float
    card_height: float
    internal_width: float
    internal_height: float
    bucket_width: float
    bucket_height: float
    bucket_gap: float
    dummy_width: float
    arrow_tip: float
    token_pad: float
    wavefront_pad: float
    card_pad: float
    code_pad: float
    console_reserve: float
    code_line_spacing: float
    caption_line_spacing: float
    caption_pad: float
    unit_radius: float  # a unit of the MLP view, at most (it shrinks to fit its layer)
    curve_dot: float
    curve_pad: float
    badge_width: float  # where a visit's gradient badge goes is chosen as if it were this wide


@dataclass(frozen=True)
class Spacing:
    layer_gap_min: float
    layer_gap_max: float
    item_gap: float
    edge_clearance: float


@dataclass(frozen=True)
class Proportions:
    card_name_row: float
    card_value_row: float
    card_sub_row: float
    label_fill: float
    unit_main: float
    unit_cross: float
    unit_label: float
    min_stroke_scale: float
    min_token_scale: float
    bucket_inner_width: float
    bucket_inner_height: float
    bucket_taper: float
    bucket_label_width: float
    bucket_label_height: float
    arrow_tip_half_width: float
    port_spread: float
    caption_shrink_step: float
    title_height: float
    tag_slide_step: float
    token_wait_min: float
    ride_grid: float
    pulse_reach: float


@dataclass(frozen=True)
class Timings:
    node_appear: float
    edge_grow: float
    grad_travel: float
    bucket_fill: float
    wavefront_step: float
    caption_fade: float
    code_highlight_move: float
    sweep_step: float  # one unit or weight reached by the reverse sweep over the MLP view
    focus_move: float  # the camera moving to a beat's focus: cards and back


@dataclass(frozen=True)
class Reading:
    """How long a caption event may hold and how much it may say (scenes/storyboard/reading.py)."""

    chars_per_second: float
    line_chars: int
    lines: int
    min_seconds: float
    max_seconds: float


@dataclass(frozen=True)
class Labels:
    """Fixed words: beside the MLP view's pass counters (the numbers come from the log), and the
    legend that says what each colour of the graph means."""

    reverse_count: str
    forward_count: str
    pass_mark: str  # with {count} and {total}
    curve_passes: str
    legend_weight: str
    layer_input: str
    layer_hidden: str
    layer_output: str
    reached: str
    op_symbols: dict[str, str]
    legend_input: str
    legend_result: str
    legend_loss: str
    legend_grad: str


@dataclass(frozen=True)
class LayoutRules:
    leaf_layer: str
    sweeps: int
    max_scale: float
    detail_full: float
    detail_name: float
    compact_min: float
    value_chars: int
    glyph_advance_sans: float
    glyph_advance_mono: float
    glyph_height: float
    focus_zoom: float


@dataclass(frozen=True)
class Aspect:
    pixel_width: int
    pixel_height: int
    frame_width: float
    frame_height: float
    flow: str
    margin: float
    code: Rect
    graph: Rect
    caption: Rect


@dataclass(frozen=True)
class Theme:
    colors: Colors
    opacity: Opacity
    fonts: Fonts
    font_sizes: FontSizes
    strokes: Strokes
    radii: Radii
    sizes: Sizes
    spacing: Spacing
    proportions: Proportions
    timings: Timings
    reading: Reading
    layout: LayoutRules
    labels: Labels
    meanings: dict[str, str]  # meaning -> the `colors` keys (space-separated) that show it
    aspects: dict[str, Aspect]

    def aspect(self, name: str) -> Aspect:
        """The frame spec for "16:9", "9:16" or "1:1"; a clear error for anything else."""
        try:
            return self.aspects[name]
        except KeyError:
            raise ThemeError(f"unknown aspect {name!r}; the theme has {sorted(self.aspects)}") from None


_CHOICES: dict[str, tuple[str, ...]] = {
    "flow": ("up", "right", "down"),
    "leaf_layer": ("consumer", "source"),
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
    if theme.proportions.caption_shrink_step >= 1.0:
        raise _fail(path, "proportions.caption_shrink_step", "must be below 1 or captions never shrink")
    for group in ("font_sizes", "strokes", "radii", "sizes", "spacing", "timings"):
        for name, v in dataclasses.asdict(getattr(theme, group)).items():
            if v < 0:
                raise _fail(path, f"{group}.{name}", f"expected a value >= 0, got {v}")
    colours = {f.name for f in dataclasses.fields(Colors)}
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
            hw, hh = a.frame_width / 2 - a.margin, a.frame_height / 2 - a.margin
            if left < -hw - 1e-9 or right > hw + 1e-9 or bottom < -hh - 1e-9 or top > hh + 1e-9:
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
