"""The scene draws every declared cue kind through one registry, and refuses gaps at import.

What must hold: ClipScene has exactly one drawer per cue kind of scenes.storyboard.cues, in its
order, each a method of one of its views; a set of views lacking a drawer, with two drawers for
one kind, or a drawer for a kind nobody declared, fails when the table is made (so at import),
never by drawing nothing.
"""

from __future__ import annotations

import pytest

from scenes.draw.backward import BackwardWalk
from scenes.draw.console import Console
from scenes.draw.curve import LossCurve
from scenes.draw.drawers import Drawer, drawer_table, draws
from scenes.draw.scene import ClipScene
from scenes.storyboard.cues import CUE_KINDS


def _all_but(skip: str) -> dict[str, object]:
    """A class body with one marked method per cue kind except ``skip``."""
    body: dict[str, object] = {}
    for kind in CUE_KINDS:
        if kind != skip:
            body[f"draw_{kind}"] = draws(kind)(lambda self, cue, step: [])
    return body


def test_clip_scene_draws_every_cue_kind_once():
    assert list(ClipScene.DRAWERS) == list(CUE_KINDS)
    assert ClipScene.DRAWERS["visit"] == Drawer(BackwardWalk, "draw_visit", BackwardWalk.draw_visit)
    assert ClipScene.DRAWERS["output_line"] == Drawer(Console, "draw_output_line", Console.draw_output_line)
    assert ClipScene.DRAWERS["curve_point"] == Drawer(LossCurve, "draw_point", LossCurve.draw_point)


def test_two_views_drawing_one_kind_are_refused_and_views_fill_each_others_gaps():
    view = type("View", (), {"_mine": draws("visit")(lambda self, cue, step: [])})
    with pytest.raises(TypeError, match="cue kind visit has two drawers, Whole.draw_visit and View._mine"):
        drawer_table((type("Whole", (), _all_but("")), view))
    table = drawer_table((type("Partial", (), _all_but("visit")), view))
    assert table["visit"] == Drawer(view, "_mine", vars(view)["_mine"])


def test_a_missing_drawer_fails_when_the_table_is_made():
    with pytest.raises(TypeError, match="no view draws cue kind visit"):
        drawer_table((type("Partial", (), _all_but("visit")),))
    assert set(drawer_table((type("Whole", (), _all_but("")),))) == set(CUE_KINDS)


def test_two_drawers_for_one_kind_fail_and_an_override_replaces():
    body = _all_but("")
    body["_also_visit"] = draws("visit")(lambda self, cue, step: [])
    with pytest.raises(TypeError, match="cue kind visit has two drawers"):
        drawer_table((type("Twice", (), body),))
    base = type("Base", (), _all_but(""))
    mine = draws("visit")(lambda self, cue, step: ["mine"])
    sub = type("Sub", (base,), {"draw_visit": mine})
    assert drawer_table((sub,))["visit"].fn is mine


def test_a_drawer_for_an_undeclared_kind_is_refused():
    with pytest.raises(ValueError, match="no such cue kind"):
        draws("sparkle")
