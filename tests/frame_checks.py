"""The checks read from every inspected frame of a clip, declared once: one pass over the frames
feeds them all (`inspect_checks`), so a new check costs no new inspection.

Each check is a `FrameCheck`: its name (the test id's last part), its table of cases that still
fail (``still``: strict xfails, each with what is wrong), which cases it applies to, and a
`Watcher` factory. Lessons are read every 3rd frame, the clips at every frame. A watcher is fed each sample (`see`) in time order and says at the end what it
found, one line each (`found`). Adding a check is one watcher class (in the module of
``tests/watchers/`` its idea belongs to) and one entry in `CHECKS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from scenes.render.inspect import inspect_clip, sample_frames
from scenes.render.options import RenderOptions, fps_of
from scenes.render.camera_plan import load_and_plan_at
from scenes.theme import load_theme

TRUTH_EVERY = 0.5
"""Seconds between the samples the truth is checked at (``render inspect --every 0.5``)."""


@dataclass(frozen=True)
class Case:
    """What a watcher knows of the clip it watches: its name, aspect, checked storyboard and plan."""

    name: str
    aspect: str
    checked: Any
    plan: Any
    opts: RenderOptions
    theme: Any


class Watcher(Protocol):
    def see(self, sample: dict) -> None: ...
    def found(self) -> list[str]: ...


class Spans:
    """Problems keyed by what and who, each kept with the first and last time seen, how many
    samples, and the first description: one line each (``NAME ASPECT t0-t1 s (n frames): ...``)."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.table: dict[tuple, list] = {}

    def add(self, key: tuple, time: float, describe: str) -> None:
        self.table.setdefault(key, [time, time, 0, describe])
        self.table[key][1] = time
        self.table[key][2] += 1

    def lines(self) -> list[str]:
        c = self.case
        return [f"{c.name} {c.aspect} {t0:.2f}-{t1:.2f} s ({n} frames): {first}" for t0, t1, n, first in self.table.values()]


def who(item: dict | None) -> str:
    """How a problem line names an inspected item: its role, text and id."""
    if item is None:
        return ""
    text = f" {item['text']!r}" if item.get("text") is not None else ""
    return f"{item['role']}{text}" + (f" ({item['id']})" if item.get("id") is not None else "")

@dataclass(frozen=True)
class FrameCheck:
    """One check over a clip's frames. ``still``: (clip, aspect) -> what still fails (a strict
    xfail); ``applies``: whether the check runs for (clip, aspect, is_lesson)."""

    name: str
    watcher: Callable[[Case], Watcher]
    still: dict[tuple[str, str], str] = field(default_factory=dict)
    applies: Callable[[str, str, bool], bool] = lambda name, aspect, lesson: True
    also: Callable[[Any, int], set[int]] = lambda plan, fps: set()
    """The frames (of the plan, at fps) the check reads besides every ``every``-th: a lesson's
    bucket fill, 0.4 s, is seen twice at every 3rd frame and may be seen at neither of its
    moments (`scenes.render.bucket_sum.fill_frames`)."""


def inspect_checks(path: str, name: str, aspect: str, checks: list[FrameCheck], every: int) -> dict[str, list[str]]:
    """Every ``every``-th frame of the storyboard at ``path`` (and every half second, for the truth)
    inspected once, fed to each check's watcher: check name -> the lines it found."""
    checked, plan = load_and_plan_at(path, aspect=aspect)
    opts = RenderOptions(aspect=aspect)
    case = Case(name, aspect, checked, plan, opts, load_theme())
    watchers = {c.name: c.watcher(case) for c in checks}
    fps = fps_of(opts)
    truth = set(sample_frames(plan.duration, fps, every=TRUTH_EVERY))
    looked = set(range(0, round(plan.duration * fps), every))
    last = max(0, round(plan.duration * fps) - 1)
    also = {c.name: {min(f, last) for f in c.also(plan, fps)} for c in checks}
    wanted = looked | truth | set().union(*also.values())
    for sample in inspect_clip(checked, plan, opts, frames=sorted(wanted)):
        frame = round(sample["time"] * fps)
        for c in checks:
            if frame in looked or c.name == "truth" or frame in also[c.name]:
                watchers[c.name].see(sample)
    return {n: w.found() for n, w in watchers.items()}
