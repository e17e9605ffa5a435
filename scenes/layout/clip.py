"""What of a clip's picture follows from its plan and theme alone: where the graph goes, whether
a code pane shows, how full each bucket gets (from the logged numbers the plan passes beside
the texts, never from the texts).

Pure (no Manim): the render's keys and the scene both read these.

>>> clip_frame_region(has_code=False, spec=type("S", (), {"margin": 0.5, "frame_width": 16.0,
...     "frame_height": 9.0, "caption": (-8.0, -4.5, 8.0, -3.0), "graph": None})())
(-7.5, -2.5, 7.5, 4.0)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from scenes.storyboard.cues import CONSOLE_KINDS

if TYPE_CHECKING:
    from scenes.layout.place import Layout


def clip_frame_region(has_code: bool, spec: Any, console: float = 0.0, aside: float = 0.0) -> tuple[float, float, float, float]:
    """Where the graph is laid out: the theme's graph region beside the code pane; the whole
    frame above the caption when the clip shows no code. ``console``: the height printed lines
    need under the code pane (`console_room`); where the graph lies under the code (9:16, 1:1)
    its top comes down so that the lines never run into it. ``aside``: the width kept free at
    its left (`checklist_room`)."""
    if has_code:
        left, bottom, right, top = spec.graph
        if console > 0.0 and top <= spec.code[1]:
            top = max(bottom, min(top, spec.code[1] - console))
    else:
        m = spec.margin
        left, bottom, right, top = (-spec.frame_width / 2 + m, spec.caption[3] + m,
                                    spec.frame_width / 2 - m, spec.frame_height / 2 - m)
    return (min(left + aside, right), bottom, right, top)


def checklist_room(plan: Any, spec: Any, theme: Any) -> float:
    """The width kept at the graph region's left for the storyboard's checklist, where the
    aspect keeps room for it (``aspects.A.checklist: aside``: a square frame's graph leaves no
    corner free): its longest item at the note size, estimated from the theme's glyph advance,
    with its tick and a gap. Nothing where the list goes to a free corner, or there is none."""
    items = [s.text for c in plan.cues if c.kind == "check" for s in c.strings if s.role == "item"]
    if spec.checklist != "aside" or not items:
        return 0.0
    width = (max(map(len, items)) + 2) * theme.layout.glyph_advance_sans * theme.font_sizes.note
    return width + 2 * theme.spacing.item_gap


def graph_region(plan: Any, source: str | None, spec: Any, theme: Any) -> tuple[float, float, float, float]:
    """The clip's graph region: `clip_frame_region` with the room its printed lines and its
    checklist need. The one place the render, the scene and `inspect` take it from.

    Where the graph lies under the code, the printed lines stop above the op name over its top
    card (`ConsoleCues._console`), so their room is the reserve and that name's height: else
    two rows were left of "about three", and missing_gradient's warning at 9:16 scrolled away
    under the None printed with it while the caption said "PyTorch warns"."""
    from scenes.layout.place import tag_reach

    console = console_room(plan, theme.sizes.console_reserve)
    if console:
        console += tag_reach(theme)
    return clip_frame_region(shows_code(plan, source), spec, console, checklist_room(plan, spec, theme))


def clip_layout(plan: Any, events: list[dict], source: str | None, aspect: str, theme: Any) -> "Layout":
    """The clip's graph layout, in its `graph_region`: the one place the render, the scene and
    `inspect` lay a clip out. A clip that names its backward graph's functions (a
    ``grad_fn_appear`` cue) keeps them on its cards, so it never takes one-row cards, which have
    no row for them (`layout_graph`)."""
    from scenes.layout.place import layout_events

    region = graph_region(plan, source, theme.aspect(aspect), theme)
    one_row = not any(c.kind == "grad_fn_appear" for c in plan.cues)
    return layout_events(events, aspect, theme, region, source, one_row=one_row)


CARD_CHARS = 12  # a value longer than this (PyTorch's tensor(0.3333, requires_grad=True)) is printed, not carded


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def first_sentence(text: str) -> str:
    """The first sentence of ``text``: PyTorch's warning "The .grad attribute of a Tensor that is
    not a leaf Tensor is being accessed. Its .grad ..." says what happened in its first sentence
    (a ``.grad`` inside a sentence does not end it); the rest is advice a viewer cannot read in
    the seconds the line is up.

    >>> first_sentence("The .grad attribute is being accessed. Its .grad won't be populated.")
    'The .grad attribute is being accessed.'
    """
    return _SENTENCE_END.split(" ".join(text.split()), maxsplit=1)[0]


def message_line(cue: Any) -> str:
    """What a message cue prints: ``UserWarning: `` and its message's first sentence."""
    kind, message = cue.text("type"), cue.text("message") or ""
    return f"{kind}: {first_sentence(message)}" if kind else first_sentence(message)


def printed_texts(plan: Any) -> list[str]:
    """What the clip prints under its code, a text per line printed: its console cues' strings,
    and the values too long for a card (a tensor's printout), which the scene prints instead."""
    out = []
    for k in plan.cues:
        if k.kind == "message":
            out.append(message_line(k))
        elif k.kind in CONSOLE_KINDS:
            out.append("  ".join(s.text for s in k.strings))
        elif k.kind == "node_appear" and len(k.text("value") or "") > CARD_CHARS:
            out.append(k.text("value") or "")
    return out


def printed_lines(plan: Any) -> int:
    """How many lines the clip prints under its code (`printed_texts`)."""
    return len(printed_texts(plan))


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
