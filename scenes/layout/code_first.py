"""The code pane before the first picture: large and centred while the code is the subject.

Why: a storyboard that shows its program first (the narration introduces it) left the pane at its
column's size in a corner and the graph region empty for ten seconds (issue 39, item 4: no third
of the frame empty for over 3 s while the clip teaches). Until a cue draws anything but the pane,
the pane is drawn larger, centred in the frame above the caption bar, and moves to its column as
that cue comes (`scenes.draw.code`). Pure (no Manim): which cues keep the code the subject, how
long, and the centred rectangle for a pane of a given size.
"""

from __future__ import annotations

from typing import Any, Iterable

Rect = tuple[float, float, float, float]

CODE_ONLY = frozenset({"code_line"})
"""Cue kinds that draw only in the code pane: the running line moving down the program."""
RESTYLE = frozenset({"emphasis", "dim"})
"""Cue kinds that restyle shapes already drawn (a card's pulse, a fade): before the first shape
other than the code pane they draw nothing."""


def draws_only_code(cue: Any) -> bool:
    """Whether ``cue``, coming while the code pane is all there is, draws in it alone or nothing.

    >>> from types import SimpleNamespace as C
    >>> [draws_only_code(C(kind=k)) for k in ("code_line", "emphasis", "node_appear", "title")]
    [True, True, False, False]
    """
    return cue.kind in CODE_ONLY or cue.kind in RESTYLE


def code_first_span(cues: Iterable[Any]) -> tuple[float, float] | None:
    """From the first cue that shows the code to the first that draws anything else (seconds),
    when the clip opens with its code alone: None when the first code line comes with or after
    something else, or nothing else ever comes.

    >>> from types import SimpleNamespace as C
    >>> cues = [C(kind="emphasis", start=0.0), C(kind="code_line", start=0.0), C(kind="code_line", start=4.0),
    ...         C(kind="node_appear", start=11.0)]
    >>> code_first_span(cues), code_first_span([cues[0], cues[3]]), code_first_span(cues[:3])
    ((0.0, 11.0), None, None)
    """
    start = None
    for cue in sorted(cues, key=lambda c: c.start):
        if not draws_only_code(cue):
            return None if start is None or cue.start <= start else (start, cue.start)
        if cue.kind in CODE_ONLY and start is None:
            start = cue.start
    return None


def centred_rect(size: tuple[float, float], room: Rect) -> Rect:
    """A rectangle of ``size`` (width, height) centred in ``room``.

    >>> centred_rect((4.0, 2.0), (-5.0, -2.0, 5.0, 4.0))
    (-2.0, 0.0, 2.0, 2.0)
    """
    (w, h), (left, bottom, right, top) = size, room
    cx, cy = (left + right) / 2, (bottom + top) / 2
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def code_first_room(safe: Rect, caption_top: float, margin: float) -> Rect:
    """Where a centred pane may go: the frame inside its safe margin (``safe``), above the
    caption bar (whose top is ``caption_top``) by ``margin``.

    >>> code_first_room((-7.5, -4.0, 7.5, 4.0), -3.0, 0.25)
    (-7.5, -2.75, 7.5, 4.0)
    """
    left, _, right, top = safe
    return (left, caption_top + margin, right, top)
