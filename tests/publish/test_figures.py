"""The article's figures, its stepping walk and its values table, as data and markup, without a
clip: the numbers are the log's, the text is large enough on a phone, and the page runs no
inline script or style."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from engine.records import Accumulate, Tensor, Visit
from scenes.publish import pages
from scenes.publish.figure_page import page_figures
from scenes.publish.svg import MIN_TEXT_PX, PHONE_COLUMN_PX, SANS_ADVANCE, SVG_NS
from scenes.storyboard import load_and_plan, storyboard_path
from scenes.theme import load_theme
from tests.publish.test_article_data import _data


def _figures(name: str) -> tuple[list, list, object, object]:
    checked, p = load_and_plan(storyboard_path(name), (), name)
    figs, steppers = page_figures(checked.index, p, [f"beat {k}" for k in range(len(p.beats))])
    return figs, steppers, checked, p


def _least_px(svg: str) -> float:
    """The smallest font in CSS px when the figure is drawn in a phone's column (or narrower)."""
    view_w = float(re.search(r'viewBox="\S+ \S+ (\S+) \S+"', svg).group(1))
    width = float(re.search(r'<svg[^>]* width="([\d.]+)"', svg).group(1))
    least = min(float(f) for f in re.findall(r'<text[^>]* font-size="([\d.]+)"', svg))
    return least * min(width, PHONE_COLUMN_PX) / view_w


def test_the_walks_last_figure_holds_the_logs_gradients() -> None:
    figs, _, checked, _ = _figures("backward_walk")
    events = checked.run.events
    ids = {e.name: e.id for e in events if isinstance(e, Tensor) and e.name}
    last = [f for f in figs if f is not None][-1]
    for name in ("w1", "w2"):
        after = [e for e in events if isinstance(e, Accumulate) and e.tensor == ids[name]][-1].after_exact
        assert f">{after}</text>" in last.svg and f"{name}.grad = {after}" in last.desc
    assert figs[-1] is None  # the takeaway's closing card has no figure


@pytest.mark.parametrize("name", ["backward_walk", "graph_build", "grad_accumulation"])
def test_figure_text_is_at_least_12_px_on_a_phone(name: str) -> None:
    figs, steppers, _, _ = _figures(name)
    svgs = [f.svg for f in figs if f is not None] + [s.svg for s in steppers]
    assert svgs
    for svg in svgs:
        assert _least_px(svg) >= MIN_TEXT_PX
        assert 'role="img"' in svg and "<desc id=" in svg and "style=" not in svg


def test_a_walk_steps_through_every_visit_with_its_arithmetic() -> None:
    _, steppers, checked, p = _figures("backward_walk")
    visits = [e for e in checked.run.events if isinstance(e, Visit)]
    (walk,) = steppers
    assert len(walk.steps) == len(visits)
    assert walk.steps[0].text.startswith("PowBackward0 at L: 1 arrived")
    assert "yh - y gets 1 × 2 × 2/3 = 4/3" in walk.steps[0].text
    starts = [c.start for c in p.cues if c.kind == "visit"]
    assert [s.start for s in walk.steps] == starts
    # every step's ring, note and marks are in the figure; only the first step's ring is on
    for s in walk.steps:
        assert f'data-lit="{s.index}"' in walk.svg and f'data-at="{s.index}"' in walk.svg
    assert len(re.findall(r'class="ring" data-lit', walk.svg)) == 1


def test_the_values_table_has_the_gradient_each_node_received() -> None:
    data, checked, _ = _data("backward_walk")
    rows = {r.name: r for r in data["rows"]}
    assert data["grad_headers"] == ["received", ".grad"]
    assert rows["s"].received == ("8/3",) and rows["s"].grads == ("None",)  # a result: no .grad, but it got one
    assert rows["L"].received == ("1",)
    assert rows["x"].received == ("–",)  # the walk never reaches an input
    assert rows["w2"].cells == ("4/9", "4/9")
    two, _, _ = _data("grad_accumulation")
    assert two["grad_headers"] == ["received", ".grad"]  # two columns however many calls: the cells say which


def test_the_values_table_has_a_row_per_tensor_not_per_name() -> None:
    """dynamic_graph binds s three times and h four times: each tensor is a row, told apart by
    the line (and the loop's pass) that made it, with its own value and what its own node
    received; the table keeps five columns for four calls of backward()."""
    data, checked, _ = _data("dynamic_graph")
    rows = {(r.name, r.made): r for r in data["rows"]}
    made = {e.id: e for e in checked.run.events if isinstance(e, Tensor)}
    assert sorted(k for k in rows if k[0] in "hs") == [
        ("h", "line 19"), ("h", "line 25, pass 1"), ("h", "line 25, pass 2"), ("h", "line 25, pass 3"),
        ("s", "line 11"), ("s", "line 4"), ("s", "line 6")]
    last_h = rows["h", "line 25, pass 3"]
    assert last_h.value == "1/81" and last_h.cells == ("call 4: 1", "None")  # the walk starts at the last h
    assert rows["h", "line 25, pass 1"].value == "1/9" and rows["h", "line 25, pass 1"].cells[0] == "call 4: 1/9"
    assert rows["s", "line 11"].value == "-1/3" and rows["s", "line 11"].cells[0] == "call 2: 1"
    assert rows["s", "line 4"].cells[0] == "call 1: 2"
    assert rows["x", "line 3"].value == "1" and rows["x", "line 10"].value == "-1"
    assert rows["w", ""].cells == ("call 1: 2\ncall 2: -1\ncall 3: 2/3\ncall 4: 4/27",) * 2
    assert len(data["rows"]) == sum(1 for e in made.values() if e.name in ("w", "x", "s", "h"))
    assert data["grad_headers"] == ["received", ".grad"]
    md = pages.render("article.md.j2", {**data, "files": {**data["files"]}})
    assert "| `h` (line 25, pass 3) | 1/81 | call 4: 1 | None | MulBackward0 |" in md


def test_the_page_runs_no_inline_script_or_style() -> None:
    data, _, _ = _data("backward_walk")
    data["files"] = {**data["files"], "script": "gradreel.js"}
    page = pages.render("article.html.j2", data)
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
    assert re.findall(r"\son[a-z]+\s*=", page) == [] and "style=" not in page
    assert '<script src="gradreel.js" defer></script>' in page
    assert page.count('<span class="line" id="L-') == len(data["program"].splitlines())
    assert 'data-lines="2-9"' in page and "://" not in page.replace("data:", "")


@pytest.mark.parametrize("name", ["leaf_nodes", "missing_gradient"])
def test_a_page_with_none_notes_and_key_takeaways_runs_no_inline_script(name: str) -> None:
    """The pages whose figures write `.grad = None` beside a bucket or card and that end with
    the author's key takeaways: no inline script, handler or style, nothing from another host."""
    data, _, _ = _data(name)
    data["files"] = {**data["files"], "script": "gradreel.js"}
    page = pages.render("article.html.j2", data)
    assert 'class="unkept"' in page and 'id="takeaways"' in page
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
    assert re.findall(r"\son[a-z]+\s*=", page) == [] and "style=" not in page
    assert "://" not in page.replace("data:", "").replace(SVG_NS, "")


def test_a_bucket_shows_the_grad_its_visit_writes() -> None:
    """Beat 6 of backward_walk ends on the AccumulateGrad visit of w1 ("w1.grad: 8/3" beside it):
    its figure shows both buckets filled, not "None" under that line."""
    figs, _, _, _ = _figures("backward_walk")
    walk_end = figs[5]
    assert "w1.grad: 8/3" in walk_end.svg
    assert ">None</text>" not in walk_end.svg and ">8/3</text>" in walk_end.svg and ">4/9</text>" in walk_end.svg
    assert "w1.grad = 8/3" in walk_end.desc and "w2.grad = 4/9" in walk_end.desc


def test_a_gradient_takes_its_edges_place_as_in_the_clip() -> None:
    """Once: every edge the walk went back along was drawn twice, the grey forward arrow and the
    orange gradient's beside it. In a figure the walk has passed, each such edge is the gradient's
    arrow only; in the stepping figure its forward arrow shows until the step that sends it."""
    figs, steppers, _, _ = _figures("backward_walk")
    colours = load_theme().colors
    walk_end, (walk,) = figs[5], steppers
    sent = len(re.findall(rf'<path [^>]*stroke="{colours.grad}"', walk_end.svg))
    assert sent == 8  # 6 gradients sent back down the graph's edges, 2 into the buckets
    assert re.findall(rf'<path [^>]*stroke="{colours.edge}"', walk_end.svg) == []  # x's and y's are dimmed
    until = sorted(int(k) for k in re.findall(r'class="mark edge(?: off)?" data-until="(\d+)"', walk.svg))
    froms = re.findall(r'data-from="(\d+)"><g><path [^>]*stroke="', walk.svg)
    assert len(until) == 6 and set(until) <= {int(k) for k in froms}


def test_a_later_walk_starts_from_what_the_bucket_held() -> None:
    """grad_accumulation's second walk adds to 6: before its fill, the stepping bucket shows 6."""
    _, steppers, _, _ = _figures("grad_accumulation")
    before = [re.search(r'class="mark(?: off)?" data-until="\d+">(.*?)</g>', s.svg).group(1) for s in steppers]
    assert [">6</text>" in b for b in before] == [False, True, False]  # the third follows w.grad = None
    assert before[0] == before[2] == ""  # None: the bucket is empty, no word in it, as the clip draws it


def test_each_walk_has_a_heading_of_its_own() -> None:
    """grad_accumulation walks three times: three stepping figures, three different headings."""
    _, steppers, _, _ = _figures("grad_accumulation")
    assert [s.heading for s in steppers] == ["The first walk, step by step", "The second walk, step by step",
                                             "The third walk, step by step"]
    _, (one,), _, _ = _figures("backward_walk")
    assert one.heading == "The walk, step by step"


@pytest.mark.parametrize("name", ["backward_walk", "dynamic_graph"])
def test_no_two_gradient_numbers_overlap(name: str) -> None:
    """dynamic_graph's last walk sends four 1/27s into w: each number has a spot of its own."""
    figs, _, _, _ = _figures(name)
    label = re.compile(r'<text x="([-\d.]+)" y="([-\d.]+)" font-size="([\d.]+)"[^>]*font-weight="bold" stroke=[^>]*>'
                       r'([^<]*)</text>')
    for f in (f for f in figs if f is not None):
        boxes = [(float(x), float(y), len(t) * SANS_ADVANCE * float(em) / 2, float(em) / 2)
                 for x, y, em, t in label.findall(f.svg)]
        for i, a in enumerate(boxes):
            for b in boxes[:i]:
                assert abs(a[0] - b[0]) >= a[2] + b[2] or abs(a[1] - b[1]) >= a[3] + b[3], (f.file, a, b)


def test_a_value_wider_than_its_card_is_left_out_as_in_the_clip(tmp_path: Path) -> None:
    """backward_graph with its numbers as tensors (`numbers: torch`): the loss's
    ``tensor(0.4444, grad_fn=<PowBackward0>)`` ran across its neighbours and out of the figure.
    The card shows its name and grad_fn, as the clip's does; the description keeps the value."""
    board = tmp_path / "backward_graph.yaml"
    board.write_text(Path(storyboard_path("backward_graph")).read_text().replace("numbers: fraction", "numbers: torch"))
    checked, p = load_and_plan(str(board), (), "backward_graph")
    figs, _ = page_figures(checked.index, p, [f"beat {k}" for k in range(len(p.beats))])
    first = figs[0]
    assert ">tensor(0.4444, grad_fn=&lt;PowBackward0&gt;)</text>" not in first.svg and ">L</text>" in first.svg
    assert "L = tensor(0.4444, grad_fn=<PowBackward0>)" in first.desc


def test_a_freed_graph_leaves_the_figures_as_it_leaves_the_clip() -> None:
    """dynamic_graph's loops, once: their figures still drew ``x 1`` and ``x -1`` (the clip fades
    them with their freed graphs), the freed loop-once h kept its arrows into w (the clip cuts
    them: w would read as summing them; now it goes, the three-pass loop's first h taking its
    place, review 4), and the long w -> h edge kinked at its dummy slots (the
    clip's edge is a smooth curve through them). Each figure shows what the clip shows then."""
    figs, _, checked, p = _figures("dynamic_graph")
    made = [e for e in checked.run.events if isinstance(e, Tensor)]
    xs = {e.id for e in made if e.name == "x"}
    w = next(e.id for e in made if e.name == "w")
    once, *_, last_h = [e.id for e in made if e.name == "h" and not e.is_leaf]
    beat = {c.ids[0]: c.beat for c in p.cues if c.kind == "node_appear"}
    assert all(p.beats[k].index == k for k in range(len(p.beats)))
    loops = [f for f in figs[beat[once]:] if f is not None]
    assert len(loops) >= 5
    kept = [e.id for e in made if e.name == "x"][-1]  # step two's x, kept faded with its freed graph
    for f in loops:
        assert [x for x in xs if x != kept and f'data-item="{x}"' in f.svg] == [], f.file
    for f in (f for f in figs[beat[last_h]:] if f is not None):  # ...until the three-pass loop starts
        assert f'data-item="{kept}"' not in f.svg and "x = " not in f.desc, f.file
    built = figs[beat[last_h]]  # the three-pass graph, before its walk
    assert f'data-item="{once}"' not in built.svg  # the freed loop-once h: its place is the new first h's
    assert f'data-edge="{w}->{once}"' not in built.svg  # and its arrows from w went with it
    long_edge = re.search(rf'<g data-edge="{w}->{last_h}"><path d="([^"]*)"', built.svg)
    assert long_edge is not None and " C" in long_edge.group(1)  # through its dummy slots, smoothly
    assert not any("<polyline" in f.svg for f in figs if f is not None)


def test_a_buckets_level_is_its_grad_over_the_largest_it_holds() -> None:
    """One rule for a bucket's level, the clip's and the figures' (scenes/layout/bucket_level.py):
    grad_accumulation's w holds 6, then 12, then 6 again, so its bucket is half full, full, half
    full; figures used to fill every bucket to the brim whatever it held."""
    figs, _, _, _ = _figures("grad_accumulation")
    liquid = re.compile(rf'<rect[^>]* height="([\d.]+)"[^>]* fill="{load_theme().colors.bucket_fill}"/><text[^>]*>([^<]+)</text>')
    heights: dict[str, set[float]] = {}
    for f in figs:
        for h, text in liquid.findall(f.svg if f is not None else ""):
            heights.setdefault(text, set()).add(round(float(h), 3))
    assert set(heights) >= {"6", "12"}, heights
    (full,), (half,) = heights["12"], heights["6"]
    assert half == pytest.approx(full / 2, rel=1e-2)


def test_a_figures_card_writes_name_and_value_as_the_clip_does() -> None:
    """A card of the article's figure reads ``w1 = 1/3`` as the clip's does (the theme's
    ``labels.name_value`` between them), not ``w1  1/3`` beside the clip's ``yh - y = 2/3``."""
    figs, _, _, _ = _figures("backward_walk")
    svg = figs[0].svg
    sep = load_theme().labels.name_value
    row = re.findall(r'<g class="card" data-item="[^"]+"[^>]*>(.*?)</g>', svg)
    texts = [re.findall(r">([^<]*)</text>", r) for r in row]
    valued = [t for t in texts if "1/3" in t or "4/9" in t]
    assert valued and all(t[1] == sep for t in valued), texts


def test_a_grad_reset_to_none_is_written_as_the_clip_writes_it() -> None:
    """grad_accumulation's `w.grad = None`: its figure, and the next forward pass's, write
    `w.grad = None` after an empty bucket (the grammar's one picture of None, as yh's); the walk
    that fills the bucket again takes it away, and the figures before the reset have none."""
    figs, _, _, p = _figures("grad_accumulation")
    reset = next(c for c in p.cues if c.kind == "bucket_reset")
    walk = next(c.beat for c in p.cues if c.kind == "visit" and c.start > reset.start)  # its figure fills the bucket
    for f, beat in zip(figs, p.beats):
        if f is None:
            continue
        words = [" ".join(re.sub(r"<[^>]+>", " ", g).split()) for g in re.findall(r'<g class="unkept"[^>]*>.*?</g>', f.svg)]
        told = reset.beat <= beat.index < walk
        assert words == ([f"{reset.text('name')}.grad = {reset.text('after')}"] if told else []), (beat.index, words)


def _rects(svg: str, cls: str) -> dict[str, tuple[float, float, float, float]]:
    """Each ``<g class=CLS data-item=ID>``'s first rect, as (left, top, right, bottom) in user units."""
    out = {}
    for m in re.finditer(rf'<g class="{cls}" data-item="([^"]+)"[^>]*>(.*?)</g>', svg):
        r = re.search(r'<rect[^>]* x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)"', m.group(2))
        if r:
            x, y, w, h = (float(v) for v in r.groups())
            out[m.group(1)] = (x, y, x + w, y + h)
    return out


def _note_rect(g: str) -> tuple[float, float, float, float]:
    """The box round a note's texts (an advance of `SANS_ADVANCE` an em, an em tall) and rects."""
    parts = []
    for x, y, size, anchor, text in re.findall(r'<text x="([-\d.]+)" y="([-\d.]+)" font-size="([\d.]+)"[^>]*'
                                                r'text-anchor="(\w+)"[^>]*>([^<]*)</text>', g):
        x, y, size = float(x), float(y), float(size)
        w = len(text.replace("&gt;", ">")) * SANS_ADVANCE * size
        left = x - w / 2 if anchor == "middle" else x
        parts.append((left, y - size / 2, left + w, y + size / 2))
    for x, y, w, h in re.findall(r'<rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)"', g):
        parts.append((float(x), float(y), float(x) + float(w), float(y) + float(h)))
    return (min(p[0] for p in parts), min(p[1] for p in parts), max(p[2] for p in parts), max(p[3] for p in parts))


def _gap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    return math.hypot(max(0.0, b[0] - a[2], a[0] - b[2]), max(0.0, b[1] - a[3], a[1] - b[3]))


@pytest.mark.parametrize("name", ["leaf_nodes", "missing_gradient", "grad_accumulation"])
def test_a_none_grad_is_written_beside_its_bucket_or_card_as_in_the_clip(name: str) -> None:
    """`v.grad = None` sits beside v's empty bucket and a result's `yh.grad = None` beside yh's
    card, as the clip places them (`form_spot`), not in a list under the graph: each note is
    nearer what it names than any other card or bucket, covers none, and lies in the
    figure (REVIEW5's page: `yh.grad = None` at the figure's bottom-left, away from yh)."""
    figs, _, checked, _ = _figures(name)
    seen = 0
    for f in figs:
        if f is None or 'class="unkept"' not in f.svg:
            continue
        things = {**_rects(f.svg, "card"), **_rects(f.svg, "bucket")}
        vx, vy, vw, vh = (float(v) for v in re.search(r'viewBox="([^"]+)"', f.svg).group(1).split())
        for g in re.findall(r'<g class="unkept".*?</g>(?:</g>)?', f.svg):
            name_of = re.sub(r"<[^>]+>", " ", g).split()[0].removesuffix(".grad")
            tensor = [e.id for e in checked.run.events if isinstance(e, Tensor) and e.name == name_of][-1]
            own = f"bucket:{tensor}" if f"bucket:{tensor}" in things else tensor
            note = _note_rect(g)
            gaps = {k: _gap(note, r) for k, r in things.items()}
            assert min(gaps, key=gaps.get) == own, (name, name_of, sorted(gaps.items(), key=lambda kv: kv[1])[:3])
            assert all(v > 0 for k, v in gaps.items() if k != own), (name, name_of, gaps)
            assert vx <= note[0] and note[2] <= vx + vw and vy <= note[1] and note[3] <= vy + vh, (name, name_of, note)
            seen += 1
    assert seen, name



@pytest.mark.parametrize("name", ["leaf_nodes", "missing_gradient"])
def test_a_figures_arithmetic_keeps_what_arrived_with_its_node(name: str) -> None:
    """A visit's line too long for the figure breaks after ``NODE at CARD:``, not before its last
    word: leaf_nodes' walk figure read ``SubBackward0 at yh - y: 1/2`` over ``arrived`` alone."""
    figs, steppers, _, _ = _figures(name)
    svgs = [f.svg for f in figs if f is not None] + [s.svg for s in steppers]
    rows = [t for svg in svgs for t in re.findall(r'<text[^>]*text-anchor="start"[^>]*>([^<]*)</text>',
                                                 re.sub(r'<g class="(unkept|card)".*?</g>', "", svg))]
    assert any("arrived" in r for r in rows), name  # the walk's arithmetic is there
    assert all(len(r.split()) > 1 for r in rows), [r for r in rows if len(r.split()) <= 1]
