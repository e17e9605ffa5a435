"""reverse_mode's takeaway shows what it says: "One backward sweep gives every weight its
gradient" over the network lit by that one sweep, in the gradient's colour, with forward mode's
36 passes left to its own counter, in its own colour; the loss wears no forward-mode ring, and
the recap board stands apart from the network's layer names (issue 39, items 6 and 7: the
network stood lit all in forward mode's violet, L's red ringed in violet, the sweep only a thin
miniature beside its count, and ``w1_0_0.grad = -0.0754`` squeezed between "loss" and "output")."""

from __future__ import annotations

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.storyboard.network import read_network
from scenes.theme import load_theme

pytestmark = pytest.mark.slow  # plays the clip's scene up to its takeaway

NAME = "reverse_mode"


def _meets(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _layer_names() -> set[str]:
    checked, _ = load_and_plan(storyboard_path(NAME))
    return set(read_network(checked.run.events).layer_names(load_theme().labels))


def _takeaway(aspect: str) -> list[list[dict]]:
    """The visible items of a frame halfway through each takeaway caption, and of the last frame."""
    checked, plan = load_and_plan(storyboard_path(NAME))
    opts = RenderOptions(aspect=aspect)
    fps = fps_of(opts)
    spans = [s for s in plan.captions if s.style == "takeaway"]
    assert spans
    frames = [round((s.start + s.end) / 2 * fps) for s in spans] + [round(plan.duration * fps) - 1]
    return [[i for i in s["items"] if i["opacity"] >= 0.1] for s in inspect_clip(checked, plan, opts, frames=frames)]


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_takeaway_shows_the_one_sweep_on_the_network_in_its_own_colour(aspect: str) -> None:
    for items in _takeaway(aspect):
        marks = [i for i in items if i["role"] == "mark"]
        lit = {i["meaning"] for i in marks}
        assert "gradient" in lit  # the one sweep, on the network
        assert [i["id"] for i in marks if i["meaning"] == "forward_mode"] == []  # no pass's violet on it
        counters = [i for i in items if i["role"] == "label" and i["meaning"] == "forward_mode"]
        assert counters  # forward mode's count stays, in its own colour
        loss = [i for i in items if i["role"] == "unit" and i["meaning"] == "loss"]
        assert loss
        ringed = [i["meaning"] for i in items if i["kind"] == "shape" and i["meaning"] == "forward_mode"
                  for u in loss if _meets(i["bbox"], u["bbox"])]
        assert ringed == []


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_recap_stands_apart_from_the_layer_names(aspect: str) -> None:
    """The board is not set in the column of the network's layer names (between two of them it
    read as one more row of the network)."""
    items = _takeaway(aspect)[-1]
    layer_names = _layer_names()
    names = [i["bbox"] for i in items if i["kind"] == "text" and i["role"] == "label" and i["text"] in layer_names]
    assert len(names) == len(layer_names)
    column = [min(b[0] for b in names), min(b[1] for b in names), max(b[2] for b in names), max(b[3] for b in names)]
    boards = [i for i in items if i["role"] == "recap"]
    assert boards
    assert [b["bbox"] for b in boards if _meets(b["bbox"], column)] == []
