"""Every number said is on screen when said: for each number a caption's placeholders filled, the
picture (``render inspect``) shows it, readable, by the end of the word that says it (the
voice's word times, as ``render plan NAME --speech`` prints them).

Said by the fake voice (:mod:`tests.audio.fakevoice`: instant, word times of its own), planned
in this process and inspected at one frame per number said, without drawing: a few seconds a
clip. The two clips the issue names; the first part checks the checker on synthetic samples.
"""

from __future__ import annotations

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.render.said import SaidNumber, said_numbers, unseen
from scenes.render.sound import Recorder
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.storyboard.caption_events import CaptionSpan
from scenes.storyboard.placeholders import Shown
from scenes.voice.speech import Timing, Word
from tests.audio.fakevoice import FakeVoice


def _sample(time: float, *items: tuple[str, str, float]) -> dict:
    return {"time": time, "frame": [426, 240], "items": [
        {"kind": "text", "role": role, "text": text, "bbox": [0, 0, 1, 1], "opacity": op, "id": None}
        for role, text, op in items]}


def test_a_number_is_looked_for_where_its_word_ends() -> None:
    cap = CaptionSpan(1, 10.0, 13.0, "It adds up to 6, then 12.", 0,
                      (Shown("6", 3, "grad", "caption"), Shown("12", 5, "grad", "caption")))
    words = [("It", 0.0, 0.2), ("adds", 0.3, 0.5), ("up", 0.6, 0.7), ("to", 0.8, 0.9), ("6,", 1.0, 1.2),
             ("then", 1.3, 1.5), ("12.", 1.6, 1.9)]
    said = said_numbers([cap], {cap.text: Timing(2.0, tuple(Word(*w) for w in words))})
    assert [(s.number, s.start, s.end) for s in said] == [("6", 11.0, 11.2), ("12", 11.6, 11.9)]
    shown = [_sample(11.2, ("value", "6", 1.0)), _sample(11.9, ("value", "6", 1.0), ("label", "6 + 6 = 12", 1.0))]
    assert unseen(said, shown) == []
    late = [_sample(11.2, ("value", "6", 0.3)), _sample(11.9, ("value", "6", 1.0), ("caption", cap.text, 1.0))]
    assert [s.number for s in unseen(said, late)] == ["6", "12"]  # fading in at 0.3; the caption's own words


STILL_LATE: dict[str, str] = {}
"""Clips in which a number is still said before it can be read, and why: strict xfails."""


@pytest.mark.slow
@pytest.mark.parametrize("name", [
    pytest.param(name, marks=[pytest.mark.xfail(reason=STILL_LATE[name], strict=True)] if name in STILL_LATE else [])
    for name in ("backward_walk", "grad_accumulation")])
def test_every_number_said_is_on_screen_when_said(name: str) -> None:
    speak = Recorder(FakeVoice())
    checked, p = load_and_plan(storyboard_path(name), (), name, speak)
    said = said_numbers(p.captions, speak.table)
    assert len(said) >= 5  # the clip says numbers: the check has something to look at
    samples = list(inspect_clip(checked, p, RenderOptions(size=(426, 240), fps=10), at=[s.end for s in said]))
    late: list[SaidNumber] = unseen(said, samples)
    assert late == [], "\n".join(s.describe() for s in late)
