"""The walk's captions say what each step hands down, as the article's walk does.

Why: the article (seed 004, "L.backward() walks the graph in reverse") gives every step its
number: "Pow: the local derivative of d² is 2d, so d gets 1 × 2d = 4/3", "Sub: ... so ŷ gets
4/3". A clip whose Pow and Sub captions say only the rule and "the gradient passes unchanged"
showed 4/3 on screen for two beats before any caption named it ("Mul gets 4/3"), so a viewer
had to trust the picture's number with no word for it.
"""

from __future__ import annotations

import pytest

from scenes.storyboard import load_and_plan, storyboard_path

GRADS = ("grad_in", "grads_out")
"""The fields of a gradient a caption names: what reaches a node (``{N.grad_in}``), or what a
node sends along an edge (``{N->M}``)."""


@pytest.mark.parametrize("name", ["backward_walk"])
def test_each_gradient_the_walk_hands_down_is_named_when_it_arrives(name: str) -> None:
    """Each gradient a visit receives (but the loss's first 1) is named by a caption of that
    visit's beat or of the beat before it, where the node above sent it (as ``{N.grad_in}``,
    or ``{N->M}`` where the walk has not reached M yet)."""
    _, plan = load_and_plan(storyboard_path(name))
    visits = [c for c in plan.cues if c.kind == "visit"]
    said: dict[int, set[str]] = {}
    for cap in plan.captions:
        said.setdefault(cap.beat, set()).update(s.text for s in cap.strings if s.field.startswith(GRADS))
    missing = []
    for v in visits[1:]:
        got = [s.text for s in v.strings if s.field.startswith("grad_in")]
        heard = said.get(v.beat, set()) | said.get(v.beat - 1, set())
        missing += [(v.strings[0].text, g, v.beat) for g in got if g not in heard]
    assert not missing, missing
