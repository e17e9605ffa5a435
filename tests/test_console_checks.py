"""The console's frame checks (tests/watchers/console.py: ``ConsoleReadable``, ``BeatPrintsKept``) find
what they are for, on hand-made frames of missing_gradient's plan (which prints a warning)."""

from __future__ import annotations

from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import load_theme
from tests.frame_checks import Case
from tests.watchers.console import BeatPrintsKept, ConsoleReadable

CLIP = "missing_gradient"


def _case() -> Case:
    checked, plan = load_and_plan(storyboard_path(CLIP))
    return Case(CLIP, "16:9", checked, plan, RenderOptions(aspect="16:9"), load_theme())


def _frame(time: float, *lines: tuple[str, float]) -> dict:
    """A frame at ``time`` showing each (text, height in px) as a console item."""
    items = [{"kind": "text", "role": "console", "text": t, "opacity": 1.0, "id": None, "colour": None,
              "meaning": None, "bbox": [100.0, 100.0 + 30 * k, 300.0, 100.0 + 30 * k + h]}
             for k, (t, h) in enumerate(lines)]
    return {"time": time, "frame": [854, 480], "items": items}


def test_a_tiny_printed_line_and_a_message_never_shown_are_found() -> None:
    case = _case()
    watch = ConsoleReadable(case)
    watch.see(_frame(case.plan.duration, ("tensor(8.)", 3.0)))
    found = "\n".join(watch.found())
    assert "'tensor(8.)' of 'tensor(8.)' has" in found and "px glyphs" in found
    assert "the message is never shown as 'UserWarning: " in found


def test_a_line_of_a_beat_gone_at_its_end_is_found() -> None:
    case = _case()
    watch = BeatPrintsKept(case)
    for k in range(round(case.plan.duration * 15) + 1):
        watch.see(_frame(k / 15))  # the console empty throughout
    found = watch.found()
    assert found and all("is not on screen at its beat's end" in f for f in found)
    assert any("UserWarning: " in f for f in found)
