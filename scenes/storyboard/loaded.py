"""A storyboard loaded and planned: the one pair every command and worker starts from."""

from __future__ import annotations

from typing import Iterable, NoReturn

from scenes.voice.speech import Speaker

from .plan import Plan, TooLong, plan
from .timings import default_timings
from .validate import Checked, load


def plan_of(checked: Checked, speak: Speaker | None = None) -> Plan:
    """The timed plan of a checked storyboard, at the theme's timings, its phrases said by
    ``speak`` (None: read, no voice); a plan too long to be a clip is refused (StoryboardError)."""
    try:
        p = plan(checked.run.events, checked.storyboard, default_timings(), checked.index.source, checked.index,
                 longest=MAX_CLIP_SECONDS, speak=speak)
    except TooLong as exc:  # the beats after are not planned: the clip is too long already
        first = "its first beat already does" if exc.beats == 1 else f"its first {exc.beats} beats already do"
        _too_long(checked, f"more than {exc.seconds:.0f} s ({first})")
    check_duration(checked, p)
    return p


def load_and_plan(file: str, sets: Iterable[str] = (), name: str | None = None,
                  speak: Speaker | None = None) -> tuple[Checked, Plan]:
    """Load, check and run ``file`` (raises StoryboardError listing every problem), then plan it
    (its phrases said by ``speak``, if given)."""
    checked = load(file, sets=list(sets), name=name)
    return checked, plan_of(checked, speak)


MAX_CLIP_SECONDS = 900.0
"""A clip is an explainer of a few minutes: one planned longer is a mistake, and drawing it would
take the machine for an hour."""


def check_duration(checked: Checked, p: Plan) -> None:
    """Refuse, at the storyboard's beats, a plan longer than MAX_CLIP_SECONDS."""
    if p.duration > MAX_CLIP_SECONDS:
        _too_long(checked, f"{p.duration:.0f} s")


def _too_long(checked: Checked, how_long: str) -> NoReturn:
    from .errors import Problem, StoryboardError

    line, col = checked.doc.at(("beats",))
    raise StoryboardError([Problem(checked.file, line, col, f"the clip would last {how_long}; "
                                   f"a clip may last at most {MAX_CLIP_SECONDS:.0f} s (split it)")])
