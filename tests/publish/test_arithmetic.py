"""Each visit's arithmetic on a page is what the screen writes: the plan's ``local_rule`` cues,
read through the engine's rule table, in the storyboard's number style."""

from __future__ import annotations

from scenes.publish.arithmetic import beat_arithmetic, visit_arithmetic
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.storyboard.numfmt import show


def test_the_arithmetic_is_the_screens_for_backward_walk() -> None:
    checked, p = load_and_plan(storyboard_path("backward_walk"))
    rules = [c for c in p.cues if c.kind == "local_rule"]
    got = visit_arithmetic(p, checked.index)
    screen = [f"{c.text('target') + ': ' if c.text('target') else ''}{c.text('in')} × "
              f"{' × '.join(s.text for s in c.strings if s.role == 'factor')} = {c.text('out')}" for c in rules]
    assert [a.screen for a in got] == screen and len(screen) == 6
    style = checked.storyboard.number_style
    grads = {e.name: e for e in checked.run.events if type(e).__name__ == "Tensor" and e.name}
    w2 = grads["w2"]
    assert w2 is not None
    lines = [a.line for a in got]
    assert lines[0].startswith("Pow: yh - y gets ")
    # the product the walk sent to w2's bucket, written in the storyboard's style (4/3 × 1/3 = 4/9)
    accs = [e for e in checked.run.events if type(e).__name__ == "Accumulate" and e.tensor == w2.id]
    assert any(line.startswith("Mul: w2 gets ") and line.endswith(f"= {show(accs[-1].after, accs[-1].after_exact, style)}")
               for line in lines)
    per = beat_arithmetic(p, checked.index)
    assert [len(x) for x in per[:6]] == [0, 1, 1, 2, 1, 1]
