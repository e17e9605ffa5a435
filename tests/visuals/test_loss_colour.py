"""A loss takes the loss colour: what backward() ran from, and a second loss it never ran from.

Why (issue 19): a program with two losses that calls backward() on one (``L1.backward()``, to
ask "which loss?") drew the other as an intermediate result, so the viewer saw one loss where
the caption names two.
"""

from __future__ import annotations

from engine import run_program
from scenes.draw.visuals.cards import node_card
from scenes.layout.place import graph_from_events, layout_events
from scenes.theme import default_theme

THEME = default_theme()

TWO_LOSSES = """import torch
x = torch.tensor(2.0)
w = torch.tensor(1.5, requires_grad=True)
v = torch.tensor(3.0, requires_grad=True)
z = w * x
A = (z - 1)**2
B = v * x
A.backward()
"""


def kinds(source: str) -> dict[str, str]:
    """Tensor name -> the kind its card is drawn as."""
    g = graph_from_events(run_program(source, "two.py").events)
    return {it.name: it.kind for it in g.items if it.name and it.kind != "bucket"}


def test_a_loss_never_differentiated_is_still_a_loss() -> None:
    k = kinds(TWO_LOSSES)
    assert k["A"] == "loss" and k["B"] == "loss"  # backward ran from A; B needs grad, nothing uses it
    assert k["z"] == "op" and k["x"] == "leaf_nograd" and k["w"] == "leaf_grad"


def test_its_card_is_outlined_in_the_loss_colour() -> None:
    lay = layout_events(run_program(TWO_LOSSES, "two.py").events, "16:9", THEME)
    for box in lay.boxes.values():
        if box.kind == "loss":
            card = node_card(box, THEME, name=None, value=None, grad_fn=None)
            assert card.frame.get_stroke_color().to_hex().lower() == THEME.colors.loss.lower()
    assert sum(b.kind == "loss" for b in lay.boxes.values()) == 2


def test_an_unused_result_without_backward_is_not_made_a_loss() -> None:
    """With no backward() at all the graph's last sink is its loss (graph_build): no more."""
    k = kinds("import torch\nw = torch.tensor(1.0, requires_grad=True)\na = w * 2\nb = w * 3\n")
    assert (k["a"], k["b"]) == ("op", "loss")


NO_LOSS_NET = """import torch
x0 = torch.tensor(1.0)
x1 = torch.tensor(2.0)
w0 = torch.tensor(0.5, requires_grad=True)
w1 = torch.tensor(0.25, requires_grad=True)
out = w0 * x0 + w1 * x1
"""


def test_a_network_top_unit_that_is_no_loss_is_a_result() -> None:
    """Issue 39: the network view drew its whole top row in the loss's red. A network whose top
    is an output nothing differentiates has no loss: its output is a result, drawn so."""
    from scenes.draw.visuals.network import unit_circle
    from scenes.storyboard.network import read_network

    net = read_network(run_program(NO_LOSS_NET, "net.py").events)
    top = net.layers[-1]
    assert [net.units[u].name for u in top] == ["out"] and net.loss is None
    assert net.meaning(top[0]) == "result"
    ring = unit_circle("out", (0.0, 0.0), 0.3, net.meaning(top[0]), THEME).ring
    assert ring.get_stroke_color().to_hex().lower() == THEME.colour("result").lower() != THEME.colors.loss.lower()


def test_in_the_mlp_only_the_loss_unit_is_the_loss() -> None:
    from scenes.storyboard import load, storyboard_path
    from scenes.storyboard.network import read_network

    net = read_network(load(storyboard_path("mlp")).run.events)
    meanings = {net.units[u].name: net.meaning(u) for u in net.units}
    assert [n for n, m in meanings.items() if m == "loss"] == ["L"]
    assert meanings["yh"] == "result" and meanings["x0"] == "input"
