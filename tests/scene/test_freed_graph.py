"""A freed graph stays, faded, beside the next one the same code records while that one is
built, then goes (dynamic_graph).

What must hold (issue 19, item 8; issue 39, items 2 and 3; review 4, item 8): the graph fades as
the caption says PyTorch frees it; the next forward pass builds its graph beside the faded one,
so both are on screen, side by side, while the caption says the doubling node is not recorded
this time; the freed one goes as backward() starts on the new one, so no walk has a freed graph
beside it and no freed graph stays to the clip's end; a pass that records the same graph again
takes the faded one's place (it goes as the new one grows), at every aspect. The kept graph is
faded to the theme's ``kept`` level, lighter than ``dimmed`` so its numbers can be read beside
the new ones; step two's input ``x``, which no loop graph uses, goes with step two's graph. Every
step is freed the same way: a freed graph is cut from ``w`` as it fades, and keeps no arrow in
the gradient's colour (no gradient flows in it again).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scenes.draw.collisions import MIN_OPACITY
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import default_theme

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frames looked at


def caption(plan, words: str):
    """The caption span whose text holds ``words``."""
    (span,) = [c for c in plan.captions if words in c.text]
    return span


def test_the_graph_fades_when_the_caption_says_it_is_freed() -> None:
    """Every step the same way: each walked graph but the last fades as its caption's "free"
    is read (step one "PyTorch frees the graph", step two "This graph is freed too", the loop
    that runs once "The graph is freed")."""
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    first = set(checked.index.name_tensors["s"][:2])  # s = x * w, then s = s * 2
    dims = [c for c in plan.cues if c.kind == "dim"]
    assert first <= set(dims[0].ids) and len(dims) == 3
    for dim in dims:
        (freed,) = [c for c in plan.captions if c.beat == dim.beat and "free" in c.text]
        read = freed.start + freed.text.index("free") / default_theme().reading.chars_per_second
        assert freed.start <= dim.start + 1e-9 and abs(dim.start - read) < 1.0, (dim.start, freed)  # as it is read


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
def test_the_two_graphs_side_by_side(aspect: str) -> None:
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    s = checked.index.name_tensors["s"]  # step one's two s, then step two's
    opts = RenderOptions(aspect=aspect)
    fps = fps_of(opts)
    skipped = caption(plan, "never recorded")
    at = [round((skipped.start + skipped.end) / 2 * fps)]
    (compare,) = [{(i["role"], i["id"]): i for i in smp["items"]}
                  for smp in inspect_clip(checked, plan, opts, frames=at)]
    old = [compare[("card", t)] for t in s[:2]]
    new = compare[("card", s[2])]
    theme = default_theme()
    assert all(c["opacity"] == pytest.approx(1.0 - theme.opacity.kept) for c in old)  # the kept level
    assert all(1.0 - theme.opacity.dimmed + 0.1 < c["opacity"] < 0.5 for c in old)  # readable, still the past
    assert new["opacity"] == pytest.approx(1.0)
    assert max(c["bbox"][2] for c in old) <= new["bbox"][0] or new["bbox"][2] <= min(c["bbox"][0] for c in old)  # beside
    # red says where backward() starts (a caption says so: "Red marks where backward() will start"): no freed graph
    # keeps it (issue 39's review: "red like a loss")
    red = theme.colour("loss").lower()
    ghosts = [compare[(r, s[1])] for r in ("card", "label")]
    assert all(g["colour"].lower() != red for g in ghosts), ghosts
    assert compare[("card", s[2])]["colour"].lower() == red  # the live graph's start still is


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_a_freed_graph_goes_before_the_next_walk(aspect: str) -> None:
    """Review 4, item 8: freed graphs never left (step two's s = -1/3 and x = -1 beside the loop's
    walk, the loop-once h = 1/9 beside the three-pass walk's own h = 1/9 to the clip's end). At
    every walk after the first, and at the clip's end, the only cards on screen are the live
    graph's and w; the loop-once h goes as the three-pass loop's first h grows in its place."""
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    index = checked.index
    w = index.name_tensors["w"][0]
    opts = RenderOptions(aspect=aspect)
    fps = fps_of(opts)
    walks = [c for c in plan.cues if c.kind == "backward_start"]
    at = [round((b.start + 1.5) * fps) for b in walks[1:]] + [round((plan.duration - 0.5) * fps)]
    s, x, h = (index.name_tensors[n] for n in ("s", "x", "h"))
    lives = [{s[2], x[1]}, {h[0]}, set(h[1:]), set(h[1:])]  # step two's, the loop once, three times
    samples = list(inspect_clip(checked, plan, opts, frames=at))
    assert len(samples) == len(lives) == 4
    for smp, live in zip(samples, lives):
        cards = {i["id"] for i in smp["items"] if i["role"] == "card" and i["opacity"] >= MIN_OPACITY}
        assert cards - {w} == live, (smp["time"], sorted(cards - {w} - live))


def test_a_freed_graph_keeps_no_gradient_colour() -> None:
    """Review 4, item 8: the step-one graph, freed, kept the orange arrow its walk turned round
    between its two s cards (46-70 s). Orange says a gradient flows; none flows in a freed graph:
    after each fade its arrows are grey."""
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    theme = default_theme()
    orange = theme.colour("gradient").lower()
    opts = RenderOptions()
    fps = fps_of(opts)
    dims = [c for c in plan.cues if c.kind == "dim"]
    samples = list(inspect_clip(checked, plan, opts, frames=[round((d.start + d.duration + 0.5) * fps) for d in dims]))
    for d, smp in zip(dims, samples):
        inside = [i for i in smp["items"] if i["role"] in ("arrow", "arrowhead") and i["opacity"] >= MIN_OPACITY
                  and set(i["id"].split("->")) <= set(d.ids)]
        assert all(i["colour"].lower() != orange for i in inside), (d.start, inside)
        assert inside or d is not dims[0]  # step one's graph keeps its arrows, s to the doubled s


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_an_input_goes_with_the_last_graph_that_used_it(aspect: str) -> None:
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    x = checked.index.name_tensors["x"]  # step one's x = 1, step two's x = -1
    opts = RenderOptions(aspect=aspect)
    fps = fps_of(opts)
    both, once, three = (caption(plan, w) for w in ("two different graphs", "runs once", "three times"))
    at = [round((both.start + both.end) / 2 * fps), round(once.end * fps), round(three.end * fps)]
    step_two, loop_once, loop_three = [{(i["role"], i["id"]) for i in smp["items"]}
                                       for smp in inspect_clip(checked, plan, opts, frames=at)]
    s = checked.index.name_tensors["s"][2]  # step two's s
    assert ("card", x[1]) in step_two  # while its graph is on screen
    assert (("card", x[1]) in loop_once) == (("card", s) in loop_once)  # kept, faded, with its graph
    assert ("card", x[1]) not in loop_three and ("card", s) not in loop_three  # gone with it: no loop uses x


def test_a_rebound_name_still_held_by_the_graph_keeps_its_card() -> None:
    """mlp_lists: ``act = torch.tensor(0.0)`` starts the second unit after ``h.append(act.relu())``
    kept the first unit's ``act``. The name moved on, but nothing was freed: the first unit's
    cards stay through the walk, every result of the program on screen."""
    path = str(Path(__file__).parents[1] / "storyboard" / "lessons" / "mlp_lists.yaml")
    checked, plan = load_and_plan(path)
    acts = [t for t in checked.index.name_tensors["act"]
            if not checked.index.tensor_event[t].is_leaf]  # each unit's act + w * xi results
    (walk,) = [c for c in plan.cues if c.kind == "backward_start"]
    opts = RenderOptions()
    (sample,) = inspect_clip(checked, plan, opts, frames=[round((walk.start + 1.0) * fps_of(opts))])
    shown = {i["id"] for i in sample["items"] if i["role"] == "card" and i["opacity"] > 0.5}
    assert len(acts) == 4 and set(acts) <= shown, sorted(set(acts) - shown)


def test_the_kept_graph_is_cut_from_the_weight() -> None:
    """While the freed graph stays beside the new one, no arrow joins it to ``w``: backward()
    freed it, and a weight wired to every graph it fed would read as summing them all. It is
    cut as it fades, as the caption says it is freed (each ``dim``), not when the next graph
    starts (step one stayed wired to w through "w.grad is 2" and the reset). Every arrow at
    ``w`` then belongs to the new graph, and the loop's walk sums as many terms as there are
    arrows from ``w``."""
    checked, plan = load_and_plan(storyboard_path("dynamic_graph"))
    index = checked.index
    w = index.name_tensors["w"][0]
    old = set(index.name_tensors["s"][:2])
    both = caption(plan, "two different graphs")
    walk = caption(plan, "follows the code that ran")  # the loop of three's walk, its sum up
    dims = [c for c in plan.cues if c.kind == "dim"]  # each freed graph's fade
    opts = RenderOptions()
    fps = fps_of(opts)
    frames = [round((both.start + both.end) / 2 * fps), round(walk.end * fps) - 2]
    faded = [round((d.start + d.duration + 0.5) * fps) for d in dims]  # just after each fade
    samples = {round(smp["time"] * fps): smp for smp in inspect_clip(checked, plan, opts,
                                                                      frames=sorted({*frames, *faded}))}
    compare, walked = (samples[f] for f in frames)

    def wired(smp: dict, ends: set[str]) -> list[str]:
        """The arrows shown between ``w`` and one of ``ends``."""
        return [i["id"] for i in smp["items"] if i["role"] == "arrow" and i["opacity"] >= MIN_OPACITY
                and w in i["id"].split("->") and set(i["id"].split("->")) & ends]

    assert not wired(compare, old)
    assert len(dims) == 3  # step one, step two, the loop that runs once
    for d, f in zip(dims, faded):
        assert not wired(samples[f], set(d.ids) - {w}), (d.start, wired(samples[f], set(d.ids) - {w}))
    from_w = [i["id"] for i in walked["items"] if i["role"] == "arrow" and i["opacity"] >= MIN_OPACITY
              and i["id"].split("->")[0] == w]
    (sum_,) = [i["text"] for i in walked["items"] if i["kind"] == "text" and "=" in (i["text"] or "")
               and "+" in i["text"]]
    assert len(from_w) == sum_.count("+") + 1, (from_w, sum_)
