"""The tokens waiting for a bucket stand in one row beside it, in sight, until its fill.

dynamic_graph 16:9's last walk (h/emptyQ slid its graph at home size into the column the pane
frees): the row of 1/27 waiting for w's bucket stood level with the bucket's middle, the walk's
next, closer view carried it out of the frame, and the next two tokens settled apart at other
heights (112-119 s). The row stands level with the bucket's top
(`scenes.draw.rides.TokenRides._to_row`), and a camera move carries where a token rests with it
(`scenes.draw.ways.carry_rests`).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from scenes.draw.collisions import MIN_OPACITY
from scenes.draw.reading import reading_over
from scenes.draw.waiting import arrow_id
from scenes.render.bucket_sum import meetings
from scenes.render.camera_plan import plan_at
from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions, fps_of
from scenes.storyboard import load_and_plan, storyboard_path

pytestmark = pytest.mark.slow  # plays the clip's scene up to the frames looked at

RIDE = 3.0  # a token's ride down its edge and on to the row (`TokenRides._on_to_bucket`: 2 s + 1 s)


def test_the_tokens_wait_in_one_row_by_the_bucket() -> None:
    """From the last 1/27's landing to the fill, the four tokens waiting for w's bucket are all
    seen, at one height (1 px), side by side."""
    checked, shared = load_and_plan(storyboard_path("dynamic_graph"))
    plan = plan_at(checked, shared, "16:9")  # with the walk camera's moves
    met = meetings(plan)[-1]  # the loop's four 1/27 in w's bucket
    leaf = met.bucket.split(":", 1)[1]
    fill = next(c for c in plan.cues if c.kind == "bucket_fill" and abs(c.start - met.start) < 1e-9)
    last = max(c.start for c in plan.cues if c.kind == "grad_travel" and len(c.ids) > 1
               and c.ids[1] == fill.ids[0] and c.start < met.start)  # the last ride to w's node
    opts = RenderOptions(aspect="16:9")
    fps = fps_of(opts)
    times = [last + RIDE + 0.2 + 0.5 * k for k in range(int((met.start - 0.1 - last - RIDE - 0.2) / 0.5) + 1)]
    assert len(times) >= 2, times
    for smp, t in zip(inspect_clip(checked, plan, opts, frames=[round(t * fps) for t in times]), times):
        toks = sorted((i["bbox"] for i in smp["items"] if i["role"] == "badge"
                       and i.get("id") == arrow_id(met.bucket, leaf) and i["opacity"] >= MIN_OPACITY),
                      key=lambda b: b[0])
        assert len(toks) == len(met.terms), (t, toks)
        heights = [(b[1] + b[3]) / 2 for b in toks]
        assert max(heights) - min(heights) <= 1.0, (t, toks)
        assert all(a[2] <= b[0] + 1.0 for a, b in zip(toks, toks[1:])), (t, toks)  # side by side, not over each other



LESSONS = Path(__file__).parent.parent / "storyboard" / "lessons"


def test_a_token_whose_place_was_out_of_view_joins_its_row() -> None:
    """micrograd_readme 9:16: a's second token (the 0.00 from ``b + a``) came to a's row while the
    camera's view had taken the row to the frame's left edge, its place past it; it waited 200 px
    up until the fill, right of t8's ``-2.00`` once the camera moved on. It waits off the values the
    camera hid, and from the visit after (whose view has its place free) stands in a's row, level
    with the first token (1 px), beside it (`WaitingTokens.rejoin`)."""
    checked, shared = load_and_plan(str(LESSONS / "micrograd_readme.yaml"))
    plan = plan_at(checked, shared, "9:16")
    rides = [c for c in plan.cues if c.kind == "grad_travel" and c.ids[1] == "n0"]
    second = rides[1]  # the second gradient to a
    visit = next(c for c in plan.cues if c.kind == "visit" and c.start > second.start + RIDE)
    fill = next(c for c in plan.cues if c.kind == "bucket_fill" and c.ids[1] == "t0")
    opts = RenderOptions(aspect="9:16")
    fps = fps_of(opts)
    times = [visit.start + 1.0 + 4.0 * k for k in range(int((fill.start - 0.5 - visit.start - 1.0) / 4.0) + 1)]
    assert len(times) >= 2, times
    for smp, t in zip(inspect_clip(checked, plan, opts, frames=[round(t * fps) for t in times]), times):
        row = [i for i in smp["items"] if i["role"] == "badge" and i.get("id") == arrow_id("bucket:t0", "t0")
               and i["opacity"] >= MIN_OPACITY]
        first = next(i["bbox"] for i in row if i["text"] == "-6.94")
        mine = next(i["bbox"] for i in row if i["text"] == "0.00")
        assert abs((first[1] + first[3]) / 2 - (mine[1] + mine[3]) / 2) <= 1.0, (t, first, mine)
        gap = first[0] - mine[2] if mine[0] < first[0] else mine[0] - first[2]
        assert 0.0 <= gap <= mine[3] - mine[1], (t, first, mine)  # beside it, a token's height at most


def test_a_term_the_camera_carried_out_of_view_is_there_as_its_sum_is_written() -> None:
    """micrograd_readme 16:9: the view before the fills (the walk's last, on ``c + c``'s sum) carried the
    end of b's row past the frame's right side, and b's ``6.94 + 0.00 + 999.60 + -333.20 + -27.77 =
    645.58`` was written with 999.60 and -333.20 out of view (faded). At b's AccumulateGrad visit each
    term out of view comes into the frame by the row (`WaitingTokens.gather`): in some frame of the fill
    the sum is written with all five terms seen by the bucket (`scenes.render.bucket_sum`)."""
    from scenes.render.bucket_sum import fill_frames, see, verdict

    checked, shared = load_and_plan(str(LESSONS / "micrograd_readme.yaml"))
    plan = plan_at(checked, shared, "16:9")
    met = next(m for m in meetings(plan) if m.bucket == "bucket:t1")
    opts = RenderOptions(aspect="16:9")
    for smp in inspect_clip(checked, plan, opts, frames=sorted(fill_frames([met], fps_of(opts)))):
        see(met, smp["time"], smp["items"])
    assert verdict(met) == [], verdict(met)


def _reach(bbox: list[float], box: list[float]) -> float:
    """How far the centre of ``bbox`` is from the rectangle ``box`` (0 inside it)."""
    x, y = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
    return math.hypot(max(box[0] - x, 0.0, x - box[2]), max(box[1] - y, 0.0, y - box[3]))


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
def test_a_bucket_s_terms_wait_in_rows_by_it_as_its_fill_starts(aspect: str) -> None:
    """micrograd_readme's buckets each get five terms, a row wider than the room beside them. As
    each fill starts, its five terms are all seen, each nearer its own bucket than any other, in
    rows (1 px) side by side, the rows one over another and starting by the bucket
    (`WaitingTokens.row_spot`, `WaitingTokens.gather`): the terms the view carried out of the
    frame came back in to the nearest free spots near the right edge, one over another (16:9,
    b's at its fill, its row's first 1.9 token widths out from the bucket)."""
    checked, shared = load_and_plan(str(LESSONS / "micrograd_readme.yaml"))
    plan = plan_at(checked, shared, aspect)
    mets = [m for m in meetings(plan) if len(m.terms) > 2]
    assert len(mets) == 2, mets
    opts = RenderOptions(aspect=aspect)
    fps = fps_of(opts)
    for met, smp in zip(mets, inspect_clip(checked, plan, opts, frames=[math.floor(m.start * fps) for m in mets])):
        buckets = {i["id"]: i["bbox"] for i in smp["items"] if i["role"] == "bucket"}
        toks = [i["bbox"] for i in smp["items"] if i["role"] == "badge" and i["opacity"] >= MIN_OPACITY
                and i.get("id") == arrow_id(met.bucket, met.bucket.split(":", 1)[1])]
        assert len(toks) == len(met.terms), (met.bucket, smp["time"], toks)
        for b in toks:
            near = min(buckets, key=lambda k: _reach(b, buckets[k]))
            assert near == met.bucket, (met.bucket, smp["time"], b, near)
        tall, wide = max(b[3] - b[1] for b in toks), max(b[2] - b[0] for b in toks)
        rows: list[list[list[float]]] = []
        for b in sorted(toks, key=lambda b: b[1]):
            if rows and abs(rows[-1][0][1] - b[1]) <= 1.0:
                rows[-1].append(b)
            else:
                rows.append([b])
        for row in rows:
            row.sort(key=lambda b: b[0])
            # side by side, no room for another between (places are the widest token apart)
            assert all(0.0 <= b[0] - a[2] < wide for a, b in zip(row, row[1:])), (met.bucket, smp["time"], row)
        # one over another (a row may step past what runs across between: 16:9, a's sum under the buckets)
        assert all(0.0 < b[0][1] - a[0][1] <= 4 * tall for a, b in zip(rows, rows[1:])), (met.bucket, smp["time"], rows)
        box = buckets[met.bucket]
        right = (box[0] + box[2]) / 2 > (toks[0][0] + toks[0][2]) / 2  # the bucket is right of its row
        ends = [row[-1][2] if right else row[0][0] for row in rows]  # each row starts by the bucket, or
        side = box[0] if right else box[2]  # past what has no room for one (16:9: b's was 92 px out)
        assert all(abs(end - side) < wide for end in ends), (met.bucket, smp["time"], box, rows)


def test_no_term_of_another_bucket_stands_on_a_fill_s_sum() -> None:
    """micrograd_readme 16:9: b's ``-27.77`` (its row's place out past its first two, which the view
    had carried out of the frame) waited 6 px over the end of a's ``... = 138.83`` as a's fill wrote
    it, and read as one of its numbers. From a's sum written to b's fill, no term of b's row stands
    over or under a line of it, `STACKS_ON` of its heights or nearer (`WaitingTokens.clear_note`)."""
    checked, shared = load_and_plan(str(LESSONS / "micrograd_readme.yaml"))
    plan = plan_at(checked, shared, "16:9")
    first, second = [m for m in meetings(plan) if len(m.terms) > 2]
    opts = RenderOptions(aspect="16:9")
    fps = fps_of(opts)
    times = [first.start + 0.6 + 0.2 * k for k in range(int((second.start - 0.1 - first.start - 0.6) / 0.2) + 1)]
    assert len(times) >= 2, times
    owner = arrow_id(second.bucket, second.bucket.split(":", 1)[1])
    for smp, t in zip(inspect_clip(checked, plan, opts, frames=[round(t * fps) for t in times]), times):
        seen = [i for i in smp["items"] if i["opacity"] >= MIN_OPACITY]
        sums = [i["bbox"] for i in seen if i["role"] == "note" and i.get("id") == f"note:{first.bucket}"
                and "=" in (i.get("text") or "")]
        assert sums, (t, first.bucket)
        for tok in (i["bbox"] for i in seen if i["role"] == "badge" and i.get("id") == owner):
            for line in sums:
                x0, y0, x1, y1 = reading_over(line)
                assert not (tok[0] < x1 and x0 < tok[2] and tok[1] < y1 and y0 < tok[3]), (t, tok, line)
