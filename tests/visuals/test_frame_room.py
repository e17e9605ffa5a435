"""Room kept in the frame for what is not the graph: a checklist beside a square frame's graph,
and the printed lines under the code, forecast as the scene will wrap them (docs/storyboards.md)."""

from __future__ import annotations

from scenes.layout.clip import checklist_room, graph_region, printed_texts
from scenes.storyboard import load_and_plan
from scenes.storyboard.store import storyboard_path
from scenes.theme import default_theme

THEME = default_theme()


def _plan(name: str):
    checked, plan = load_and_plan(storyboard_path(name))
    return checked, plan


def test_a_square_frame_keeps_room_for_the_checklist_beside_the_graph() -> None:
    checked, plan = _plan("missing_gradient")
    square, wide = THEME.aspect("1:1"), THEME.aspect("16:9")
    room = checklist_room(plan, square, THEME)
    longest = max(len(s.text) for c in plan.cues if c.kind == "check" for s in c.strings if s.role == "item")
    assert room >= longest * THEME.layout.glyph_advance_words * THEME.font_sizes.note
    assert graph_region(plan, checked.index.source, square, THEME)[0] >= square.graph[0] + room - 1e-9
    assert checklist_room(plan, wide, THEME) == 0.0  # a wide frame's list goes to a free corner


def test_no_room_without_a_checklist() -> None:
    _, plan = _plan("backward_walk")
    assert checklist_room(plan, THEME.aspect("1:1"), THEME) == 0.0


def test_a_printed_warning_is_forecast_as_its_first_sentence() -> None:
    _, plan = _plan("missing_gradient")
    warning = next(t for t in printed_texts(plan) if t.startswith("UserWarning"))
    assert warning.endswith("is being accessed.")  # the line the scene prints, not PyTorch's advice after it


def test_the_op_name_over_the_loss_stays_out_of_the_frames_margin() -> None:
    """In a graph that grows up, the loss's card is the highest and its op name (``** 2``) sits
    over it: the layout keeps that much room under the frame's margin, unless the room would
    cost the cards a row of their texts."""
    from scenes.layout.place import layout_events

    for name in ("backward_graph", "backward_walk", "missing_gradient"):
        checked, plan = _plan(name)
        for aspect in ("16:9", "9:16", "1:1"):
            spec = THEME.aspect(aspect)
            lay = layout_events(checked.run.events, aspect, THEME, graph_region(plan, checked.index.source, spec, THEME))
            f = THEME.font_sizes
            tag = THEME.layout.glyph_height * max(f.card_flag * lay.scale, f.min_readable)
            top = max(b.y + b.h / 2 for b in lay.boxes.values() if b.kind == "loss")
            assert top + 2 * THEME.spacing.edge_clearance + tag <= spec.frame_height / 2 - spec.margin + 1e-9, (name, aspect)
