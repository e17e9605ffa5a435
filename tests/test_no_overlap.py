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

The same pass also checks that what is shown is true at that moment, every half second
(:class:`scenes.render.truth.Truth`): each value on a card is its tensor's value in the log then
(after updates), each bucket shows ``.grad`` then (empty after ``p.grad = None``; a number is
never dropped),
each printed line shown was printed by then and none of the beat that printed it is lost. The
cases that still show something untrue are listed in ``STILL_UNTRUE``.

The same pass finds what blinks (`scenes.render.continuity.blinks`, the nine clips at 16:9 and
9:16): an item with a stable id gone for under half a second and back.

The same pass finds a badge waiting on an arrowhead (`scenes.draw.collisions.waits_on_heads`:
standing where it stood the frame before, over a visible head); a token riding over one is not
counted. The cases that still do are listed in ``STILL_WAIT_ON_HEADS``. And a visit's or a
bucket's note drawn nearer another card than its own (`scenes.draw.collisions.notes_astray`),
which reads as the other's: ``STILL_ASTRAY`` (``NOTED`` clips at 16:9 and 9:16).

The checks are declared once, in ``CHECKS`` (tests/frame_checks.py says how to add one); one
inspection of a case feeds them all. The lessons of tests/storyboard/lessons/ are cases too, at
every 3rd frame (``LESSON_FRAME_STEP``) and every half second for the truth, in the same tables.
Under pytest-xdist a case's checks are kept on one worker (an ``xdist_group`` per case), so they
still share one inspection.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from scenes.storyboard import storyboard_path
from tests.clips import ASPECTS, CLIPS
from tests.frame_checks import Blinks, Collide, FrameCheck, NotesAstray, TooSmall, Untrue, WaitsOnHead, inspect_checks

pytestmark = pytest.mark.slow  # every frame of 27 clip-aspects and 18 lesson-aspects, played without drawing

LESSONS = {p.stem: p for p in sorted((Path(__file__).parent / "storyboard" / "lessons").glob("*.yaml"))}
LESSON_FRAME_STEP = 3
"""The lessons are looked at every 3rd frame (5 a second at low quality): six more clips at
three aspects would double the suite's time at every frame, and a collision lasting one frame
only is a badge in motion, which the clips' cases catch at every frame."""
NAMES = [*CLIPS, *LESSONS]

STILL_COLLIDE: dict[tuple[str, str], str] = {
    # (clip, aspect): "N collisions: how many of each kind", N as found_collisions counts them
    # (distinct pairs of items, each lasting one frame or more). Every case is clean: the nine
    # clips and the lessons at every aspect (the deep lessons at 1:1 fold results into the
    # cards they feed, scenes/layout/collapse.py), but the trained network's: a gradient's badge
    # waiting beside its bucket covers the next bucket's value (its buckets stand close, their
    # 7-character values overhanging), and at 9:16 and 1:1 an arrow from one pass's graph
    # to the next bends out of the frame.
    ("tanh_sgd_lists", "16:9"): "4 collisions: 4 texts overlap (a badge over the next bucket's value)",
    ("tanh_sgd_lists", "9:16"): "5 collisions: 4 texts overlap, 1 leaves the frame (an arrow)",
    ("tanh_sgd_lists", "1:1"): "3 collisions: 2 texts overlap, 1 leaves the frame (an arrow)",
    # the cubic fitted to three points: as in the trained network, a fill's badge beside its
    # bucket covers the next bucket (one frame each, the leaves' buckets side by side in one row);
    # at 1:1 the op name `add` over `a * x + b` (pass 2) lies on the card above it
    ("cubic_fit3", "16:9"): "4 collisions: 3 texts overlap, 1 text on a bucket (a badge over the next bucket)",
    ("cubic_fit3", "9:16"): "4 collisions: 3 texts overlap, 1 text on a bucket (a badge over the next bucket)",
    ("cubic_fit3", "1:1"): "5 collisions: 2 texts overlap, 2 texts on a bucket, 1 text on a card (add)",
}
STILL_TOO_SMALL: dict[tuple[str, str], str] = {
    # (clip, aspect): "N texts: how many of each role", N as found_too_small counts them
    # (distinct texts). Every case is clean: the nine clips, and the lessons' cards (a deep
    # graph's one-row cards keep 9 px) and code panes (long lines wrap).
}
STILL_UNTRUE: dict[tuple[str, str], str] = {
    # (clip, aspect): "N untrue: what", N as found_untrue counts them (distinct texts). None.
}
STILL_BLINKS: dict[tuple[str, str], str] = {
    # (clip, aspect): what still blinks (continuity.blinks), checked for the nine clips at 16:9 and 9:16.
    # The console's "lines printed earlier: N" turns its number in place in its top right corner
    # (scenes/draw/console.py), but where the column under the code holds three rows and a row of
    # its own would push out a line the beat printed, it stands beside a lower line, and a
    # two-row line sliding up crosses its row: it fades out and back in there.
    ("missing_gradient", "9:16"): "the count 'lines printed earlier: N' changes rows under the two-row warning",
}

STILL_WAIT_ON_HEADS: dict[tuple[str, str], str] = {
    # (clip, aspect): what badge still waits on an arrowhead (collisions.waits_on_heads): a badge
    # placed beside its node or bucket (badge_centre, free_spot), not a riding token; not yet looked at
    ("dynamic_graph", "16:9"): "1 badge waits on an arrowhead",
    ("dynamic_graph", "9:16"): "2 badges wait on arrowheads",
    ("dynamic_graph", "1:1"): "6 badges wait on arrowheads",
    ("tanh_neuron", "1:1"): "1 badge waits on an arrowhead",
    ("tanh_sgd_lists", "1:1"): "2 badges wait on arrowheads",
}
NOTED = ("backward_walk", "leaf_nodes", "missing_gradient")
"""The clips the notes check runs on so far (the three whose walks write rules beside their
nodes, measured at 16:9 and 9:16); the other six are yet to be measured."""
STILL_ASTRAY: dict[tuple[str, str], str] = {
    # (clip, aspect): which note still lies nearer another card than its own (collisions.notes_astray).
    # Where no spot clear of the arrows is nearer the note's own card (the code pane, legend and
    # checklist leave the graph no room beside it), the note goes to the nearest free spot.
    ("backward_walk", "16:9"): "yh's rule (mul) lies level with s and z, left of the graph",
    ("backward_walk", "9:16"): "yh's and s's rules lie nearer the card above",
    ("leaf_nodes", "16:9"): "the multiply rule lies nearer b; add's nearer its neighbour",
    ("leaf_nodes", "9:16"): "the multiply rule lies nearer b; add's nearer its neighbour",
    ("missing_gradient", "16:9"): "pow's, sub's and mul's rules lie under the code, by w",
    ("missing_gradient", "9:16"): "mul's rule lies nearer z - 1",
}

CHECKS: list[FrameCheck] = [
    FrameCheck("collide", Collide, STILL_COLLIDE),
    FrameCheck("too_small", TooSmall, STILL_TOO_SMALL),
    FrameCheck("heads", WaitsOnHead, STILL_WAIT_ON_HEADS),
    FrameCheck("notes", NotesAstray, STILL_ASTRAY, applies=lambda name, aspect, lesson: name in NOTED and aspect != "1:1"),
    FrameCheck("truth", Untrue, STILL_UNTRUE),
    FrameCheck("blink", Blinks, STILL_BLINKS, applies=lambda name, aspect, lesson: not lesson and aspect != "1:1"),
]
for _check in CHECKS:
    assert set(_check.still) <= {(n, a) for n in NAMES for a in ASPECTS}, f"{_check.name}: a listed case is not run"


def checks_for(name: str, aspect: str, lesson: bool) -> list[FrameCheck]:
    """The checks that apply to ``name`` at ``aspect``."""
    return [c for c in CHECKS if c.applies(name, aspect, lesson)]


@functools.lru_cache(maxsize=1)
def found_problems(name: str, aspect: str) -> dict[str, list[str]]:
    """Every frame (every 3rd of a lesson) of ``name`` at ``aspect`` inspected once, for every check."""
    lesson = name in LESSONS
    path = str(LESSONS[name]) if lesson else storyboard_path(name)
    return inspect_checks(path, name, aspect, checks_for(name, aspect, lesson), LESSON_FRAME_STEP if lesson else 1)


def inspect_problems(path: str, aspect: str, every: int, name: str) -> dict[str, list[str]]:
    """The checks that apply to a lesson, over every ``every``-th frame of the storyboard ``path``."""
    return inspect_checks(path, name, aspect, checks_for(name, aspect, True), every)


def _case(name: str, aspect: str, check: FrameCheck) -> object:
    reason = check.still.get((name, aspect))
    marks = [pytest.mark.xdist_group(f"frames-{name}-{aspect}")]  # the checks on one worker
    marks += [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, aspect, check.name, marks=marks, id=f"{name}-{aspect}-{check.name}")


# a case's checks run one after the other, so they share one inspection (found_problems)
@pytest.mark.parametrize(("name", "aspect", "check"),
                         [_case(n, a, c) for n in NAMES for a in ASPECTS for c in checks_for(n, a, n in LESSONS)])
def test_frames(name: str, aspect: str, check: str) -> None:
    """Each check of `CHECKS` finds nothing in ``name`` at ``aspect`` (see each watcher's docstring)."""
    found = found_problems(name, aspect)[check]
    assert not found, f"{len(found)} found by {check}:\n" + "\n".join(found)
