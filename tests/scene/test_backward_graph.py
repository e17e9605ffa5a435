"""backward_graph as a first-time viewer sees it (review 2), read from two frames per aspect
(one inspection each): the takeaway's light on x and y, and the last frame.

- A card that becomes its grad_fn keeps its value: ``yh 2/3`` became ``yh``, ``L 4/9`` became
  ``L``, and the clip ended with no value on any result, graph_build's 4/9 gone without a word.
  The seed article prints a result as ``tensor(0.3333, grad_fn=<MulBackward0>)``: both at once.
- "x and y are skipped" lit two blank boxes: the faded cards' names at 15 % opacity.
- The takeaway's board ended against x's card (16:9).
- w2's "AccumulateGrad" and z's "mul" sat a word apart on one line (9:16): "AccumulateGrad mul".
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from scenes.render.camera_plan import plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.draw.shown_numbers import MIN_SHOWN
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import load_theme
from tests.watchers.placement import TAG_CLEAR

pytestmark = pytest.mark.slow  # plays the clip's scene up to its last frame

ASPECTS = ["16:9", "9:16"]


@lru_cache(maxsize=None)
def _seen(aspect: str, rendered: bool = False) -> tuple[object, dict, dict]:
    """The plan, the frame while the takeaway lights the faded cards, and the last frame;
    ``rendered``: as the render plays it, with the camera's cues (the whole view's, `plan_at`),
    else at home."""
    checked, plan = load_and_plan(storyboard_path("backward_graph"))
    if rendered:
        plan = plan_at(checked, plan, aspect)
    opts = RenderOptions(aspect=aspect)
    fps = fps_of(opts)
    faded = {i for c in plan.cues if c.kind == "dim" for i in c.ids}
    light = [c for c in plan.cues if c.kind == "light" and faded & set(c.ids)][-1]
    frames = [round((light.start + light.duration) * fps) + 1, round(plan.duration * fps) - 1]
    lit, last = inspect_clip(checked, plan, opts, frames=frames)
    return plan, lit, last


def _shown(sample: dict, role: str) -> set[tuple[str, str]]:
    return {(i["id"], i["text"]) for i in sample["items"] if i["role"] == role and i["opacity"] >= MIN_SHOWN}


@pytest.mark.parametrize("aspect", ASPECTS)
def test_the_backward_graph_ends_with_every_value(aspect: str) -> None:
    plan, _, last = _seen(aspect)
    became = {c.ids[1] for c in plan.cues if c.kind == "grad_fn_appear"}
    assert became, "the clip turns no card into its grad_fn"
    values = {(c.ids[0], c.text("value")) for c in plan.cues if c.kind == "node_appear" and c.ids[0] in became}
    assert values - _shown(last, "value") == set()


@pytest.mark.parametrize("aspect", ASPECTS)
def test_a_lit_faded_card_reads(aspect: str) -> None:
    plan, lit, _ = _seen(aspect)
    faded = {i for c in plan.cues if c.kind == "dim" for i in c.ids}
    named = {(c.ids[0], c.text("name")) for c in plan.cues if c.kind == "node_appear" and c.ids[0] in faded}
    assert named and named - _shown(lit, "label") == set()


@pytest.mark.parametrize("aspect", ASPECTS)
def test_a_lit_faded_card_stays_fainter_than_the_cards_the_walk_reached(aspect: str) -> None:
    """"x and y are skipped" points at them: they read, and do not read as part of the path."""
    plan, lit, _ = _seen(aspect)
    faded = {i for c in plan.cues if c.kind == "dim" for i in c.ids}
    names = [i for i in lit["items"] if i["role"] == "label" and i.get("id")
             and any(c.kind == "node_appear" and c.ids[0] == i["id"] and c.text("name") == i["text"] for c in plan.cues)]
    skipped = [i["opacity"] for i in names if i["id"] in faded]
    reached = [i["opacity"] for i in names if i["id"] not in faded]
    assert skipped and reached and max(skipped) < min(reached) - 0.2, (skipped, reached)


def _apart(a: list[float], b: list[float]) -> float:
    """How far apart two boxes (x0, y0, x1, y1) are: the larger of the gaps across and down
    (negative along an axis where they overlap)."""
    return max(max(a[0], b[0]) - min(a[2], b[2]), max(a[1], b[1]) - min(a[3], b[3]))


@pytest.mark.parametrize("aspect", ASPECTS)
def test_the_takeaway_board_keeps_a_gap_from_the_cards(aspect: str) -> None:
    theme = load_theme()
    _, _, last = _seen(aspect)
    px = last["frame"][0] / theme.aspect(aspect).frame_width
    room = (theme.sizes.caption_pad + theme.spacing.item_gap) * px  # its backdrop, then a neighbours' gap
    boards = [i["bbox"] for i in last["items"] if i["role"] == "recap"]
    cards = [i for i in last["items"] if i["role"] == "card"]
    assert boards
    assert [(c["id"], round(_apart(b, c["bbox"]), 1)) for b in boards for c in cards if _apart(b, c["bbox"]) < room] == []


@pytest.mark.parametrize("aspect", ASPECTS)
def test_two_tags_on_one_line_are_more_than_a_word_apart(aspect: str) -> None:
    theme = load_theme()
    _, _, last = _seen(aspect)
    cards = {i["id"]: i["bbox"] for i in last["items"] if i["role"] == "card"}
    inside = lambda t, c: c is not None and c[0] <= t[0] and t[2] <= c[2] and c[1] <= t[1] and t[3] <= c[3]
    tags = [i for i in last["items"] if i["role"] == "label" and i.get("id") and i["opacity"] >= MIN_SHOWN
            and not inside(i["bbox"], cards.get(i["id"]))]
    close = []
    for k, a in enumerate(tags):
        for b in tags[k + 1:]:
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = a["bbox"], b["bbox"]
            word = max(ay1 - ay0, by1 - by0) * (1 + theme.proportions.tag_apart)
            if min(ay1, by1) > max(ay0, by0) and max(ax0, bx0) - min(ax1, bx1) < word:
                close.append((a["text"], b["text"]))
    assert close == []


@pytest.mark.parametrize("aspect", ASPECTS)
def test_a_lit_skipped_card_is_ringed_as_an_input_not_as_a_visit(aspect: str) -> None:
    """"x and y are skipped" rang x and y in the walk's yellow, the colour of a node being
    visited (review 6 item 6): a skipped card the caption points at is ringed in its own role's
    colour, the input's grey (docs/visual-grammar.md), and in no glow."""
    theme = load_theme()
    plan, lit, _ = _seen(aspect, rendered=True)
    faded = {i for c in plan.cues if c.kind == "dim" for i in c.ids}
    rings = {i["id"]: (i["meaning"], i["colour"]) for i in lit["items"]
             if i["role"] == "ring" and i["id"] in faded and i["opacity"] >= MIN_SHOWN}
    assert rings == {i: ("input", theme.colour("input").lower()) for i in faded}


def _gap(a: list[float], b: list[float]) -> float:
    """The gap between two boxes (0 where they touch or overlap)."""
    return max(0.0, _apart(a, b))


def _caption_box(theme, aspect: str, frame: list[int]) -> list[float]:
    """The caption bar's box in pixels (the theme's ``caption`` rectangle of the aspect)."""
    spec = theme.aspect(aspect)
    px = frame[0] / spec.frame_width
    x0, y0, x1, y1 = spec.caption
    return [(x0 + spec.frame_width / 2) * px, (spec.frame_height / 2 - y1) * px,
            (x1 + spec.frame_width / 2) * px, (spec.frame_height / 2 - y0) * px]


@pytest.mark.parametrize("aspect", ASPECTS)
def test_a_label_stands_by_its_own_box_clear_of_the_caption_and_the_printout(aspect: str) -> None:
    """The takeaway's whole view at 9:16 (review 6 item 6): w1's AccumulateGrad was cut by the
    caption's box, w2's stood a row under its bucket at z's level and read as z's, and L's
    ``** 2`` touched the printed line. Each op name or bucket name outside its box stands within
    its own height of that box, and a word space's share of it (TAG_CLEAR, as the op-name check
    keeps off the frame's marks) off the caption's box and every printed line."""
    theme = load_theme()
    _, lit, last = _seen(aspect, rendered=True)
    bad = []
    for sample in (lit, last):
        boxes = {i["id"]: i["bbox"] for i in sample["items"] if i["role"] in ("card", "bucket")}
        caption = _caption_box(theme, aspect, sample["frame"])
        printed = [i["bbox"] for i in sample["items"] if i["role"] == "console" and i["opacity"] >= MIN_SHOWN]
        for t in sample["items"]:
            own = boxes.get(t.get("id"))
            if t["role"] != "label" or own is None or t["opacity"] < MIN_SHOWN or _apart(t["bbox"], own) < 0:
                continue  # (a card's own texts lie inside it)
            h = t["bbox"][3] - t["bbox"][1]
            if _gap(t["bbox"], own) >= h:
                bad.append((sample["time"], t["text"], t["id"], "away from its box", round(_gap(t["bbox"], own), 1)))
            for other in [caption, *printed]:
                if _gap(t["bbox"], other) < TAG_CLEAR * h:
                    bad.append((sample["time"], t["text"], t["id"], "against", [round(v) for v in other]))
    assert bad == []
