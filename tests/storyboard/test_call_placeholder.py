"""``{N@callk}``: a placeholder read as backward call k left it, and the takeaway's recap cue
(:mod:`scenes.storyboard.recap`) naming each quantity the takeaway names, with all its texts."""

from __future__ import annotations

from engine import run_program
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.storyboard.logindex import LogIndex
from scenes.storyboard.model import Numbers
from scenes.storyboard.placeholders import parse
from scenes.storyboard.narration import fill
from scenes.storyboard.recap import recap_rows

SOURCE = """import torch
w = torch.tensor(3., requires_grad=True)
(w * w).backward()
(w * w).backward()
w.grad = None
(w * w).backward()
"""


def _fill(text: str) -> tuple[str, list[str]]:
    log = run_program(SOURCE, "p.py")
    got, _, problems = fill(text, LogIndex.build(log.events, SOURCE), len(log.events) - 1, Numbers("fraction"))
    return got, problems


def test_a_placeholder_reads_the_moment_a_backward_call_left() -> None:
    assert _fill("{w.grad@call1}, {w.grad@call2}, {w.grad}") == ("6, 12, 6", [])
    assert _fill("{w.grad@call2:torch}") == ("tensor(12.)", [])
    (p,), problems = parse("{w.grad@call2}")
    assert (p.field, p.call, p.pass_, p.ref, problems) == ("grad", 2, None, "w.grad@call2", [])


def test_a_call_that_did_not_run_says_how_many_did() -> None:
    assert _fill("{w.grad@call4}")[1] == ["{w.grad@call4}: backward ran 3 times in the program; there is no call 4"]
    assert parse("{w.grad@call0}")[1] == [(0, "placeholder {w.grad@call0}: calls count from 1")]


def test_the_recap_lists_what_the_takeaway_names_side_by_side() -> None:
    """backward_walk's takeaway names each weight's .grad as a fraction and as print writes it;
    grad_accumulation's names the 12 of two calls and the 6 of one: one row per quantity."""
    rows = {}
    for name in ("backward_walk", "grad_accumulation"):
        _, plan = load_and_plan(storyboard_path(name))
        (cue,) = [c for c in plan.cues if c.kind == "recap"]
        assert cue.beat == plan.beats[-1].index and cue.start == plan.beats[-1].start  # as the takeaway starts
        rows[name] = recap_rows(cue.strings)
    assert rows == {"backward_walk": [("w1.grad", ["8/3", "tensor(2.6667)"]), ("w2.grad", ["4/9", "tensor(0.4444)"])],
                    "grad_accumulation": [("w.grad after call 2", ["12"]), ("w.grad", ["6"])]}
