"""What a clip's picture cannot show at an aspect, found by the rules that draw it.

Why: a graph too big for readable cards was drawn as names only (20 cards of 33 x 12 px at 16:9)
with no word from `render check`, which described only what it folded. The layout the scene
draws (`clip_layout`) says how much its cards carry (`Detail`); where that is less than every
value, the scene prints each value under the code instead (`Forward.draw_node_appear`), one line
a value, in a console that keeps room for a few rows (`CONSOLE_ROWS`): past that, most scroll
away unread. So each aspect whose cards have no row for their values, and more of them than
those rows, is a warning naming the beat that first draws them; an aspect whose cards are bare
boxes (no name, no value: a picture that shows nothing) refuses. A beat whose visual plans nothing
(`empty_beats`) is a warning too.
Pure: no Manim.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from scenes.layout.clip import CARD_CHARS, CONSOLE_ROWS, printed_lines
from scenes.layout.detail import Detail
from scenes.layout.place import Layout, shows_values


@dataclass(frozen=True)
class Unshown:
    """Something the plan asks to show that the picture at ``aspect`` cannot: ``beat`` (0-based)
    is the first beat that asks for it; ``refuse``: the picture would show nothing."""

    beat: int
    aspect: str
    what: str
    refuse: bool = False


def unshown(plan: Any, layouts: Mapping[str, Layout]) -> list[Unshown]:
    """Per aspect, what the clip's graph laid out as ``layouts[aspect]`` (`clip_layout`, what
    the scene draws) cannot show (see the module's doc)."""
    carded = [c for c in plan.cues if c.kind == "node_appear" and c.text("value") is not None
              and len(c.text("value") or "") <= CARD_CHARS]  # longer: printed at every aspect, by design
    cards = [c for c in plan.cues if c.kind == "node_appear"]
    if not cards:
        return []
    n = len({c.ids[0] for c in cards})
    out = []
    for aspect, lay in layouts.items():
        if lay.detail is Detail.NONE:
            out.append(Unshown(cards[0].beat, aspect, f"the graph's {n} cards would be bare boxes "
                               f"(layout scale {lay.scale:.2f}): no name and no value readable; split the "
                               "program into clips of fewer tensors", refuse=True))
        elif carded and not shows_values(lay) and len(carded) + printed_lines(plan) > CONSOLE_ROWS:
            names = list(dict.fromkeys(c.text("name") or c.text("op") or c.ids[0] for c in carded))
            shown = ", ".join(names[:6]) + (f", ... ({len(names)} in all)" if len(names) > 6 else "")
            out.append(Unshown(carded[0].beat, aspect, f"the graph's {n} cards are too small for "
                               f"their values (names only, layout scale {lay.scale:.2f}); the values of "
                               f"{shown} are printed under the code instead, one line each, more than the "
                               f"{CONSOLE_ROWS} rows kept for printed lines, so most scroll away; a smaller "
                               "graph (the clip split in two) shows them on its cards"))
    return out


def empty_beats(plan: Any, visuals: list[str]) -> list[Unshown]:
    """Beats whose visual plans nothing to draw (``visuals``: each beat's, in order): a
    ``network`` beat over a program with no network, say. The narration is then said over the
    picture of the beat before, at every aspect; when no beat draws anything, the picture would
    show nothing at all and the storyboard is refused."""
    drawn = {c.beat for c in plan.cues}
    empty = [i for i in range(len(visuals)) if i not in drawn]
    refuse = bool(visuals) and len(empty) == len(visuals)
    then = ("no beat of the storyboard draws anything, so the picture would show nothing" if refuse
            else "its narration is said over the picture of the beat before")
    return [Unshown(i, "every aspect", f"visual {visuals[i]} has nothing to draw in this span: {then}; "
                    "choose the visual that shows what the span holds", refuse=refuse) for i in empty]


def unshown_prints(plan: Any, events: Any) -> list[Unshown]:
    """Lines the program printed that no beat shows (no ``output_line`` cue reads their print
    event): the console shows exactly what the program prints, so one skipped would make the
    lines under it read as the whole printout. Each is a warning at the first beat that draws
    past it (the last beat when none does), with the beat to add."""
    shown = {s.seq for c in plan.cues if c.kind == "output_line" for s in c.strings}
    beats = sorted({c.beat for c in plan.cues})
    out = []
    for ev in events:
        if ev.kind != "print" or ev.seq in shown:
            continue
        later = [c.beat for c in plan.cues if any(s.seq is not None and s.seq > ev.seq for s in c.strings)]
        beat = min(later) if later else (beats[-1] if beats else 0)
        out.append(Unshown(beat, "every aspect", f"line {ev.line} prints {ev.text!r} and no beat shows it, so the "
                           "console would skip a line the program printed; add a beat with "
                           f"`visual: output` and `lines: {ev.line}` before this one"))
    return out


def refuse_if_nothing_shown(checked: Any, missing: list[Unshown]) -> None:
    """Raise a StoryboardError of one located line, at the first beat's ``visual``, when
    ``missing`` says the picture would show nothing (`Unshown.refuse`)."""
    from scenes.storyboard.errors import Problem, StoryboardError

    first = next((u for u in missing if u.refuse), None)
    if first is not None:
        line, col = checked.doc.at(("beats", first.beat, "visual"))
        raise StoryboardError([Problem(checked.file, line, col, f"at {first.aspect}: {first.what}",
                                       f"beats[{first.beat}].visual")])


def nothing_shown(checked: Any, plan: Any, layouts: Mapping[str, Layout]) -> None:
    """`refuse_if_nothing_shown` for a clip drawn at ``layouts``' aspects (`render scene`)."""
    refuse_if_nothing_shown(checked, empty_beats(plan, [b.visual for b in checked.storyboard.beats])
                            + unshown(plan, layouts))
