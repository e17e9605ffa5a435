"""The per-beat segment cache and the per-beat workers, at the tiny test size.

What must hold: an edit in the last beat redraws that beat alone; a change to what stays on screen
redraws exactly the beats that show it; a clip joined from cached and fresh segments has the same
frames as one drawn from scratch; beats drawn in two processes give the same frames as one process.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scenes.video.timeline import Action, schedule, segments
from scenes.render.options import RenderOptions
from scenes.render.pipeline import render_storyboard
from scenes.storyboard import storyboard_path

# one worker for this module under pytest-xdist: its tests share a module-scoped fixture
pytestmark = pytest.mark.xdist_group("beats")

TINY = {"size": (256, 144), "fps": 5, "voice": "off"}  # silent: planned as the tests here plan, by reading
NAME = "backward_walk"  # 8 beats (the last is the takeaway, which says both grads)


def frames(clip: Path) -> list[np.ndarray]:
    import av

    with av.open(str(clip)) as box:
        return [f.to_ndarray(format="rgb24") for f in box.decode(box.streams.video[0])]


def render(out: Path, file: str | None = None, **kw) -> object:
    opts = RenderOptions(out=str(out), **TINY, **kw)
    return render_storyboard(file or storyboard_path(NAME), NAME, opts, log=lambda s: None)


def edited_last_beat(tmp: Path) -> str:
    """The storyboard with one number of its last caption, the takeaway's, changed (w1.grad -> w2.grad)."""
    text = Path(storyboard_path(NAME)).read_text()
    old = "w1.grad is {w1.grad} and"
    assert text.count(old) == 1 and text.index(old) < text.index("beats:")  # in the takeaway
    folder = tmp / "edited"
    folder.mkdir()
    (folder / f"{NAME}.yaml").write_text(text.replace(old, "w1.grad is {w2.grad} and"))
    return str(folder / f"{NAME}.yaml")


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object, list[np.ndarray]]:
    """The clip drawn from scratch (its folder, result, frames); later tests render over it."""
    out = tmp_path_factory.mktemp("beats")
    result = render(out)
    return out, result, frames(out / f"{NAME}.mp4")


@pytest.mark.slow
def test_an_edit_in_the_last_beat_redraws_only_that_beat(first, tmp_path: Path, monkeypatch) -> None:
    """...and reaches that beat's starting picture from the stored state, applying no earlier step."""
    import scenes.video.player

    out, base, before = first
    assert base.beats_drawn == list(range(8))
    edited = edited_last_beat(tmp_path)
    applied: list[int] = []
    real_apply = scenes.video.player.apply
    monkeypatch.setattr(scenes.video.player, "apply", lambda *a: applied.append(1) or real_apply(*a))
    again = render(out, edited)
    assert again.rendered and again.beats_drawn == [7]
    assert applied == [], "earlier steps were replayed"
    monkeypatch.undo()
    fresh = render(tmp_path / "fresh", edited)
    assert fresh.beats_drawn == list(range(8))
    a, b = frames(out / f"{NAME}.mp4"), frames(tmp_path / "fresh" / f"{NAME}.mp4")
    assert len(a) == len(b) == again.frames
    assert all(np.array_equal(x, y) for x, y in zip(a, b)), "joined from the cache differs from drawn afresh"
    last = round(base.plan.beats[7].start * TINY["fps"])
    assert all(np.array_equal(x, y) for x, y in zip(a[:last], before[:last]))
    assert any(not np.array_equal(x, y) for x, y in zip(a[last:], before[last:])), "the edit is not on screen"


@pytest.mark.slow
def test_a_change_to_the_program_redraws_every_beat(first, tmp_path: Path) -> None:
    """--set w1=0.5 changes the program and its event log, which every beat's key covers (the code
    pane shows the program; the scene reads lines and flags from the events)."""
    out, _, _ = first
    changed = render(out, sets=("w1=0.5",))
    assert changed.rendered
    assert changed.beats_drawn == list(range(8))


@pytest.mark.slow
def test_a_network_beat_drawn_from_its_stored_state_matches_a_fresh_render(tmp_path: Path) -> None:
    """The MLP view has a fixed part of its own, worked out on first use and not stored (where the
    network and its title band are): a closing beat drawn from the stored state must look as it
    does when drawn after every beat."""
    name = "mlp"
    text = Path(storyboard_path(name)).read_text()
    cut = text.index('takeaway:\n  text: "') + len('takeaway:\n  text: "')  # the closing beat's caption
    (tmp_path / "edited").mkdir()
    edited = tmp_path / "edited" / f"{name}.yaml"
    edited.write_text(text[:cut] + "So: " + text[cut:])
    opts = lambda out: RenderOptions(out=str(out), **TINY)  # noqa: E731
    render_storyboard(storyboard_path(name), name, opts(tmp_path / "a"), log=lambda s: None)
    again = render_storyboard(str(edited), name, opts(tmp_path / "a"), log=lambda s: None)
    assert again.beats_drawn == [len(again.plan.beats) - 1]
    render_storyboard(str(edited), name, opts(tmp_path / "b"), log=lambda s: None)
    a, b = frames(tmp_path / "a" / f"{name}.mp4"), frames(tmp_path / "b" / f"{name}.mp4")
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.mark.slow
def test_beats_in_two_processes_make_the_same_clip(first, tmp_path: Path, monkeypatch) -> None:
    import scenes.render.pool

    _, base, a = first
    pools: list[int] = []
    tasks: list[str] = []
    real_pool, real_submit = scenes.render.pool.local_pool, scenes.render.pool.submit
    monkeypatch.setattr(scenes.render.pool, "local_pool", lambda n: pools.append(n) or real_pool(n))
    monkeypatch.setattr(scenes.render.pool, "submit",
                        lambda pool, fn, *args: tasks.append(fn.__name__) or real_submit(pool, fn, *args))
    two = render(tmp_path, jobs=2)
    assert pools == [1], "the beats were not drawn in two processes"
    assert tasks == ["draw_job"], "the parent should draw the first range itself, one worker the second"
    assert two.beats_drawn == list(range(8))
    assert two.ledger == base.ledger
    b = frames(tmp_path / f"{NAME}.mp4")
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not [p for p in (tmp_path / ".segments").iterdir() if p.name.startswith(".")]


@pytest.mark.slow
def test_force_draws_every_beat_again(first) -> None:
    out, _, _ = first
    assert render(out, force=True).beats_drawn == list(range(8))


def test_segments_cut_at_beats_and_never_inside_a_play() -> None:
    acts = [Action(0.0, 1.0, "cue", None, 0), Action(1.8, 1.0, "cue", None, 1), Action(3.0, 0.5, "cue", None, 2)]
    steps, tail = schedule(acts, 5.0, 10)
    # beat 2 is said to start at 2.2 s, inside the play that starts at 1.8 s and runs to 2.8 s
    cut = segments(steps, tail, [0.0, 1.5, 2.2], 10)
    assert [(s.beat, s.first, s.frames) for s in cut] == [(0, 0, 15), (1, 15, 13), (2, 28, 22)]
    for s in cut:
        assert sum(st.hold + st.frames for st in s.steps) == s.frames
        assert all(s.first <= st.frame <= s.first + s.frames for st in s.steps)


def test_a_caption_fade_never_cuts_a_cue_short() -> None:
    """A caption clear starting while a unit appears (mlp, 36.93 s: 0.6 s, the clear 0.3 s in)
    joins the unit's step, which plays all its frames; a fade outlasting the cue lengthens the
    step, so the fade is whole too."""
    from scenes.storyboard.cues import Cue

    unit = Action(1.0, 0.6, "cue", Cue(1.0, 0.6, "unit_appear", 0), 0)
    clear = Action(1.3, 0.3, "caption_clear", None, 0, 1)
    steps, tail = schedule([unit, clear, Action(3.0, 0.5, "cue", None, 0, 2)], 4.0, 10)
    assert [(s.frame, s.frames, [a.kind for a in s.actions]) for s in steps] == [
        (10, 6, ["cue", "caption_clear"]), (30, 5, ["cue"])]
    assert steps[0].actions[1].carried and not steps[0].actions[0].carried
    late = Action(1.5, 0.3, "caption_clear", None, 0, 1)
    steps, tail = schedule([unit, late], 4.0, 10)
    assert [(s.frame, s.frames, len(s.actions)) for s in steps] == [(10, 8, 2)] and tail == 22


def test_a_cue_never_cuts_a_caption_fade_short() -> None:
    """A clip's first caption comes in (0.3 s) with its first code line (0.15 s) and the first
    node appears when the line is done (leaf_nodes, 0.15 s): the node joins the fade's step, at
    its own time and length, so the fade plays all its 18 frames at 60 fps (it had 9: the caption
    popped in). A cue starting while another cue plays still starts a step of its own."""
    from scenes.storyboard.cues import Cue

    line = Action(0.0, 0.15, "cue", Cue(0.0, 0.15, "code_line", 0), 0, 0)
    node = Action(0.15, 0.3, "cue", Cue(0.15, 0.3, "node_appear", 0), 0, 1)
    cap = Action(0.0, 0.3, "caption_in", None, 0, 2)
    steps, tail = schedule([line, node, cap], 2.0, 60)
    assert [(s.frame, s.frames, [(a.kind, a.carried) for a in s.actions]) for s in steps] == [
        (0, 27, [("cue", False), ("caption_in", False), ("cue", True)])]
    assert tail == 120 - 27
    over = Action(0.1, 0.3, "cue", Cue(0.1, 0.3, "node_appear", 0), 0, 1)  # while the line plays
    steps, tail = schedule([line, over, cap], 2.0, 60)
    assert [(s.frame, [a.carried for a in s.actions]) for s in steps] == [(0, [False, False]), (6, [False])]


def test_a_beat_moved_by_whole_frames_keeps_its_description() -> None:
    """A segment's key holds its own timing, not when it comes: the second beat, moved later by
    an edit of the first (by 0.6 s, three frames at 5 fps), is described as before; moved by a
    fraction of a frame, its cues fall on other frames of it, and it is not."""
    from scenes.render.keys import segment_description
    from scenes.storyboard.caption_events import CaptionSpan
    from scenes.storyboard.cues import Cue

    def second_beat(first_lasts: float) -> str:
        at = first_lasts + 0.3  # a cue 0.3 s into the second beat: a half frame at 5 fps, rounded down
        cue, cap = Cue(at, 0.5, "title", 1), CaptionSpan(7, at, at + 1.5, "said", 1)
        acts = [Action(0.0, 1.0, "cue", Cue(0.0, 1.0, "title", 0), 0),
                Action(at, 0.5, "cue", cue, 1), Action(at, 0.3, "caption_in", cap, 1, 1)]
        steps, tail = schedule(acts, first_lasts + 3.0, 5)
        return segment_description(segments(steps, tail, [0.0, first_lasts], 5)[1], {}, 5)

    assert second_beat(2.0) == second_beat(2.6) == second_beat(11.2)
    assert second_beat(2.0) != second_beat(2.1)


@pytest.mark.slow
def test_undoing_an_edit_joins_cached_beats_without_manim(tmp_path: Path) -> None:
    """Edit, render, undo the edit, render: the second render finds every beat's starting
    picture and segment stored, so it only joins files and never imports Manim."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    edited = edited_last_beat(tmp_path)
    args = ["--out", str(tmp_path / "out"), "--size", "256x144", "--fps", "5"]
    for board in (storyboard_path(NAME), edited):
        done = subprocess.run([sys.executable, "-m", "scenes.commands.main", "scene", board, *args],
                              cwd=root, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    code = (f"import sys; from scenes.commands.main import main; rc = main(['scene', {NAME!r}, *{args!r}]); "
            "print('manim imported' if 'manim' in sys.modules else 'manim not imported', rc)")
    undo = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300)
    assert undo.stdout.strip().splitlines()[-1] == "manim not imported 0", undo.stdout + undo.stderr
    assert f"{NAME}: 0 of 8 beats drawn, 8 from the cache" in undo.stderr


@pytest.mark.slow
def test_only_the_beats_to_draw_are_shared_out(tmp_path: Path, monkeypatch) -> None:
    """With two processes asked for, a last-beat edit is drawn here: one beat is not worth a
    worker's start and Manim's import, and the cached beats are no work at all."""
    import scenes.render.pool
    from scenes.render.clip_keys import ClipKeys
    from scenes.storyboard import load, plan_of

    render(tmp_path)
    edited = edited_last_beat(tmp_path)
    from scenes.render.camera_plan import plan_at

    checked = load(edited, name=NAME)
    loaded = (checked, plan_at(checked, plan_of(checked), RenderOptions(**TINY).aspect))  # as the render plans it
    for opts, stale in ((RenderOptions(out=str(tmp_path), **TINY), [False] * 7 + [True]),
                        (RenderOptions(out=str(tmp_path), force=True, **TINY), [True] * 8)):
        assert ClipKeys(opts, *loaded).stale() == stale

    def no_workers(*args: object) -> None:
        raise AssertionError("a worker was started for one beat")

    monkeypatch.setattr(scenes.render.pool, "local_pool", no_workers)
    assert render(tmp_path, edited, jobs=2).beats_drawn == [7]


@pytest.mark.slow
def test_a_narration_edit_shares_out_only_its_own_beat(tmp_path: Path, monkeypatch) -> None:
    """A phrase of the fifth beat saying more moves every later beat and changes their prefixes,
    so their starting pictures are not known before the fifth is drawn; the parent guesses them
    (the fifth beat's shape, from the same start, ended on that picture before) and starts no
    worker for beats the cache holds; nor is the poster, in the last beat, decoded again."""
    import scenes.render.pipeline
    import scenes.render.pool
    from scenes.render.clip_keys import ClipKeys
    from scenes.render.camera_plan import plan_at
    from scenes.storyboard import load, plan_of

    render(tmp_path)
    text = Path(storyboard_path(NAME)).read_text()
    (tmp_path / "edited").mkdir()
    edited = tmp_path / "edited" / f"{NAME}.yaml"
    edited.write_text(text.replace("so the gate is open and passes", "so the gate stays wide open and passes"))
    checked = load(str(edited), name=NAME)
    p = plan_at(checked, plan_of(checked), RenderOptions(**TINY).aspect)
    keys = ClipKeys(RenderOptions(out=str(tmp_path), **TINY), checked, p)
    assert keys.stale(guess=True) == [False] * 4 + [True] + [False] * 3
    assert keys.stale() == [False] * 4 + [True] * 4  # what is known: the cluster cuts its tasks by it

    def no_workers(*args: object) -> None:
        raise AssertionError("a worker was started for beats the cache holds")

    def no_decoding(*args: object) -> None:
        raise AssertionError("the poster's beat is cached and its poster made already: nothing to decode")

    monkeypatch.setattr(scenes.render.pool, "local_pool", no_workers)
    poster = (tmp_path / f"{NAME}.png").read_bytes()  # in the last beat, which the edit leaves alone
    monkeypatch.setattr(scenes.render.pipeline, "extract_frame", no_decoding)
    assert render(tmp_path, str(edited), jobs=2).beats_drawn == [4]
    assert (tmp_path / f"{NAME}.png").read_bytes() == poster


def test_beats_are_split_by_the_work_left_to_do() -> None:
    from scenes.render.pipeline import _segments_of, split_beats
    from scenes.storyboard import load, plan_of

    checked = load(storyboard_path(NAME))
    segs = _segments_of(plan_of(checked),
                        RenderOptions())
    fps = 15
    two = split_beats(segs, 2, fps)
    assert len(two) == 2 and two[0][0] == 0 and two[0][1] + 1 == two[1][0] and two[1][1] == len(segs) - 1
    assert len(split_beats(segs, 64, fps)) < len(segs), "more processes than the work pays for"
    assert split_beats(segs, 2, fps, stale=[False] * (len(segs) - 1) + [True]) == [(0, len(segs) - 1)]
    # the work left is the first three beats and the last three: each process gets some of it
    stale = [True] * 3 + [False] * (len(segs) - 6) + [True] * 3
    ranges = split_beats(segs, 2, fps, stale=stale)
    assert len(ranges) == 2 and ranges[0][0] == 0 and ranges[1][1] == len(segs) - 1
    assert all(any(stale[a:b + 1]) for a, b in ranges)
    # one beat of each: too little for a second process
    assert len(split_beats(segs, 2, fps, stale=[True] + [False] * (len(segs) - 2) + [True])) == 1


def test_default_beat_processes_fit_in_memory(monkeypatch) -> None:
    import scenes.render.jobs as jobs

    monkeypatch.setattr(jobs, "cores", lambda: 4)
    assert jobs.beat_jobs(3, RenderOptions()) == 3
    monkeypatch.setattr(jobs, "_available_memory", lambda: 1 << 40)
    assert jobs.beat_jobs(None, RenderOptions()) == 4
    monkeypatch.setattr(jobs, "_available_memory", lambda: 600 << 20)  # one 480p process, not two
    assert jobs.beat_jobs(None, RenderOptions(quality="low")) == 1
    assert jobs.beat_jobs(None, RenderOptions(quality="high")) == 1
    tiny = jobs.PROCESS_BYTES + jobs.BYTES_PER_PIXEL * 256 * 144  # --size: its own pixels, not the preset's
    monkeypatch.setattr(jobs, "_available_memory", lambda: 2 * tiny)
    assert jobs.beat_jobs(None, RenderOptions(size=(256, 144))) == 2
    assert jobs.beat_jobs(0, RenderOptions(size=(256, 144))) == 2  # -j 0: the default, as for render all


def test_a_failed_worker_stops_the_parent_at_its_next_beat(tmp_path: Path) -> None:
    """The parent asks before each beat it draws whether a worker's task has failed; the first yes
    stops its range, and the segments it had in hand are deleted, not left half-written."""
    from concurrent.futures import Future

    from scenes.render.beats import BeatJob, render_range
    from scenes.render.pool import raise_if_failed

    def task(error: BaseException | None = None, done: bool = True) -> Future:
        f: Future = Future()
        if done:
            f.set_exception(error) if error else f.set_result("{}")
        return f

    raise_if_failed([task(done=False), task()])  # running, or done well: go on
    with pytest.raises(RuntimeError, match="encoder failed"):
        raise_if_failed([task(done=False), task(RuntimeError("encoder failed"))])

    workers = [task(done=False)]
    asked: list[int] = []

    def check() -> None:
        asked.append(1)
        if len(asked) == 2:
            workers[0].set_exception(RuntimeError("a worker failed"))  # while the parent draws its first beat
        raise_if_failed(workers)

    lines: list[str] = []
    job = BeatJob(storyboard_path(NAME), NAME, RenderOptions(out=str(tmp_path), **TINY).to_json(), 0, 7)
    with pytest.raises(RuntimeError, match="a worker failed"):
        render_range(job, lines.append, check=check)
    assert lines == [f"{NAME}: beat 1/8 code_and_graph_build", f"{NAME}: beat 2/8 wavefront"]
    assert not [p for p in (tmp_path / ".segments").iterdir() if p.suffix == ".mp4" or p.name.startswith(".")]


@pytest.mark.slow
def test_a_render_indexes_the_log_and_lays_the_graph_out_once(tmp_path: Path, monkeypatch) -> None:
    """One load and plan index the log once; one render (in one process) lays the graph out
    once, for the keys and the scene alike."""
    import scenes.layout.place
    from scenes.storyboard.logindex import LogIndex

    builds: list[int] = []
    real_build = LogIndex.build.__func__
    monkeypatch.setattr(LogIndex, "build", classmethod(lambda cls, *a: builds.append(1) or real_build(cls, *a)))
    layouts: list[int] = []
    real_layout = scenes.layout.place.layout_graph  # what clip_layout calls, once a try (backward_walk's first fits)
    counted = lambda *a, **k: layouts.append(1) or real_layout(*a, **k)  # noqa: E731
    monkeypatch.setattr(scenes.layout.place, "layout_graph", counted)
    result = render(tmp_path, jobs=1)
    assert result.beats_drawn == list(range(8))
    assert builds == [1], "the log was indexed more than once"
    assert layouts == [1], "the graph was laid out more than once"
