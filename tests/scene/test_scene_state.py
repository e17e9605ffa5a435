"""The scene's state is its records (scenes.draw.state), and only they: what a beat's digest is
made of and what its stored snapshot carries.

What must hold: a field added to a record is in the digest and comes back from a snapshot without
any list of names being touched; an attribute set on the scene outside the records is in neither
(it used to be: every attribute but a fixed few was digested and pickled).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from scenes.draw.state import GraphView, SceneState
from scenes.render.options import RenderOptions, scene_config
from scenes.render.states import BeatStates
from scenes.storyboard import load, plan_of, storyboard_path
from scenes.theme import default_theme

# one worker for this module under pytest-xdist: its tests share a module-scoped fixture
pytestmark = pytest.mark.xdist_group("scene_state")

THEME = default_theme()
NAME, BEATS = "backward_walk", 4  # by then cards, arrows and buckets are up


@dataclass
class GraphViewPlus(GraphView):
    """The graph view with one field more, as a later change might add it."""

    seen: int = 0


@pytest.fixture(scope="module")
def make_scene(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[int], Any]]:
    """Makes the clip's scene at the start of a beat (0: a fresh scene), at the tiny test size."""
    from manim import tempconfig

    from scenes.draw.scene import ClipScene
    from scenes.video.player import run_step
    from scenes.video.timeline import clip_segments

    checked = load(storyboard_path(NAME))
    p = plan_of(checked)
    cfg, _, fps = scene_config(RenderOptions(size=(256, 144), fps=5), THEME, tmp_path_factory.mktemp("media"))

    def make(beats: int) -> Any:
        scene = ClipScene(p, checked.run.events, checked.index.source, THEME, aspect="16:9", captions="burn")
        for seg in clip_segments(p, "burn", THEME.timings.caption_fade, fps)[:beats]:
            for step in seg.steps:
                run_step(scene, step, fps, None)
        return scene

    with tempconfig(cfg):
        yield make


def digest(scene: Any) -> str:
    from scenes.video.digest import state_digest

    return state_digest(scene, scene.state)


def plus(scene: Any, seen: int) -> None:
    scene.state.graph = GraphViewPlus(**{**vars(scene.state.graph), "seen": seen})


def test_a_field_added_to_a_record_is_in_the_digest(make_scene) -> None:
    scene = make_scene(BEATS)
    assert scene.graph.cards and scene.graph.buckets
    before = digest(scene)
    plus(scene, 1)
    one = digest(scene)
    plus(scene, 2)
    assert len({before, one, digest(scene)}) == 3


def test_what_is_not_in_a_record_is_not_in_the_digest(make_scene) -> None:
    scene = make_scene(BEATS)
    before = digest(scene)
    scene.scratch = {"w1": "8/3"}  # a new attribute, not in any record
    scene.fill_max = {}  # a fixed input (the buckets' scale), read from the plan
    assert digest(scene) == before
    scene.graph.bucket_text["w1"] = "8/3"  # the same words in a record
    assert digest(scene) != before


def test_a_snapshot_carries_the_records_and_nothing_else(make_scene, tmp_path: Path) -> None:
    scene = make_scene(BEATS)
    plus(scene, 7)
    scene.scratch = 1
    states = BeatStates(tmp_path)
    states.save_state("p", scene)
    fresh = make_scene(0)
    assert states.load_state("p", fresh)
    assert isinstance(fresh.graph, GraphViewPlus) and fresh.graph.seen == 7
    assert not hasattr(fresh, "scratch")
    assert digest(fresh) == digest(scene)
    assert fresh.ledger == scene.ledger
    assert drawn(fresh) == drawn(scene) and any(drawn(scene)), "a record's mobject is not the one on screen"


def drawn(scene: Any) -> list[bool]:
    """For each card and bucket in the graph view: is it (not a copy of it) on screen?"""
    on_screen = {id(m) for m in scene.get_mobject_family_members()}
    return [id(m) in on_screen for m in [*scene.graph.cards.values(), *scene.graph.buckets.values()]]


def test_a_snapshot_of_another_shape_is_not_loaded(make_scene, tmp_path: Path) -> None:
    """A snapshot that holds attributes by name (as written before the records) is rebuilt, not
    poured into the scene, and is said to be so."""
    from scenes.draw import datafile

    scene = make_scene(0)
    said: list[str] = []
    tmp_path.joinpath("p.state").write_bytes(
        datafile.dumps({"cards": {}, "mobjects": [], "ledger": []}, datafile.under("scenes")))
    assert not BeatStates(tmp_path, said.append).load_state("p", scene)
    assert type(scene.state) is SceneState and not hasattr(scene, "cards")
    assert len(said) == 1 and "drawn again" in said[0]
