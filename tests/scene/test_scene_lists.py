"""The player's and ClipScene's quicker walks give Manim's own lists, item for item and in order.

Why: the frames depend on the drawing order these lists give (a shape met twice is drawn where it
is met last, z_index sorts stably), so a walk that lists the same shapes in another order would
change pixels wherever two shapes overlap. Built by hand: groups sharing a member, a group with no
points, a foreground shape also in the scene, z_index ties; no clip is drawn.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from manim import Circle, Dot, FadeIn, Scene, Square, VGroup
from manim.utils.family import extract_mobject_family_members
from manim.utils.iterables import list_update

from scenes.video.player import _everything
from scenes.video.scene_lists import QuickLists


def _tangle() -> tuple[list[Any], list[Any], Any]:
    """Top-level mobjects, foreground ones, and a member shared by two groups."""
    shared, a, b, c = Dot(), Square(), Circle(), Dot().set_z_index(2)
    inner = VGroup(b, shared)
    first = VGroup(a, inner, c)
    second = VGroup(shared, Square().set_z_index(-1), VGroup())
    loose = Circle().set_z_index(2)
    return [first, loose, second], [loose, Dot().set_z_index(1)], shared


def test_everything_is_manims_list_in_manims_order() -> None:
    mobjects, foreground, _ = _tangle()
    for z in (True, False):
        scene = SimpleNamespace(mobjects=mobjects, foreground_mobjects=foreground,
                                camera=SimpleNamespace(use_z_index=z))
        want = extract_mobject_family_members(list_update(mobjects, foreground), use_z_index=z,
                                              only_those_with_points=True)
        assert [id(m) for m in _everything(scene)] == [id(m) for m in want]


def test_restructured_lists_are_manims() -> None:
    mobjects, foreground, shared = _tangle()
    everything = mobjects + foreground
    for gone in ([shared], [mobjects[0].submobjects[1]], [foreground[1]], [mobjects[2]], [Dot()]):
        want = Scene.get_restructured_mobject_list(None, everything, gone)  # type: ignore[arg-type]
        got = QuickLists().get_restructured_mobject_list(everything, gone)
        assert [id(m) for m in got] == [id(m) for m in want]


def test_an_animated_shape_not_shown_is_added_once() -> None:
    """A FadeIn adds its own shape (it is skipped); a shape already shown, even inside a group,
    is not added again; a new one is."""
    mobjects, _, shared = _tangle()
    added: list[Any] = []

    class Lists(QuickLists):
        def add(self, mob: Any) -> None:
            added.append(mob)

    lists = Lists()
    lists.mobjects = mobjects
    new = Dot()
    shows = [SimpleNamespace(is_introducer=lambda: False, mobject=m) for m in (shared, new, new)]
    lists.add_mobjects_from_animations([FadeIn(Square()), *shows])
    assert added == [new]
