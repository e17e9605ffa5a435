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
from scenes.storyboard.numfmt import one_precision

NAME, UNIT = "mlp", "h1_0"


def _text(checked, tensor: str) -> str:
    ev = checked.index.tensor_event[tensor]
    return _shown(ev.value, ev.exact, ev.str, ev.seq, ("value", "exact", "str"),
                  checked.storyboard.number_style).text


def _figure(checked, net, uid: str) -> dict[str, str]:
    """What the unit's figure writes for each tensor: its weights, the inputs they multiply, the
    products, their sum and the unit's output, the log's values at one precision (the places
    the sum needs: ``numfmt.one_precision``)."""
    links = [l for l in net.links.values() if l.dst == uid]
    product = {e.seq: e.id for e in checked.index.tensor_event.values()}  # a link's seq is its product's event
    summed = next(i for i in checked.index.tensor_event[uid].inputs if isinstance(i, str))
    ids = list(dict.fromkeys([*(l.weight for l in links), *(l.src for l in links),
                              *(product[l.seq] for l in links), summed, uid]))
    return dict(zip(ids, one_precision([_text(checked, i) for i in ids])))


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

    figure = _figure(checked, net, uid)
    shown = _values(weighted)
    assert {w: shown.get(w) for w in weights} == {w: figure[w] for w in weights}, said["its own weight"].text
    lit = [i for i in weighted["items"] if i["role"] == "mark" and i.get("meaning") == "weight" and i["opacity"] > 0.5]
    assert len(lit) == len(weights)  # each of its lines lit in the weight's colour

    assert _values(summing).get(summed) == figure[summed], said["sum"].text
    assert _values(relu).get(summed) == figure[summed]  # the sum stays as the activation comes
    assert _values(relu).get(uid) == figure[uid], said["ReLU"].text
    op = checked.index.tensor_event[uid].op
    assert any(i["role"] == "label" and op in (i.get("text") or "") and i["opacity"] > 0.5 for i in relu["items"])

    gone = _values(back)
    assert not {summed, uid, *weights} & set(gone), gone
    assert not [i for i in back["items"] if i["role"] == "mark" and i["opacity"] > 0.1]


def _centre(box: list[float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_what_the_sum_adds_is_drawn_each_product_on_its_line_each_input_at_its_circle(aspect: str) -> None:
    """Review 5: with only the weights on the lines (four ``× 0.3750``), a viewer adding what
    is drawn got 1.5, not the Σ written (1.4062); the inputs' values were never drawn, and at
    9:16 the four labels stacked over each other's lines. While the sum's words are on screen:
    each input's value (the log's) is drawn nearer its own circle than any other unit's, each
    product ``w * x`` the sum adds (the log's) is drawn touching its own line and crossed by no
    other line of the unit, and the sum is the log's; each input's value stands under its circle,
    a character's width or more off the next."""
    from scenes.layout.label_spots import crosses

    checked, plan = load_and_plan(storyboard_path(NAME))
    net = read_network(checked.run.events)
    uid = next(u.id for u in net.units.values() if u.name == UNIT)
    links = [l for l in net.links.values() if l.dst == uid]
    product = {e.seq: e.id for e in checked.index.tensor_event.values()}  # a link's seq is its product's event
    summed = next(i for i in checked.index.tensor_event[uid].inputs if isinstance(i, str))
    beat = next(k for k, b in enumerate(checked.storyboard.beats) if "ReLU" in b.narration)
    said = next(c for c in plan.captions if c.beat == beat and "sum" in c.text)
    (sample,) = inspect_clip(checked, plan, RenderOptions(aspect=aspect, fps=5), at=[said.end - 0.2])

    items = [i for i in sample["items"] if i["opacity"] > 0.5]
    values = {i["id"]: i for i in items if i["kind"] == "text" and i["role"] == "value" and i.get("id")}
    products = {l.weight: product[l.seq] for l in links}
    # the figure is written at one precision, the log's values padded with zeros
    written = _figure(checked, net, uid)
    assert {p: values[p]["text"] if p in values else None for p in products.values()} == \
        {p: written[p] for p in products.values()}, said.text
    assert {l.src: values[l.src]["text"] if l.src in values else None for l in links} == \
        {l.src: written[l.src] for l in links}, said.text
    assert values[summed]["text"] == written[summed]

    names = {net.units[u].name: u for u in net.units}
    centre = {names[i["text"]]: _centre(i["bbox"]) for i in items
              if i["kind"] == "text" and i["role"] == "label" and i.get("text") in names}
    for l in links:
        x, y = _centre(values[l.src]["bbox"])
        near = min(centre, key=lambda u: (centre[u][0] - x) ** 2 + (centre[u][1] - y) ** 2)
        assert near == l.src, (net.units[l.src].name, values[l.src]["bbox"])
    # each input's value under its circle, a character's width or more from the next: 4 px apart,
    # "1.00000" and "0.50000" read as one number, "1.000000.50000", and x3's stood over its right
    ins = sorted(((values[s]["bbox"], values[s]["text"], s) for s in {l.src for l in links}), key=lambda v: v[0][0])
    for box, text, src in ins:
        char = (box[2] - box[0]) / len(text)
        assert abs(_centre(box)[0] - centre[src][0]) < char and box[1] > centre[src][1], (text, box)
    for (a, text, _), (b, _, _) in zip(ins, ins[1:]):
        assert b[0] - a[2] >= (a[2] - a[0]) / len(text), (text, a, b)
    pad = 0.02 * min(sample["frame"])  # a backdrop's margin: a value beside its line touches it
    for l in links:
        box = values[products[l.weight]]["bbox"]
        rect = (box[0], -box[3], box[2], -box[1])  # y up, as the segments are
        seg = {k.weight: ((centre[k.src][0], -centre[k.src][1]), (centre[k.dst][0], -centre[k.dst][1]))
               for k in links}
        grown = (rect[0] - pad, rect[1] - pad, rect[2] + pad, rect[3] + pad)
        assert crosses(grown, *seg[l.weight]), (l.name, box)
        assert not [k.name for k in links if k is not l and crosses(rect, *seg[k.weight])], (l.name, box)
