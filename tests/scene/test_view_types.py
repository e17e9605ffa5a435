"""The clip scene's views are typed: mypy finds nothing in them, and they silence nothing.

What must hold: the modules made views (scenes/draw/views.py lists them) and the context they
share type-check clean under the project's mypy settings (pyproject.toml), carry no
``type: ignore``, and the context's theme, aspect, layout and plan are their own types, not Any.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VIEW_MODULES = ["context", "drawers", "views", "backward", "buckets", "checklist", "code", "curve", "focus",
                "forward", "frame_spots", "freed", "labels", "loops", "network", "onscreen", "step", "titles"]
PATHS = [ROOT / "scenes" / "draw" / f"{name}.py" for name in VIEW_MODULES]


def test_every_view_class_is_checked() -> None:
    from scenes.draw.views import VIEW_CLASSES

    checked = {f"scenes.draw.{name}" for name in VIEW_MODULES}
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
