"""What the backward walk (and the MLP view's readout) puts on screen, read off the scene's state
after a beat or a step (no frames drawn).

What must hold: arrows turn round as the walk reaches them, not all at once, and a graph the walk
never enters keeps its forward arrows (missing_gradient: L1.backward() sends nothing to v); a
skipped path is turned, dashed and faded when its consumer is visited in the beat that dims it;
the MLP view's readout is faded while a forward pass runs that it does not belong to yet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from scenes.render.options import RenderOptions, scene_config
from scenes.storyboard import load, plan_of, storyboard_path
from scenes.theme import default_theme

pytestmark = pytest.mark.slow  # each test steps a clip's scene through Manim

THEME = default_theme()


def stepped(name: str, tmp: Path, beats: int | None = None) -> Iterator[tuple[Any, Any, Any]]:
    """(scene, checked storyboard, step) after each step of the clip's first ``beats`` beats (all
    of them without), at the tiny test size; the scene is the same object throughout."""
    from manim import tempconfig

    from scenes.draw.scene import ClipScene
    from scenes.video.timeline import clip_segments
    from scenes.video.player import run_step

    checked = load(storyboard_path(name))
    p = plan_of(checked)
    cfg, _, fps = scene_config(RenderOptions(size=(256, 144), fps=5), THEME, tmp)
    with tempconfig(cfg):
        scene = ClipScene(p, checked.run.events, checked.index.source, THEME, aspect="16:9", captions="burn")
        for seg in clip_segments(p, "burn", THEME.timings.caption_fade, fps)[:beats]:
            for step in seg.steps:
                run_step(scene, step, fps, None)
                yield scene, checked, step


def scene_after(name: str, beats: int, tmp: Path) -> Any:
    """The clip's scene at the end of its first ``beats`` beats, at the tiny test size."""
    scene = checked = None
    for scene, checked, _ in stepped(name, tmp, beats):
        pass
    return scene, checked


def stroke(arrow: Any) -> Any:
    """The arrow's first drawn stroke (its body, or the body's first dash)."""
    return next(m for m in arrow.get_family() if m.has_points() and m.get_stroke_width() > 0)


def colour(arrow: Any) -> str:
    return stroke(arrow).get_stroke_color().to_hex().lower()


def ids(checked: Any, name: str) -> set[str]:
    return set(checked.index.name_tensors[name])


def test_a_graph_the_walk_never_enters_keeps_its_forward_arrows(tmp_path: Path) -> None:
    scene, checked = scene_after("missing_gradient", 4, tmp_path)  # after L1.backward() and its fill
    into = lambda name: [a for r, a in scene.graph.arrows.items() if r.dst in ids(checked, name)]  # noqa: E731
    assert into("L2") and all(colour(a) == THEME.colors.edge.lower() for a in into("L2"))
    turned = [colour(a) for a in into("z")]
    assert THEME.colors.grad.lower() in turned  # w -> z carried w's gradient


def test_arrows_turn_as_the_walk_reaches_them(tmp_path: Path) -> None:
    scene, checked = scene_after("backward_walk", 2, tmp_path)  # the build, the visit to L
    by_dst = {}
    for r, a in scene.graph.arrows.items():
        by_dst.setdefault(checked.index.tensor_name.get(r.dst), []).append(colour(a))
    assert by_dst["L"] == [THEME.colors.grad.lower()]
    assert all(c == THEME.colors.edge.lower() for name in ("z", "s", "yh") for c in by_dst[name])


def test_a_dimmed_skipped_path_is_turned_and_faded_at_once(tmp_path: Path) -> None:
    """Beat 3 dims y in the instant the visit to sub turns y's arrow: one shape, both changes
    (two animations on it made Manim fail: 'zip() argument 2 is shorter than argument 1')."""
    scene, checked = scene_after("backward_walk", 3, tmp_path)
    (arrow,) = [a for r, a in scene.graph.arrows.items() if r.src in ids(checked, "y")]
    assert colour(arrow) == THEME.colors.dimmed.lower()  # turned round, as a skipped path
    assert stroke(arrow).get_stroke_opacity() < THEME.opacity.dimmed - 0.1  # and faded by the dim


def test_the_gradient_waits_beside_its_bucket_until_the_fill(tmp_path: Path) -> None:
    """backward_walk visits AccumulateGrad in its walk beats and fills the buckets in its last
    beat: meanwhile each arrived gradient stays beside its bucket, then drops in."""
    scene, checked = scene_after("backward_walk", 6, tmp_path)
    leaf = lambda name: checked.index.name_tensors[name][0]  # noqa: E731
    waiting = {k: [m.text.text for m in v] for k, v in scene.walk.fill_tokens.items()}
    assert waiting == {leaf("w2"): ["4/9"], leaf("w1"): ["8/3"]}
    assert all(scene.graph.bucket_text.get(leaf(n)) is None for n in ("w1", "w2"))
    scene, _ = scene_after("backward_walk", 7, tmp_path)
    assert scene.walk.fill_tokens == {}
    assert {n: scene.graph.bucket_text[leaf(n)] for n in ("w1", "w2")} == {"w1": "8/3", "w2": "4/9"}


def test_a_walked_graph_goes_when_a_new_one_starts(tmp_path: Path) -> None:
    """dynamic_graph: step two's s = x * w was walked by backward(); the loop builds h from w
    alone, so step two's graph is gone by the end (it stayed, a fourth op feeding w)."""
    scene, checked = scene_after("dynamic_graph", 16, tmp_path)
    names = {checked.index.tensor_name.get(k) for k in scene.graph.cards}
    assert "s" not in names and {"w", "h"} <= names
    buckets = {f"bucket:{leaf}" for leaf in scene.graph.buckets}  # the arrow from a weight into its bucket
    assert all((r.src in scene.graph.cards or r.src in buckets) and r.dst in scene.graph.cards for r in scene.graph.arrows)


@pytest.fixture(scope="module")
def reverse_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """reverse_mode stepped once for the tests below: whether a readout row under the first was
    ever drawn, the first row's opacity at every step, and at the end the marks drawn (their
    tags and boxes, the set-aside picture's among them) and the units' and tallies' boxes."""
    first: list[float] = []
    latest = False
    scene = None
    for scene, _, step in stepped("reverse_mode", tmp_path_factory.mktemp("reverse")):
        if 2 in scene.state.network.rows:
            first.append(max(m.get_fill_opacity() for m in scene.state.network.rows[2].family_members_with_points()))
        latest = latest or 3 in scene.state.network.rows
    from scenes.draw.record import tag_of
    marks = [(t, m.get_center()) for top in scene.mobjects for m in top.get_family()
             if (t := tag_of(m)) is not None and t.role == "mark"]
    geometry = scene.views.network.geometry
    net = geometry.net
    named = [net.links[w].name for w, m in scene.state.network.names.items() if m in scene.mobjects]
    return {"latest": latest, "first": first, "marks": marks, "weights": set(net.links), "named": named,
            "units": geometry.regions.units, "tallies": geometry.regions.tallies}


def test_only_the_first_passs_readout_is_written(reverse_run: dict[str, Any]) -> None:
    """reverse_mode: the first pass's row (w1_0_0, which the takeaway names) stays at full
    strength throughout, and no other pass writes a row under it (w1_0_2 flashed for a second
    between captions; w3_3 stood under the takeaway)."""
    first = reverse_run["first"]
    assert first and min(first) == 1.0
    assert not reverse_run["latest"]


def test_the_first_passs_weight_is_named_on_the_network(reverse_run: dict[str, Any]) -> None:
    """The readout "w1_0_0 -0.0754", kept to the end and named by the takeaway, names a weight
    the network marks: its name beside its line (no weight was named on the network)."""
    assert reverse_run["named"] == ["w1_0_0"]


def _inside(point: Any, box: tuple[float, float, float, float]) -> bool:
    left, bottom, right, top = box
    return left <= point[0] <= right and bottom <= point[1] <= top


def test_the_ending_shows_one_sweep_beside_36_passes(reverse_run: dict[str, Any]) -> None:
    """reverse_mode's ending ("one backward sweep gives every weight its gradient; forward mode
    needs a pass per weight"): every weight's line on the network lit by the one sweep, in the
    gradient's colour, and none in forward mode's (its 36 passes are its counter's, beside). The
    sweep was once wiped as forward mode began; then it stood only as a miniature in the tallies
    while the network under the words stood all in forward mode's violet."""
    weights = reverse_run["weights"]
    marks = reverse_run["marks"]
    on_net = {t.meaning: set() for t, _ in marks}
    for t, at in marks:
        if _inside(at, reverse_run["units"]):
            on_net[t.meaning].add(t.id)
    assert weights <= on_net.get("gradient", set())
    assert not on_net.get("forward_mode")


def test_each_visited_node_keeps_the_gradient_it_received(tmp_path: Path) -> None:
    """As micrograd's diagrams keep value and gradient on every node: once the walk has passed,
    each node it visited still shows what arrived there (a bucket's waits beside it), not only
    the last visited, and still does as the buckets fill."""
    scene, checked = scene_after("backward_walk", 6, tmp_path)
    name = lambda node: checked.index.tensor_name.get(checked.index.node_event[node].tensor)  # noqa: E731
    kept = {name(n): m.text.text for n, m in scene.walk.badges.items()}
    assert kept == {"L": "1", None: "4/3", "yh": "4/3", "s": "8/3", "z": "8/3"}  # None: yh - y, unnamed
    scene, _ = scene_after("backward_walk", 7, tmp_path)  # the fills
    assert {name(n): m.text.text for n, m in scene.walk.badges.items()} == kept


def test_op_names_stay_as_the_cards_become_their_grad_fns(tmp_path: Path) -> None:
    """backward_graph: as each card becomes its backward function and its arrows turn, the op's
    name over it ("mul", "relu", "sub", "** 2") stays: they went one by one, and for some 12 s
    some nodes had them and some not; at the end L no longer said that it squares."""
    from scenes.draw.record import tag_of

    def shown_tags(scene: Any) -> dict[str, bool]:
        on = {id(m) for top in scene.mobjects for m in top.get_family()}
        return {k: id(m) in on for k, m in scene.graph.tags.items()}

    scene, _ = scene_after("backward_graph", 1, tmp_path)
    before = shown_tags(scene)
    assert len(before) == 5 and all(before.values())
    scene, _ = scene_after("backward_graph", 4, tmp_path)
    after = shown_tags(scene)
    assert after == before
    texts = sorted(t.text for g in scene.graph.tags.values() for m in g.get_family() if (t := tag_of(m)) and t.text)
    assert texts == ["** 2", "mul", "mul", "relu", "sub"]
