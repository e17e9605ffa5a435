"""A storyboard loaded and planned: the one pair every command and worker starts from."""

from __future__ import annotations

from typing import Iterable

from .plan import Plan, plan
from .timings import default_timings
from .validate import Checked, load


def plan_of(checked: Checked) -> Plan:
    """The timed plan of a checked storyboard, at the theme's timings."""
    return plan(checked.run.events, checked.storyboard, default_timings(), checked.index.source, checked.index)


def load_and_plan(file: str, sets: Iterable[str] = (), name: str | None = None) -> tuple[Checked, Plan]:
    """Load, check and run ``file`` (raises StoryboardError listing every problem), then plan it."""
    checked = load(file, sets=list(sets), name=name)
    return checked, plan_of(checked)
