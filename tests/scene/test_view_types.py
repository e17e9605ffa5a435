"""The clip scene is typed: mypy finds nothing in scenes/draw, and nothing there is silenced.

What must hold: every module of scenes/draw (the scene, its views, the context they share, the
shape families of visuals/) type-checks clean under the project's mypy settings (pyproject.toml),
carries no ``type: ignore``, and the context's theme, aspect, layout and plan are their own
types, not Any.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PATHS = sorted((ROOT / "scenes" / "draw").rglob("*.py"))


def test_every_view_class_is_checked() -> None:
    from scenes.draw.views import VIEW_CLASSES

    checked = {".".join(p.relative_to(ROOT).with_suffix("").parts) for p in PATHS}
    assert {cls.__module__ for cls in VIEW_CLASSES} <= checked


def test_the_views_silence_no_type_error() -> None:
    for p in PATHS:
        assert "type: ignore" not in p.read_text(encoding="utf-8"), p


def test_the_context_is_typed() -> None:
    """Its annotations name the project's types (mypy, below, resolves them)."""
    from scenes.draw.context import DrawContext

    hints = {name: DrawContext.__annotations__[name] for name in ("theme", "spec", "layout", "plan")}
    assert hints == {"theme": "Theme", "spec": "Aspect", "layout": "Layout", "plan": "Plan"}


def test_the_views_type_check() -> None:
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extra")
    out, err, status = api.run([*map(str, PATHS), "--config-file", str(ROOT / "pyproject.toml"),
                                "--cache-dir", os.devnull, "--python-executable", sys.executable])
    assert status == 0, out + err


def test_the_render_layer_type_checks() -> None:
    """scenes/render threads typed values (a plan is a Plan, the loaded storyboard a Loaded, the
    cluster a BeatFarm) and type-checks clean, silencing nothing."""
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extra")
    paths = sorted((ROOT / "scenes" / "render").glob("*.py"))
    for p in paths:
        assert "type: ignore" not in p.read_text(encoding="utf-8"), p
    out, err, status = api.run([*map(str, paths), "--config-file", str(ROOT / "pyproject.toml"),
                                "--cache-dir", os.devnull, "--python-executable", sys.executable])
    assert status == 0, out + err
