"""The takeaway's recap board adds to the closing picture and covers none of it: no card, text
or bucket (those it always kept off), no arrow (once: grad_accumulation's board lay over both
y -> w arrows, missing_gradient's over x's edges), and on a network no unit and no line
(issue 39: reverse_mode's board at 9:16 lay over the orange weights above x0-x3, mlp's over
the lines from x0 to the first hidden layer)."""

from __future__ import annotations

import math

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene up to its last frame

LINES = ("link", "mark")
"""The network's straight lines (docs/inspect.md): a weight, or a weight lit by a pass or a light."""


def _meets(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(box: list[float], line: list[float]) -> bool:
    """Whether a straight line whose box is ``line`` may run through ``box``: either diagonal of
    its box does (inspect gives a line's box, not which way it slopes: the test errs on the side
    of a crossing).

    >>> _crosses([0, 0, 2, 1], [1, -1, 1.5, 3]), _crosses([0, 0, 2, 1], [3, -1, 5, 3])
    (True, False)
    >>> _crosses([0, 0, 1, 1], [1.5, 0.5, 3.5, 2.5])  # its box meets the board's, no diagonal does
    False
    """
    if not _meets(box, line) and not (line[0] == line[2] or line[1] == line[3]):
        return False
    (x0, y0, x1, y1) = line
    for a, b in (((x0, y0), (x1, y1)), ((x0, y1), (x1, y0))):
        n = 64
        pts = [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(n + 1)]
        if any(box[0] < x < box[2] and box[1] < y < box[3] for x, y in pts):
            return True
    return False


def _last(name: str, aspect: str) -> tuple[list[dict], list[dict]]:
    """The visible items of ``name``'s last frame at ``aspect``, and its recap boards (one at least)."""
    checked, plan = load_and_plan(storyboard_path(name))
    opts = RenderOptions(aspect=aspect)
    (sample,) = inspect_clip(checked, plan, opts, frames=[round(plan.duration * fps_of(opts)) - 1])
    items = [i for i in sample["items"] if i["opacity"] >= 0.1]
    boards = [i for i in items if i["role"] == "recap"]
    assert boards
    return items, boards


@pytest.mark.parametrize("name", ["grad_accumulation", "missing_gradient"])
@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_recap_covers_no_arrow(name: str, aspect: str) -> None:
    items, boards = _last(name, aspect)
    arrows = [i for i in items if i["role"] in ("arrow", "arrowhead")]
    assert [(b["text"], a["id"]) for b in boards for a in arrows if _meets(b["bbox"], a["bbox"])] == []


@pytest.mark.parametrize("name", ["mlp", "reverse_mode"])
@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_recap_covers_no_unit_and_no_line_of_a_network(name: str, aspect: str) -> None:
    items, boards = _last(name, aspect)
    lines = [i for i in items if i["role"] in LINES]
    assert lines  # the network's lines are in the record
    units = [i for i in items if i["role"] == "unit"]
    assert [(b["text"], u["bbox"]) for b in boards for u in units if _meets(b["bbox"], u["bbox"])] == []
    assert [(b["text"], ln["role"], ln["bbox"]) for b in boards for ln in lines if _crosses(b["bbox"], ln["bbox"])] == []


@pytest.mark.parametrize(("name", "aspect"), [("grad_accumulation", "9:16"), ("backward_walk", "9:16"),
                                             ("backward_walk", "1:1")])
def test_the_recap_numbers_are_as_large_as_the_cards_values(name: str, aspect: str) -> None:
    """The takeaway's numbers are no smaller than the values of the cards they sum up (review 4
    item 9: at 9:16 grad_accumulation's `w.grad after call 2 = 12   w.grad = 6` and backward_walk's
    `w1.grad = 8/3 = tensor(2.6667)` were ~10 px lines under 30 px cards, the smallest text on
    the phone screen). At 1:1 backward_walk's graph fills the square under its one lit line: the
    board found no spot at all (issue 39 item 6: `tensor(2.6667)` never shown), and set at the
    layout's scale, not at the least readable size the cards' values keep, its numbers were
    ~6 px beside 11 px names."""
    items, boards = _last(name, aspect)
    values = [i["bbox"][3] - i["bbox"][1] for i in items if i["role"] == "value" and i["id"] and
              not i["id"].startswith("bucket")]
    assert values
    for b in boards:
        assert b["bbox"][3] - b["bbox"][1] >= max(values) - 1.0, (b["text"], b["bbox"], max(values))


def test_a_square_frame_s_recap_takes_the_code_pane_s_band() -> None:
    """backward_walk at 1:1: the code pane (its lit line alone) gives way at the takeaway and the
    board stands where it was, over the graph, covering no card, text or badge."""
    items, boards = _last("backward_walk", "1:1")
    assert [i["text"] for i in items if i["role"] == "code"] == []
    others = [i for i in items if i["role"] not in ("recap", "takeaway", "caption", "caption_bar")]
    for b in boards:
        assert [o["text"] or o["role"] for o in others if _meets(b["bbox"], o["bbox"])] == [], b["text"]
        assert b["bbox"][3] < min(o["bbox"][1] for o in others if o["role"] in ("card", "badge"))


def _gap(a: list[float], b: list[float]) -> float:
    """The shortest way between boxes ``a`` and ``b`` (0 where they meet)."""
    return math.hypot(max(0.0, b[0] - a[2], a[0] - b[2]), max(0.0, b[1] - a[3], a[1] - b[3]))


@pytest.mark.parametrize(("name", "aspect", "named", "after"),
                         [("graph_build", "9:16", {"t8"}, 2.0), ("missing_gradient", "16:9", {"t1", "bucket:t1"}, None),
                          ("missing_gradient", "1:1", {"t1", "bucket:t1"}, None),
                          ("missing_gradient", "9:16", {"t1", "bucket:t1"}, None)])
def test_the_board_stands_near_what_it_names(name: str, aspect: str, named: set[str], after: float | None) -> None:
    """The board stands by what it names, within a quarter of the frame's height of it, and no
    other card or bucket is nearer it (a board reads as the note of the card nearest it).
    graph_build at 9:16: the board naming L (`L = 4/9`, `L.grad_fn = PowBackward0`) stood
    between w2 and z, 350 px from L, and read as their note (review 5); the legend beside L now
    gives way and the board stands there, 2 s into the takeaway. missing_gradient at 16:9
    (``after`` None: the first frame the board is up, and the last): `w.grad = 8` stood under
    the checklist, top right, w's bucket bottom left (issue 39 item 6); it went by w's bucket as
    the graph grew round it, but first stood 4 s by sub's card, read there as sub's note, then
    faded and came in again by w's bucket; it now first comes in by w's bucket, as the graph
    lands. At 1:1 (no grow) it stood over z's note, 0.26 of the frame from w's bucket, the list
    of checks beside w: the list now gives it that room and goes where the board was found. At
    9:16 (a graph as wide as the frame: no grow) it stood by sub's card, 0.41 of the frame's
    height from w's bucket, no room near w: the pane now steps aside at the last ``whole`` cue
    and the graph moves up into the band it frees, the board coming in under w's bucket."""
    from scenes.render.camera_plan import load_and_plan_at

    checked, plan = load_and_plan_at(storyboard_path(name), aspect=aspect)  # with its camera, as rendered
    opts = RenderOptions(aspect=aspect)
    fps = fps_of(opts)
    recap = next(c for c in plan.cues if c.kind == "recap")
    last = round(plan.duration * fps) - 1
    # every other frame from the recap on (a fade in takes several), and the last
    frames = ([round((recap.start + after) * fps)] if after is not None
              else [*range(round(recap.start * fps), last, 2), last])
    samples = inspect_clip(checked, plan, opts, frames=frames)
    up = [s for s in samples if any(i["role"] == "recap" and i["opacity"] >= 0.1 for i in s["items"])]
    assert up
    for sample in {id(s): s for s in (up[0], up[-1])}.values():
        items = [i for i in sample["items"] if i["opacity"] >= 0.1]
        boards = [i for i in items if i["role"] == "recap"]
        boxes = {i["id"]: i["bbox"] for i in items if i["role"] in ("card", "bucket") and i["id"]}
        assert named <= boxes.keys()
        for b in boards:
            nearest = min(boxes, key=lambda k: _gap(b["bbox"], boxes[k]))
            assert nearest in named, (sample["time"], b["text"], b["bbox"], nearest, boxes[nearest])
            assert _gap(b["bbox"], boxes[nearest]) <= 0.25 * sample["frame"][1], (sample["time"], b["text"], b["bbox"])


def test_a_row_s_name_and_equals_sit_on_its_values_line() -> None:
    """A name set smaller than its numbers stands on their baseline, not centred on their ink
    (review 5: grad_accumulation's `w.grad after call 2 =` stood above its large 12); each `=`
    at the middle of the name's x-height."""
    from types import SimpleNamespace

    from scenes.draw.recap import Recap
    from scenes.draw.visuals.baseline import baseline
    from scenes.theme import default_theme

    theme = default_theme()
    row = Recap._row(SimpleNamespace(theme=theme),  # type: ignore[arg-type]
                     "w.grad after call 2", ["12"], 18.5, 60.0)
    name, (sign, value) = row[0], row.values
    assert baseline(name) == pytest.approx(baseline(value), abs=1e-3)
    assert baseline(value) < sign.get_y() < baseline(value) + name.height / 2


def test_a_negative_value_stands_on_its_name_s_line_a_word_space_from_its_equals() -> None:
    """A value with a minus stands on the name's baseline, its digits' foot, not the minus's
    (REVIEW7 11: reverse_mode's ``-0.0754`` sat ~8 px under ``w1_0_0.grad`` at 1080p), and each
    ``=`` keeps a word space from its neighbours (``grad=-0.0754`` read as one operator, ``2 =12``
    as one word)."""
    from types import SimpleNamespace

    from scenes.draw.recap import Recap
    from scenes.draw.visuals.glyphs import word_space
    from scenes.theme import default_theme

    theme = default_theme()
    me = SimpleNamespace(theme=theme)
    row = Recap._row(me, "w1_0_0.grad", ["-0.0754"], 18.5)  # type: ignore[arg-type]
    name, (sign, value) = row[0], row.values
    w, digit = name.submobjects[0], value.submobjects[1]  # 'w' and the first '0' sit on the line
    assert float(digit.get_bottom()[1]) == pytest.approx(float(w.get_bottom()[1]), abs=0.05 * name.height)  # a round glyph overshoots
    space = word_space(theme.fonts.mono, 18.5)
    assert float(sign.get_left()[0] - name.get_right()[0]) == pytest.approx(space, rel=1e-3)
    assert float(value.get_left()[0] - sign.get_right()[0]) == pytest.approx(space, rel=1e-3)
