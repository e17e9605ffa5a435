"""A gradient token rides to the card its edge reaches, not past others: where the way round
would squeeze between other cards (backward_walk's 4/9, from the note left of yh to w2, flew
along w1's top), it crosses the card it leaves, drawn over it, instead (issue 39); a dimmed card
between its note and its node is not one of the cards looked at here (`scenes.render.flight`
follows the whole way)."""

from __future__ import annotations

import functools
import math
from pathlib import Path

import pytest

from scenes.draw.reading import reads_with, waits_reading_on
from scenes.draw.shown_numbers import MIN_SHOWN
from scenes.render.camera_plan import load_and_plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frames looked at

STEP = 0.05


def _gap(a: list[float], b: list[float]) -> float:
    """How far apart two boxes (left, top, right, bottom, pixels) are; negative where they overlap."""
    return max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])


def test_a_token_keeps_off_the_cards_its_edge_does_not_join() -> None:
    checked, p = load_and_plan(storyboard_path("backward_walk"))
    tensor = {c.ids[1]: c.ids[0] for c in p.cues if c.kind == "node_appear" and len(c.ids) > 1}
    tensor.update({c.ids[0]: c.ids[1] for c in p.cues if c.kind == "visit" and len(c.ids) > 1})
    rides = [c for c in p.cues if c.kind == "grad_travel"]
    assert any(c.text("grad") == "4/9" for c in rides)
    times = sorted({round(c.start + k * STEP, 3) for c in rides for k in range(int(c.duration / STEP) + 1)})
    samples = {s["time"]: s for s in inspect_clip(checked, p, RenderOptions(size=(854, 480), fps=20), at=times)}
    near: list[str] = []
    for c in rides:
        own = {tensor.get(n) for n in c.ids}
        at = [samples[t] for t in sorted(samples) if c.start <= t <= c.start + c.duration]
        waiting = {tuple(i["bbox"]) for i in at[0]["items"] if i["role"] == "badge"}
        for s in at:
            for tok in s["items"]:
                if tok["role"] != "badge" or tok["text"] != c.text("grad") or tok["opacity"] < MIN_SHOWN \
                        or tuple(tok["bbox"]) in waiting:
                    continue
                clear = (tok["bbox"][3] - tok["bbox"][1]) / 4
                near += [f"{s['time']:.2f} s: {c.text('grad')} riding {c.ids} is {_gap(tok['bbox'], card['bbox']):.0f} px "
                         f"from card {card['id']}" for card in s["items"]
                         if card["role"] == "card" and card["opacity"] >= MIN_SHOWN and card["id"] not in own
                         and _gap(tok["bbox"], card["bbox"]) < clear]
    assert near == [], "\n".join(near)



def _over(a: list[float], b: list[float]) -> bool:
    """Whether two boxes (pixels) overlap by more than a pixel each way."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def _centre(box: list[float]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


@functools.lru_cache(maxsize=None)
def _first_rides(aspect: str, size: tuple[int, int]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What grad_accumulation's two 3s of the first walk (w * w) pass over on their way from
    y's note to their edges: (card words and twins, note rows), one line a frame. Each copy is
    followed from its own product."""
    checked, p = load_and_plan(storyboard_path("grad_accumulation"))
    first = [c for c in p.cues if c.kind == "visit"][0].start
    rides = [c for c in p.cues if c.kind == "grad_travel" and c.start >= first][:2]
    assert [c.text("grad") for c in rides] == ["3", "3"] and rides[0].start == rides[1].start
    times = [round(rides[0].start + k * 0.1, 3) for k in range(int(rides[0].duration / 0.1) + 2)]
    samples = list(inspect_clip(checked, p, RenderOptions(aspect=aspect, size=size, fps=10), at=times))
    products = [i for i in samples[0]["items"] if i["role"] == "badge" and i["text"] == "3" and i["opacity"] >= MIN_SHOWN]
    assert len(products) == 2
    still = {tuple(i["bbox"]) for i in products}
    at = {id(pr): _centre(pr["bbox"]) for pr in products}
    words: list[str] = []
    rows: list[str] = []
    for s in samples[1:]:
        seen = [i for i in s["items"] if i["opacity"] >= MIN_SHOWN]
        moving = [i for i in s["items"] if i["role"] == "badge" and i["text"] == "3" and tuple(i["bbox"]) not in still]
        for pr in products:
            if not moving:
                break
            tok = min(moving, key=lambda i: math.dist(_centre(i["bbox"]), at[id(pr)]))
            moving.remove(tok)
            at[id(pr)] = _centre(tok["bbox"])
            if tok["opacity"] < MIN_SHOWN:
                continue
            for w in seen:
                if w["role"] in ("label", "value", "note") and _over(tok["bbox"], w["bbox"]):
                    (rows if w["role"] == "note" else words).append(f"{s['time']:.1f} s: the 3 over {w['role']} {w['text']!r}")
            if reads_with(pr, tok):
                words.append(f"{s['time']:.1f} s: the 3 beside its product {pr['bbox']} reads as one number with it")
    return tuple(words), tuple(rows)


@pytest.mark.parametrize("aspect,size", [("16:9", (854, 480)), ("9:16", (480, 854))])
def test_a_token_leaving_a_rule_crosses_no_card_words_and_reads_as_no_twin(aspect: str, size: tuple[int, int]) -> None:
    """grad_accumulation's first walk: each 3 leaves its product in y's note for its edge to w.
    It goes round y's words, not over them (REVIEW5 8: ``3ulBackward0``, ``y3 = 9 3``), and
    while it is level with the product it left, just past it, it is not drawn (``= 3 3`` read
    as 33)."""
    words, _ = _first_rides(aspect, size)
    assert words == (), "\n".join(words)


@pytest.mark.parametrize("aspect,size", [("16:9", (854, 480)), ("9:16", (480, 854))])
def test_a_token_leaving_a_rule_crosses_no_row_of_its_note(aspect: str, size: tuple[int, int]) -> None:
    """... nor over the note's rows (REVIEW5 8: ``w: 1 × 3 3 3``)."""
    _, rows = _first_rides(aspect, size)
    assert rows == (), "\n".join(rows)


@pytest.mark.parametrize("aspect,size", [("16:9", (854, 480)), ("9:16", (480, 854))])
def test_tokens_setting_off_together_from_a_rule_ride_apart(aspect: str, size: tuple[int, int]) -> None:
    """backward_walk's visit of yh: the 8/3 for s and the 4/9 for w2 leave the right end of its
    rule together; each goes its own way, never over the other (they rode one over the other
    round the note's rows, reading ``4/93``)."""
    checked, p = load_and_plan_at(storyboard_path("backward_walk"), aspect=aspect)  # the walk camera's views
    rides = [c for c in p.cues if c.kind == "grad_travel" and c.text("grad") in ("8/3", "4/9")]
    starts = {c.start for c in rides}
    assert len(rides) >= 2 and len(starts) < len(rides), "the two set off together"
    first = min(c.start for c in rides if sum(d.start == c.start for d in rides) > 1)
    pair = [c for c in rides if c.start == first]
    texts = {c.text("grad") for c in pair}
    times = [round(first + k / 15, 3) for k in range(int(max(c.duration for c in pair) * 15) + 1)]
    samples = list(inspect_clip(checked, p, RenderOptions(aspect=aspect, size=size, fps=15), at=times))
    still: set[tuple[float, ...]] = set()
    met: list[str] = []
    both = 0  # frames with both on their way
    for n, s in enumerate(samples):
        toks = [i for i in s["items"] if i["role"] == "badge" and i["text"] in texts and "->" in (i.get("id") or "")
                and i["opacity"] >= MIN_SHOWN]
        if n == 0:
            still = {tuple(i["bbox"]) for i in toks}  # the products, in the rule
            continue
        moving = [i for i in toks if tuple(i["bbox"]) not in still]
        both += len(moving) == 2
        met += [f"{s['time']:.2f} s: {a['text']} {a['bbox']} over {b['text']} {b['bbox']}"
                for k, a in enumerate(moving) for b in moving[k + 1:] if _over(a["bbox"], b["bbox"])]
    assert both >= 4 and met == [], "\n".join(met)


def test_a_token_waits_apart_from_the_product_it_left() -> None:
    """The README lesson at 9:16 (tests/storyboard/lessons/micrograd_readme.yaml): where each token
    waits after its ride, it does not stand level with the product it left in its note, just past
    it (``-6.94 × 1 = -6.94 -6.94`` read as one number, `reading.reads_with`): the product's run
    is kept off as another rule's is (`OnScreen.result_runs`)."""
    path = str(Path(__file__).parent.parent / "storyboard" / "lessons" / "micrograd_readme.yaml")
    checked, p = load_and_plan_at(path, aspect="9:16")
    rides = [c for c in p.cues if c.kind == "grad_travel"]
    times = sorted({round(c.start + c.duration + d, 3) for c in rides for d in (0.0, 0.1)})
    samples = list(inspect_clip(checked, p, RenderOptions(aspect="9:16", size=(480, 854), fps=10), at=times))
    twins: list[str] = []
    for before, s in zip(samples, samples[1:]):
        if s["time"] - before["time"] > 0.15:
            continue
        still = {(i["text"], tuple(i["bbox"])) for i in before["items"] if i["role"] == "badge"}
        pills = [i for i in s["items"] if i["role"] == "badge" and "->" in (i.get("id") or "")
                 and i["opacity"] >= MIN_SHOWN and (i["text"], tuple(i["bbox"])) in still]
        rows = [n for n in s["items"] if n["role"] == "note" and (n["text"] or "").rstrip().endswith("=")
                and n["opacity"] >= MIN_SHOWN]
        products = [a for a in pills if any(reads_with(n, a) for n in rows)]  # each ends a row ``... =``
        twins += [f"{s['time']:.1f} s: {b['text']} ({b['id']}) {b['bbox']} waits just past its product {a['bbox']}"
                  for a in products for b in pills if a is not b and a["id"] == b["id"] and reads_with(a, b)]
    assert twins == [], "\n".join(twins)


@pytest.mark.parametrize("lesson, aspect, size", [("micrograd_readme", "16:9", (854, 480)),
                                                   ("micrograd_readme", "9:16", (480, 854))])
def test_a_token_waiting_gives_way_to_a_rule_written_beside_it(lesson: str, aspect: str, size: tuple[int, int]) -> None:
    """The README lesson at 16:9: a token waiting for its node's visit (``-6.94``, t11's) where a
    later visit's note, finding no spot of its own off it, ends a row just left of it
    (t18's ``d: 6.94 × 1 = [6.94]``) reads as more of that rule's result: once the visit's
    note is up, it has glided off the result's run (`WaitingTokens.make_way`), as
    `reading.waits_reading_on` sees it. At 9:16, t11's new badge, where its one token waited,
    gives way to its own note's ``-6.94`` as much."""
    path = str(Path(__file__).parent.parent / "storyboard" / "lessons" / f"{lesson}.yaml")
    checked, p = load_and_plan_at(path, aspect=aspect)
    visits = [c for c in p.cues if c.kind == "visit"]
    times = sorted({round(c.start + c.duration + d, 3) for c in visits for d in (0.0, 0.1)})
    samples = list(inspect_clip(checked, p, RenderOptions(aspect=aspect, size=size, fps=10), at=times))
    found = [f"{s['time']:.1f} s: {c.a['text']} ({c.a['id']}) {c.a['bbox']} reads on {c.b['text']} ({c.b['id']})"
             for before, s in zip(samples, samples[1:]) if s["time"] - before["time"] <= 0.15
             for c in waits_reading_on(before["items"], s["items"]) if c.what.endswith("rule's result")]
    assert found == [], "\n".join(found)


def test_a_new_badge_gives_way_to_a_value_shown_again() -> None:
    """The README lesson at 16:9: t17's one token settled left of t17's card while the close view on
    t18 hid t8; the move home for t17's visit showed t8's ``-2.00`` just left of it, and the badge
    made where the token waited read ``c + 1 = -2.00 6.94`` (58.0-60.4 s). Once the visit's note is
    up, no badge stands level with a card's value just past its end (`WaitingTokens.make_way`'s
    ``badge``, `reading.waits_reading_on`)."""
    path = str(Path(__file__).parent.parent / "storyboard" / "lessons" / "micrograd_readme.yaml")
    checked, p = load_and_plan_at(path, aspect="16:9")
    visits = [c for c in p.cues if c.kind == "visit"]
    times = sorted({round(c.start + c.duration + d, 3) for c in visits for d in (0.5, 0.6)})
    samples = list(inspect_clip(checked, p, RenderOptions(aspect="16:9", size=(854, 480), fps=10), at=times))
    found = [f"{s['time']:.1f} s: {c.a['text']} ({c.a['id']}) {c.a['bbox']} reads on {c.b['text']} ({c.b['id']})"
             for before, s in zip(samples, samples[1:]) if s["time"] - before["time"] <= 0.15
             for c in waits_reading_on(before["items"], s["items"]) if c.what.endswith("value")]
    assert found == [], "\n".join(found)
