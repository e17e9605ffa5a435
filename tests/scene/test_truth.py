"""The truth checker (scenes/render/truth.py) on hand-made samples of the trained-network lesson.

Why hand-made: the sweep over every clip (tests/test_no_overlap.py, ``truth``) says whether the
drawing keeps to the log; these say the checker itself catches what the lesson once showed (a
weight's card from the step before, a bucket that dropped its value, a printed line lost) and
passes what is true, without inspecting a frame.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scenes.render.truth import Truth
from scenes.storyboard import load_and_plan
from scenes.storyboard.cues import Cue
from scenes.storyboard.plan import Plan

LESSON = Path(__file__).parent.parent / "storyboard" / "lessons" / "tanh_sgd_lists.yaml"


@pytest.fixture(scope="module")
def lesson() -> tuple[Truth, Plan]:
    checked, plan = load_and_plan(str(LESSON))
    return Truth(checked.run.events, plan, checked.storyboard.number_style), plan


def _cues(plan: Plan, kind: str, tensor: str | None = None) -> list[Cue]:
    """The plan's cues of ``kind`` (about ``tensor``, when given), in order: the samples' times
    are read from them, so a change of pacing moves the samples with the picture."""
    return [c for c in plan.cues if c.kind == kind and (tensor is None or tensor in c.ids)]


def _text(role: str, text: str, owner: str | None) -> dict:
    return {"kind": "text", "role": role, "text": text, "bbox": [0, 0, 1, 1], "opacity": 1.0, "id": owner}


def _sample(time: float, *items: dict) -> dict:
    return {"time": time, "frame": [854, 480], "items": list(items)}


def test_a_card_left_from_the_step_before_is_reported(lesson: tuple[Truth, Plan]) -> None:
    """After the third update W1[0] is 0.4953: its card still at 0.4941 is untrue."""
    truth, plan = lesson
    third = _cues(plan, "update_step", "t0")[2]
    after = third.start + third.duration + 2.0
    found = truth.check(_sample(after, _text("value", "0.4941", "t0")))
    assert [u.describe() for u in found] == [f"card t0 shows '0.4941' at {after:.2f} s where the log says '0.4953'"]
    assert truth.check(_sample(after, _text("value", "0.4953", "t0"))) == []
    # while the update's cue runs, either value is true
    assert truth.check(_sample(third.start + 0.15, _text("value", "0.4941", "t0"))) == []


def test_a_bucket_must_show_its_grad_and_nothing_once_cleared(lesson: tuple[Truth, Plan]) -> None:
    """Step two's fill of W1[0] (-0.0643) must show while its bucket does; after the second
    ``p.grad = None`` the bucket holds no number."""
    truth, plan = lesson
    fill, reset = _cues(plan, "bucket_fill", "t0")[1], _cues(plan, "bucket_reset", "t0")[1]
    at, later = fill.start + fill.duration + 0.5, reset.start + reset.duration + 0.8
    edge = {"kind": "shape", "role": "arrow", "text": None, "bbox": [0, 0, 1, 1], "opacity": 1.0,
            "id": "bucket:t0->t0"}
    dropped = truth.check(_sample(at, edge))
    assert [u.describe() for u in dropped] == [f"bucket t0 shows '' at {at:.2f} s where the log says '-0.0643'"]
    assert truth.check(_sample(at, edge, _text("value", "-0.0643", "bucket:t0"))) == []
    stale = truth.check(_sample(later, edge, _text("value", "-0.0643", "bucket:t0")))
    assert [u.describe() for u in stale] == [f"bucket t0 shows '-0.0643' at {later:.2f} s where the log says 'None'"]
    assert truth.check(_sample(later, edge)) == []


def test_printed_lines_are_printed_by_then_and_kept_through_their_beat(lesson: tuple[Truth, Plan]) -> None:
    """The first loss is printed by its output line's cue: shown before, it is untrue; missing
    during its beat, it is lost."""
    truth, plan = lesson
    line = "tensor(0.0729, grad_fn=<PowBackward0>)"
    first = _cues(plan, "output_line")[0]
    assert first.text("output") == line or line in [s.text for s in first.strings]
    before, during = first.start - 5.0, first.start + first.duration + 0.4
    early = truth.check(_sample(before, _text("console", line, None)))
    assert [u.what for u in early] == ["console"]
    lost = truth.check(_sample(during))
    assert [u.describe() for u in lost] == [f"console printed line shows '' at {during:.2f} s where the log says {line!r}"]
    assert truth.check(_sample(during, _text("console", line, None))) == []


def test_a_printed_line_wrapped_in_the_console_is_shown(lesson: tuple[Truth, Plan]) -> None:
    """A line too long for the console's width is wrapped between words (`wrap_words`): shown
    over two rows it is still the line printed, not a lost one beside an unknown one."""
    truth, plan = lesson
    line = "tensor(0.0729, grad_fn=<PowBackward0>)"
    first = _cues(plan, "output_line")[0]
    during = first.start + first.duration + 0.4
    wrapped = line.replace(", ", ",\n")
    assert truth.check(_sample(during, _text("console", wrapped, None))) == []
