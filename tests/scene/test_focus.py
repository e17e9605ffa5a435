"""A beat's `focus:`: the camera moves to some cards for the beat (drawn larger) and back after;
a name that is no tensor of the log is refused at its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenes.render.inspect import inspect_clip
from scenes.render.options import RenderOptions
from scenes.storyboard import StoryboardError, load, load_and_plan, storyboard_path
from scenes.render.camera_plan import load_and_plan_at

MICROGRAD = Path(__file__).parents[1] / "storyboard" / "lessons" / "micrograd_readme.yaml"


def _cards(sample: dict) -> dict[str, tuple[float, float]]:
    """Each card's (width, height) in pixels, by tensor id, and only the visible ones."""
    return {i["id"]: (i["bbox"][2] - i["bbox"][0], i["bbox"][3] - i["bbox"][1])
            for i in sample["items"] if i["role"] == "card" and i["opacity"] > 0.5}


def test_focus_beat_draws_its_cards_larger_and_moves_back() -> None:
    checked, plan = load_and_plan(str(MICROGRAD))
    focus = next(c for c in plan.cues if c.kind == "focus")
    back = next(c for c in plan.cues if c.kind == "unfocus")
    beat = plan.beats[focus.beat]
    assert beat.start <= focus.start < back.start < beat.start + beat.duration
    e = checked.index.ids_of("e")[0]
    before, during, after = inspect_clip(checked, plan, RenderOptions(), at=[
        focus.start - 0.1, back.start - 0.05, back.start + back.duration + 0.1])
    d, a = _cards(during), _cards(after)
    assert e not in _cards(before)  # e is made during the focused beat
    assert d[e][0] > 1.8 * a[e][0] and d[e][1] > 1.8 * a[e][1], (d[e], a[e])
    shown_before = _cards(before)
    first = checked.index.ids_of("a")[0]
    assert shown_before[first] == a[first]  # back where and as large as it was
    assert first not in d  # a leaf far from the focus is faded out while the camera is close
    value_height = {i["id"]: i["bbox"][3] - i["bbox"][1] for i in after["items"] if i["role"] == "value"}
    assert value_height[e] == pytest.approx(value_height[first], abs=0.5)  # made close up, as large as the rest once back


def test_focus_names_must_be_tensors_of_the_log(tmp_path: Path) -> None:
    text = MICROGRAD.read_text().replace("focus: [e, f, g]", "focus: [e, ff, torch]")
    (tmp_path / "m.yaml").write_text(text)
    with pytest.raises(StoryboardError) as info:
        load(str(tmp_path / "m.yaml"))
    got = [str(p) for p in info.value.problems]
    line = text.splitlines().index("    focus: [e, ff, torch]") + 1
    assert len(got) == 2 and all(f"m.yaml:{line}:" in g for g in got), got
    assert "focus: 'ff' is not a tensor of the log" in got[0] and "did you mean 'f'" in got[0].lower()
    assert "focus: 'torch' is not a tensor of the log" in got[1]


def test_walk_camera_moves_in_on_the_visited_card_and_back_out() -> None:
    """backward_walk at 16:9 (a tall graph beside the code pane): the camera's move before the
    first visit draws the loss's card larger (beside the whole pane still: the walk's line is
    lit at the visit, after the move), the captions and the code pane stay where they
    are, and the move out once the walk is over brings the card back as large and where it was."""
    checked, plan = load_and_plan_at(storyboard_path("backward_walk"), aspect="16:9")
    into = next(c for c in plan.cues if c.kind == "camera" and c.ids)
    out = next(c for c in plan.cues if c.kind == "camera" and not c.ids and c.start > into.start)
    loss = checked.index.ids_of("L")[0]
    before, during, after = inspect_clip(checked, plan, RenderOptions(), at=[
        into.start - 0.05, into.start + into.duration + 0.05, out.start + out.duration + 0.1])
    b, d, a = _cards(before), _cards(during), _cards(after)
    assert d[loss][0] > 1.3 * b[loss][0], (b[loss], d[loss])
    assert a[loss] == pytest.approx(b[loss], abs=0.5)
    box = {s["time"]: {i["id"]: i["bbox"] for i in s["items"] if i["role"] == "card"} for s in (before, after)}
    assert box[before["time"]][loss] == pytest.approx(box[after["time"]][loss], abs=0.5)
    pane = [[i["bbox"] for i in s["items"] if i["role"] == "code"] for s in (before, during)]
    assert pane[0] and all(b in pane[1] for b in pane[0])  # the code pane's lines do not move with the graph


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_way_out_waits_for_the_caption_naming_the_walks_sum(aspect: str) -> None:
    """dynamic_graph (the loop of three): the walk's last fill writes ``1/27 + ... = 4/27`` in the
    close view, and "w.grad is 4/27" names it in the pause after the walk: the camera's move out
    starts once that caption is gone (the sum goes as the camera leaves the view it was written
    in: 9:16 took it at 124.47 s, the caption up to 124.93 s)."""
    from scenes.storyboard.caption_events import naming
    from scenes.storyboard.cues import writes_sum

    _, plan = load_and_plan_at(storyboard_path("dynamic_graph"), aspect=aspect)
    fill = [c for c in plan.cues if c.kind == "bucket_fill" and writes_sum(c)][-1]
    says = naming(plan.captions, fill)
    assert says is not None and says.start > fill.start  # named after the fill, in the pause
    out = next(c for c in plan.cues if c.kind == "camera" and not c.ids and c.start > fill.start)
    assert out.start >= says.end - 1e-6, (out.start, says.end)


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
def test_the_walk_camera_shows_the_loss_visit_with_both_inputs_of_d(aspect: str) -> None:
    """backward_walk (review 4 item 1): while the walk's first visit (the loss, L = d ** 2) is
    explained, the view holds d = yh - y and both its inputs, yh and y, whole in the frame,
    and L's rule beside L: a view of `yh - y` beside y alone read as made from y."""
    checked, plan = load_and_plan_at(storyboard_path("backward_walk"), aspect=aspect)
    first, second = [c for c in plan.cues if c.kind == "visit"][:2]
    d = second.ids[1]  # the walk goes from L to d, whose tensor (unnamed) the second visit shows
    loss, yh, y = (checked.index.ids_of(n)[0] for n in ("L", "yh", "y"))
    sample = next(iter(inspect_clip(checked, plan, RenderOptions(aspect=aspect), at=[first.start + 2.0])))
    w, h = sample["frame"]
    shown = {i["id"] for i in sample["items"] if i["role"] == "card" and i["opacity"] > 0.5
             and i["bbox"][0] >= 0 and i["bbox"][2] <= w and i["bbox"][1] >= 0 and i["bbox"][3] <= h}
    assert {loss, d, yh, y} <= shown, (sorted(shown), loss, d, yh, y)
    notes = [i for i in sample["items"] if i["id"] == f"note:{loss}" and i["opacity"] > 0.5]
    assert notes, "L's rule is written beside it"


def test_a_walk_beat_starts_from_its_stored_state_with_the_camera_in(tmp_path: Path) -> None:
    """backward_walk at 16:9: the walk's camera stays in from one walk beat to the next, so the
    beat after starts close, its record says so (and the digest in its segment's key with it),
    and a scene given that beat's stored state sees the layout as the camera does: played on
    from there it ends the beat as the scene that played every earlier beat does."""
    import tempfile

    from manim import tempconfig

    from scenes.draw.scene import ClipScene
    from scenes.layout.clip import clip_layout
    from scenes.render.options import fps_of, scene_config
    from scenes.render.states import BeatStates
    from scenes.theme import load_theme
    from scenes.video.digest import state_digest
    from scenes.video.player import run_step
    from scenes.video.timeline import clip_segments

    checked, plan = load_and_plan_at(storyboard_path("backward_walk"), aspect="16:9")
    opts, theme = RenderOptions(aspect="16:9"), load_theme()
    fps = fps_of(opts)
    layout = clip_layout(plan, checked.run.events, checked.index.source, "16:9", theme)
    segs = clip_segments(plan, opts.captions, theme.timings.caption_fade, fps)
    walks = {c.beat for c in plan.cues if c.kind == "camera" and c.ids}
    k = next(b for b in sorted(walks) if b - 1 in walks)  # a walk beat after a walk beat
    with tempfile.TemporaryDirectory(prefix="gradreel-test-") as media:
        cfg, _, _ = scene_config(opts, theme, Path(media))
        with tempconfig(cfg):
            def scene() -> ClipScene:
                return ClipScene(plan, checked.run.events, checked.index.source, theme, aspect="16:9", layout=layout)

            played = scene()
            for seg in segs[:k]:
                for st in seg.steps:
                    run_step(played, st, fps, None)
            assert played.state.camera.zoom is not None and played.state.camera.by_walk
            assert played.lay is not layout and played.lay.region == played.state.camera.region
            states = BeatStates(tmp_path)
            states.put_digest("p", state_digest(played, played.state))
            states.save_state("p", played)
            loaded = scene()
            assert loaded.lay is layout
            assert states.load_state("p", loaded, lambda s: state_digest(s, s.state))
            assert loaded.lay.boxes == played.lay.boxes and loaded.lay.routes == played.lay.routes
            for sc in (played, loaded):
                for st in segs[k].steps:
                    run_step(sc, st, fps, None)
            assert state_digest(loaded, loaded.state) == state_digest(played, played.state)
            home = played.state.camera.zoom
            played.state.camera.zoom = None  # the key tells a camera at home from one close
            assert state_digest(played, played.state) != state_digest(loaded, loaded.state)
            played.state.camera.zoom = home


def test_the_walk_camera_is_the_default(tmp_path: Path) -> None:
    """A storyboard that says nothing of the camera gets the walk's camera (`camera: visits`, the
    model's default): at 16:9 the plan of a dense walk (tanh_sgd_lists, whose storyboard has no
    `camera:` line) moves in on its visits; `camera: home` keeps the whole graph in view."""
    lesson = Path(__file__).parents[1] / "storyboard" / "lessons" / "tanh_sgd_lists.yaml"
    text = lesson.read_text()
    assert "\ncamera:" not in text
    checked, plan = load_and_plan_at(str(lesson), aspect="16:9")
    assert checked.storyboard.camera == "visits"
    assert any(c.kind == "camera" and c.ids for c in plan.cues)
    (tmp_path / "home.yaml").write_text(text + "camera: home\n")
    checked, plan = load_and_plan_at(str(tmp_path / "home.yaml"), aspect="16:9")
    assert checked.storyboard.camera == "home"
    assert not any(c.kind == "camera" for c in plan.cues)


WALKS = ("backward_walk", "grad_accumulation", "leaf_nodes", "missing_gradient", "dynamic_graph")
"""The clips whose walks the camera moves in on (at 16:9 and 9:16)."""


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
@pytest.mark.parametrize("name", WALKS)
def test_the_move_into_a_walk_waits_for_the_caption_naming_what_it_leaves(name: str, aspect: str) -> None:
    """What is spoken about stays on screen while it is spoken (issue 39): the camera's move
    from the whole graph into a walk's first visit starts once every caption naming a card the
    visit's close view does not hold (`held`) is gone. missing_gradient 16:9 moved in at 13.93 s,
    fading w, under "reading w.grad before backward gives None" (up to 14.83 s)."""
    from scenes.layout.camera import held
    from scenes.layout.clip import clip_layout
    from scenes.storyboard.binding import caption_names
    from scenes.theme import load_theme

    checked, plan = load_and_plan_at(storyboard_path(name), aspect=aspect)
    home = clip_layout(plan, checked.run.events, checked.index.source, aspect, load_theme())
    moves = [c for c in plan.cues if c.kind == "camera"]
    firsts = [m for k, m in enumerate(moves) if m.ids and (k == 0 or not moves[k - 1].ids)]  # from home
    named = caption_names(plan.captions, plan.cues, checked.index)
    bad = []
    for m in firsts:
        kept = set(held(home, home.card_of(m.ids[-1])))
        for cap in plan.captions:
            names = {home.card_of(t) for t in named[cap.index]} - kept
            if names and cap.start < m.start + m.duration - 1e-6 and cap.end > m.start + 1e-6:
                bad.append(f"{m.start:.2f} s into {m.ids}: {sorted(names)} named by {cap.text!r} (to {cap.end:.2f} s)")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("aspect", ["16:9", "9:16"])
@pytest.mark.parametrize("name", WALKS)
def test_a_move_between_close_views_keeps_what_the_caption_up_names(name: str, aspect: str) -> None:
    """From one close view to the next, a card the view before holds and a caption up during
    the move names stays in view: the next view holds it too, or the cue lists it for the scene
    to keep (`camera_plan.kept_named`). backward_walk 9:16 moved into w2's visit at 39.43 s
    under "... and s gets the gradient times w2." with s left out; leaf_nodes 9:16 into w1's at
    36.40 s under "Mul multiplies it by x on its way to w1." with x left out."""
    from scenes.layout.camera import held
    from scenes.layout.clip import clip_layout
    from scenes.storyboard.binding import caption_names
    from scenes.theme import load_theme

    checked, plan = load_and_plan_at(storyboard_path(name), aspect=aspect)
    home = clip_layout(plan, checked.run.events, checked.index.source, aspect, load_theme())
    visits = {c.seqs[0]: c for c in plan.cues if c.kind == "visit" and c.seqs}
    named = caption_names(plan.captions, plan.cues, checked.index)

    def holds(m: object) -> set[str]:
        return {k for s in m.seqs for k in held(home, home.card_of(visits[s].ids[-1]))}

    moves = [c for c in plan.cues if c.kind == "camera"]
    bad = []
    for before, m in zip(moves, moves[1:]):
        if not (before.ids and m.ids):
            continue
        kept = holds(m) | {home.card_of(i) for i in m.ids}
        for cap in plan.captions:
            names = {home.card_of(t) for t in named[cap.index]} & holds(before)
            if names - kept and cap.start < m.start + m.duration - 1e-6 and cap.end > m.start + 1e-6:
                bad.append(f"{m.start:.2f} s into {m.ids}: {sorted(names - kept)} named by {cap.text!r}")
    assert not bad, "\n".join(bad)

