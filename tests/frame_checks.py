"""The checks read from every inspected frame of a clip, declared once: one pass over the frames
feeds them all (`inspect_checks`), so a new check costs no new inspection.

Each check is a `FrameCheck`: its name (the test id's last part), its table of cases that still
fail (``still``: strict xfails, each with what is wrong), which cases it applies to, and a
`Watcher` factory. Lessons are read every 3rd frame, the clips at every frame. A watcher is fed each sample (`see`) in time order and says at the end what it
found, one line each (`found`). Adding a check is one watcher class and one entry in `CHECKS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from scenes.draw.collisions import collisions, notes_astray, too_small, waits_on_heads
from scenes.render.continuity import blinks
from scenes.render.inspect import inspect_clip, sample_frames
from scenes.render.options import RenderOptions, fps_of
from scenes.render.truth import Truth
from scenes.storyboard import load_and_plan
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


def _who(item: dict | None) -> str:
    if item is None:
        return ""
    text = f" {item['text']!r}" if item.get("text") is not None else ""
    return f"{item['role']}{text}" + (f" ({item['id']})" if item.get("id") is not None else "")


class Collide(Spans):
    """Nothing collides (`scenes.draw.collisions.collisions`)."""

    def see(self, sample: dict) -> None:
        for c in collisions(sample["items"], sample["frame"]):
            self.add((c.what, _who(c.a), _who(c.b)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class WaitsOnHead(Spans):
    """No badge waits on an arrowhead (`scenes.draw.collisions.waits_on_heads`): compared with
    the frame looked at before, so a token riding over one is not counted."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        self.before: list[dict] = []

    def see(self, sample: dict) -> None:
        for c in waits_on_heads(self.before, sample["items"]):
            self.add((c.what, _who(c.a), _who(c.b)), sample["time"], c.describe())
        self.before = sample["items"]

    def found(self) -> list[str]:
        return self.lines()


class NotesAstray(Spans):
    """No note lies nearer another card than its own (`scenes.draw.collisions.notes_astray`)."""

    def see(self, sample: dict) -> None:
        for c in notes_astray(sample["items"]):
            self.add((c.what, _who(c.a), _who(c.b)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class TooSmall(Spans):
    """No text's glyphs under the theme's ``font_sizes.min_glyph_px`` (at 854x480)."""

    def see(self, sample: dict) -> None:
        for c in too_small(sample["items"], sample["frame"], self.case.theme.font_sizes.min_glyph_px):
            self.add((c.what, _who(c.a), _who(c.b)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class Untrue(Spans):
    """Every half second, cards, buckets and printed lines agree with the log then (`Truth`)."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        self.truth = Truth(case.checked.run.events, case.plan, case.checked.storyboard.number_style)
        self.frames = set(sample_frames(case.plan.duration, fps_of(case.opts), every=TRUTH_EVERY))

    def see(self, sample: dict) -> None:
        if round(sample["time"] * fps_of(self.case.opts)) not in self.frames:
            return
        for u in self.truth.check(sample):
            self.add((u.what, u.id, u.shown), u.time, u.describe())

    def found(self) -> list[str]:
        return self.lines()


class Blinks:
    """Nothing with a stable id is gone for under half a second and back (`continuity.blinks`)."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.samples: list[dict] = []

    def see(self, sample: dict) -> None:
        self.samples.append({"time": sample["time"], "items": [
            {"role": i["role"], "id": i["id"], "opacity": i["opacity"]} for i in sample["items"] if i["id"] is not None]})

    def found(self) -> list[str]:
        return [f"{self.case.name} {self.case.aspect}: {b.describe()}" for b in blinks(self.samples)]


@dataclass(frozen=True)
class FrameCheck:
    """One check over a clip's frames. ``still``: (clip, aspect) -> what still fails (a strict
    xfail); ``applies``: whether the check runs for (clip, aspect, is_lesson)."""

    name: str
    watcher: Callable[[Case], Watcher]
    still: dict[tuple[str, str], str] = field(default_factory=dict)
    applies: Callable[[str, str, bool], bool] = lambda name, aspect, lesson: True


def inspect_checks(path: str, name: str, aspect: str, checks: list[FrameCheck], every: int) -> dict[str, list[str]]:
    """Every ``every``-th frame of the storyboard at ``path`` (and every half second, for the truth)
    inspected once, fed to each check's watcher: check name -> the lines it found."""
    checked, plan = load_and_plan(path)
    opts = RenderOptions(aspect=aspect)
    case = Case(name, aspect, checked, plan, opts, load_theme())
    watchers = {c.name: c.watcher(case) for c in checks}
    fps = fps_of(opts)
    truth = set(sample_frames(plan.duration, fps, every=TRUTH_EVERY))
    looked = set(range(0, round(plan.duration * fps), every))
    for sample in inspect_clip(checked, plan, opts, frames=sorted(looked | truth)):
        on_step = round(sample["time"] * fps) in looked
        for c in checks:
            if on_step or c.name == "truth":
                watchers[c.name].see(sample)
    return {n: w.found() for n, w in watchers.items()}
