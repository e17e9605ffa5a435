"""Nothing collides, in any clip at any aspect, at any frame: read from the scene's own record.

Every frame of each of the nine clips, at 16:9, 9:16 and 1:1 (low quality: 15 frames a second,
the picture in scene units is the same at every quality), is inspected as ``render inspect``
does, and :func:`scenes.draw.collisions.collisions` must find nothing. A failure lists every
collision: the clip, the aspect, the times it lasts, and the two items.
"""

from __future__ import annotations

import pytest

from scenes.draw.collisions import collisions
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # every frame of 27 clip-aspects, played without drawing

CORE = ["graph_build", "backward_graph", "backward_walk", "grad_accumulation",
        "leaf_nodes", "missing_gradient", "dynamic_graph", "mlp", "reverse_mode"]
ASPECTS = ["16:9", "9:16", "1:1"]


def _who(item: dict | None) -> str:
    if item is None:
        return ""
    text = f" {item['text']!r}" if item.get("text") is not None else ""
    return f"{item['role']}{text}" + (f" ({item['id']})" if item.get("id") is not None else "")


def found_collisions(name: str, aspect: str) -> list[str]:
    """One line per collision of ``name`` at ``aspect``: the times it lasts and the two items
    (with their boxes in pixels the first time it is seen)."""
    checked, plan = load_and_plan(storyboard_path(name))
    opts = RenderOptions(aspect=aspect)
    frames = list(range(round(plan.duration * fps_of(opts))))
    seen: dict[tuple[str, str, str], list] = {}
    for sample in inspect_clip(checked, plan, opts, frames=frames):
        for c in collisions(sample["items"], sample["frame"]):
            key = (c.what, _who(c.a), _who(c.b))
            seen.setdefault(key, [sample["time"], sample["time"], 0, c.describe()])
            seen[key][1] = sample["time"]
            seen[key][2] += 1
    return [f"{name} {aspect} {t0:.2f}-{t1:.2f} s ({n} frames): {first}" for t0, t1, n, first in seen.values()]


@pytest.mark.parametrize("aspect", ASPECTS)
@pytest.mark.parametrize("name", CORE)
def test_no_two_things_collide(name: str, aspect: str) -> None:
    found = found_collisions(name, aspect)
    assert not found, f"{len(found)} collisions:\n" + "\n".join(found)
