"""The code pane steps aside for the backward walk, at every aspect.

What must hold (issue 19, item 4: "a pane that steps aside during the walk"): from the walk's
first step the pane shows only the lit line, ``loss.backward()``, and the room it gave up is
free for the walk's notes; the next line lit outside the walk (the update step) brings the
whole program back. At 16:9 too, where the pane is beside the graph (issue 39, item 4: "the code
pane shrinks to the lines being explained when the walk starts"). Printed lines keep to the foot
of the whole pane, so the pane coming back never lands on them.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

import pytest

from scenes.draw.collisions import MIN_OPACITY
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frames looked at

SGD = Path(__file__).parents[1] / "storyboard" / "lessons" / "sgd_loop.yaml"


@functools.lru_cache(maxsize=None)
def _seen(aspect: str, times: tuple[float, ...]) -> list[list[dict]]:
    """What is on screen (opaque enough to see) at each of ``times``: one inspection, shared."""
    checked, plan = load_and_plan(str(SGD))
    opts = RenderOptions(aspect=aspect)
    frames = [round(t * fps_of(opts)) for t in times]
    return [[i for i in s["items"] if i["opacity"] >= MIN_OPACITY] for s in inspect_clip(checked, plan, opts, frames=frames)]


def _code_at(aspect: str, times: list[float]) -> list[list[dict]]:
    """The code lines (and printed lines) on screen at each of ``times``, top to bottom."""
    return [sorted((i for i in items if i["role"] in ("code", "console")), key=lambda i: i["bbox"][1])
            for items in _seen(aspect, tuple(times))]


def _times() -> tuple[float, float, float]:
    """The middle of the first walk (its first visit's end), of the update step after it, and of
    the beat before the walk (pass one's forward build)."""
    _, plan = load_and_plan(str(SGD))
    visit = next(c for c in plan.cues if c.kind == "visit")
    mid = lambda b: b.start + b.duration / 2  # noqa: E731
    walk = max(i for i, b in enumerate(plan.beats) if b.start <= visit.start)
    assert plan.beats[walk + 1].visual == "update"
    return visit.start + visit.duration, mid(plan.beats[walk + 1]), mid(plan.beats[walk - 1])


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
def test_the_pane_keeps_only_the_lit_line_in_the_walk(aspect: str) -> None:
    walk, update, build = _times()
    before, during, after = _code_at(aspect, [build, walk, update])
    code = lambda items: [i["text"].strip() for i in items if i["role"] == "code"]  # noqa: E731
    assert code(during) == ["loss.backward()"]
    assert len(code(before)) > 1 and "loss.backward()" in code(before)
    assert len(code(after)) == len(code(before)) and "w -= lr * w.grad" in code(after)  # the whole pane is back
    foot = max(i["bbox"][3] for i in before + after if i["role"] == "code")
    assert all(i["bbox"][1] >= foot for i in during + after if i["role"] == "console")  # under the whole pane


def test_a_tall_frame_gets_the_legend_as_the_pane_steps_aside_for_the_walk() -> None:
    """Issue 39 item 5: at 9:16 the code pane stands over the graph, so the legend found no
    corner with the first card and red ("loss") went unexplained until the walk. It now stands
    with the first card in a gap between the cards (`legend_room.between_cards`); as the pane
    steps aside for the walk it comes into the room that freed, under the lit line and over
    every card, and goes back to its place with the pane coming back for the update step."""
    from scenes.theme import load_theme

    walk, update, build = _times()
    seen = _seen("9:16", (build, walk, update))  # the inspection the pane's test at 9:16 made
    words = load_theme().labels.legend_loss
    # the legend's words, not the card named ``loss`` (its name has the loss's meaning; the legend's words none)
    legend = [[i for i in items if i["role"] == "label" and i["text"] == words and not i.get("meaning")]
              for items in seen]
    assert len(legend[0]) == 1 and len(legend[2]) == 1, legend  # with the first card; back with the pane
    assert legend[0][0]["bbox"] == legend[2][0]["bbox"]  # at its place both times
    assert len(legend[1]) == 1, [i["text"] for i in seen[1]]
    top = legend[1][0]["bbox"][1]
    code = [i for i in seen[1] if i["role"] == "code"]
    cards = [i for i in seen[1] if i["role"] == "card"]
    assert code and cards and all(c["bbox"][3] <= top for c in code)  # under the lit line
    assert all(c["bbox"][1] >= legend[1][0]["bbox"][3] for c in cards)  # over the graph


def test_printed_lines_go_and_come_back_with_the_pane() -> None:
    """leaf_nodes prints ``None`` before ``L.backward()``: left under the lit line alone it read
    as what backward() printed. It goes while the pane is aside and is back, with the next
    print's ``tensor(1.)``, when the pane is."""
    checked, plan = load_and_plan(storyboard_path("leaf_nodes"))
    mid = lambda b: b.start + b.duration / 2  # noqa: E731
    times = [mid(plan.beats[1]), mid(plan.beats[2]), mid(plan.beats[4])]  # the print, the walk, the next print
    opts = RenderOptions(aspect="9:16")
    printed = [[i["text"] for i in s["items"] if i["role"] == "console" and i["opacity"] >= MIN_OPACITY]
               for s in inspect_clip(checked, plan, opts, frames=[round(t * fps_of(opts)) for t in times])]
    assert plan.beats[2].visual == "wavefront"
    assert printed[0] == ["None"] and printed[1] == [] and printed[2][:2] == ["None", "tensor(1.)"]


MICROGRAD = Path(__file__).parents[1] / "storyboard" / "lessons" / "micrograd_readme.yaml"


def test_a_pane_of_the_lit_line_alone_for_a_graph_that_needs_the_room() -> None:
    """At 1:1 micrograd's example (28 nodes) fits with its values only if the pane keeps
    nothing but its lit line (`Layout.code_lit`): in every beat that shows code, one line of
    the program is on screen; what the program printed by a beat's end is all on screen then
    (the last three lines at most), under the pane and over the graph's top."""
    from scenes.layout.clip import clip_layout, printed_texts
    from scenes.theme import load_theme

    checked, plan = load_and_plan(str(MICROGRAD))
    opts = RenderOptions(aspect="1:1")
    assert clip_layout(plan, checked.run.events, checked.index.source, "1:1", load_theme()).code_lit
    source = checked.index.source.splitlines()
    ends = [b.start + b.duration - 0.05 for b in plan.beats if b.visual not in ("title_card", "takeaway")]
    samples = inspect_clip(checked, plan, opts, frames=[round(t * fps_of(opts)) for t in ends])
    for t, s in zip(ends, samples):
        shown = [i for i in s["items"] if i["opacity"] >= MIN_OPACITY]
        code = [i for i in shown if i["role"] == "code"]
        assert len(code) == 1 and code[0]["text"].strip() in {ln.strip() for ln in source}, (t, code)
        printed = [" ".join(i["text"].split()) for i in shown if i["role"] == "console"]
        want = [" ".join(x.split()) for x in printed_texts(replace(plan, cues=tuple(
            c for c in plan.cues if c.start + c.duration <= t)))][-3:]
        assert printed[-len(want):] == want if want else not printed, (t, printed, want)
        graph_top = min(i["bbox"][1] for i in shown if i["role"] in ("card", "label") and i["id"] and i["id"][0] == "t")
        assert all(code[0]["bbox"][3] <= i["bbox"][1] and i["bbox"][3] <= graph_top
                   for i in shown if i["role"] == "console"), t


def test_a_pane_of_the_lit_line_alone_shows_a_line_on_every_frame() -> None:
    """Moving to the next line, the pane of the lit line alone cuts from one line to the next:
    the cross-fade of a whole pane left it (or its text) blank for two frames at each line of
    micrograd's fast build. From the first line lit on, every frame shows one line of code."""
    checked, plan = load_and_plan(str(MICROGRAD))
    opts = RenderOptions(aspect="1:1")
    first = next(c.start for c in plan.cues if c.kind == "code_line")
    frames = range(round((first + 0.5) * fps_of(opts)), round(plan.duration * fps_of(opts)))
    bad = [(s["time"], [i["text"] for i in s["items"] if i["role"] == "code" and i["opacity"] >= 0.5])
           for s in inspect_clip(checked, plan, opts, frames=list(frames))]
    bad = [(t, shown) for t, shown in bad if len(shown) != 1]
    assert not bad, bad[:10]


@functools.lru_cache(maxsize=None)
def _stepping_aside(aspect: str) -> tuple[str, list[list[dict]]]:
    """The lit line of sgd_loop's first walk and what is on screen on every frame of the cue
    that lights it (the pane stepping aside to it) and a little after."""
    from scenes.storyboard.cues import cue_kind

    checked, plan = load_and_plan(str(SGD))
    start = next(c for c in plan.cues if cue_kind(c.kind).walk_line and c.seqs)
    opts = RenderOptions(aspect=aspect)
    fps = fps_of(opts)
    frames = list(range(round(start.start * fps), round((start.start + start.duration) * fps) + 3))
    line = checked.index.source.splitlines()[checked.run.events[start.seqs[0]].line - 1].strip()
    return line, [s["items"] for s in inspect_clip(checked, plan, opts, frames=frames)]


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_bar_goes_with_the_lit_line_as_the_pane_steps_aside(aspect: str) -> None:
    """The walk lights ``loss.backward()`` as the pane steps aside to it: the bar (`code_bar`)
    goes from the line lit before to that one as the lines slide, whole on every frame, nearer
    it each frame, and stays on it, so the pane standing aside says which line runs. Once it
    was faded as a row near the sliding lines is, on its own line too: the pane stood aside
    with no bar at all, through every walk (dynamic_graph 16:9 at 26-35 s)."""
    line, frames = _stepping_aside(aspect)
    assert line == "loss.backward()" and len(frames) > 3

    def centre(i: dict) -> float:
        return (i["bbox"][1] + i["bbox"][3]) / 2

    gaps = []
    for items in frames:
        bars = [i for i in items if i["role"] == "code_bar" and i["opacity"] >= MIN_OPACITY]
        here = [i for i in items if i["role"] == "code" and i["opacity"] >= 0.5 and i["text"].strip() == line]
        assert len(bars) == 1 and bars[0]["opacity"] > 0.9 and len(here) == 1, (bars, here)  # no blink
        gaps.append(abs(centre(bars[0]) - centre(here[0])))
    assert all(b <= a + 1.0 for a, b in zip(gaps, gaps[1:])), gaps
    assert gaps[-1] <= 3.0, gaps  # on it: a bar's height is a row's
