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
9:16): an item with a stable id gone for under half a second and back (faded out, or a shape
drawn to a stub: a lit path put out and drawn again); what jumps
(`continuity.jumps`): an item with a stable id, the code pane (by its edges) or a printed line
moving more than a card's width in a frame at 10 frames a second (``LOOKED_AT_FPS``: the checks'
15 fps frames count at that pace); what is renamed (`continuity.renames`): a card whose name changes within the clip; and
what comes loose (`continuity.loose_arrows`): an arrow clear of both cards it joins, as one
turning round by a pointwise morph was, folded into a hook between them. And what a caption
names stays in view while it is up (`scenes.render.named_view.left_named`, ``named``): no camera
move takes a card out of view while a caption whose words name it is up. And the camera does not
pump (`scenes.render.pumps.pumps`, ``pump``): no move out undone by a move in (or in, by out)
under two seconds later.

The same pass reads the takeaway (`scenes.render.takeaway`): while a takeaway caption is up, every
number it names (its placeholders, filled from the log) shows in the picture, not only in the
caption bar, and the takeaway's lines are set at one size.

The same pass checks that the subject fills the frame (`scenes.render.fill`, docs/inspect.md,
the nine clips at 16:9 and 9:16): nothing within 3 % of the frame's edge (``edge``), values and
names at 11 px (``small_values``), the graph at half the frame at its largest (``fill``), and no
third of the frame empty for over 3 s while the clip teaches (``empty``).

The same pass finds a badge waiting on an arrowhead or a label, an op name such as ``mul`` or
``** 2`` (`scenes.draw.reading.waits_on_heads`: standing where it stood the frame before,
over a visible head or label standing still too), or level with a card's value just past its
end, where the two read as one number (`scenes.draw.reading.waits_reading_on`: ``= 4 1``); a
token riding over or past one is not counted. The cases that still do are listed in
``STILL_WAIT_ON_HEADS``. And a visit's or a
bucket's note drawn nearer another card than its own (`scenes.draw.reading.notes_astray`),
which reads as the other's: ``STILL_ASTRAY`` (``NOTED`` clips at every aspect).

The same pass finds an op name level with a value on its right, where it reads as more of it
(``L = 1/16 ** 2``), or nearer its card than a quarter of its height, where the border reads as
underlining or striking it (`tests.watchers.placement.OpTags`, the nine clips at 16:9 and 9:16):
``STILL_OP_TAGS``.

The same pass reads the console (tests/scene/test_console_text.py): at 16:9, when each console
cue is done, its lines are readable and in the frame (``console``); at 9:16 and 1:1, where the
printed lines' room is small, a beat's printed lines are all on screen at its end
(``prints_kept``).

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
from tests.frame_checks import FrameCheck, inspect_checks
from tests.watchers.console import BeatPrintsKept, ConsoleReadable, PrintedWithLine
from tests.watchers.continuity import Blinks, Drops, Flights, Jumps, LooseArrows, Pops, Pumps, Renames
from tests.watchers.meaning import NamedLeaves, NoneUnsaid, OffColour, RulesKept, TakeawayShown, Untrue
from tests.watchers.placement import (Collide, EmptyArea, GraphFill, MetInBucket, NearEdge, NotesAstray, OpTags,
                                      TooSmall, ValuesTooSmall, WaitsOnHead)

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
    # cards they feed, scenes/layout/collapse.py). A badge wider than the nominal
    # one it is placed by keeps off the next card (badge_centre); a fill's badge with no room beside
    # its bucket shows where it goes in; a note, a tag and a network's value with no room beside
    # their own keep off the others' (form_spot, tag_centre, NetworkDiagram._value_label: h/collideQ).
    # the trained network (h/collideQ): a fill's badge shown beside its bucket in the leaves' row no longer
    # covers the next bucket (it shows where its value will, or in the mouth: Buckets._first_shown_at), and
    # each bucket's `W2[0].grad = None` (187 px), with no room beside it in the row of four (buckets 93 px
    # apart, their cards 12 px above), goes where some form of it is clear of the cards (form_spot), not over
    # the next ones: 9:16 and 1:1 are clean. 16:9 is clean since h/collideF: the update's riding badge
    # `0.5000 × (-0.0643)` keeps off where the console's lines end as they slide in (StepScratch.printed; it went
    # over them at 82.2-82.4 and 109.8-110.0 s), and the t9 visit's note (394 px at the walk camera's 1.45x), with
    # no spot of its own nor a free one but for the runs left of the badges waiting, goes there, not over
    # `out`/AddBackward0 and `mul` (26.4-28.0 s). The README's graph at 9:16 is clean since h/tagG: the op
    # name `+ 1` over t8, at the frame's left edge, flush with t9's card in the row above, ran into it as the
    # move at 33.6 s held t8 to fade it and t9 glided on (their boxes met where no parts did, so the fade's
    # timing skipped t9: scenes.draw.ways.first_met); t25's visit note keeps off n25's ring (drawn with no
    # card, ringed at its visit: VisitNote.place), and the two tokens riding to the rows beside a's and b's
    # buckets no longer pass over each other (52.6 s)
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
    # Since the arrows turn round along their own line (turn_round.TurnRound), no walk's arrow blinks
}

STILL_WAIT_ON_HEADS: dict[tuple[str, str], str] = {
    # a waiting badge level with a rule's result (REVIEW5 item 5): missing_gradient's and dynamic_graph's
    # 16:9 cases pass since the close-ups hold a visit's child's inputs (h/cam9) and badges keep off rings
    # (h/less9), dynamic_graph 1:1's and sigmoid_logloss 9:16's since a visit's note keeps its rows' products
    # off the run left of a waiting badge (visit_note); sigmoid_logloss 1:1's since, where it has room, it keeps
    # off a packed graph's badge (one of the visit's marks) too, and off tokens waiting for their node's visit
    # or their bucket's fill (h/headsQ; weighted_sum4 1:1's
    # since a token riding past a row's end is not counted as its result). A token's copy waiting just past the
    # product it left (not counted here: `collisions._copies`) keeps off its run where that way is no longer nor
    # hidden more (OnScreen._apart; tests/scene/test_token_rides.py). micrograd_readme's and mlp_lists' 16:9
    # cases pass since a token waiting for its node's visit, that a later note with no spot of its own off it
    # (`VisitNotes._waiting`) ends a row left of, glides off that result's run (`WaitingTokens.make_way`), and
    # micrograd_readme 9:16's '-6.94' (t11), the badge where t11's one token waited, just past t11's own
    # note's result, since a new badge gives way to its note's results too (`make_way`'s ``badge``).
    # micrograd_readme 9:16's '0.00' (a's second token) since a row's token whose place the camera's view
    # left out of the frame waits off the values it hid too, and goes to its place at the first visit
    # whose view has it free (`WaitingTokens.rejoin`; it waited 200 px up, right of t8's '-2.00', until the
    # fill, h/readmeH); micrograd_readme 1:1's '6.94' (b's first token, left of b's bucket between the two)
    # since a fill's sum moves a token of another bucket's row off its run (`WaitingTokens.clear_sum`).
    # micrograd_readme 16:9's '6.94' (t17), the badge where t17's one token waited, since a new badge gives way
    # to the cards' values too (`make_way`'s ``badge``): the token settled left of t17's card while the close
    # view on t18 hid t8, and the move home for t17's visit showed t8's '-2.00' just left of it (58.0-60.4 s,
    # since h/legendH's legend: the views keep off it and frame the graph otherwise).
    # (tanh_sgd_lists 16:9's first step's '-0.2899' and '-0.2699' waiting on `out` and AddBackward0 at the t9
    # visit, 26.4-27.0 s, pass since h/collideF: the note they are the products of goes where it covers no card)
    # (clip, aspect): what badge still waits on an arrowhead or a label (reading.waits_on_heads):
    # a badge placed beside its node or bucket (badge_centre, free_spot), not a riding token. None:
    # badges and waiting tokens keep off both ends of every route (label_spots.route_ends) and off
    # what is shown, op names included (OnScreen.shown_rects; a token's rest is off the card it left)
}
NOTED = ("backward_walk", "leaf_nodes", "missing_gradient", "dynamic_graph", "grad_accumulation", "backward_graph")
"""The clips the notes check runs on, at every aspect: the six whose walks write rules beside
their nodes' cards (mlp and reverse_mode draw a network, graph_build has no walk)."""
STILL_ASTRAY: dict[tuple[str, str], str] = {
    # (clip, aspect): which note still lies nearer another card than its own (reading.notes_astray).
    # A note with no spot beside its node that reads as its own (nearer it than any other card, off
    # the arrows) is set at the least readable size and looked for again (own_note_centre); where
    # there is still none, the graph leaves no room beside the node: the note goes to the nearest
    # free spot. Widths in pixels at 854x480 (at the theme's size / at the least readable size).
    # The walk's camera keeps room for the note at the visited node's left (scenes/layout/camera.py),
    # or, where no closer view does (a tall frame), moves the graph aside for it (camera._pan; where
    # the whole graph reads well, only that: camera.pans_only, missing_gradient 9:16's mul rule):
    # missing_gradient 1:1 passes since its checklist's column is kept as wide as the list is drawn
    # (clip.checklist_room, the theme's glyph_advance_words; the names' advance kept it 0.7 units
    # wider): the graph stands 0.29 units further left, the list under the visited cards' level at
    # the bottom left, and every note by its card (v.grad = None on two rows right of the arrow from
    # v to L2); the legend, with no corner then, comes into the strip under the lit line for the walk
    # (LegendFrame.walk_legend, tests/scene/test_list_column.py)
}

STILL_OP_TAGS: dict[tuple[str, str], str] = {
    # (clip, aspect): an op name level with a value on its right, where it reads as more of it
    # (``L = 1/16 ** 2``), or on its card's border (watchers.placement.OpTags), the nine clips at
    # 16:9 and 9:16
}

STILL_UNMET: dict[tuple[str, str], str] = {
    # (lesson, aspect): why the terms of a bucket's sum are not at the bucket as it is written
    # micrograd_readme 16:9's b since a row's term the camera's view carried out of the frame comes back
    # into it at its bucket's visit (`WaitingTokens.gather`): 999.60 and -333.20 were past its right side
    # (faded) as '6.94 + 0.00 + 999.60 + -333.20 + -27.77 = 645.58' was written at 97.67 s. cubic_fit3 1:1's
    # b since terms over a crowded bucket's card step round a label level with them
    # (`term_column.stepped_column`): its lowest term met the op name `× 2` (h/cubicX)
}

STILL_UNSHOWN: dict[tuple[str, str], str] = {
    # (clip, aspect): what the takeaway names that its closing picture does not show (takeaway.unshown)
}

STILL_JUMPS: dict[tuple[str, str], str] = {
    # (clip, aspect): what still jumps (continuity.jumps), checked for the nine clips at 16:9 and 9:16
}
STILL_POPS: dict[tuple[str, str], str] = {
    # (clip, aspect): several cards shown in one frame (fades.pops), the nine clips at 16:9 and 9:16
}
STILL_LOOSE: dict[tuple[str, str], str] = {
    # (clip, aspect): an arrow clear of both cards it joins (continuity.loose_arrows), the nine
    # clips at 16:9 and 9:16
}
STILL_ASTRAY_FLIGHT: dict[tuple[str, str], str] = {
    # (clip, aspect): a gradient token that vanishes, strays or backs away on its way, or leaves
    # its product's slot empty (flight.flights), the nine clips at 16:9 and 9:16
    # two tokens meeting in a bucket's mouth (bucket_mouth.meet_in_mouth) keep off their card's
    # value's run going down (the right one went level with it past its end: grad_accumulation
    # 9:16, dynamic_graph 16:9 and 9:16); where that leaves them one column, left of the words,
    # they take it one after another (bucket_mouth._single_file)
}
STILL_NAMED_LEFT: dict[tuple[str, str], str] = {
    # (clip, aspect): a card the camera takes out of view while a caption naming it is up
    # (named_view.left_named), the nine clips at 16:9 and 9:16
}
STILL_RULE_GONE: dict[tuple[str, str], str] = {
    # (clip, aspect): a visit's rule that goes while the caption explaining it runs (named_view.rules_gone),
    # the nine clips at 16:9 and 9:16
    # (missing_gradient 9:16's sub's rule left the frame as the graph moved aside for mul's, 0.4 s
    # before its caption ended: the graph moves aside once for the walk's notes to come, and a
    # note keeps where that move leaves it in view, `camera_ahead`)
}
STILL_DROPS: dict[tuple[str, str], str] = {
    # (clip, aspect): a card that blinks out in a camera move (fades.drops), the nine clips at 16:9 and 9:16
}
STILL_PUMPS: dict[tuple[str, str], str] = {
    # (clip, aspect): the camera moves in (or out) and back within PUMP_HOLD (pumps.pumps), the nine clips at
    # 16:9 and 9:16. The walk's last close view held under camera_hold before the way out is no longer taken
    # (camera_plan.too_short: leaf_nodes, backward_walk and missing_gradient moved in for their last visit and out
    # 0.6-1.0 s later), and a view held under it before the next comes no closer than the view before
    # (scenes/draw/camera.py: backward_walk 9:16 went in x1.46 on w2's bucket at 39.6 s and out to relu 1.0 s later)
}
STILL_RENAMED: dict[tuple[str, str], str] = {
    # (clip, aspect): a card whose name changes (continuity.renames), the nine clips at 16:9 and 9:16
}
_WALK_CAMERA = ("in the walk the camera draws a visit's cards at most layout.camera_zoom (2x) larger in the largest "
                "rectangles of the free frame clear of the pane stepped aside to its lit line (beside it, or under it: "
                "leaf_nodes 16:9 29-37.5 s), a view holding the visit's cards and their inputs (layout.camera.held), for "
                "these graphs most of their height, so it comes 1.0-1.3x closer; the walk's first move is made under the "
                "whole pane, before it steps aside")
_FILL_16_9 = ("; at 16:9 the free frame is 803x404 px (inside the 3 % edge, above the caption), so a graph shown whole "
              "reaches 50 % only where its box is 1.26 times as wide as tall or more")
STILL_NEAR_EDGE: dict[tuple[str, str], str] = {
    # (clip, aspect): what still sits within layout.safe_edge of the frame's edge (fill.near_edge)
    # a ring counts since h/badgeB (the whole view leaves its reach); the walk camera moves a view as
    # little as holds the visits' rings inside the free frame (h/edgeG: dynamic_graph 9:16's t4, t2
    # and t7 at home reached 0.9 px into the margin). None.
}
STILL_VALUES_SMALL: dict[tuple[str, str], str] = {
    # (clip, aspect): the values and names still under font_sizes.min_glyph_main_px
}
STILL_SMALL_GRAPH: dict[tuple[str, str], str] = {
    # (clip, aspect): the graph's largest share of the frame, under layout.fill_graph (fill.graph_fraction);
    # "scaled whole": its box (fill.graph_box) at its largest, every 0.25 s, scaled to fill the free frame
    ("grad_accumulation", "16:9"): ("40 % at most (20.5 s, the walk's camera in): its five cards stand in one column "
                                    "(the three passes' y at one place), so a spread adds no width: 446x369 px at its "
                                    f"largest, 1.21 times as wide as tall, scaled whole 47.8 %{_FILL_16_9}"),
    ("dynamic_graph", "16:9"): ("45 % at most (132.5 s, the last graph, w and its three h, grown on its own cards, "
                                "h/fillF: 492x374 px, the frame's height bounds it, its cards spread across no larger); "
                                "40 % at 115.5 s (the last walk's close view on the first h); 38 % at 57.2 s (422x372 px, "
                                "1.13 times as wide as tall, scaled whole 45.2 %; "
                                "50 % or more measured with the freed graphs left on screen beside the live one to the "
                                f"clip's end; they go now, review 4 item 8){_FILL_16_9}: {_WALK_CAMERA}"),
}
STILL_EMPTY: dict[tuple[str, str], str] = {
    # (clip, aspect): the spans a third of the frame stays empty while teaching (fill.largest_empty)
    # the walks' notes used to stand in this room, far from their nodes (kept off the cards of
    # graphs not yet drawn or already gone); beside their nodes they leave it empty
}



def _clip_16_9_or_9_16(name: str, aspect: str, lesson: bool) -> bool:
    """The nine clips at 16:9 and 9:16: where the continuity checks (blink, jump, rename) run."""
    return not lesson and aspect != "1:1"


CHECKS: list[FrameCheck] = [
    FrameCheck("collide", Collide, STILL_COLLIDE),
    FrameCheck("too_small", TooSmall, STILL_TOO_SMALL),
    FrameCheck("heads", WaitsOnHead, STILL_WAIT_ON_HEADS),
    FrameCheck("notes", NotesAstray, STILL_ASTRAY, applies=lambda name, aspect, lesson: name in NOTED),
    FrameCheck("op_tags", OpTags, STILL_OP_TAGS, applies=_clip_16_9_or_9_16),
    FrameCheck("truth", Untrue, STILL_UNTRUE),
    FrameCheck("none_said", NoneUnsaid),
    FrameCheck("blink", Blinks, STILL_BLINKS, applies=_clip_16_9_or_9_16),
    FrameCheck("jump", Jumps, STILL_JUMPS, applies=_clip_16_9_or_9_16),
    FrameCheck("pop", Pops, STILL_POPS, applies=_clip_16_9_or_9_16),
    FrameCheck("named", NamedLeaves, STILL_NAMED_LEFT, applies=_clip_16_9_or_9_16),
    FrameCheck("rule_kept", RulesKept, STILL_RULE_GONE, applies=_clip_16_9_or_9_16),
    FrameCheck("drop", Drops, STILL_DROPS, applies=_clip_16_9_or_9_16),
    FrameCheck("pump", Pumps, STILL_PUMPS, applies=_clip_16_9_or_9_16),
    FrameCheck("rename", Renames, STILL_RENAMED, applies=_clip_16_9_or_9_16),
    FrameCheck("loose", LooseArrows, STILL_LOOSE, applies=_clip_16_9_or_9_16),
    FrameCheck("flight", Flights, STILL_ASTRAY_FLIGHT, applies=_clip_16_9_or_9_16),
    FrameCheck("grammar", OffColour),
    FrameCheck("takeaway", TakeawayShown, STILL_UNSHOWN),
    FrameCheck("met", MetInBucket, STILL_UNMET, also=MetInBucket.frames),
    FrameCheck("edge", NearEdge, STILL_NEAR_EDGE, applies=_clip_16_9_or_9_16),
    FrameCheck("small_values", ValuesTooSmall, STILL_VALUES_SMALL, applies=_clip_16_9_or_9_16),
    FrameCheck("fill", GraphFill, STILL_SMALL_GRAPH, applies=_clip_16_9_or_9_16),
    FrameCheck("empty", EmptyArea, STILL_EMPTY, applies=_clip_16_9_or_9_16),
    FrameCheck("printed_with_line", PrintedWithLine, applies=_clip_16_9_or_9_16),
    FrameCheck("console", ConsoleReadable, applies=lambda name, aspect, lesson: not lesson and aspect == "16:9"),
    FrameCheck("prints_kept", BeatPrintsKept, applies=lambda name, aspect, lesson: not lesson and aspect != "16:9"),
]
for _check in CHECKS:
    assert set(_check.still) <= {(n, a) for n in NAMES for a in ASPECTS}, f"{_check.name}: a listed case is not run"


def checks_for(name: str, aspect: str, lesson: bool) -> list[FrameCheck]:
    """The checks that apply to ``name`` at ``aspect``."""
    return [c for c in CHECKS if c.applies(name, aspect, lesson)]


@functools.cache
def found_problems(name: str, aspect: str) -> dict[str, list[str]]:
    """Every frame (every 3rd of a lesson) of ``name`` at ``aspect`` inspected once, for every check.
    Kept for the whole session (only the lines found, a few kilobytes a case): pytest-xdist may run
    a case's checks apart, with other cases' between them."""
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
