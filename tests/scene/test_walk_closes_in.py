"""The walk's camera comes in on the node it visits, not out from it (issue 39, item 4).

What must hold: as a walk visits its graph's first node, that node's card is drawn no smaller
than as the walk starts. A walk's view is framed on the clip's layout, which holds every graph
the clip records; where the cards drawn are few (dynamic_graph's one-node walk, h = w * w, with
the next loop's graph still to come), the view on them alone is the closer one
(`VisitViews._on_drawn`): framed on the layout, the two cards shrank x0.79 at 16:9 while
"backward() walks that one node" ran.
"""

from __future__ import annotations

import math

import pytest

from scenes.render.camera_plan import load_and_plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import storyboard_path

pytestmark = pytest.mark.slow  # draws the clip's frames at the walks' starts and visits
FPS = 10
SAME = 0.95
"""A card drawn this share of its size or more reads as the same size (dynamic_graph 9:16's one-node
walk frames its two cards under the pane stepped aside at 0.98 of the view before, on them with the
pane whole)."""


def _width(sample: dict, card: str) -> float:
    """The width of ``card``'s box (pixels) in ``sample``; 0 where it is not drawn."""
    boxes = [i["bbox"] for i in sample["items"] if i["role"] == "card" and i["id"] == card and i["opacity"] > 0.5]
    return max((b[2] - b[0] for b in boxes), default=0.0)


@pytest.mark.parametrize("aspect,size", [("16:9", (854, 480)), ("9:16", (480, 854))])
def test_a_walk_draws_its_first_node_no_smaller_than_as_it_starts(aspect: str, size: tuple[int, int]) -> None:
    checked, p = load_and_plan_at(str(storyboard_path("dynamic_graph")), aspect=aspect)
    starts = [c for c in p.cues if c.kind == "backward_start"]
    visits = {c.seqs[0]: c for c in p.cues if c.kind == "visit" and c.seqs}
    walks = []  # (card, time before the walk starts, time at its first visit's end)
    for s in starts:
        first = min((v for v in visits.values() if v.beat == s.beat and v.start >= s.start), key=lambda v: v.start)
        walks.append((first.ids[1], math.floor(s.start * FPS - 0.5) / FPS, math.ceil((first.start + first.duration) * FPS) / FPS))
    assert len(walks) == 4, walks  # s, s again, the loop of one, the loop of three
    times = sorted({t for _, a, b in walks for t in (a, b)})
    samples = {round(s["time"] * FPS) / FPS: s for s in inspect_clip(checked, p, RenderOptions(aspect=aspect, size=size, fps=FPS),
                                                  at=times)}
    smaller = [f"{card}: {_width(samples[b], card):.0f} px at {b} s, {_width(samples[a], card):.0f} px at {a} s"
               for card, a, b in walks if _width(samples[b], card) < SAME * _width(samples[a], card)]
    assert smaller == [], "\n".join(smaller)
