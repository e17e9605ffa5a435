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

LESSON = Path(__file__).parent.parent / "storyboard" / "lessons" / "tanh_sgd_lists.yaml"


@pytest.fixture(scope="module")
def truth() -> Truth:
    checked, plan = load_and_plan(str(LESSON))
    return Truth(checked.run.events, plan, checked.storyboard.number_style)


def _text(role: str, text: str, owner: str | None) -> dict:
    return {"kind": "text", "role": role, "text": text, "bbox": [0, 0, 1, 1], "opacity": 1.0, "id": owner}


def _sample(time: float, *items: dict) -> dict:
    return {"time": time, "frame": [854, 480], "items": list(items)}


def test_a_card_left_from_the_step_before_is_reported(truth: Truth) -> None:
    """After the third update (75.45 s) W1[0] is 0.4953: its card still at 0.4941 is untrue."""
    found = truth.check(_sample(78.0, _text("value", "0.4941", "t0")))
    assert [u.describe() for u in found] == ["card t0 shows '0.4941' at 78.00 s where the log says '0.4953'"]
    assert truth.check(_sample(78.0, _text("value", "0.4953", "t0"))) == []
    # while the update's cue runs, either value is true
    assert truth.check(_sample(75.6, _text("value", "0.4941", "t0"))) == []


def test_a_bucket_must_show_its_grad_and_nothing_once_cleared(truth: Truth) -> None:
    """Step two's fill of W1[0] (-0.0643, 49.73 s) must show while its bucket does (51 s); after
    ``p.grad = None`` (58.35 s) the bucket holds no number."""
    edge = {"kind": "shape", "role": "arrow", "text": None, "bbox": [0, 0, 1, 1], "opacity": 1.0,
            "id": "bucket:t0->t0"}
    dropped = truth.check(_sample(51.0, edge))
    assert [u.describe() for u in dropped] == ["bucket t0 shows '' at 51.00 s where the log says '-0.0643'"]
    assert truth.check(_sample(51.0, edge, _text("value", "-0.0643", "bucket:t0"))) == []
    stale = truth.check(_sample(60.0, edge, _text("value", "-0.0643", "bucket:t0")))
    assert [u.describe() for u in stale] == ["bucket t0 shows '-0.0643' at 60.00 s where the log says 'None'"]
    assert truth.check(_sample(60.0, edge)) == []


def test_printed_lines_are_printed_by_then_and_kept_through_their_beat(truth: Truth) -> None:
    """The first loss is printed at 27.48 s: shown before, it is untrue; missing during its
    beat, it is lost."""
    line = "tensor(0.0729, grad_fn=<PowBackward0>)"
    early = truth.check(_sample(20.0, _text("console", line, None)))
    assert [u.what for u in early] == ["console"]
    lost = truth.check(_sample(28.5))
    assert [u.describe() for u in lost] == [f"console printed line shows '' at 28.50 s where the log says {line!r}"]
    assert truth.check(_sample(28.5, _text("console", line, None))) == []
