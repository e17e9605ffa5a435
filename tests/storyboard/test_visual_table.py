"""The table of visuals and the cue kinds: the model, the schema, the views and the plan agree.

What must hold: the visuals the model accepts (and the schema lists) are the table's, in its
order; each visual's spans are span selectors of a beat; a visual whose view cannot plan one of
its event kinds, or a planner emitting a cue kind nobody declared, is refused loudly; and every
declared cue kind is one the plan can emit (no stale declaration).
"""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest

from engine.records import Jvp, Tensor

from scenes.storyboard import PlanTimings, find_storyboards, load, plan, schema
from scenes.storyboard import views
from scenes.storyboard.builder import Builder
from scenes.storyboard.cues import CUE_KINDS, cue_kind
from scenes.storyboard.model import SPAN_KEYS, VISUALS, Beat, Storyboard, Visual
from scenes.storyboard.visuals import TABLE, VisualSpec


def test_model_and_schema_list_the_tables_visuals():
    assert typing.get_args(Visual) == VISUALS == tuple(TABLE)
    assert schema()["$defs"]["Beat"]["properties"]["visual"]["enum"] == list(TABLE)


def test_spans_are_beat_span_selectors_and_kinds_are_planned():
    beat_fields = set(Beat.model_fields)
    for spec in TABLE.values():
        assert set(spec.spans) <= set(SPAN_KEYS) <= beat_fields, spec.name
        assert spec.kinds <= views.VIEWS[spec.view].planners.keys(), spec.name


def test_a_visual_its_view_cannot_plan_is_refused(monkeypatch):
    odd = VisualSpec("odd", "a test visual", ("lines",), frozenset({Tensor, Jvp}), "graph")
    monkeypatch.setitem(TABLE, "odd", odd)
    with pytest.raises(ImportError, match="visual odd draws jvp events, which the graph view has no planner for"):
        views._check()
    monkeypatch.setitem(TABLE, "odd", dataclasses.replace(odd, view="nowhere"))
    with pytest.raises(ImportError, match="names view 'nowhere'"):
        views._check()


def test_an_undeclared_cue_kind_is_refused():
    with pytest.raises(KeyError, match="cue kind 'sparkle' is not declared"):
        cue_kind("sparkle")
    board = Storyboard(title="t", program="x = 1\n", beats=(Beat(visual="title_card", narration="n"),))
    b = Builder(None, board, 0, 0.0, PlanTimings())  # type: ignore[arg-type]
    b.add("title", 1.0)
    with pytest.raises(KeyError, match="sparkle"):
        b.add("sparkle", 1.0)
    assert [c.kind for c in b.cues] == ["title"]


def test_every_declared_cue_kind_is_planned_somewhere():
    """The nine storyboards' plans use declared kinds only, and each declared kind is added by
    the plan, the builder, a view's planner or the camera (or whole graph) plan at an aspect (no stale declaration)."""
    emitted = set()
    for path in find_storyboards():
        checked = load(path)
        p = plan(checked.run.events, checked.storyboard, PlanTimings(), checked.index.source)
        emitted |= {c.kind for c in p.cues}
    assert emitted <= set(CUE_KINDS) and len(emitted) > 20
    root = Path(views.__file__).parent.parent
    source = "".join(f.read_text() for f in [root / "plan.py", root / "builder.py", root / "lights.py", *root.glob("views/*.py"),
                                                 root.parent / "render" / "camera_plan.py",
                                                 root.parent / "render" / "whole_plan.py"])
    assert [k for k in CUE_KINDS if f'"{k}"' not in source] == []


def test_the_guide_lists_every_visual():
    guide = (Path(views.__file__).parents[3] / "docs" / "storyboards.md").read_text()
    listed = guide.split("The visuals, a closed list", 1)[1].split("\n\n", 1)[0]
    assert [v for v in TABLE if f"`{v}`" not in listed] == []
