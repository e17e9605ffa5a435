"""Big graphs (20 to 40 nodes) laid out with compact cards, of two rows or (a deeper graph) one:
every card and bucket shows its rows at the minimum readable size, and the layout still reads
only the graph's structure."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("manim")

from engine.records import Tensor
from scenes.draw.visuals import bucket, label, node_card  # noqa: E402
from scenes.layout.clip import clip_layout  # noqa: E402
from scenes.layout.compact import balanced_layers  # noqa: E402
from scenes.layout.graph import GraphEdge  # noqa: E402
from scenes.storyboard import load_and_plan  # noqa: E402
from scenes.theme import default_theme  # noqa: E402

THEME = default_theme()
LESSONS = Path(__file__).parents[1] / "storyboard" / "lessons"
PX_PER_UNIT_480P = 480 / 8.0  # the short side of every frame is 8 scene units


def _layout(name: str, aspect: str, sets: tuple[str, ...] = ()):
    checked, plan = load_and_plan(str(LESSONS / f"{name}.yaml"), sets)
    return checked.run.events, clip_layout(plan, checked.run.events, checked.index.source, aspect, THEME)


def _values(events: list[dict]) -> dict[str, str]:
    """Each tensor's value as the fraction style writes it (the log's shadow)."""
    out = {}
    for e in events:
        if isinstance(e, Tensor):
            out.setdefault(e.id, str(e.exact or e.value))
    return out


CASES = [("mlp_lists", "9:16", "compact"), ("weighted_sum4", "16:9", "compact"), ("weighted_sum4", "9:16", "compact"),
         ("weighted_sum4", "1:1", "compact"), ("sigmoid_logloss", "16:9", "compact"),
         ("mlp_lists", "16:9", "dense"), ("micrograd_readme", "16:9", "dense"), ("micrograd_readme", "9:16", "dense")]
"""Lessons that fit compact cards with 9 px texts, and lessons too deep for two rows of them
(mlp_lists: 8 layers beside its code pane at 16:9; micrograd's example: 14 layers), which fit one."""


@pytest.mark.parametrize(("name", "aspect", "detail"), CASES, ids=[f"{n}-{a}" for n, a, _ in CASES])
def test_compact_cards_show_every_row_readably(name: str, aspect: str, detail: str) -> None:
    """Too big for the theme's cards at a readable scale, the lesson gets compact ones: each
    card shows what it is called (its name, or an unnamed result's code, as the scene titles
    it), its value and, on two rows, a result's grad_fn; each bucket a value; none of them
    under 9 px high at 480p."""
    events, lay = _layout(name, aspect)
    assert lay.detail == detail, (lay.detail, lay.scale)
    values = _values(events)
    low = THEME.font_sizes.min_readable
    for item in lay.items.values():
        box = lay.boxes[item.id]
        if item.kind == "bucket":
            b = bucket(box, THEME, level=0.5, value="-13/10", scale=lay.scale)
            assert b.value is not None, item
            continue
        value = values.get(item.id, "0")[:THEME.layout.value_chars]
        title = item.name or item.code
        card = node_card(box, THEME, name=title, value=value, grad_fn=item.grad_fn, detail=lay.detail, scale=lay.scale)
        assert card.value is not None or item.kind == "internal", (item, value)
        assert card.name is not None or not title, item
        if item.kind in ("op", "loss"):
            assert (card.sub is not None) == (detail == "compact"), item
        for m, text, font in ((card.name, title or item.grad_fn, THEME.fonts.sans), (card.value, value, THEME.fonts.mono),
                              (card.sub, item.grad_fn, THEME.fonts.sans)):
            if m is not None:  # no smaller than the same text at the minimum size (9 px glyphs at 480p)
                assert m.height >= label(text or "", font, low, "#ffffff").height * 0.999, (item, text)
    assert low * THEME.layout.glyph_height * PX_PER_UNIT_480P >= 9.0


def test_compact_layout_does_not_move_when_a_number_changes() -> None:
    """A value planned `value_chars` wide: --set changes the numbers, not one position."""
    _, a = _layout("weighted_sum4", "16:9")
    _, b = _layout("weighted_sum4", "16:9", ("w1=-0.125",))
    assert a.detail == b.detail == "compact" and a.boxes == b.boxes


def test_balanced_layers_spread_the_widest_layer() -> None:
    """Eight inputs feeding one chain of adds: the longest path puts every input in layer 0;
    balancing keeps each input before its use and no layer wider than it must be."""
    ids = [f"x{i}" for i in range(4)] + [f"a{i}" for i in range(4)]
    edges = (GraphEdge("x0", "a0", 0, True), GraphEdge("x1", "a0", 1, True), GraphEdge("a0", "a1", 0, True),
             GraphEdge("x2", "a1", 1, True), GraphEdge("a1", "a2", 0, True), GraphEdge("x3", "a2", 1, True),
             GraphEdge("a2", "a3", 0, True))
    layer = balanced_layers(ids, edges, {v: 1.0 for v in ids}, 0)
    for e in edges:
        assert layer[e.src] < layer[e.dst]
    widths = [sum(1 for v in ids if layer[v] == li) for li in range(max(layer.values()) + 1)]
    assert max(widths) == 2, widths
