"""Storyboards: clips written as validated YAML data, and the pure plan that times them.

The flow: :func:`load` reads ``scenes/storyboards/NAME.yaml`` (positions kept, limits enforced),
checks it against the typed model (:mod:`.model`), runs its program in the engine, and checks every
beat against the log; :func:`plan` turns (events, storyboard, timings) into timed cues and
caption spans; :func:`srt` writes the captions.

>>> checked, p = load_and_plan(storyboard_path("backward_walk"))
>>> p.title, p.duration
('L.backward() walks the graph in reverse', 47.05)
"""

from __future__ import annotations

from .captions import srt
from .errors import Problem, StoryboardError
from .loaded import load_and_plan, plan_of
from .model import VISUALS, Beat, Numbers, Storyboard
from .narration import Shown
from .plan import CaptionSpan, Cue, Plan, plan
from .schema import schema, schema_text
from .store import STORYBOARD_DIR, find_storyboards, storyboard_path
from .timings import PlanTimings, default_timings
from .validate import Checked, load

__all__ = [
    "Beat", "CaptionSpan", "Checked", "Cue", "Numbers", "Plan", "PlanTimings", "Problem",
    "STORYBOARD_DIR", "Shown", "Storyboard", "StoryboardError", "VISUALS", "default_timings",
    "find_storyboards", "load", "load_and_plan", "plan", "plan_of", "schema", "schema_text", "srt", "storyboard_path",
]
