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

from scenes.layout.code_rows import lit_rows
from scenes.storyboard.cues import CONSOLE_KINDS

if TYPE_CHECKING:
    from engine.records import Event
    from scenes.layout.place import Layout


def clip_frame_region(has_code: bool, spec: Any, console: float = 0.0, aside: float = 0.0,
                      lit: float = 0.0, safe: tuple[float, float, float, float] | None = None) -> tuple[float, float, float, float]:
    """Where the graph is laid out: the theme's graph region beside the code pane; the whole
    frame above the caption when the clip shows no code. ``console``: the height printed lines
    need under the code pane (`console_room`); where the graph lies under the code (9:16, 1:1)
    its top comes down so that the lines never run into it. ``aside``: the width kept free at
    its left (`checklist_room`). ``lit``: where the graph lies under the code, the pane shows
    only its lit line in this much room at the top of its region (`code_rect`), and the graph
    rises to the same gap under it as under the whole pane. ``safe``: the frame inside its
    margin (`Theme.safe_rect`; default: inside ``spec.margin``)."""
    if has_code:
        left, bottom, right, top = spec.graph
        foot = spec.code[1]
        if lit and top <= foot:
            foot = spec.code[3] - lit
            top += foot - spec.code[1]
        if console > 0.0 and top <= foot:
            top = max(bottom, min(top, foot - console))
    else:
        m = spec.margin
        sx0, _, sx1, sy1 = safe or (-spec.frame_width / 2 + m, 0.0, spec.frame_width / 2 - m, spec.frame_height / 2 - m)
        left, bottom, right, top = sx0, spec.caption[3] + m, sx1, sy1
    return (min(left + aside, right), bottom, right, top)


def code_rect(spec: Any, theme: Any, lit: bool, source: str | None) -> tuple[float, float, float, float]:
    """The code pane's region: the aspect's, or with ``lit`` (`Layout.code_lit`) the strip at its
    top where a pane of the lit line alone goes (`lit_strip`)."""
    left, bottom, right, top = spec.code
    return (left, top - lit_strip(source, spec, theme), right, top) if lit else (left, bottom, right, top)


def lit_strip(source: str | None, spec: Any, theme: Any) -> float:
    """How tall a pane of the lit line alone can be: ``sizes.code_lit`` for one row of code at
    ``code_min``, and one row more for each further row the longest-wrapping line takes
    (`lit_rows`)."""
    z = theme.sizes
    return z.code_lit + (lit_rows(source or "", spec, theme) - 1) * (z.code_lit - 2 * z.code_pad)


def printed_rows(plan: Any, spec: Any, theme: Any) -> int:
    """How many rows the clip's printed lines (`printed_texts`) take under a pane of the lit line
    alone, where they are set at ``code_min`` and wrapped between words: counted with the
    theme's largest advance of a monospaced glyph, so never fewer than are drawn."""
    left, _, right, _ = spec.code
    cols = max(1, int((right - left - 2 * theme.sizes.code_pad) / (theme.layout.glyph_advance_mono * theme.font_sizes.code_min)))
    rows = 0
    for text in printed_texts(plan):
        for part in text.split("\n"):
            used = 0
            rows += 1
            for word in part.split(" "):
                if used and used + 1 + len(word) > cols:
                    rows, used = rows + 1, 0
                used += (1 if used else 0) + len(word)
                while used > cols:  # a word longer than a row takes the rows it needs
                    rows, used = rows + 1, used - cols
    return rows


def checklist_room(plan: Any, spec: Any, theme: Any) -> float:
    """The width kept at the graph region's left for the storyboard's checklist, where the
    aspect keeps room for it (``aspects.A.checklist: aside``: a square frame's graph leaves no
    corner free): its longest item at the note size, estimated from the theme's advance of a
    prose glyph (on average: the names' at most kept a column 0.7 units wider than the list, and
    the graph beside it stood against the frame's right edge, where missing_gradient 1:1's
    ``v.grad = None`` found no room by v's bucket), with its tick and a gap each side. Nothing
    where the list goes to a free corner, or there is none."""
    items = [s.text for c in plan.cues if c.kind == "check" for s in c.strings if s.role == "item"]
    if spec.checklist != "aside" or not items:
        return 0.0
    width = (max(map(len, items)) + 2) * theme.layout.glyph_advance_words * theme.font_sizes.note
    return width + 2 * theme.spacing.item_gap


def graph_region(plan: Any, source: str | None, spec: Any, theme: Any, lit: bool = False) -> tuple[float, float, float, float]:
    """The clip's graph region: `clip_frame_region` with the room its printed lines and its
    checklist need; ``lit``: under a pane of the lit line alone (`Layout.code_lit`). The one
    place the render, the scene and `inspect` take it from.

    Where the graph lies under the code, the printed lines stop above the op name over its top
    card (`Console.print_values`), so their room is the reserve plus that name's height: the
    reserve's rows stay free for printed lines, and a line does not scroll away while its
    caption is up."""
    from scenes.layout.place import tag_reach

    reserve = theme.sizes.console_reserve
    console = console_room(plan, reserve)
    if console and lit:  # its lines are set at code_min: room for what it prints, three rows at most
        rows = printed_rows(plan, spec, theme)
        console = lit_console_room(min(CONSOLE_ROWS, rows), theme)
        if rows > CONSOLE_ROWS:  # lines scroll: a row for their count (`earlier_room`)
            console += earlier_room(theme)
    if console:
        console += tag_reach(theme)
    return clip_frame_region(shows_code(plan, source), spec, console, checklist_room(plan, spec, theme),
                             lit_strip(source, spec, theme) if lit else 0.0, theme.safe_rect(spec))


CONSOLE_ROWS = 3
"""The rows of printed lines kept room for under a pane of the lit line alone, as the theme's
``sizes.console_reserve`` keeps about three under a whole one."""


def lit_console_room(rows: int, theme: Any) -> float:
    """The height ``rows`` printed lines at ``code_min`` take under a pane of the lit line alone,
    as `Console.print_values` stacks them: a pad under the pane, each row as tall as the theme's
    glyph height says (brackets and descenders included), half a pad between rows."""
    pad = theme.sizes.code_pad
    row = theme.layout.glyph_height * theme.font_sizes.code_min
    return pad + rows * row + max(0, rows - 1) * pad / 2


def earlier_words(n: int, labels: Any) -> str:
    """What the console says once ``n`` of its oldest lines have scrolled away, in plain words
    a learner reads as a sentence (the theme's ``labels.console_earlier``, or
    ``console_earlier_one`` for one line), not a field and its count ("lines printed earlier: 1",
    issue 39's review).

    >>> from scenes.theme import load_theme
    >>> [earlier_words(n, load_theme().labels) for n in (1, 4)]
    ['1 earlier line not shown', '4 earlier lines not shown']
    """
    return labels.console_earlier_one if n == 1 else labels.console_earlier.format(n=n)


def earlier_room(theme: Any) -> float:
    """The height of the count atop a console whose oldest lines have scrolled away ("4 earlier
    lines not shown", `Console._earlier`): a row at the legend's size and half a pad under it,
    so that the count takes no row from the lines of the beat on screen."""
    return theme.layout.glyph_height * theme.font_sizes.card_flag + theme.sizes.code_pad / 2


def clip_layout(plan: Any, events: list[Event], source: str | None, aspect: str, theme: Any) -> "Layout":
    """The clip's graph layout: the one place the render, the scene and `inspect` lay a clip
    out, a pass that records the same graph again in the old one's place (`passes`). The first of these whose cards all show their values (`shows_values`), else the first:
    the whole graph in its `graph_region`; each chain of single-input nodes folded into one
    card (`collapse`); both again under a pane of the lit line alone (`Layout.code_lit`, where
    the graph lies under the code: `code_rect`, with room for just what the clip prints); each
    named result's whole expression one card, under that pane.

    A clip that names its backward graph's functions (a ``grad_fn_appear`` cue) keeps them on
    its cards: it never takes one-row cards, which have no row for them (`layout_graph`), nor
    folds a node away, and keeps its whole pane (values printed under a pane of one line would
    read as that line's output)."""
    from dataclasses import replace

    from scenes.layout.collapse import collapse
    from scenes.layout.graph import graph_from_events
    from scenes.layout.passes import expanded, reduced, share_slots
    from scenes.layout.place import layout_graph, shows_values

    spec = theme.aspect(aspect)
    whole = graph_from_events(events, source)  # a pass recording the same graph again takes its place
    shared = share_slots(whole, events)
    graph = reduced(whole, shared)
    one_row = not any(c.kind == "grad_fn_appear" for c in plan.cues)
    under = shows_code(plan, source) and spec.graph[3] <= spec.code[1]
    cards = any(c.kind == "node_appear" for c in plan.cues)  # the network view draws units, not cards
    tries = [(False, None), (False, "chains"), (True, None), (True, "chains"), (True, "expressions")]
    tries = [(lit, fold) for lit, fold in tries if (under or not lit) and ((one_row and cards) or not (lit or fold))]
    folds = {fold: collapse(graph, expressions=fold == "expressions") for fold in {f for _, f in tries if f}}
    first = None
    for lit, fold in tries:
        folded = folds[fold] if fold else None
        if folded is not None and not folded.merged:
            continue
        region = graph_region(plan, source, spec, theme, lit=lit)
        lay = layout_graph(folded.graph if folded else graph, aspect, theme, region, one_row=one_row)
        lay = replace(lay, merged=folded.merged if folded else {}, steps=folded.steps if folded else frozenset(),
                      code_lit=lit)
        lay = expanded(lay, whole, shared)
        if shows_values(lay):
            return lay
        first = first or lay
    assert first is not None
    return first


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
            out.append(printed_value(k))
    return out


def printed_value(cue: Any) -> str:
    """What a value too wide for its card prints (a ``node_appear`` cue's): the card's label and
    the value, ``w = tensor(0.5000, requires_grad=True)``. Why the label: a list of printouts
    with no names (``torch`` style) does not say which card each belongs to."""
    label = cue.text("name") or cue.text("op")
    value = cue.text("value") or ""
    return f"{label} = {value}" if label else value


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
