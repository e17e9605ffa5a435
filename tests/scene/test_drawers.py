"""The scene draws every declared cue kind through one registry, and refuses gaps at import.

What must hold: ClipScene has exactly one drawer per cue kind of scenes.storyboard.cues, in its
order; a class lacking a drawer, with two drawers for one kind, or a drawer for a kind nobody
declared, fails when it is made (so at import), never by drawing nothing.
"""

from __future__ import annotations

import pytest

from scenes.draw.backward import BackwardWalk
from scenes.draw.curve import LossCurve
from scenes.draw.drawers import Drawer, drawer_table, draws, with_drawers
from scenes.draw.scene import ClipScene
from scenes.storyboard.cues import CUE_KINDS


def _all_but(skip: str) -> dict[str, object]:
    """A class body with one marked method per cue kind except ``skip``."""
    body: dict[str, object] = {}
    for kind in CUE_KINDS:
        if kind != skip:
            body[f"_cue_{kind}"] = draws(kind)(lambda self, cue: [])
    return body


def test_clip_scene_draws_every_cue_kind_once():
    assert list(ClipScene.DRAWERS) == list(CUE_KINDS)
    assert ClipScene.DRAWERS["visit"] == Drawer(BackwardWalk, "draw_visit", BackwardWalk.draw_visit)
    assert ClipScene.DRAWERS["output_line"].fn is ClipScene._cue_output_line  # the console's: still a mixin
    assert ClipScene.DRAWERS["curve_point"] == Drawer(LossCurve, "draw_point", LossCurve.draw_point)


def test_a_views_drawer_counts_as_the_scenes():
    """A kind drawn by a view and by the scene (or by two views) is refused; views fill gaps."""
    view = type("View", (), {"_mine": draws("visit")(lambda self, cue, step: [])})
    with pytest.raises(TypeError, match="cue kind visit has two drawers, Whole._cue_visit and View._mine"):
        drawer_table(type("Whole", (), _all_but("")), (view,))
    table = drawer_table(type("Partial", (), _all_but("visit")), (view,))
    assert table["visit"] == Drawer(view, "_mine", vars(view)["_mine"])


def test_a_missing_drawer_fails_when_the_class_is_made():
    with pytest.raises(TypeError, match="Partial has no drawer for cue kind visit"):
        with_drawers(type("Partial", (), _all_but("visit")))
    assert set(drawer_table(type("Whole", (), _all_but("")))) == set(CUE_KINDS)


def test_two_drawers_for_one_kind_fail_and_an_override_replaces():
    body = _all_but("")
    body["_also_visit"] = draws("visit")(lambda self, cue: [])
    with pytest.raises(TypeError, match="cue kind visit has two drawers"):
        drawer_table(type("Twice", (), body))
    base = type("Base", (), _all_but(""))
    mine = draws("visit")(lambda self, cue: ["mine"])
    sub = type("Sub", (base,), {"_cue_visit": mine})
    assert drawer_table(sub)["visit"].fn is mine


def test_a_drawer_for_an_undeclared_kind_is_refused():
    with pytest.raises(ValueError, match="no such cue kind"):
        draws("sparkle")
