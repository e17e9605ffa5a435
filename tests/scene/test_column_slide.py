"""The walks whose graph slides into the column the code pane frees (16:9, the pane beside the
graph): their plan takes the camera out before the pane comes back whole over that column, and
makes the walk's first view again once the pane has stepped aside (`scenes.render.camera_plan`,
`scenes.layout.column`; issue 39: dynamic_graph 16:9 left half the frame empty through its walks)."""

from __future__ import annotations

import pytest

from scenes.layout.camera import walk_region
from scenes.layout.place import tag_reach
from scenes.render.camera_plan import laid_out_at
from scenes.storyboard import load, plan_of, storyboard_path
from scenes.storyboard.cues import Cue
from scenes.storyboard.plan import Plan
from scenes.storyboard.timings import default_timings
from scenes.theme import load_theme


def _walks(p: Plan) -> list[list[Cue]]:
    """The visits of each walk (a run of beats with visits) of the plan ``p``."""
    visits = [c for c in p.cues if c.kind == "visit"]
    out: list[list[Cue]] = []
    for v in visits:
        if out and v.beat - out[-1][-1].beat <= 1:
            out[-1].append(v)
        else:
            out.append([v])
    return out


def test_dynamic_graph_walks_slide_at_16_9_only() -> None:
    """Its first and last walks, the graph as tall as the frame, are column walks at 16:9; no
    walk of leaf_nodes (its close views come nearer) is, nor any at 9:16."""
    from scenes.layout.column import column_walks

    theme = load_theme()
    for name, aspect, beats in (("dynamic_graph", "16:9", {3, 16}), ("dynamic_graph", "9:16", set()),
                                ("leaf_nodes", "16:9", set())):
        checked = load(storyboard_path(name))
        shared = plan_of(checked)
        p, home = laid_out_at(checked, shared, aspect)
        assert home is not None
        spec = theme.aspect(aspect)
        seqs = frozenset(c.seqs[0] for c in p.cues if c.kind == "visit" and c.seqs)
        found = column_walks(p, seqs, home, walk_region(p, checked.index.source, spec, theme), tag_reach(theme),
                             theme.layout.fill_empty * spec.frame_width * spec.frame_height)
        assert found == beats, (name, aspect)


def test_the_way_out_lands_before_the_pane_comes_back_whole() -> None:
    """dynamic_graph 16:9's first walk: the pane keeps ``print(w.grad)`` alone (nothing printed
    before) and comes back whole at ``w.grad = None`` (40.0 s); a way out lands by then, from a
    view made in the walk, in a pause (the move at 42.3 s alone left the slid graph under it)."""
    from scenes.storyboard.pane_back import back_whole, out_before_pane

    checked = load(storyboard_path("dynamic_graph"))
    shared = plan_of(checked)
    p, _ = laid_out_at(checked, shared, "16:9")
    first = _walks(p)[0]
    back = back_whole(p.cues, first[0].start)
    assert abs(back - 40.0) < 1e-6
    ins = [c for c in p.cues if c.kind == "camera" and c.ids and c.start < first[-1].start]
    last_in = max(ins, key=lambda c: c.start)
    assert out_before_pane(p.cues, last_in)
    out = next(c for c in p.cues if c.kind == "camera" and not c.ids and c.start > first[-1].start)
    assert out.start + out.duration <= back + 1e-6
    assert not any(c.start < out.start + out.duration - 1e-6 and out.start < c.start + c.duration - 1e-6
                   for c in shared.cues if c.kind != "dim")


def test_the_first_view_is_made_again_once_the_pane_stepped_aside() -> None:
    """dynamic_graph 16:9's last walk: its first move is made under the whole pane (before
    ``backward_start``), and the next visit's move comes 7 s later; a move with the first one's
    ids and seqs goes in the first pause after the first visit, at its start (the column was
    empty 104.0-112.4 s), and the view it makes lasts until the next move."""
    tm = default_timings()
    checked = load(storyboard_path("dynamic_graph"))
    shared = plan_of(checked)
    p, _ = laid_out_at(checked, shared, "16:9")
    walk = _walks(p)[-1]
    start = next(c for c in p.cues if c.kind == "backward_start" and c.beat == walk[0].beat)
    moves = [c for c in p.cues if c.kind == "camera" and c.ids and c.seqs[:1] == walk[0].seqs[:1]]
    assert len(moves) == 2
    first, again = moves
    assert first.start < start.start < walk[0].start < again.start
    assert again.ids == first.ids and tm.camera_least - 1e-9 <= again.duration <= tm.camera_move + 1e-9
    assert again.start - walk[0].start < 1.0
    assert not any(c.start < again.start + again.duration - 1e-6 and again.start < c.start + c.duration - 1e-6
                   for c in shared.cues)


@pytest.mark.slow  # plays the clip's scene up to the frame looked at
def test_the_first_walks_note_leaves_the_slide_room_to_fill_the_column() -> None:
    """dynamic_graph 16:9's first walk: mul's note at s (the top card), written at the first visit
    and explained until the next move lands, stands where the pane stepped aside to its lit line
    leaves it once that move slides the graph into the column (`WalkCamera.slid_past`): beside
    the card, under the lit line's band. Left of the card in that band, it stopped the slide at
    the pane (394 px), and the column stayed a third of the frame empty 26.6-29.8 s (36.7 % as
    the move landed)."""
    from scenes.render.fill import largest_empty
    from scenes.render.inspect import inspect_clip
    from scenes.render.options import RenderOptions, fps_of

    theme = load_theme()
    checked = load(storyboard_path("dynamic_graph"))
    p, _ = laid_out_at(checked, plan_of(checked), "16:9")
    first = _walks(p)[0]
    slide = next(c for c in p.cues if c.kind == "camera" and c.ids and first[0].start < c.start < first[1].start)
    opts = RenderOptions(aspect="16:9")
    (sample,) = inspect_clip(checked, p, opts, frames=[round((slide.start + slide.duration - 0.1) * fps_of(opts))])
    shown = [i for i in sample["items"] if i["opacity"] > 0]
    pane = next(i["bbox"] for i in shown if i["role"] == "pane")
    card = next(i["bbox"] for i in shown if i["role"] == "card" and i["id"] == "t4")
    note = [i["bbox"] for i in shown if i["role"] == "note" and i["id"] == "note:t4"]
    assert note
    assert all(b[1] >= pane[3] or b[0] >= pane[2] for b in note)  # clear of the pane
    assert max(b[2] for b in note) < card[0] and min(b[1] for b in note) < card[3]  # beside its card
    share, _ = largest_empty(sample["items"], sample["frame"], theme.layout.safe_edge)
    assert share <= theme.layout.fill_empty
