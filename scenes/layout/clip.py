"""What of a clip's picture follows from its plan and theme alone: where the graph goes, whether
a code pane shows, how full each bucket gets (from the logged numbers the plan passes beside
the texts, never from the texts).

Pure (no Manim): the render's keys and the scene both read these.

>>> clip_frame_region(has_code=False, spec=type("S", (), {"margin": 0.5, "frame_width": 16.0,
...     "frame_height": 9.0, "caption": (-8.0, -4.5, 8.0, -3.0), "graph": None})())
(-7.5, -2.5, 7.5, 4.0)
"""

from __future__ import annotations

from typing import Any


def clip_frame_region(has_code: bool, spec: Any) -> tuple[float, float, float, float]:
    """Where the graph is laid out: the theme's graph region beside the code pane; the whole
    frame above the caption when the clip shows no code."""
    if has_code:
        return spec.graph
    m = spec.margin
    return (-spec.frame_width / 2 + m, spec.caption[3] + m, spec.frame_width / 2 - m, spec.frame_height / 2 - m)


def shows_code(plan: Any, source: str | None) -> bool:
    """Whether the clip has a code pane: a program, and a beat that shows its lines."""
    return bool(source) and any(c.kind == "code_line" for c in plan.cues)


def fill_scales(plan: Any) -> dict[str, float]:
    """Per leaf, the largest |.grad| the clip reaches: its bucket is full at that value."""
    top: dict[str, float] = {}
    for c in plan.cues:
        if c.kind == "bucket_fill" and len(c.ids) > 1:
            top[c.ids[1]] = max(top.get(c.ids[1], 0.0), abs(c.number("after") or 0.0))
    return top
