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

The lessons of tests/storyboard/lessons/ are cases too, at every 3rd frame (``LESSON_FRAME_STEP``)
and every half second for the truth, in the same tables. Under pytest-xdist a case's three
checks are kept on one worker (an ``xdist_group`` per case), so they still share one inspection.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from scenes.draw.collisions import collisions, too_small
from scenes.render.inspect import inspect_clip
from scenes.render.inspect import sample_frames
from scenes.render.options import RenderOptions, fps_of
from scenes.render.truth import Truth
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import load_theme
from tests.clips import ASPECTS, CLIPS

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
TRUTH_EVERY = 0.5
"""Seconds between the samples the truth is checked at (``render inspect --every 0.5``)."""
assert set(STILL_UNTRUE) <= {(n, a) for n in NAMES for a in ASPECTS}, "STILL_UNTRUE names a case that is not run"
assert set(STILL_TOO_SMALL) <= {(n, a) for n in NAMES for a in ASPECTS}, "STILL_TOO_SMALL names a case that is not run"
assert set(STILL_COLLIDE) <= {(n, a) for n in NAMES for a in ASPECTS}, "STILL_COLLIDE names a case that is not run"


def _who(item: dict | None) -> str:
    if item is None:
        return ""
    text = f" {item['text']!r}" if item.get("text") is not None else ""
    return f"{item['role']}{text}" + (f" ({item['id']})" if item.get("id") is not None else "")


@functools.lru_cache(maxsize=1)
def found_problems(name: str, aspect: str) -> tuple[list[str], list[str], list[str]]:
    """Every frame (every 3rd of a lesson) of ``name`` at ``aspect`` inspected once (see `inspect_problems`)."""
    path = str(LESSONS[name]) if name in LESSONS else storyboard_path(name)
    return inspect_problems(path, aspect, LESSON_FRAME_STEP if name in LESSONS else 1, name)


def inspect_problems(path: str, aspect: str, every: int, name: str) -> tuple[list[str], list[str], list[str]]:
    """Every ``every``-th frame of the storyboard ``path`` at ``aspect`` inspected once: one line per
    collision, then one per text under the theme's minimum glyph height (`too_small`), each with the
    times it lasts and the items (with their boxes in pixels the first time it is seen), then one
    per thing the log contradicts (`Truth`, every half second). Lines start with ``name``."""
    checked, plan = load_and_plan(path)
    opts = RenderOptions(aspect=aspect)
    min_px = load_theme().font_sizes.min_glyph_px
    truth_frames = set(sample_frames(plan.duration, fps_of(opts), every=TRUTH_EVERY))
    looked = set(range(0, round(plan.duration * fps_of(opts)), every))  # collisions and sizes
    frames = sorted(looked | truth_frames)
    truth = Truth(checked.run.events, plan, checked.storyboard.number_style)
    seen: tuple[dict, dict, dict] = ({}, {}, {})
    for sample in inspect_clip(checked, plan, opts, frames=frames):
        if round(sample["time"] * fps_of(opts)) in truth_frames:
            for u in truth.check(sample):
                key = (u.what, u.id, u.shown)
                seen[2].setdefault(key, [u.time, u.time, 0, u.describe()])
                seen[2][key][1] = u.time
                seen[2][key][2] += 1
        if round(sample["time"] * fps_of(opts)) not in looked:
            continue
        for table, found in zip(seen, (collisions(sample["items"], sample["frame"]),
                                       too_small(sample["items"], sample["frame"], min_px))):
            for c in found:
                key = (c.what, _who(c.a), _who(c.b))
                table.setdefault(key, [sample["time"], sample["time"], 0, c.describe()])
                table[key][1] = sample["time"]
                table[key][2] += 1
    lines = [[f"{name} {aspect} {t0:.2f}-{t1:.2f} s ({n} frames): {first}" for t0, t1, n, first in t.values()]
             for t in seen]
    return lines[0], lines[1], lines[2]


def found_collisions(name: str, aspect: str) -> list[str]:
    """One line per collision of ``name`` at ``aspect`` (see `found_problems`)."""
    return found_problems(name, aspect)[0]


def found_too_small(name: str, aspect: str) -> list[str]:
    """One line per text of ``name`` at ``aspect`` under the minimum glyph height (see `found_problems`)."""
    return found_problems(name, aspect)[1]


def found_untrue(name: str, aspect: str) -> list[str]:
    """One line per thing ``name`` shows at ``aspect`` that the log contradicts then (see `found_problems`)."""
    return found_problems(name, aspect)[2]


TABLES = {"collide": STILL_COLLIDE, "too_small": STILL_TOO_SMALL, "truth": STILL_UNTRUE}


def _case(name: str, aspect: str, check: str) -> object:
    reason = TABLES[check].get((name, aspect))
    marks = [pytest.mark.xdist_group(f"frames-{name}-{aspect}")]  # the checks on one worker
    marks += [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, aspect, check, marks=marks, id=f"{name}-{aspect}-{check}")


# a case's three checks run one after the other, so they share one inspection (found_problems)
@pytest.mark.parametrize(("name", "aspect", "check"),
                         [_case(n, a, c) for n in NAMES for a in ASPECTS for c in TABLES])
def test_frames(name: str, aspect: str, check: str) -> None:
    """``collide``: nothing collides. ``too_small``: no text's glyphs under the theme's
    ``font_sizes.min_glyph_px`` (at 854x480; more at a larger frame). ``truth``: every half
    second, cards, buckets and printed lines agree with the log at that moment."""
    if check == "collide":
        found = found_collisions(name, aspect)
        assert not found, f"{len(found)} collisions:\n" + "\n".join(found)
    elif check == "too_small":
        found = found_too_small(name, aspect)
        assert not found, f"{len(found)} texts too small:\n" + "\n".join(found)
    else:
        found = found_untrue(name, aspect)
        assert not found, f"{len(found)} untrue on screen:\n" + "\n".join(found)
