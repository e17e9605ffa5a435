"""A storyboard loaded and planned: the one pair every command and worker starts from."""

from __future__ import annotations

from typing import Iterable, NoReturn

from scenes.voice.speech import Speaker

from .plan import Plan, TooLong, plan
from .timings import default_timings
from .validate import Checked, load


def plan_of(checked: Checked, speak: Speaker | None = None, aspect: str | None = None) -> Plan:
    """The timed plan of a checked storyboard, at the theme's timings, its phrases said by
    ``speak`` (None: read, no voice); a plan too long to be a clip is refused (StoryboardError).
    ``aspect``: the plan of the clip at that aspect, with time for the walk's camera where it
    moves there (`scenes.layout.camera.camera_visits`); None: the plan every aspect shares
    without a camera move (the articles', the captions' of a clip whose camera stays home)."""
    try:
        p = plan(checked.run.events, checked.storyboard, default_timings(), checked.index.source, checked.index,
                 longest=MAX_CLIP_SECONDS, speak=speak)
        if aspect is not None:
            from scenes.layout.camera import camera_visits
            from scenes.layout.clip import clip_layout
            from scenes.theme import load_theme

            theme = load_theme()
            home = clip_layout(p, checked.run.events, checked.index.source, aspect, theme)
            camera = camera_visits(p, home, checked.index.source, theme.aspect(aspect), theme)
            if camera:
                p = plan(checked.run.events, checked.storyboard, default_timings(), checked.index.source,
                         checked.index, longest=MAX_CLIP_SECONDS, speak=speak, camera=camera)
    except TooLong as exc:  # the beats after are not planned: the clip is too long already
        first = "its first beat already does" if exc.beats == 1 else f"its first {exc.beats} beats already do"
        _too_long(checked, f"more than {exc.seconds:.0f} s ({first})")
    check_duration(checked, p)
    return p


def load_and_plan(file: str, sets: Iterable[str] = (), name: str | None = None,
                  speak: Speaker | None = None, aspect: str | None = None) -> tuple[Checked, Plan]:
    """Load, check and run ``file`` (raises StoryboardError listing every problem), then plan it
    (its phrases said by ``speak``, if given; for ``aspect``, if given: `plan_of`)."""
    checked = load(file, sets=list(sets), name=name)
    return checked, plan_of(checked, speak, aspect)


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
