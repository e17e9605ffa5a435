"""The walk's camera frames what is drawn (issue 39 item 4): dynamic_graph's layout places every
card the clip will ever draw (the freed graphs, the loops' later multiplies), and a view framed
on those showed the two cards of a loop's graph small in a corner of an empty frame."""

from __future__ import annotations

from scenes.render.camera_plan import load_and_plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import storyboard_path

EDGE = 0.03
"""No card within this share of the frame's side of its edge (issue 39 item 4)."""
LARGER = 1.1
"""How much larger than at home a card drawn by the view out is at least: more than a stroke."""


def _cards(sample: dict) -> dict[str, list[float]]:
    """The box of each card in view (pixels), by tensor id (not a bucket: no card)."""
    return {i["id"]: i["bbox"] for i in sample["items"] if i["role"] == "card" and i["opacity"] > 0.5}


def _walk_ends(plan) -> list[tuple[float, float]]:
    """For each move of the walk's camera out at a walk's end: a time just before the walk's
    first move in (the graph at home), and a time once the move out is done."""
    out = []
    cams = [c for c in plan.cues if c.kind == "camera"]
    for i, c in enumerate(cams):
        if c.ids or i == 0 or not cams[i - 1].ids:
            continue  # a move in, or one out after one out
        first = [o for o in cams[:i] if o.ids and o.start > max([x.start for x in cams[:i] if not x.ids], default=0.0)][0]
        out.append((first.start - 0.05, c.start + c.duration + 0.5))
    return out


def test_after_a_loops_walk_its_cards_stay_larger_than_home() -> None:
    """dynamic_graph 16:9: once the walk of a loop's graph (h = w * w, two cards and w's bucket)
    is over, w's card stays larger than the clip's layout draws it (the view out framed every
    card the clip will draw: w came back ~70x40 px in the lower right, its text 7-8 px, 60 % of
    the frame empty)."""
    checked, plan = load_and_plan_at(storyboard_path("dynamic_graph"), aspect="16:9")
    w = checked.index.ids_of("w")[0]
    ends = _walk_ends(plan)
    assert ends
    samples = iter(inspect_clip(checked, plan, RenderOptions(aspect="16:9"), at=[t for e in ends for t in e]))
    checked_walks = 0
    for _ in ends:
        home, after = _cards(next(samples)), next(samples)
        a = _cards(after)
        if sum(i["role"] == "card" and i["opacity"] > 0 for i in after["items"]) > 2:
            continue  # a larger graph, or a freed one kept beside it (faded): framed as a whole
        checked_walks += 1
        assert w in a and w in home, (after["time"], sorted(a), sorted(home))
        at_home, seen = home[w][2] - home[w][0], a[w][2] - a[w][0]
        assert seen > LARGER * at_home, (after["time"], seen, at_home)
    assert checked_walks  # the loop's graph of two cards


def test_after_a_walk_the_cards_drawn_stand_clear_of_the_edge_and_use_the_width() -> None:
    """dynamic_graph 9:16: once a walk is over, no card is within 3 % of the frame's edge, and the
    cards drawn (with their buckets and notes) use the frame's width evenly (the gaps left and
    right of them differ by less than a third of it): the s = -1/3 card stood at the left edge at 57-64 s, the graph in the lower
    left, the room kept for the clip's other cards empty beside it."""
    checked, plan = load_and_plan_at(storyboard_path("dynamic_graph"), aspect="9:16")
    ends = _walk_ends(plan)
    samples = list(inspect_clip(checked, plan, RenderOptions(aspect="9:16"), at=[after for _, after in ends]))
    shown = ("card", "bucket", "note")
    for s in samples:
        fw, fh = s["frame"]
        cards = _cards(s)
        for k, b in cards.items():
            assert b[0] >= EDGE * fw and b[2] <= fw - EDGE * fw and b[1] >= EDGE * fh and b[3] <= fh - EDGE * fh, \
                (s["time"], k, b, (fw, fh))
        drawn = [i["bbox"] for i in s["items"] if i["role"] in shown and i["opacity"] > 0.5]
        left, right = min(b[0] for b in drawn), fw - max(b[2] for b in drawn)
        assert abs(left - right) < fw / 3, (s["time"], left, right, fw)
