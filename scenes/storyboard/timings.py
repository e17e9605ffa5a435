"""The durations the plan uses, taken from the theme plus a few reading-speed settings.

Why a local dataclass: the plan must stay pure and testable without loading the theme file, and it
needs two values the visual theme does not hold (how long a title card stays, the pause between
beats). :meth:`PlanTimings.from_theme` copies the theme's timings (``scenes.theme.Timings``:
node_appear, edge_grow, grad_travel, bucket_fill, wavefront_step, caption_fade,
code_highlight_move) and its reading rules (``reading``: how fast and how much a caption says) so
the theme stays the one place that sets them.

>>> PlanTimings().scaled("fast").node_appear
0.3
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .model import PACE_FACTOR
from .reading import ReadingRules

BLINK = 0.5
"""Seconds: gone for less than this and back reads as a blink, not as a change (the continuity
checks' measure, and what a drawing that puts a mark out and back must outlast)."""


@dataclass(frozen=True)
class PlanTimings:
    """Seconds. The first sixteen mirror scenes/theme.yaml ``timings``; the defaults equal it."""

    node_appear: float = 0.6
    edge_grow: float = 0.5
    grad_travel: float = 0.9
    bucket_fill: float = 0.8
    wavefront_step: float = 0.5
    caption_fade: float = 0.3
    code_highlight_move: float = 0.3
    sweep_step: float = 0.9
    focus_move: float = 0.8
    camera_move: float = 1.5
    camera_least: float = 0.6
    camera_hold: float = 2.0
    phrase_gap: float = 0.25
    highlight_hold: float = 1.0
    rule_hold: float = 2.5
    graph_freed: float = 1.2
    title_hold: float = 2.0
    beat_pause: float = 0.5
    """Seconds from a beat's end to the next beat's start (before :attr:`beat_grid`): at least
    ``scenes.video.timeline.BAR_KEPT``, so the caption bar goes out between beats and no beat
    starts showing the words of the one before (which would make it depend on them)."""
    beat_grid: float = 0.2
    """Beats start on multiples of this (seconds): a whole number of frames at every rate that is
    a multiple of 5 (5, 10, 15, 30, 60 fps), so a narration edit moves the later beats by whole
    frames and their segments keep their keys (:mod:`scenes.render.keys`)."""
    reading: ReadingRules = ReadingRules()

    @classmethod
    def from_theme(cls, timings: Any) -> "PlanTimings":
        """Take every field the theme's ``Timings`` (or a Theme, via ``.timings``) has."""
        theme = timings
        timings = getattr(timings, "timings", timings)
        known = {f.name for f in dataclasses.fields(cls)} - {"reading"}
        given: dict[str, Any] = {k: float(v) for k, v in dataclasses.asdict(timings).items() if k in known}
        if hasattr(theme, "reading"):
            given["reading"] = ReadingRules.from_theme(theme)
        return cls(**given)

    def scaled(self, pace: str) -> "PlanTimings":
        """Animation durations multiplied by the pace factor (reading speed unchanged)."""
        f = PACE_FACTOR[pace]
        anim = ("node_appear", "edge_grow", "grad_travel", "bucket_fill", "wavefront_step",
                "code_highlight_move", "sweep_step", "title_hold")
        return dataclasses.replace(self, **{k: round(getattr(self, k) * f, 6) for k in anim})


def default_timings() -> PlanTimings:
    """The theme's timings when scenes.theme loads, else the built-in defaults (equal today)."""
    try:
        from scenes.theme import default_theme
    except ImportError:  # pragma: no cover - theme module absent
        return PlanTimings()
    return PlanTimings.from_theme(default_theme())
