"""Storyboards: clips written as validated YAML data, and the pure plan that times them.

The flow: :func:`load` reads ``scenes/storyboards/NAME.yaml`` (positions kept, limits enforced),
checks it against the typed model (:mod:`.model`), runs its program in the engine, and checks every
beat against the log; :func:`plan` turns (events, storyboard, timings) into timed cues and
caption spans; :func:`srt` writes the captions. The visuals a beat can use are declared once in
:mod:`.visuals` (planned by the views in :mod:`.views`), the cue kinds the scene draws in :mod:`.cues`.

The names below are imported when first used (PEP 562): the up-to-date check of ``render scene``
needs only :func:`storyboard_path` and :class:`StoryboardError`, not the model (pydantic) nor the
engine.

>>> checked, p = load_and_plan(storyboard_path("backward_walk"))
>>> p.title, len(p.beats)  # its duration depends on the pacing: no number to keep in step here
('L.backward() walks the graph in reverse', 8)
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .captions import srt, vtt
    from .errors import Problem, StoryboardError
    from .loaded import load_and_plan, plan_of
    from .model import VISUALS, Beat, Numbers, Storyboard
    from .placeholders import Shown
    from .plan import CaptionSpan, Cue, Plan, plan
    from .schema import schema, schema_text
    from .store import STORYBOARD_DIR, find_storyboards, storyboard_path
    from .timings import PlanTimings, default_timings
    from .validate import Checked, load

_HOME = {
    "srt": "captions", "vtt": "captions", "Problem": "errors", "StoryboardError": "errors", "VISUALS": "model",
    "Beat": "model", "Numbers": "model", "Storyboard": "model", "Shown": "narration",
    "CaptionSpan": "plan", "Cue": "plan", "Plan": "plan", "plan": "plan", "schema": "schema",
    "schema_text": "schema", "STORYBOARD_DIR": "store", "find_storyboards": "store",
    "storyboard_path": "store", "PlanTimings": "timings", "default_timings": "timings",
    "Checked": "validate", "load": "validate", "load_and_plan": "loaded", "plan_of": "loaded",
}
"""Each public name and the module it comes from."""

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOME))


class _Package(types.ModuleType):
    """This package, which keeps ``plan`` and ``schema`` the functions: importing the submodules
    of the same names would otherwise bind the modules in their place (as an eager
    ``from .plan import plan`` rebinds them)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _HOME.get(name) == name:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
