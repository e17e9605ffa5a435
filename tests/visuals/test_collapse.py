"""Beyond what fits: chains of single-input nodes drawn as one card, then (under a code pane of
the lit line alone) each named result's whole expression; every card of every clip and lesson
keeps its value at every aspect, and `render check` says what was folded."""

from __future__ import annotations

import contextlib
import io

import pytest

from engine.records import Tensor
from scenes.layout.clip import clip_layout, code_rect
from scenes.layout.collapse import chain_links, collapse
from scenes.layout.graph import graph_from_events
from scenes.layout.place import shows_values
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import default_theme
from tests.clips import ASPECTS, CLIPS, LESSONS

THEME = default_theme()
FILES = {p.stem: str(p) for p in LESSONS} | {n: str(storyboard_path(n)) for n in CLIPS}


def _load(name: str):
    return load_and_plan(FILES[name])


NAMES_ONLY = {
    ("backward_graph", "1:1"): "a clip naming its backward functions keeps its whole pane and folds nothing; at 1:1 "
                               "its cards name the tensor and its grad_fn, with no room for a value",
}
"""Cases whose cards show names only, and why."""


def _card_cases() -> list:
    """Each clip and lesson that draws cards (the network view's clips draw units), at each aspect."""
    out = []
    for name in sorted(FILES):
        if any(c.kind == "node_appear" for c in _load(name)[1].cues):
            for aspect in ASPECTS:
                marks = [pytest.mark.xfail(strict=True, reason=NAMES_ONLY[name, aspect])] if (name, aspect) in NAMES_ONLY else []
                out.append(pytest.param(name, aspect, marks=marks, id=f"{name}-{aspect}"))
    return out


@pytest.mark.parametrize(("name", "aspect"), _card_cases())
def test_every_card_shows_its_value_at_every_aspect(name: str, aspect: str) -> None:
    """Up to 40 nodes, at 16:9, 9:16 and 1:1: no card with its name only (micrograd's example
    and the sigmoid's log loss at 1:1 were names only, their values nowhere), and whatever
    was folded into a card is a result nobody names, shown in a card of the layout."""
    checked, plan = _load(name)
    lay = clip_layout(plan, checked.run.events, checked.index.source, aspect, THEME)
    assert shows_values(lay), (aspect, lay.detail, lay.scale)
    for folded, card in lay.merged.items():
        assert folded not in lay.boxes and card in lay.boxes, (aspect, folded, card)
    named = {e.id for e in checked.run.events if isinstance(e, Tensor) and e.name}
    assert not named & set(lay.merged), aspect


def _titles(name: str, expressions: bool) -> set[tuple[str, str]]:
    """(folded result, the card it is drawn in), by their titles."""
    checked, _ = _load(name)
    graph = graph_from_events(checked.run.events, checked.index.source)
    items = {it.id: it for it in graph.items}
    merged = collapse(graph, expressions).merged
    assert set(merged) == set(chain_links(graph, expressions))
    return {(items[v].title, items[w].title) for v, w in merged.items()}


def test_a_chain_is_single_input_nodes_and_no_named_result() -> None:
    """In ``-(y * p.log() + (1 - y) * (1 - p).log())`` the chains are ``1 - p`` then its log
    and the sum then its negation; ``p.log()`` is not one (``p`` is named, and ``y * p.log()``
    takes ``y`` too)."""
    assert _titles("sigmoid_logloss", False) == {("1 - p", "log(1 - p)"), ("add", "loss")}


def test_expressions_fold_every_unnamed_result_into_the_one_it_feeds() -> None:
    """``c = c + 1 + c + (-a)``: ``c + 1``, ``c + 1 + c`` and ``-a`` draw in the new ``c``;
    ``e = c - d`` and the rest of the named results stay cards of their own."""
    folds = _titles("micrograd_readme", True)
    assert {("c + 1", "c"), ("c + 1 + c", "c"), ("-a", "c"), ("b**3", "d")} <= folds
    assert {w for _, w in folds} <= {"c", "d", "g"}
    assert {v for v, _ in _titles("micrograd_readme", False)} < {v for v, _ in folds}  # the chains fold too


def test_a_step_of_a_chain_shows_in_its_card_a_term_does_not() -> None:
    """``c = c + c + 1``: ``c + c`` is a step of the new ``c`` (a chain into it); in
    ``d = a * b + b**3`` both products are terms of ``d``, and so are ``b + a`` and its ReLU in
    ``d + d * 2 + (b + a).relu()`` (the ReLU is a term). With chains alone every fold is a step."""
    checked, _ = _load("micrograd_readme")
    graph = graph_from_events(checked.run.events, checked.index.source)
    title = {it.id: it.title for it in graph.items}
    folded = collapse(graph, expressions=True)
    steps = {title[v] for v in folded.steps}
    assert "c + c" in steps and not {"a * b", "b**3", "b + a", "relu(b + a)", "-a"} & steps
    chains = collapse(graph)
    assert chains.steps == frozenset(chains.merged)


def test_a_folded_chain_takes_its_first_node_s_inputs() -> None:
    """The card of ``(1 - p).log()``, called ``log(1 - p)``, has the arrow from ``p`` that went into ``1 - p``; nothing
    is left pointing at a folded node, and the card is sized for its folded result's title."""
    checked, _ = _load("sigmoid_logloss")
    graph = graph_from_events(checked.run.events, checked.index.source)
    folded = collapse(graph)
    ids = {it.id for it in folded.graph.items}
    assert all(e.src in ids and e.dst in ids for e in folded.graph.edges)
    by_title = {it.title: it for it in folded.graph.items}
    assert by_title["log(1 - p)"].folds == ("1 - p",)
    assert ("p", "log(1 - p)") in {(next(i.title for i in folded.graph.items if i.id == e.src),
                             next(i.title for i in folded.graph.items if i.id == e.dst)) for e in folded.graph.edges}


def test_the_deep_lessons_fold_only_at_1x1() -> None:
    """Where every node fits with its value (16:9, 9:16) nothing folds; at 1:1 the sigmoid's
    chains fold under the whole pane, micrograd's and the small network's expressions under a
    pane of the lit line."""
    for name, lit in (("sigmoid_logloss", False), ("micrograd_readme", True), ("mlp_lists", True)):
        checked, plan = _load(name)
        lays = {a: clip_layout(plan, checked.run.events, checked.index.source, a, THEME) for a in ASPECTS}
        assert not lays["16:9"].merged and not lays["9:16"].merged, name
        assert lays["1:1"].merged and lays["1:1"].code_lit == lit, name
        assert all(card in lays["1:1"].boxes for card in lays["1:1"].merged.values())


def test_check_says_what_was_folded_at_which_aspect() -> None:
    from scenes.commands.storyboard import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["check", "--no-torch", FILES["sigmoid_logloss"], FILES["backward_walk"]]) == 0
    lines = out.getvalue().splitlines()
    said = [ln for ln in lines if ln.startswith("  ") and "so that every card shows its value" in ln]  # the folds
    assert said == ["  at 1:1, so that every card shows its value: 2 results are drawn in the card of the result "
                    "they feed: `1 - p` in `log(1 - p)`; `add` in `loss`"], lines


def test_lit_pane_fits_its_strip() -> None:
    """The strip kept for a pane of the lit line alone (``sizes.code_lit`` a row at ``code_min``,
    a row more for each row a wrapped line takes, `lit_strip`) holds the pane the scene draws
    there: at its first line and at its longest one, it never reaches under the strip, where
    the graph starts, and shows that line whole."""
    pytest.importorskip("manim")
    from scenes.draw.visuals import CodePane

    for name in sorted(FILES):
        checked, _ = _load(name)
        source = checked.index.source
        lines = source.rstrip("\n").split("\n")
        longest = max(range(len(lines)), key=lambda i: len(lines[i])) + 1
        for aspect in ("9:16", "1:1"):
            strip = code_rect(THEME.aspect(aspect), THEME, True, source)
            for line in (1, longest):
                pane = CodePane(source, strip, THEME, first=line, max_rows=1)
                assert pane.shows(line) and len(pane.lines) == 1, (name, aspect, line)
                assert pane.bg.get_bottom()[1] >= strip[1] - 1e-6, (name, aspect, line)
                assert pane.lines[0].get_bottom()[1] >= strip[1], (name, aspect, line)
