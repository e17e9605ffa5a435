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

from scenes.storyboard.cues import CONSOLE_KINDS


def clip_frame_region(has_code: bool, spec: Any, console: float = 0.0) -> tuple[float, float, float, float]:
    """Where the graph is laid out: the theme's graph region beside the code pane; the whole
    frame above the caption when the clip shows no code. ``console``: the height printed lines
    need under the code pane (`console_room`); where the graph lies under the code (9:16, 1:1)
    its top comes down so that the lines never run into it."""
    if has_code:
        left, bottom, right, top = spec.graph
        if console > 0.0 and top <= spec.code[1]:
            top = max(bottom, min(top, spec.code[1] - console))
        return (left, bottom, right, top)
    m = spec.margin
    return (-spec.frame_width / 2 + m, spec.caption[3] + m, spec.frame_width / 2 - m, spec.frame_height / 2 - m)


CARD_CHARS = 12  # a value longer than this (PyTorch's tensor(0.3333, requires_grad=True)) is printed, not carded


def printed_lines(plan: Any) -> int:
    """How many lines the clip prints under its code: its console cues, and the values too
    long for a card (a tensor's printout), which the scene prints instead."""
    return sum(1 for k in plan.cues if k.kind in CONSOLE_KINDS or
               (k.kind == "node_appear" and len(k.text("value") or "") > CARD_CHARS))


def console_room(plan: Any, reserve: float) -> float:
    """The height kept under the code pane for printed lines: ``reserve`` (the theme's
    ``sizes.console_reserve``) when the plan prints anything, else none."""
    return reserve if printed_lines(plan) else 0.0


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
