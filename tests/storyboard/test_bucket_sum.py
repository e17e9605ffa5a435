"""Where gradients meet at a bucket (``w * w``), their sum is written with the fill.

Why (issue 19): the sum ``3 + 3 = 6`` and the badge 6 were written by the walk's visit to the
bucket, while the caption still said "each path sends 3"; at the second backward the bucket
already held 6, so ``3 + 3 = 6`` beside it read as the bucket's total. The visit now only
brings what each path sent; the fill, in the beat whose caption says they add up, writes
``3 + 3 = 6``, and into a bucket that held 6 then ``6 + 6 = 12`` (the bucket's own arithmetic),
as the engine sums the paths before AccumulateGrad adds to ``.grad``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scenes.storyboard import PlanTimings, load, plan, storyboard_path


def _plan(name: str):
    checked = load(storyboard_path(name))
    return plan(checked.run.events, checked.storyboard, PlanTimings(), checked.index.source)


def test_a_visit_to_a_bucket_writes_no_sum() -> None:
    p = _plan("grad_accumulation")
    at_bucket = [c for c in p.cues if c.kind == "visit" and c.text("grad_fn") == "AccumulateGrad"]
    assert at_bucket and all(not any(s.role in ("part", "grad") for s in c.strings) for c in at_bucket)


def test_the_sum_comes_with_the_caption_that_names_it() -> None:
    p = _plan("grad_accumulation")
    fills = [c for c in p.cues if c.kind == "bucket_fill"]
    # into the bucket that held 6 too, what met comes with the fill: 3 + 3 = 6, then 6 + 6 = 12
    assert [[s.text for s in c.strings if s.role == "part"] for c in fills] == [["3", "3"], ["3", "3"], ["3", "3"]]
    assert [(c.text("before"), c.text("add"), c.text("after")) for c in fills][1] == ("6", "6", "12")
    for k, c in enumerate(fills):
        # the fill is done as its caption starts (its number readable when named), or runs under it
        said = " ".join(s.text for s in p.captions if s.start <= c.start + c.duration + 1e-6 and s.end > c.start)
        assert "send" not in said, said  # not while the caption says what each path sends
        if k < 2:
            assert "add" in said, said  # "They add up to 6", "The bucket keeps adding"
        parts = [Fraction(s.text) for s in c.strings if s.role == "part"]
        assert not parts or sum(parts) == Fraction(c.text("add"))  # what met adds up to what the bucket takes in


@pytest.mark.parametrize("name", ["backward_walk", "grad_accumulation", "leaf_nodes", "mlp"])
def test_a_fill_with_parts_adds_up_everywhere(name: str) -> None:
    for c in _plan(name).cues:
        parts = [s.text for s in c.strings if s.role == "part"]
        if c.kind == "bucket_fill" and parts:
            assert sum(Fraction(t) for t in parts) == Fraction(c.text("add")), c
