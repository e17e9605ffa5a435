"""The colour legend stays up while the graph's colours are read (issue 39).

What must hold: at 9:16 the code pane takes the frame's top corners and the graph spans the
frame's width at its foot, so the legend found no corner with the first card and came only with
the backward walk, or the whole graph's grow: graph_build showed it for 0.4 s, backward_graph for
1.4 s, at the takeaway, long after the captions that read the colours ("the two weights, which
ask for gradients", "x and y did not"). Where the graph is narrower at its top, the legend stands
beside it under the pane (`LegendRoom.under_the_pane`): on screen at the middle of every caption
from the first card to the takeaway, its words at least ``min_glyph_px`` high, inside the frame's
safe edge and over nothing else drawn. Beside the pane (16:9), where neither the legend's column
nor its row found a corner (leaf_nodes' graph and printout, missing_gradient's and its list), it
takes one in more columns or at the least readable size (`smaller_legends`), and holds
as well, but while it gives way (`GIVES_WAY`).
"""

from __future__ import annotations

import functools

import pytest

from scenes.draw.collisions import MIN_OPACITY, SHORT_SIDE, glyph_height
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.render.camera_plan import plan_at
from scenes.theme import load_theme

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frames looked at

CLIPS = ["graph_build", "backward_graph", "backward_walk", "leaf_nodes", "grad_accumulation", "missing_gradient"]
"""The clips whose graph leaves a corner beside its top under the pane at 9:16 (dynamic_graph's
graphs side by side fill the width but its first's); leaf_nodes' at the least readable size, half
a gap off the arrow that passes under it; grad_accumulation's two cards fill the width: between
them, beside their arrows, its widest entry on two lines (`LegendRoom.between_cards`);
missing_gradient's with its checklist under it, as far under the pane as the console prints
(`LegendRoom.printed_reach`)."""
GIVES_WAY = {"leaf_nodes": ("whole",), "missing_gradient": ("camera", "whole")}
"""In a wide frame, what each clip's legend gives way to (`LegendFrame.give_way`): the whole graph's
grow, and the walk's close view where it stands in the graph's region (missing_gradient's, under
its checklist)."""
UNTIL_WALK = ["dynamic_graph"]
"""Clips whose legend stands beside their first graph only until its walk (`LegendRoom.before_the_walk`,
at 16:9 in a corner of the graph's region, `LegendRoom.graph_corner`: the graphs recorded later
take its place): checked up to the walk's first close view."""
CASES = [(clip, "9:16") for clip in CLIPS + UNTIL_WALK] + [(clip, "16:9") for clip in [*GIVES_WAY, *UNTIL_WALK]]
"""(clip, aspect) checked."""


def _legend_words() -> set[str]:
    """The legend's entries, and each one's lines where it wraps at a space (`legend`'s ``wrap``)."""
    w = load_theme().labels
    words = {w.legend_weight, w.legend_input, w.legend_result, w.legend_loss, w.legend_grad}
    return words | {part for e in words for i, ch in enumerate(e) if ch == " " for part in (e[:i], e[i + 1:])}


def _times(clip: str, aspect: str) -> list[float]:
    """The middle of each caption (not a title) from the first card's to the takeaway's beat; in a
    wide frame, where its legend gives way (`GIVES_WAY`), only those read while it is not away."""
    checked, plan = load_and_plan(storyboard_path(clip))
    plan = plan_at(checked, plan, aspect)
    first = min(c.start for c in plan.cues if c.kind == "node_appear")
    takeaway = min((b.start for b in plan.beats if b.visual == "takeaway"), default=plan.duration)
    apart: list[tuple[float, float]] = []  # from a grow or close view to the cue that takes it back
    kinds = GIVES_WAY.get(clip, ()) if aspect == "16:9" else ()
    moves = sorted((c for c in plan.cues if c.kind in ("whole", "whole_back", "camera")), key=lambda c: c.start)
    for c in moves:
        opened = bool(apart) and apart[-1][1] == plan.duration
        away = (c.kind == "whole" and "whole" in kinds) or (c.kind == "camera" and bool(c.ids) and "camera" in kinds)
        back = c.kind == "whole_back" or (c.kind == "camera" and not c.ids)
        if away and not opened:
            apart.append((c.start, plan.duration))
        elif opened and back:
            apart[-1] = (apart[-1][0], c.start + c.duration)
    if clip in UNTIL_WALK:  # the captions read before the walk's first close view, by their middle
        walk = min(c.start for c in plan.cues if c.kind == "backward_start" or (c.kind == "camera" and c.ids))
        return [round((s.start + s.end) / 2, 2) for s in plan.captions
                if s.style == "caption" and s.start >= first and (s.start + s.end) / 2 <= walk]
    return [round((s.start + s.end) / 2, 2) for s in plan.captions
            if s.style == "caption" and s.start >= first and s.end <= takeaway + 1e-6
            and not any(a <= (s.start + s.end) / 2 <= b for a, b in apart)]


@functools.lru_cache(maxsize=None)
def _seen(clip: str, aspect: str) -> tuple[tuple[float, tuple[float, float], list[dict]], ...]:
    """(time, frame size, what is on screen, opaque enough to see) at each of `_times`: one inspection."""
    checked, plan = load_and_plan(storyboard_path(clip))
    plan = plan_at(checked, plan, aspect)
    opts = RenderOptions(aspect=aspect)
    times = _times(clip, aspect)
    frames = [round(t * fps_of(opts)) for t in times]
    return tuple((t, tuple(s["frame"]), [i for i in s["items"] if i["opacity"] >= MIN_OPACITY])
                 for t, s in zip(times, inspect_clip(checked, plan, opts, frames=frames)))


def _meet(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@pytest.mark.parametrize("clip,aspect", CASES)
def test_the_legend_stays_through_the_captions(clip: str, aspect: str) -> None:
    words, theme = _legend_words(), load_theme()
    seen = _seen(clip, aspect)
    assert len(seen) >= 5, seen
    missing = [t for t, _, items in seen if not any(i.get("text") in words for i in items)]
    assert not missing, f"{clip} {aspect}: no legend at the captions' middles {missing}"
    edge = theme.layout.safe_edge
    for t, (w, h), items in seen:
        legend = [i for i in items if i["kind"] == "text" and i.get("text") in words]
        px = theme.font_sizes.min_glyph_px * min(w, h) / SHORT_SIDE
        assert all(glyph_height(i) >= px for i in legend), (t, legend)
        assert all(i["bbox"][0] >= edge * w and i["bbox"][2] <= (1 - edge) * w and i["bbox"][1] >= edge * h
                   and i["bbox"][3] <= (1 - edge) * h for i in legend), (t, legend)
        others = [i for i in items if i not in legend and i["role"] not in ("pane",)]
        hits = [(i["text"], o["role"], o.get("text")) for i in legend for o in others if _meet(i["bbox"], o["bbox"])]
        assert not hits, (t, hits)
