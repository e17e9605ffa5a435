"""Nothing collides, in any clip at any aspect, at any frame: read from the scene's own record.

Every frame of each of the nine clips, at 16:9, 9:16 and 1:1 (low quality: 15 frames a second,
the picture in scene units is the same at every quality), is inspected as ``render inspect``
does, and :func:`scenes.draw.collisions.collisions` must find nothing. A failure lists every
collision: the clip, the aspect, the times it lasts, and the two items.

Each clip at each aspect is one case. The cases that still collide are listed in ``STILL_COLLIDE``
below, each with how many collisions it has and of which kinds, and are expected to fail
(``xfail(strict=True)``): a listed case that becomes clean fails the run, so it must be taken off
the list, and an unlisted case that collides fails as before. The checker itself
(:mod:`scenes.draw.collisions`) is the same for every case.

The same pass over the frames also measures every text (:func:`scenes.draw.collisions.too_small`,
docs/inspect.md): no text's glyphs may be shorter than the theme's ``font_sizes.min_glyph_px``
at 854x480. The cases that still show smaller texts are listed in ``STILL_TOO_SMALL``, in the
same way.

The lessons of tests/storyboard/lessons/ are cases too, at every 2nd frame (``LESSON_FRAME_STEP``),
in the same two tables. Under pytest-xdist a case's two checks are kept on one worker (an
``xdist_group`` per case), so they still share one inspection.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from scenes.draw.collisions import collisions, too_small
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import load_theme

pytestmark = pytest.mark.slow  # every frame of 27 clip-aspects and 18 lesson-aspects, played without drawing

CORE = ["graph_build", "backward_graph", "backward_walk", "grad_accumulation",
        "leaf_nodes", "missing_gradient", "dynamic_graph", "mlp", "reverse_mode"]
ASPECTS = ["16:9", "9:16", "1:1"]
LESSONS = {p.stem: p for p in sorted((Path(__file__).parent / "storyboard" / "lessons").glob("*.yaml"))}
LESSON_FRAME_STEP = 2
"""The lessons are looked at every 2nd frame (7.5 a second at low quality): six more clips at
three aspects would double the suite's time at every frame, and a collision lasting one frame
only is a badge in motion, which the clips' cases catch at every frame."""
NAMES = CORE + list(LESSONS)

STILL_COLLIDE: dict[tuple[str, str], str] = {
    # (clip, aspect): "N collisions: how many of each kind", N as found_collisions counts them
    # (distinct pairs of items, each lasting one frame or more). Clean: graph_build, backward_graph,
    # mlp and reverse_mode at every aspect; backward_walk at 16:9; missing_gradient at 9:16. Most
    # left are a badge for one or two frames of a ride or a glide; the lessons' big graphs more.
    ('backward_walk', '9:16'): '4 collisions: 3 texts overlap (label/badge), 1 text on a bucket not its own (badge)',
    ('backward_walk', '1:1'): '6 collisions: 4 texts overlap (label/badge), 1 texts overlap (badge/badge), '
        '1 text on a card not its own (badge)',
    ('grad_accumulation', '16:9'): '1 collisions: 1 texts overlap (badge/badge)',
    ('grad_accumulation', '9:16'): '1 collisions: 1 texts overlap (badge/badge)',
    ('grad_accumulation', '1:1'): '2 collisions: 2 texts overlap (label/badge)',
    ('leaf_nodes', '16:9'): '3 collisions: 1 texts overlap (label/badge), 1 texts overlap (badge/badge), '
        '1 text on a card not its own (badge)',
    ('leaf_nodes', '9:16'): '3 collisions: 2 texts overlap (label/badge), 1 text on a card not its own (badge)',
    ('leaf_nodes', '1:1'): '4 collisions: 2 text on a card not its own (badge), 1 texts overlap (badge/badge), '
        '1 texts overlap (label/badge)',
    ('missing_gradient', '16:9'): '2 collisions: 2 texts overlap (label/badge)',
    ('missing_gradient', '1:1'): '8 collisions: 2 texts overlap (value/label), 2 text on a card not its own (label), '
        '1 texts overlap (label/label), 1 text on a bucket not its own (label), '
        '1 texts overlap (label/badge), 1 texts overlap (badge/label)',
    ('dynamic_graph', '16:9'): '1 collisions: 1 text on a card not its own (badge)',
    ('dynamic_graph', '9:16'): '6 collisions: 2 texts overlap (label/label), 2 texts overlap (badge/badge), '
        '1 text on a card not its own (badge), 1 texts overlap (label/badge)',
    ('dynamic_graph', '1:1'): '10 collisions: 3 texts overlap (badge/badge), 3 texts overlap (label/badge), '
        '2 text on a card not its own (badge), 1 text on a card not its own (label), '
        '1 texts overlap (value/badge)',
    ('micrograd_readme', '16:9'): '81 collisions: 18 text on a card not its own (badge), 17 texts overlap (label/badge), '
        '14 texts overlap (label/console), 9 texts overlap (label/label), '
        '8 text on a card not its own (label), 7 texts overlap (badge/badge), '
        '6 card on a card (card), 1 leaves the frame (label), '
        '1 text on a bucket not its own (badge)',
    ('micrograd_readme', '9:16'): '73 collisions: 17 text on a card not its own (label), 15 texts overlap (label/badge), '
        '12 texts overlap (label/label), 12 text on a card not its own (badge), '
        '10 texts overlap (badge/badge), 6 card on a card (card), '
        '1 text on a bucket not its own (badge)',
    ('micrograd_readme', '1:1'): '97 collisions: 32 texts overlap (label/badge), 20 text on a card not its own (label), '
        '18 text on a card not its own (badge), 12 texts overlap (badge/badge), '
        '9 texts overlap (label/label), 6 card on a card (card)',
    ('mlp_lists', '16:9'): '7 collisions: 2 texts overlap (label/badge), 2 text on a card not its own (badge), '
        '2 texts overlap (badge/badge), 1 text on a bucket not its own (badge)',
    ('mlp_lists', '9:16'): '5 collisions: 3 texts overlap (label/badge), 1 text on a card not its own (badge), '
        '1 leaves the frame (label)',
    ('mlp_lists', '1:1'): '22 collisions: 10 texts overlap (label/badge), 7 text on a card not its own (badge), '
        '3 texts overlap (badge/badge), 2 texts overlap (label/label)',
    ('sgd_loop', '16:9'): '12 collisions: 4 text on a card not its own (badge), 2 texts overlap (code/title), '
        '2 texts overlap (value/badge), 2 text on a card not its own (label), '
        '1 text on a bucket not its own (badge), 1 texts overlap (label/badge)',
    ('sgd_loop', '9:16'): '14 collisions: 6 texts overlap (label/label), 3 text on a card not its own (badge), '
        '2 texts overlap (label/badge), 2 texts overlap (value/badge), '
        '1 text on a bucket not its own (badge)',
    ('sgd_loop', '1:1'): '11 collisions: 4 text on a card not its own (badge), '
        '3 text on a card not its own (label), 2 texts overlap (value/badge), '
        '1 text on a bucket not its own (badge), 1 texts overlap (label/badge)',
    ('sigmoid_logloss', '16:9'): '19 collisions: 8 texts overlap (label/badge), 5 text on a card not its own (badge), '
        '4 texts overlap (badge/badge), 2 texts overlap (value/badge)',
    ('sigmoid_logloss', '9:16'): '9 collisions: 5 texts overlap (label/badge), 2 texts overlap (badge/badge), '
        '2 text on a card not its own (badge)',
    ('sigmoid_logloss', '1:1'): '17 collisions: 9 texts overlap (label/badge), 7 text on a card not its own (badge), '
        '1 text on a card not its own (label)',
    ('tanh_neuron', '16:9'): '2 collisions: 1 texts overlap (badge/badge), 1 text on a card not its own (badge)',
    ('tanh_neuron', '9:16'): '1 collisions: 1 text on a card not its own (badge)',
    ('tanh_neuron', '1:1'): '15 collisions: 5 texts overlap (label/badge), 3 texts overlap (badge/badge), '
        '2 texts overlap (label/label), 2 text on a card not its own (badge), '
        '2 text on a card not its own (label), 1 text on a bucket not its own (label)',
    ('weighted_sum4', '16:9'): '3 collisions: 2 text on a card not its own (badge), 1 texts overlap (label/badge)',
    ('weighted_sum4', '9:16'): '8 collisions: 4 text on a card not its own (badge), 2 texts overlap (label/badge), '
        '2 texts overlap (badge/badge)',
    ('weighted_sum4', '1:1'): '5 collisions: 2 text on a card not its own (badge), 1 texts overlap (badge/badge), '
        '1 texts overlap (value/badge), 1 texts overlap (label/badge)',
}
STILL_TOO_SMALL: dict[tuple[str, str], str] = {
    # (clip, aspect): "N texts: how many of each role", N as found_too_small counts them
    # (distinct texts). Every case, on today's sizes: the grad_fn rows of cards 8.7 px, values
    # 8.6 px, AccumulateGrad tags and the network view's labels smaller, at 854x480.
    ('graph_build', '16:9'): '27 texts: 18 labels, 9 values',
    ('graph_build', '9:16'): '26 texts: 18 labels, 8 values',
    ('graph_build', '1:1'): '28 texts: 19 labels, 9 values',
    ('backward_graph', '16:9'): '22 texts: 20 labels, 2 values',
    ('backward_graph', '9:16'): '21 texts: 19 labels, 2 values',
    ('backward_graph', '1:1'): '21 texts: 21 labels',
    ('backward_walk', '16:9'): '31 texts: 21 labels, 9 values, 1 badges',
    ('backward_walk', '9:16'): '31 texts: 21 labels, 9 values, 1 badges',
    ('backward_walk', '1:1'): '31 texts: 21 labels, 9 values, 1 badges',
    ('grad_accumulation', '16:9'): '16 texts: 11 labels, 4 values, 1 badges',
    ('grad_accumulation', '9:16'): '16 texts: 11 labels, 4 values, 1 badges',
    ('grad_accumulation', '1:1'): '16 texts: 11 labels, 4 values, 1 badges',
    ('leaf_nodes', '16:9'): '25 texts: 17 labels, 7 values, 1 badges',
    ('leaf_nodes', '9:16'): '24 texts: 16 labels, 7 values, 1 badges',
    ('leaf_nodes', '1:1'): '28 texts: 18 labels, 9 values, 1 badges',
    ('missing_gradient', '16:9'): '24 texts: 16 labels, 7 values, 1 badges',
    ('missing_gradient', '9:16'): '24 texts: 16 labels, 7 values, 1 badges',
    ('missing_gradient', '1:1'): '24 texts: 16 labels, 7 values, 1 badges',
    ('dynamic_graph', '16:9'): '40 texts: 25 labels, 14 values, 1 badges',
    ('dynamic_graph', '9:16'): '40 texts: 25 labels, 14 values, 1 badges',
    ('dynamic_graph', '1:1'): '40 texts: 25 labels, 14 values, 1 badges',
    ('mlp', '16:9'): '17 texts: 14 labels, 3 values',
    ('mlp', '9:16'): '17 texts: 14 labels, 3 values',
    ('mlp', '1:1'): '17 texts: 14 labels, 3 values',
    ('reverse_mode', '16:9'): '16 texts: 13 labels, 3 values',
    ('reverse_mode', '9:16'): '16 texts: 13 labels, 3 values',
    ('reverse_mode', '1:1'): '16 texts: 13 labels, 3 values',
    ('micrograd_readme', '16:9'): '68 texts: 67 labels, 1 badges',
    ('micrograd_readme', '9:16'): '66 texts: 65 labels, 1 badges',
    ('micrograd_readme', '1:1'): '72 texts: 71 labels, 1 badges',
    ('mlp_lists', '16:9'): '102 texts: 56 labels, 27 values, 17 codes, 1 badges, 1 consoles',
    ('mlp_lists', '9:16'): '109 texts: 52 labels, 30 codes, 25 values, 1 badges, 1 consoles',
    ('mlp_lists', '1:1'): '83 texts: 49 labels, 24 codes, 9 consoles, 1 badges',
    ('sgd_loop', '16:9'): '40 texts: 26 labels, 13 values, 1 badges',
    ('sgd_loop', '9:16'): '48 texts: 34 labels, 13 values, 1 badges',
    ('sgd_loop', '1:1'): '47 texts: 34 labels, 12 values, 1 badges',
    ('sigmoid_logloss', '16:9'): '55 texts: 35 labels, 16 values, 2 codes, 1 badges, 1 consoles',
    ('sigmoid_logloss', '9:16'): '27 texts: 26 labels, 1 badges',
    ('sigmoid_logloss', '1:1'): '34 texts: 33 labels, 1 badges',
    ('tanh_neuron', '16:9'): '45 texts: 22 labels, 13 values, 9 codes, 1 badges',
    ('tanh_neuron', '9:16'): '37 texts: 22 labels, 11 values, 3 codes, 1 badges',
    ('tanh_neuron', '1:1'): '22 texts: 17 labels, 4 codes, 1 badges',
    ('weighted_sum4', '16:9'): '48 texts: 30 labels, 17 values, 1 badges',
    ('weighted_sum4', '9:16'): '42 texts: 31 labels, 10 values, 1 badges',
    ('weighted_sum4', '1:1'): '49 texts: 30 labels, 18 values, 1 badges',
}
assert set(STILL_TOO_SMALL) <= {(n, a) for n in NAMES for a in ASPECTS}, "STILL_TOO_SMALL names a case that is not run"
assert set(STILL_COLLIDE) <= {(n, a) for n in NAMES for a in ASPECTS}, "STILL_COLLIDE names a case that is not run"


def _who(item: dict | None) -> str:
    if item is None:
        return ""
    text = f" {item['text']!r}" if item.get("text") is not None else ""
    return f"{item['role']}{text}" + (f" ({item['id']})" if item.get("id") is not None else "")


@functools.lru_cache(maxsize=1)
def found_problems(name: str, aspect: str) -> tuple[list[str], list[str]]:
    """Every frame (every 2nd of a lesson) of ``name`` at ``aspect`` inspected once: one line per collision, then one
    per text under the theme's minimum glyph height (`too_small`), each with the times it lasts
    and the items (with their boxes in pixels the first time it is seen)."""
    checked, plan = load_and_plan(str(LESSONS[name]) if name in LESSONS else storyboard_path(name))
    opts = RenderOptions(aspect=aspect)
    min_px = load_theme().font_sizes.min_glyph_px
    every = LESSON_FRAME_STEP if name in LESSONS else 1
    frames = list(range(0, round(plan.duration * fps_of(opts)), every))
    seen: tuple[dict, dict] = ({}, {})
    for sample in inspect_clip(checked, plan, opts, frames=frames):
        for table, found in zip(seen, (collisions(sample["items"], sample["frame"]),
                                       too_small(sample["items"], sample["frame"], min_px))):
            for c in found:
                key = (c.what, _who(c.a), _who(c.b))
                table.setdefault(key, [sample["time"], sample["time"], 0, c.describe()])
                table[key][1] = sample["time"]
                table[key][2] += 1
    lines = [[f"{name} {aspect} {t0:.2f}-{t1:.2f} s ({n} frames): {first}" for t0, t1, n, first in t.values()]
             for t in seen]
    return lines[0], lines[1]


def found_collisions(name: str, aspect: str) -> list[str]:
    """One line per collision of ``name`` at ``aspect`` (see `found_problems`)."""
    return found_problems(name, aspect)[0]


def found_too_small(name: str, aspect: str) -> list[str]:
    """One line per text of ``name`` at ``aspect`` under the minimum glyph height (see `found_problems`)."""
    return found_problems(name, aspect)[1]


TABLES = {"collide": STILL_COLLIDE, "too_small": STILL_TOO_SMALL}


def _case(name: str, aspect: str, check: str) -> object:
    reason = TABLES[check].get((name, aspect))
    marks = [pytest.mark.xdist_group(f"frames-{name}-{aspect}")]  # both checks on one worker
    marks += [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, aspect, check, marks=marks, id=f"{name}-{aspect}-{check}")


# a case's two checks run one after the other, so they share one inspection (found_problems)
@pytest.mark.parametrize(("name", "aspect", "check"),
                         [_case(n, a, c) for n in NAMES for a in ASPECTS for c in TABLES])
def test_frames(name: str, aspect: str, check: str) -> None:
    """``collide``: nothing collides. ``too_small``: no text's glyphs under the theme's
    ``font_sizes.min_glyph_px`` (at 854x480; more at a larger frame)."""
    if check == "collide":
        found = found_collisions(name, aspect)
        assert not found, f"{len(found)} collisions:\n" + "\n".join(found)
    else:
        found = found_too_small(name, aspect)
        assert not found, f"{len(found)} texts too small:\n" + "\n".join(found)
