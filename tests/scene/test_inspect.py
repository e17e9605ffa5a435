"""``render inspect``: what is on screen at a time, from the scene's own record, without encoding.

What must hold: each sample is ``{"time", "frame", "items"}`` with items tagged where they were
made (cards and their texts carry the tensor's id, captions and the title their role), boxes in
pixels from the top-left corner inside the frame, opacity rising through a fade-in; a value a
Transform changed reads as the new one; the command prints one JSON object a line and refuses bad
times with exit 2.
"""

from __future__ import annotations

import json

import pytest

from engine.records import Tensor
from scenes.commands.main import main
from scenes.render.inspect import inspect_clip, sample_frames
from scenes.render.options import RenderOptions
from scenes.storyboard import load_and_plan, storyboard_path

# one worker for this module under pytest-xdist: its tests share a module-scoped fixture
pytestmark = pytest.mark.xdist_group("inspect")

NAME = "backward_walk"


@pytest.fixture(scope="module")
def walk():
    checked, plan = load_and_plan(storyboard_path(NAME))
    return checked, plan


def _first(plan, kind: str):
    return next(c for c in plan.cues if c.kind == kind)


def test_items_say_what_is_on_screen_and_where(walk) -> None:
    checked, plan = walk
    built = plan.beats[0].start + plan.beats[0].duration - 0.1  # the forward pass is drawn
    fade = _first(plan, "code_line")  # the code pane fading in, at its second frame
    frames = [1 + round(fade.start * 15), round(1.0 * 15), round(built * 15)]
    fading, title, done = list(inspect_clip(checked, plan, RenderOptions(), frames=frames))
    assert done["frame"] == [854, 480] and done["time"] == pytest.approx(frames[2] / 15, abs=1e-3)
    for it in done["items"]:
        x0, y0, x1, y1 = it["bbox"]
        assert 0 <= x0 < x1 <= 854 and 0 <= y0 < y1 <= 480, it
        assert set(it) == {"kind", "role", "text", "bbox", "opacity", "id", "colour", "meaning"}
    cards = {it["id"] for it in done["items"] if it["role"] == "card"}
    tensors = {e.id: e for e in checked.run.events if isinstance(e, Tensor)}
    named = {t for t, e in tensors.items() if e.name}
    assert named <= cards  # every named tensor of the forward pass has its card, under its id
    loss = next(t for t, e in tensors.items() if e.name == "L")
    texts = {(it["role"], it["text"]) for it in done["items"] if it["id"] == loss and it["kind"] == "text"}
    assert ("label", "L") in texts and ("value", "4/9") in texts
    code = [it["text"] for it in done["items"] if it["role"] == "code"]
    assert code == checked.index.lines[: len(code)] and len(code) == len(checked.index.lines)
    heads = [it for it in title["items"] if it["role"] == "title"]
    assert [h["text"] for h in heads] == [checked.storyboard.title]
    assert heads[0]["bbox"][1] > 480 * 0.75  # in the caption band, over the picture
    pane = [it["opacity"] for it in fading["items"] if it["role"] == "code"]
    assert pane and all(0 < o < 1 for o in pane)


def test_a_transformed_value_reads_as_the_new_one() -> None:
    checked, plan = load_and_plan(storyboard_path("grad_accumulation"))
    second = plan.beats[5]  # the second fill: 6 -> 12
    (s,) = inspect_clip(checked, plan, RenderOptions(), at=[second.start + second.duration - 0.2])
    shown = [it for it in s["items"] if it["role"] == "value" and str(it["id"]).startswith("bucket:") and it["opacity"] >= 0.1]
    assert [it["text"] for it in shown] == ["12"]  # the 6 it replaced has faded out (scenes/draw/refill.py)


def test_sample_frames() -> None:
    assert sample_frames(2.0, 15, every=0.5) == [0, 8, 15, 22, 29]
    assert sample_frames(2.0, 15, at=[0.0, 1.0, 9.0]) == [0, 15, 29]


def test_a_time_far_past_the_clip_is_its_last_frame() -> None:
    """Once: ``--at 1e308`` was an OverflowError traceback (1e308 * fps is inf, which no frame is)."""
    assert sample_frames(2.0, 15, at=[1e308, 1e300]) == [29]
    assert sample_frames(2.0, 60, every=1e308) == [0, 119]


def test_the_command_prints_one_object_a_line(capsys) -> None:
    assert main(["inspect", NAME, "--at", "0.5", "--at", "3", "--aspect", "9:16"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["time"] for r in rows] == [pytest.approx(0.533, abs=0.001), 3.0]
    assert all(r["frame"] == [480, 854] for r in rows)
    assert main(["inspect", NAME, "--every", "0"]) == 2
    assert "--every" in capsys.readouterr().err
    assert main(["inspect", "no_such_board"]) == 2


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
def test_every_grad_fn_is_named_once_beside_its_own_card(aspect: str) -> None:
    """Once the backward graph's functions are named, each grad_fn of the log is on screen, under
    its tensor's id, exactly once, and level with or inside that tensor's card: a card too small
    for a second row (1:1) carries the name as its tag, which must not read as the card above's."""
    checked, plan = load_and_plan(storyboard_path("backward_graph"))
    named = plan.beats[3]  # "One line can hold two operations": the last grad_fns named
    opts = RenderOptions(aspect=aspect)
    (sample,) = inspect_clip(checked, plan, opts, frames=[round((named.start + named.duration - 0.1) * 15)])
    fns = {e.id: e.grad_fn for e in checked.run.events if isinstance(e, Tensor) and e.grad_fn}
    texts = [it for it in sample["items"] if it["kind"] == "text" and it["opacity"] > 0.5]
    cards = {it["id"]: it["bbox"] for it in sample["items"] if it["role"] == "card" and it["opacity"] > 0.5}
    for tid, fn in fns.items():
        shown = [it for it in texts if it["text"] == fn and it["id"] == tid]
        assert len(shown) == 1, (aspect, tid, fn, shown)
        (x0, y0, x1, y1), (c0, d0, c1, d1) = shown[0]["bbox"], cards[tid]
        assert y0 < d1 and y1 > d0, (aspect, fn, "not level with its card", shown[0]["bbox"], cards[tid])


def test_the_pass_mark_moves_with_a_code_window_and_sits_on_no_code() -> None:
    """A loop's pass mark stays beside the code while the window of a long program moves to the
    lit line: at 1:1 the window leaves the for line to show the update under no_grad, and a
    mark left where it was sat over `    with torch.no_grad():` for eight seconds."""
    from pathlib import Path

    lesson = Path(__file__).parent.parent / "storyboard" / "lessons" / "sgd_loop.yaml"
    checked, plan = load_and_plan(str(lesson))
    marks = 0
    for sample in inspect_clip(checked, plan, RenderOptions(aspect="1:1"), every=0.5):
        shown = [it for it in sample["items"] if it["opacity"] > 0.1]
        for mark in (it for it in shown if (it["text"] or "").startswith("pass ") and it["role"] == "label"):
            marks += 1
            (x0, y0, x1, y1) = mark["bbox"]
            for code in (it for it in shown if it["role"] == "code"):
                c0, d0, c1, d1 = code["bbox"]
                overlap = min(x1, c1) - max(x0, c0) > 0.5 and min(y1, d1) - max(y0, d0) > 0.5
                assert not overlap, (sample["time"], mark["text"], code["text"])
    assert marks > 10  # the mark is on screen through the loop's passes


def test_a_frame_said_to_be_the_same_as_the_one_before_lists_the_same_items(walk) -> None:
    """`sample` says when nothing was played since the frame before (a hold), and inspect then
    lists that frame's items once for both: every frame of the clip's first 25 s (its forward
    pass, captions coming and going, cards growing), each listed afresh, agrees with that."""
    from manim import tempconfig

    import tempfile
    from pathlib import Path

    from scenes.draw.record import Frame, items, sample
    from scenes.draw.scene import ClipScene
    from scenes.layout.clip import clip_layout
    from scenes.render.options import fps_of, scene_config
    from scenes.theme import load_theme
    from scenes.video.timeline import clip_segments

    checked, plan = walk
    opts, theme = RenderOptions(fps=10), load_theme()
    fps, spec = fps_of(opts), theme.aspect(opts.aspect)
    steps = [st for seg in clip_segments(plan, opts.captions, theme.timings.caption_fade, fps) for st in seg.steps]
    frame = Frame(854, 480, spec.frame_width, spec.frame_height)
    seen: list[tuple[bool, list]] = []
    with tempfile.TemporaryDirectory() as media:
        cfg, _, _ = scene_config(opts, theme, Path(media))
        with tempconfig(cfg):
            scene = ClipScene(plan, checked.run.events, checked.index.source, theme, aspect=opts.aspect,
                              captions=opts.captions, layout=clip_layout(plan, checked.run.events,
                                                                         checked.index.source, opts.aspect, theme))
            sample(scene, steps, fps, range(25 * fps), lambda f, same: seen.append((same, items(scene, frame))))
    assert len(seen) == 25 * fps
    same = [k for k in range(1, len(seen)) if seen[k][0]]
    assert len(same) > len(seen) / 3  # most of a clip is held
    assert all(seen[k][1] == seen[k - 1][1] for k in same)
    assert not seen[0][0]
