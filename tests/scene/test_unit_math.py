"""mlp writes one unit's arithmetic while the captions name it: weights, their sum, ReLU.

Why: review of session 6 found "each unit multiplies every input by its own weight, sums, and
applies ReLU" said over a network standing still (18-28 s): no weight, no sum, no ReLU drawn. Read
from `render inspect`'s record at the end of each caption that names a step, at 16:9 and 9:16:
each of h1_0's incoming weights is written (its logged value, tagged with the weight's id) on a
line lit in the weight's colour, the sum its activation takes is written, then the activation
and the unit's output; once the next caption is done, all of it is gone again. The expected texts
are formatted from the log as the frame checks' truth does (no number typed here).
"""

from __future__ import annotations

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.storyboard.narration import _shown
from scenes.storyboard.network import read_network

NAME, UNIT = "mlp", "h1_0"


def _text(checked, tensor: str) -> str:
    ev = checked.index.tensor_event[tensor]
    return _shown(ev.value, ev.exact, ev.str, ev.seq, ("value", "exact", "str"),
                  checked.storyboard.number_style).text


def _values(sample) -> dict[str, str]:
    return {i["id"]: i["text"] for i in sample["items"]
            if i["kind"] == "text" and i["role"] == "value" and i["opacity"] > 0.5 and i.get("id")}


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_unit_s_weights_sum_and_relu_are_drawn_while_the_captions_name_them(aspect: str) -> None:
    checked, plan = load_and_plan(storyboard_path(NAME))
    net = read_network(checked.run.events)
    uid = next(u.id for u in net.units.values() if u.name == UNIT)
    weights = [l.weight for l in net.links.values() if l.dst == uid]
    summed = next(i for i in checked.index.tensor_event[uid].inputs if isinstance(i, str))  # what relu takes
    beat = next(k for k, b in enumerate(checked.storyboard.beats) if "ReLU" in b.narration)
    spans = [c for c in plan.captions if c.beat == beat]
    said = {word: next(c for c in spans if word in c.text) for word in ("its own weight", "sum", "ReLU")}
    after = spans[-1]  # the beat's last words: the whole network again
    times = [said[w].end - 0.2 for w in said] + [after.end - 0.1]
    opts = RenderOptions(aspect=aspect, fps=5)
    samples = list(inspect_clip(checked, plan, opts, at=times))  # one per frame: times in one frame share it
    weighted, summing, relu, back = (min(samples, key=lambda s: abs(s["time"] - t)) for t in times)

    shown = _values(weighted)
    assert {w: shown.get(w) for w in weights} == {w: _text(checked, w) for w in weights}, said["its own weight"].text
    lit = [i for i in weighted["items"] if i["role"] == "mark" and i.get("meaning") == "weight" and i["opacity"] > 0.5]
    assert len(lit) == len(weights)  # each of its lines lit in the weight's colour

    assert _values(summing).get(summed) == _text(checked, summed), said["sum"].text
    assert _values(relu).get(summed) == _text(checked, summed)  # the sum stays as the activation comes
    assert _values(relu).get(uid) == _text(checked, uid), said["ReLU"].text
    op = checked.index.tensor_event[uid].op
    assert any(i["role"] == "label" and op in (i.get("text") or "") and i["opacity"] > 0.5 for i in relu["items"])

    gone = _values(back)
    assert not {summed, uid, *weights} & set(gone), gone
    assert not [i for i in back["items"] if i["role"] == "mark" and i["opacity"] > 0.1]
