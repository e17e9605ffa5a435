"""The plan of the four core storyboards: order, durations, and every string traced to the log."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from engine.records import Event, Tensor, as_dict
from scenes.storyboard import Plan, PlanTimings, load, plan, srt, storyboard_path
from scenes.storyboard.captions import timestamp
from scenes.storyboard.cuemarks import unmarked
from scenes.storyboard.errors import plain
from scenes.storyboard.placeholders import parse
from scenes.storyboard.numfmt import torch_str
from scenes.storyboard.recap import row_name
from scenes.storyboard.rules import WORDS, rule_of, words_of
from scenes.storyboard.views.graph import expression_text
from tests.clips import CLIPS

TIMINGS = PlanTimings()


def _plan(name: str, sets: list[str] | None = None) -> tuple[Plan, list[dict]]:
    checked = load(name if name.endswith(".yaml") else storyboard_path(name), sets=sets)
    return plan(checked.run.events, checked.storyboard, TIMINGS, checked.index.source), checked.run.events


def _derivable(event: Event, field: str) -> set[str]:
    """Every text a field of an event may legitimately be shown as (independent of the plan)."""
    key, _, rest = field.partition("[")
    if field == "grad" and isinstance(event, Tensor):  # .grad as PyTorch reads it when the tensor is made:
        return {"None"}  # None (a result's stays so; a leaf's until a fill: the none_said frame check holds the when)
    value = as_dict(event)[key]
    if rest:
        value = value[int(rest[:-1])]
    if isinstance(value, bool):
        return {str(value)}
    if value is None:
        return {"None"}
    if isinstance(value, (int, float)):
        v = float(value)
        out = {f"{v:.{n}f}" for n in range(9)} | {torch_str(v)}
        if field == "to":
            out.add("0")
        return out
    return {str(value), plain(str(value))}  # printed text is shown with its control characters escaped


@pytest.mark.parametrize("name", CLIPS)
def test_every_displayed_string_comes_from_an_event(name: str) -> None:
    p, events = _plan(name)
    checked = load(storyboard_path(name))
    lines = checked.index.lines
    for shown in p.displayed():
        if shown.seq is None:
            if shown.field == "rule":  # a local rule's words or constant, from the rules table
                assert shown.text in WORDS, shown
                continue
            if shown.field in ("reached", "weights"):  # counts of the network's weights (checked in test_network_plan)
                assert shown.text.isdigit(), shown
                continue
            if shown.field == "checklist":  # the storyboard's own list of checks
                assert shown.text in checked.storyboard.checklist, shown
                continue
            if shown.field == "placeholder":  # a recap row's name: what a placeholder of the takeaway names
                assert shown.text in {row_name(q) for q in parse(checked.storyboard.takeaway.text)[0]}, shown
                continue
            assert (shown.field, shown.text) in {("title", checked.storyboard.title)} | {("source", l) for l in lines}
            continue
        if shown.field == "span":  # an unnamed result called by its code (or its op applied to its input's)
            tensors = {e.id: e for e in events if isinstance(e, Tensor)}
            assert shown.text == expression_text(events[shown.seq], lines, tensors), shown
            continue
        if shown.field == "rule":  # {N.rule}: the words the rules table gives N's node, as the screen writes them
            ev = events[shown.seq]
            rule = rule_of(ev.grad_fn, ev.op)
            assert rule is not None and shown.text == words_of(rule, ev, checked.index), shown
            continue
        assert shown.text in _derivable(events[shown.seq], shown.field), shown


@pytest.mark.parametrize("name", CLIPS)
def test_caption_is_the_narration_with_its_strings_filled(name: str) -> None:
    """A beat's caption events, read one after the other, are its narration filled."""
    p, _ = _plan(name)
    checked = load(storyboard_path(name))
    for i, beat in enumerate(checked.storyboard.beats):
        events = [c for c in p.captions if c.beat == i and c.style == "caption"]
        assert events
        for caption in events:
            for s in caption.strings:
                assert s.text in caption.text
        text = unmarked(beat.narration)  # cue marks never show
        rest = " ".join(c.text for c in events)
        for chunk in [c.split("}", 1)[-1] for c in text.split("{")]:
            assert chunk in rest  # the fixed words are kept, in order


@pytest.mark.parametrize("name", CLIPS)
def test_times_are_ordered_and_positive(name: str) -> None:
    p, _ = _plan(name)
    starts = [c.start for c in p.cues]
    assert starts == sorted(starts) or all(
        p.cues[i].start <= p.cues[i + 1].start or p.cues[i + 1].kind in ("emphasis", "dim")
        for i in range(len(p.cues) - 1))
    assert all(c.duration > 0 for c in p.cues)
    for a, b in zip(p.captions, p.captions[1:]):
        assert a.end <= b.start
    for beat in p.beats:
        cues = [c for c in p.cues if c.beat == beat.index]
        assert all(beat.start <= c.start and c.start + c.duration <= beat.start + beat.duration + 1e-9 for c in cues)
    last = p.beats[-1]
    assert p.duration == pytest.approx(last.start + last.duration)


def test_plan_is_deterministic_and_json() -> None:
    a, _ = _plan("backward_walk")
    b, _ = _plan("backward_walk")
    assert a == b
    data = json.loads(a.to_json())
    assert data["captions"][0]["style"] == "title"  # the title over the first beat, not a card of its own
    assert data["captions"][0]["text"] == "L.backward() walks the graph in reverse"
    assert {"start", "duration", "kind", "beat", "ids", "strings", "line", "seqs"} <= set(data["cues"][0])


def test_backward_walk_visits_in_pytorchs_order() -> None:
    p, _ = _plan("backward_walk")
    visits = [(c.text("grad_fn"), c.text("grad")) for c in p.cues if c.kind == "visit"]
    assert visits == [("PowBackward0", "1"), ("SubBackward0", "4/3"), ("MulBackward0", "4/3"),
                      ("AccumulateGrad", "4/9"), ("ReluBackward0", "8/3"), ("MulBackward0", "8/3"),
                      ("AccumulateGrad", "8/3")]
    travels = [c.text("grad") for c in p.cues if c.kind == "grad_travel"]
    assert travels == ["4/3", "4/3", "8/3", "4/9", "8/3", "8/3"]  # None edges (y, x) are skipped
    fills = [(c.text("name"), c.text("after")) for c in p.cues if c.kind == "bucket_fill"]
    assert fills == [("w2", "4/9"), ("w1", "8/3")]
    last = [c for c in p.captions if c.style == "caption"]
    assert " ".join(c.text for c in last[-2:]) == ("The weights' buckets fill: w2.grad is 4/9 and w1.grad is 8/3, "
                                                   "the numbers we found by hand.")
    assert p.captions[-1].style == "takeaway" and p.beats[-1].visual == "takeaway"


def test_grad_accumulation_bucket_goes_6_12_then_6() -> None:
    p, _ = _plan("grad_accumulation")
    fills = [(c.text("before"), c.text("add"), c.text("after")) for c in p.cues if c.kind == "bucket_fill"]
    # each fill once, in the accumulate beat: the walk beats show visits only (12 never drops back to 6)
    assert fills == [(None, "6", "6"), ("6", "6", "12"), (None, "6", "6")]
    assert [c.beat for c in p.cues if c.kind == "bucket_fill"] == [2, 5, 10]
    assert [c.text("output") for c in p.cues if c.kind == "output_line"] == ["tensor(12.)", "tensor(6.)"]
    assert [c.text("after") for c in p.cues if c.kind == "bucket_reset"] == ["None"]
    two_edges = [c for c in p.cues if c.kind == "grad_travel" and c.beat == 1]
    assert [c.ids for c in two_edges] == [("n1", "n0"), ("n1", "n0")]  # w * w: two edges, one bucket


def test_graph_build_durations_follow_the_timings() -> None:
    p, _ = _plan("graph_build")
    build = [c for c in p.cues if c.beat == 1]
    assert [c.kind for c in build] == ["emphasis", "code_line", "node_appear", "edge_grow", "edge_grow"]
    assert [c.duration for c in build[1:]] == [TIMINGS.code_highlight_move, TIMINGS.node_appear,
                                               TIMINGS.edge_grow, TIMINGS.edge_grow]
    assert build[3].start == build[4].start == pytest.approx(build[2].start + TIMINGS.node_appear)
    fast = [c for c in _plan("backward_graph")[0].cues if c.beat == 0 and c.kind == "node_appear"]
    assert fast[0].duration == pytest.approx(TIMINGS.node_appear * 0.5)


@pytest.mark.parametrize("name", CLIPS)
def test_the_console_shows_what_the_program_prints(name: str) -> None:
    """Issue 39: the lines under the code are the program's prints, in order, and nothing else
    (beside the warnings it raised): backward_graph printed `yh - y = tensor(0.6667, ...)`, a
    variable the program does not have, for a program that prints nothing but says so."""
    from engine.records import Print
    from scenes.layout.clip import message_line, printed_texts

    p, events = _plan(name)
    messages = {message_line(c) for c in p.cues if c.kind == "message"}
    assert [t for t in printed_texts(p) if t not in messages] == [e.text for e in events if isinstance(e, Print)]


def test_backward_graph_shows_buckets_then_grad_fns() -> None:
    p, _ = _plan("backward_graph")
    kinds = [(c.kind, c.text("grad_fn")) for c in p.cues if c.kind in ("bucket_appear", "grad_fn_appear")]
    assert kinds == [("bucket_appear", "AccumulateGrad"), ("bucket_appear", "AccumulateGrad"),
                     ("grad_fn_appear", "MulBackward0"), ("grad_fn_appear", "ReluBackward0"),
                     ("grad_fn_appear", "MulBackward0"), ("grad_fn_appear", "SubBackward0"),
                     ("grad_fn_appear", "PowBackward0")]
    # a card keeps its name as it becomes its backward function: `yh - y` is not renamed `sub`
    names = [c.text("name") for c in p.cues if c.kind == "grad_fn_appear"]
    assert names == ["z", "s", "yh", "yh - y", "L"]


def test_a_grad_fn_keeps_its_tensors_value() -> None:
    """Review 2: each card lost its number as it became its grad_fn (``L 4/9`` -> ``L``), so the
    backward graph ended with no values and graph_build's 4/9 was gone. The article prints z as
    ``tensor(0.3333, grad_fn=<MulBackward0>)``: a result holds both, so the cue carries the value
    its forward card showed, read from the same event."""
    p, _ = _plan("backward_graph")
    forward = {c.ids[0]: c for c in p.cues if c.kind == "node_appear"}
    for cue in (c for c in p.cues if c.kind == "grad_fn_appear"):
        made = forward[cue.ids[1]]
        (value,) = [s for s in cue.strings if s.role == "value"]
        (was,) = [s for s in made.strings if s.role == "value"]
        assert (value.text, value.seq, value.field) == (was.text, was.seq, was.field), cue
    assert [c.text("value") for c in p.cues if c.kind == "grad_fn_appear"] == ["1/3", "1/3", "2/3", "2/3", "4/9"]


def test_srt_comes_from_the_caption_spans() -> None:
    p, _ = _plan("backward_walk")
    text = srt(p.captions)
    blocks = text.strip().split("\n\n")
    assert len(blocks) == len(p.captions)
    start, _, end = blocks[0].splitlines()[1].partition(" --> ")
    assert start == "00:00:00,000" and end == timestamp(p.captions[0].end)
    assert p.captions[0].end >= 39 / 15  # the title: 39 characters at 15 a second, held while the picture gets on
    assert blocks[0].splitlines()[2] == "L.backward() walks the graph in reverse"
    assert " ".join(blocks[-1].splitlines()[2:]) == p.captions[-1].text
    assert all(len(b.splitlines()[2:]) <= 2 for b in blocks)


def _strings(p: Plan) -> list[tuple[str, str, str]]:
    """Cue strings, then each beat's captions joined (numbers of other lengths may cut a
    narration into other events)."""
    beats = sorted({c.beat for c in p.captions})
    return [(c.kind, s.role, s.text) for c in p.cues for s in c.strings] + \
           [("caption", "caption", " ".join(c.text for c in p.captions if c.beat == b)) for b in beats]


@pytest.mark.parametrize("style", ["fraction", "decimal"])
def test_set_w1_changes_exactly_the_strings_that_depend_on_it(style: str, tmp_path) -> None:
    """w1 = 1/3 -> 0.5 in backward_walk: x, w2, y, names, grad_fns and the seed gradient stay."""
    text = open(storyboard_path("backward_walk")).read()
    if style == "decimal":
        text = text.replace("numbers: fraction", "numbers: {style: decimal, places: 4}")
    board = tmp_path / "walk.yaml"
    board.write_text(text)
    base, _ = _plan(str(board))
    moved, _ = _plan(str(board), ["w1=0.5"])
    a, b = _strings(base), _strings(moved)
    assert [(k, r) for k, r, _ in a] == [(k, r) for k, r, _ in b]  # same graph, same cues
    changed = {i for i, (x, y) in enumerate(zip(a, b)) if x != y}
    # Strings that do not depend on w1: names, ops, grad_fns, titles, the code lines but line 3,
    # the values of x, w2 and y, the seed gradient at the loss, and captions without numbers.
    same_values = {"1", "2", "0", "1.0000", "2.0000", "0.0000"}
    depends = set()
    beats = sorted({c.beat for c in base.captions})
    numbers = {b: [s for c in base.captions if c.beat == b for s in c.strings] for b in beats}
    for i, (kind, role, txt) in enumerate(a):
        if kind == "code_line":
            if "w1 = torch.tensor(" in txt:
                depends.add(i)
        elif role in ("value", "grad", "before", "add", "after", "in", "factor", "out", "part") and txt not in same_values:
            depends.add(i)
        elif kind == "caption" and any(s.text not in same_values and s.field != "rule"  # a rule's words: no number
                                       for s in numbers[beats[i - len(a) + len(beats)]]):
            depends.add(i)
    assert changed == depends
    fills = [c.text("after") for c in moved.cues if c.kind == "bucket_fill"]
    assert fills == (["1", "4"] if style == "fraction" else ["1.0000", "4.0000"])  # w2: 2*yh*s, w1: 2*yh*w2*x
    w1 = [c for c in moved.cues if c.kind == "node_appear" and c.text("name") == "w1"][0]
    assert w1.text("value") in ("1/2", "0.5000")


def _exact(text: str) -> Fraction:
    return Fraction(text)


@pytest.mark.parametrize("name", [n for n in CLIPS if load(storyboard_path(n)).storyboard.number_style.style == "fraction"])
def test_the_arithmetic_on_screen_holds(name: str) -> None:
    """Each visit's written rule multiplies out to the gradient the log says it sent, and where
    gradients meet, the parts written add up to what arrived: the rules table says which logged
    numbers stand for each local derivative, and a wrong entry would show a false equation."""
    p, _ = _plan(name)
    rules = [c for c in p.cues if c.kind == "local_rule"]
    sums = [c for c in p.cues if c.kind == "visit" and any(s.role == "part" for s in c.strings)]
    assert rules or not any(c.kind == "visit" for c in p.cues), "the walk writes no arithmetic"
    for c in rules:
        product = _exact(c.text("in"))
        for s in c.strings:
            if s.role == "factor":
                product *= _exact(s.text)
        assert product == _exact(c.text("out")), c
    for c in sums:
        assert sum(_exact(s.text) for s in c.strings if s.role == "part") == _exact(c.text("grad")), c


def test_bucket_levels_come_from_the_logged_numbers_not_the_texts(tmp_path) -> None:
    """A bucket is filled to the logged .grad, not to its rounded text: with one decimal place
    w2.grad shows as 0.4, but its bucket is drawn at 4/9 of the fullest."""
    from scenes.layout.bucket_level import fill_scales

    text = open(storyboard_path("backward_walk")).read().replace("numbers: fraction", "numbers: {style: decimal, places: 1}")
    board = tmp_path / "walk.yaml"
    board.write_text(text)
    p, events = _plan(str(board))
    w2 = next(e.id for e in events if isinstance(e, Tensor) and e.name == "w2")
    assert [c.text("after") for c in p.cues if c.kind == "bucket_fill" and c.ids[1] == w2] == ["0.4"]
    assert fill_scales(p)[w2] == pytest.approx(4 / 9, rel=1e-6)


def test_a_node_made_with_a_constant_names_it() -> None:
    """dynamic_graph's extra node is s * 2: its cue carries the 2 (from the event's inputs), so
    the scene can tag it "× 2" rather than "mul" like every other multiply."""
    p, events = _plan("dynamic_graph")
    doubled = [c for c in p.cues if c.kind == "node_appear" and c.text("operand_after") is not None]
    assert [(c.text("name"), c.text("op"), c.text("operand_after")) for c in doubled] == [("s", "mul", "2")]  # step two skips it
    plain = [c for c in p.cues if c.kind == "node_appear" and c.text("op") == "mul" and c.text("operand_after") is None]
    assert plain and all(c.text("operand_before") is None for c in plain)


def test_a_name_dims_what_it_is_bound_to_by_then() -> None:
    """dynamic_graph dims s and x as the caption says the graph is freed: the two tensors s named
    in step one and its x, not the s of step two, which is not made yet (its arrows would stay
    faded)."""
    p, events = _plan("dynamic_graph")
    dim = next(c for c in p.cues if c.kind == "dim")
    made = [e for e in events if isinstance(e, Tensor) and e.name == "s"]
    x = next(e for e in events if isinstance(e, Tensor) and e.name == "x")
    assert len(made) == 3
    assert {i for i in dim.ids if i.startswith("t")} == {made[0].id, made[1].id, x.id}


def _unfreed(p: Plan) -> list[str]:
    """The graphs a backward() walked that the plan does not show freed: each but the last is
    dimmed (every result its walk visited) after the walk and before the next graph's first
    card, in a beat whose caption says it is freed."""
    starts = [c for c in p.cues if c.kind == "backward_start"]
    out = []
    for k, start in enumerate(starts[:-1]):
        walk = [c for c in p.cues if start.start <= c.start < starts[k + 1].start and c.kind == "visit"
                and c.text("grad_fn") != "AccumulateGrad"]
        walked = {c.ids[1] for c in walk}
        done = max(c.start + c.duration for c in walk)
        nxt = min(c.start for c in p.cues if c.kind == "node_appear" and c.start >= done)
        dims = [c for c in p.cues if c.kind == "dim" and walked <= set(c.ids) and done <= c.start < nxt]
        if not [d for d in dims if any(s.beat == d.beat and "free" in s.text for s in p.captions)]:
            out.append(f"backward() {k + 1} walked {sorted(walked)}: dims {[(d.start, d.beat) for d in dims]}, "
                       f"no caption of theirs says freed")
    return out


def test_every_walked_graph_is_freed_as_its_caption_says() -> None:
    """Issue 39: a graph backward() walked is shown freed (dimmed, and cut from w by the scene)
    as the caption says so, the same way for every step: dynamic_graph's step two was never
    dimmed, stayed bright through "w.grad is -1" and the reset, and vanished as h grew."""
    p, _ = _plan("dynamic_graph")
    assert not _unfreed(p)


def test_a_check_is_ticked_once_its_beat_has_shown_it() -> None:
    """Issue 39: the list comes in as the first check is asked, nothing ticked; each tick comes
    after what its beat prints (a tick as the question is asked answers it before it is shown)."""
    p, _ = _plan("missing_gradient")
    checks = [c for c in p.cues if c.kind == "check"]
    assert not any(s.role == "ticked" for s in checks[0].strings)
    ticks = [c for c in checks if any(s.role == "ticked" for s in c.strings)]
    assert len(ticks) == 3
    for tick in ticks:
        shown = [c for c in p.cues if c.beat == tick.beat and c.kind in ("output_line", "message")]
        assert shown and all(c.start + c.duration <= tick.start + 1e-9 for c in shown), (tick, shown)
    # the call order is shown by the same print before and after backward: None, then tensor(8.)
    first = next(t for t in ticks if t.text("ticked") == "1. the call order")
    after = [c for c in p.cues if c.kind == "output_line" and c.start + c.duration <= first.start + 1e-9]
    assert [c.text("output") for c in after] == ["None", "tensor(8.)"]
    assert checks[0].start < min(c.start for c in after)  # the list comes in as the check is asked


@pytest.mark.parametrize("name", CLIPS)
def test_the_code_bar_is_on_the_beats_line_when_it_speaks(name: str) -> None:
    """Review 2: backward_graph's "Each operation becomes its backward function" was said with
    the bar still on `w2 = ...`, the last beat's line, for 1.6 s: a beat that lights code moves
    the bar to its own line no later than its first words."""
    p, _ = _plan(name)
    late = []
    for beat in sorted({c.beat for c in p.cues}):
        moves = [c for c in p.cues if c.beat == beat and c.kind == "code_line"]
        said = [s for s in p.captions if s.beat == beat and s.style != "title"]
        if moves and said and moves[0].start > said[0].start + 1e-6:
            late.append((beat + 1, said[0].text, moves[0].start - said[0].start))
    assert late == []


MOVES = ("camera", "whole", "whole_back")
"""The cue kinds a clip's plan at an aspect adds to the shared plan's: moves in its pauses."""


@pytest.mark.parametrize("name", CLIPS)
def test_every_aspect_plays_the_plan_every_aspect_shares(name: str) -> None:
    """The course site plays the 9:16 clip with the 16:9 clip's caption track: at every aspect
    the clip has the aspect-free plan's duration, cues and captions (their times, their .vtt);
    the walk's camera (and the whole graph grown, `scenes.render.whole_plan`) only adds its
    moves, each in a pause where no other cue animates."""
    from scenes.render.camera_plan import plan_at
    from scenes.render.options import ASPECTS
    from scenes.storyboard import plan_of, vtt

    checked = load(storyboard_path(name))
    shared = plan_of(checked)
    for aspect in ASPECTS:
        p = plan_at(checked, shared, aspect)
        assert (p.duration, p.captions, vtt(p.captions)) == (shared.duration, shared.captions, vtt(shared.captions)), aspect
        assert [c for c in p.cues if c.kind not in MOVES] == list(shared.cues), aspect
        for m in (c for c in p.cues if c.kind in MOVES):
            assert not any(c.start < m.start + m.duration - 1e-6 and m.start < c.start + c.duration - 1e-6
                           for c in shared.cues), (aspect, m)
    moves = {a: [c for c in plan_at(checked, shared, a).cues if c.kind == "camera"] for a in ASPECTS}
    if name == "backward_walk":  # the camera does move in this one, where the graph is dense
        assert moves["9:16"]


def test_after_a_walk_the_graph_grows_into_the_column_the_pane_stepped_aside_frees() -> None:
    """leaf_nodes 16:9: the pane, beside the graph, stands aside to ``L.backward()`` after the walk
    until ``print(w1.grad)`` lights another line (46.4 s), and the graph at home left the column
    empty meanwhile (38.2-46.4 s, a strict xfail of STILL_EMPTY). The whole graph grows into it
    in the first pause after the walk's move out and goes back, the pane with it, before that
    line, held grown at least ``camera_hold``. No other aspect's plan has those moves."""
    from scenes.render.camera_plan import plan_at
    from scenes.storyboard import plan_of
    from scenes.storyboard.timings import default_timings

    checked = load(storyboard_path("leaf_nodes"))
    shared = plan_of(checked)
    back = min(c.start for c in shared.cues if c.kind == "code_line" and c.line == 10)
    walk = max(c.start for c in shared.cues if c.kind == "visit")
    for aspect, wanted in (("16:9", ["whole", "whole_back"]), ("9:16", [])):
        p = plan_at(checked, shared, aspect)
        out = [c for c in p.cues if c.kind == "camera" and not c.ids and c.start > walk]
        moves = [c for c in p.cues if c.kind in ("whole", "whole_back") and walk < c.start < back]
        assert [c.kind for c in moves] == wanted, aspect
        if moves:
            grow, home = moves
            assert out[0].start + out[0].duration <= grow.start + 1e-9 and home.start + home.duration <= back + 1e-9
            assert home.start - (grow.start + grow.duration) >= default_timings().camera_hold - 1e-9
