"""The MLP view: the network read from the log, and the reverse_mode / mlp plans built on it.

Why data tests: the clip's claim (one backward pass reaches all 36 weights; forward mode needs 36
passes, each giving the same derivative) must hold in the plan before anything is drawn."""

from __future__ import annotations

import pytest

from engine.records import Accumulate, Tensor
from scenes.storyboard import PlanTimings, load, plan, storyboard_path
from scenes.storyboard.network import read_network


def _checked(name: str):
    checked = load(storyboard_path(name))
    return checked, plan(checked.run.events, checked.storyboard, PlanTimings(), checked.index.source)


def test_network_is_read_from_the_program() -> None:
    checked, _ = _checked("mlp")
    net = read_network(checked.run.events)
    names = [[net.units[u].name for u in layer] for layer in net.layers]
    assert names == [["x0", "x1", "x2", "x3"], ["h1_0", "h1_1", "h1_2", "h1_3"],
                     ["h2_0", "h2_1", "h2_2", "h2_3"], ["yh"], ["L"]]
    assert len(net.links) == 16 + 16 + 4
    link = next(l for l in net.links.values() if l.name == "w2_1_3")
    assert (net.units[link.src].name, net.units[link.dst].name) == ("h1_3", "h2_1")


def test_reverse_mode_counts_one_backward_against_one_forward_pass_per_weight() -> None:
    checked, p = _checked("reverse_mode")
    counts = [(c.text("count"), c.text("total")) for c in p.cues if c.kind == "pass_count"]
    assert counts[0] == ("1", None)  # reverse mode: backward call 1
    assert counts[1:] == [(str(k), "36") for k in range(1, 37)]
    fills = [c for c in p.cues if c.kind == "link_fill"]
    assert len(fills) == 36 and len({c.ids[0] for c in fills}) == 36


def test_forward_mode_derivatives_equal_the_reverse_mode_grads_shown() -> None:
    checked, p = _checked("reverse_mode")
    grads = {e.name: e.after for e in checked.run.events if isinstance(e, Accumulate)}
    jvps = [c for c in p.cues if c.kind == "jvp_fill"]
    assert len(jvps) == 36
    for cue in (c for c in jvps if c.strings):  # a rushed pass writes no readout (below)
        seq = cue.strings[1].seq
        assert checked.run.events[seq].value == pytest.approx(grads[cue.text("name")], rel=1e-6)
        assert cue.text("value") == f"{grads[cue.text('name')]:.4f}"


def test_only_the_first_pass_writes_its_derivative() -> None:
    """reverse_mode: the first pass's derivative (compared with w1_0_0.grad, named by a caption
    and the takeaway) is the only readout. Later passes' named weights no caption speaks of: pass
    3's flashed between two captions, and the last pass's (w3_3) stood under the takeaway as if
    it were the answer the article gives."""
    _, p = _checked("reverse_mode")
    read = [c for c in p.cues if c.kind == "jvp_fill" and c.strings]
    first = next(c for c in p.cues if c.kind == "jvp_fill")
    assert read == [first] and first.text("name") == "w1_0_0"


def test_each_forward_pass_reaches_the_loss_from_its_seed() -> None:
    checked, p = _checked("reverse_mode")
    net = read_network(checked.run.events)
    loss = net.layers[-1][0]
    sweeps = [c for c in p.cues if c.kind == "tangent_sweep"]
    seeds = [c.ids[0] for c in p.cues if c.kind == "jvp_fill"]
    assert len(sweeps) == 36
    for sweep, seed in zip(sweeps, seeds):
        assert sweep.ids[0] == seed and sweep.ids[-1] == loss


def test_sweep_reaches_units_in_pytorchs_visit_order() -> None:
    checked, p = _checked("reverse_mode")
    net = read_network(checked.run.events)
    steps = [c.ids[0] for c in p.cues if c.kind == "sweep_step"]
    assert steps[0] == net.layers[-1][0]  # the loss first
    assert len(steps) == len(set(steps)) == 36 + 4 + 4 + 1 + 1  # every weight, every unit but inputs
    layer = {u: i for i, l in enumerate(net.layers) for u in l}
    units = [layer[s] for s in steps if s in layer]
    assert units == sorted(units, reverse=True)  # the wavefront moves down the layers


def test_the_reverse_sweep_is_one_wavefront_down_the_layers() -> None:
    """Every unit and weight of one layer (a weight in the layer it feeds) is reached at the same
    instant, the layers one after the other from the loss down, in a few seconds in all below the
    loss (which lights as its backward call is counted and named): not one node after another in
    PyTorch's visiting order."""
    checked, p = _checked("reverse_mode")
    net = read_network(checked.run.events)
    depth = lambda o: net.units[net.links[o].dst if o in net.links else o].layer  # noqa: E731
    sweep = [c for c in p.cues if c.kind in ("sweep_step", "link_fill")]
    starts: dict[int, set[float]] = {}
    for c in sweep:
        starts.setdefault(depth(c.ids[0]), set()).add(c.start)
    assert all(len(s) == 1 for s in starts.values()), starts
    order = sorted(starts, reverse=True)
    assert [next(iter(starts[d])) for d in order] == sorted(next(iter(s)) for s in starts.values())
    below = [c for c in sweep if depth(c.ids[0]) != order[0]]
    assert max(c.start + c.duration for c in below) - min(c.start for c in below) <= 5.0


def test_the_output_and_the_loss_show_their_values() -> None:
    """The network's result and the loss carry their values (a caption names both), the loss
    also the target it compares with (``y``, a leaf outside the network); no other unit does."""
    checked, p = _checked("mlp")
    cues = {c.text("name"): c for c in p.cues if c.kind == "unit_appear"}
    value = {n: next(e for e in checked.run.events if isinstance(e, Tensor) and e.name == n).value
             for n in ("yh", "L", "y")}
    assert cues["yh"].text("value") == f"{value['yh']:.4f}" and cues["L"].text("value") == f"{value['L']:.4f}"
    assert cues["L"].text("target_name") == "y" and cues["L"].text("target") == f"{value['y']:.4f}"
    assert cues["yh"].text("target") is None
    assert all(cues[n].text("value") is None for n in cues if n not in ("yh", "L"))


def test_the_reached_count_climbs_to_every_weight_in_one_pass() -> None:
    """Beside the one backward pass, the weights reached so far, layer by layer from the loss
    down: 4 (into the output), then 20, then all 36, the number of forward passes."""
    checked, p = _checked("reverse_mode")
    counts = [(c.text("reached"), c.text("total")) for c in p.cues if c.kind == "reach_count"]
    assert counts == [("4", "36"), ("20", "36"), ("36", "36")]
    passes = [c.text("total") for c in p.cues if c.kind == "pass_count" and c.text("total")]
    assert set(passes) == {"36"}


def test_a_network_fed_plain_numbers_names_its_first_drawn_row_hidden() -> None:
    """x = [1.0, -2.0] are numbers, not tensors: the first row drawn is the tanh layer h[0], h[1]
    (hidden 1), then the output and the loss; no row is called the input. The loop runs twice:
    the network is the first pass's, its links join units that are drawn (not pass two's)."""
    from pathlib import Path

    from scenes.theme import load_theme

    checked = load(Path(__file__).parent / "lessons" / "net221_sgd.yaml")
    net = read_network(checked.run.events)
    labels = load_theme().labels
    rows = [[net.units[u].name for u in layer] for layer in net.layers]
    assert rows == [["h[0]", "h[1]"], ["out"], ["loss"]]
    assert len(net.links) == 2 and all(l.src in net.units and l.dst in net.units for l in net.links.values())
    assert net.layer_names(labels) == [labels.layer_hidden.format(k=1), labels.layer_output, labels.legend_loss]
    mlp = read_network(load(storyboard_path("mlp")).run.events)
    assert mlp.layer_names(labels) == [labels.layer_input, labels.layer_hidden.format(k=1),
                                       labels.layer_hidden.format(k=2), labels.layer_output, labels.legend_loss]


def test_a_network_beat_on_a_later_pass_draws_that_pass() -> None:
    """A ``network`` beat that selects pass 2 of a training loop draws the first pass's circles
    (the places the picture has) with pass two's tensors in them: every unit, the output and the
    loss with pass two's values (the cue's last id is the tensor shown), and the second
    backward's sweep reaches every unit and weight, as the first one does."""
    from pathlib import Path

    checked = load(Path(__file__).parent / "lessons" / "net221_pass2.yaml")
    p = plan(checked.run.events, checked.storyboard, PlanTimings(), checked.index.source)
    net = read_network(checked.run.events)
    units = {c.ids[0]: c for c in p.cues if c.kind == "unit_appear"}
    assert set(units) == set(net.units)
    tensors = {e.id: e for e in checked.run.events if isinstance(e, Tensor)}
    out = [e for e in tensors.values() if e.name == "out"]
    assert len(out) == 2 and out[0].value != out[1].value
    cue = units[net.layers[1][0]]
    assert cue.ids == (out[0].id, out[1].id) and cue.text("value") == f"{out[1].value:.4f}"
    assert {c.ids[0] for c in p.cues if c.kind == "link_appear"} == set(net.links)
    swept = {c.ids[0] for c in p.cues if c.kind == "sweep_step"}
    assert swept == set(net.units) | set(net.links)


def test_a_unit_drawn_on_pass_one_shows_pass_twos_value_in_a_beat_on_pass_two() -> None:
    """On screen, once the beat on pass 2 has drawn its units over pass 1's picture, the output
    and the loss show pass two's values (each tagged with pass two's tensor), not pass one's."""
    from pathlib import Path

    from scenes.render.inspect import inspect_clip
    from scenes.render.options import RenderOptions
    from scenes.storyboard import load_and_plan

    checked, p = load_and_plan(str(Path(__file__).parent / "lessons" / "net221_pass2.yaml"))
    beat = next(b for b in p.beats if b.index == 2)
    (sample,) = inspect_clip(checked, p, RenderOptions(aspect="16:9"), at=[beat.start + beat.duration - 0.1])
    shown = {i["text"]: i["id"] for i in sample["items"] if i["role"] == "value" and i["opacity"] >= 0.5}
    second = [e.id for e in checked.run.events if isinstance(e, Tensor) and e.name in ("out", "loss")][2:]
    cues = [c for c in p.cues if c.kind == "unit_appear" and c.beat == 2 and c.text("value") is not None]
    assert [c.ids[-1] for c in cues] == second
    assert shown == {c.text("value"): c.ids[-1] for c in cues}, shown


def test_the_second_forward_pass_is_counted_as_the_caption_says_it_starts() -> None:
    """reverse_mode: the forward counter steps to pass 2 as the caption that says the next pass
    starts comes up, not under the one before (issue 39 item 6: `2 / 36` showed under "But it
    gives only that one derivative", 2.4 s before "The next pass starts")."""
    _, p = _checked("reverse_mode")
    says = next(s for s in p.captions if "next pass starts" in s.text)
    second = next(c for c in p.cues if c.kind == "pass_count" and c.text("total") and c.text("count") != "1")
    assert says.start <= second.start < says.end, (second.start, says.start, says.text)


def test_a_unit_s_products_and_sum_are_written_at_one_precision() -> None:
    """The products on a unit's lines and the sum beside it read together: one number of places
    for all of them (REVIEW7 11: ``= 0.3750``, ``= 0.09375`` and ``Σ = 1.40625`` on one unit),
    each the log's value."""
    checked, p = _checked("mlp")
    sums = [c for c in p.cues if c.kind == "unit_sum"]
    assert sums
    values = {e.seq: e.value for e in checked.run.events if isinstance(e, Tensor)}
    for c in sums:
        shown = [s for s in c.strings if s.role in ("product", "value")]
        assert len({len(s.text.split(".")[-1]) for s in shown}) == 1, [s.text for s in shown]
        assert all(float(s.text) == pytest.approx(values[s.seq], abs=1e-7) for s in shown)


def test_a_unit_s_whole_figure_is_written_at_one_precision() -> None:
    """Everything one unit's figure writes, its weights and the inputs they multiply, then the
    products, their sum and the unit's output, at one number of places (a first-viewer review:
    ``× 0.3750`` on h1_0's lines turned into ``= 0.37500``: two notations in one figure), each
    the log's value, and the sum still the products' sum as written."""
    checked, p = _checked("mlp")
    values = {e.seq: e.value for e in checked.run.events if isinstance(e, Tensor)}
    kinds = ("unit_weights", "unit_sum", "unit_act")
    units = {c.ids[0] for c in p.cues if c.kind == "unit_sum"}
    assert units
    for uid in units:
        shown = [s for c in p.cues if c.kind in kinds and c.ids[0] == uid for s in c.strings if s.role != "op"]
        assert {s.role for s in shown} == {"weight", "input", "product", "value"}
        assert len({len(s.text.split(".")[-1]) for s in shown}) == 1, [s.text for s in shown]
        assert all(float(s.text) == pytest.approx(values[s.seq], abs=1e-7) for s in shown)
        products = [float(s.text) for s in shown if s.role == "product"]
        total = next(s for c in p.cues if c.kind == "unit_sum" and c.ids[0] == uid for s in c.strings
                     if s.role == "value")
        assert sum(products) == pytest.approx(float(total.text), abs=1e-9)


def test_reverse_mode_draws_its_network_while_the_words_describe_it() -> None:
    """The units come under the phrase that describes the network, and the loss as its value is
    named: what is spoken about is on screen (before: the first phrase, "A network has one loss
    and many weights", stood over x0 and x1 alone, and the rest came under the next one)."""
    _, p = _checked("reverse_mode")
    first = next(c for c in p.captions if c.style == "caption")
    units = [c for c in p.cues if c.kind == "unit_appear" and c.beat == p.cues[0].beat]
    loss = units[-1]
    named = next(c for c in p.captions if any(s.text == loss.text("value") for s in c.strings))
    assert [c for c in units[:-1] if c.start >= first.end] == []
    assert loss.start == pytest.approx(named.start)
