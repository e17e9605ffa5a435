"""Hostile cache files: nothing read back from a cache runs code.

What lives here: beat states, glyphs and segments replaced by a pickle, cut short, or naming a
foreign class; each is drawn or built again, never run. Why apart: these tests poison the cache
on disk, the rest of the hostile inputs are storyboards, programs and options.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.hostile.harness import ROOT, TINY, render

class _Payload:
    """What a poisoned cache file holds: unpickling it calls os.system."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _fake_scene():
    from scenes.draw.state import SceneState

    return SimpleNamespace(state=SceneState(), mobjects=[], foreground_mobjects=[], ledger=[])


def test_a_pickled_beat_state_is_not_run_and_is_drawn_again(tmp_path: Path) -> None:
    from scenes.render.states import BeatStates

    marker = tmp_path / "PWNED"
    (tmp_path / "p.state").write_bytes(pickle.dumps(_Payload(marker)))
    said: list[str] = []
    scene = _fake_scene()
    assert not BeatStates(tmp_path, said.append).load_state("p", scene)
    assert not marker.exists()
    assert len(said) == 1 and "drawn again" in said[0] and "p.state" in said[0]
    assert not (tmp_path / "p.state").exists()


def test_a_data_file_naming_a_foreign_class_is_refused(tmp_path: Path) -> None:
    """A hand-made file in the data format that names ``os:system``, ``subprocess:Popen`` or a
    class outside the allowed packages builds nothing."""
    from scenes.draw import datafile

    for name in ("posix:system", "subprocess:Popen", "builtins:eval", "os:_wrap_close"):
        head = b'{"root":["O",0],"objects":[["%s",[],null]],"index":[0],"arrays":[]}' % name.encode()
        data = datafile.MAGIC + len(head).to_bytes(8, "little") + head
        with pytest.raises(datafile.DataFileError, match="not one this file may hold"):
            datafile.loads(data, datafile.under("scenes"))
    head = b'{"root":["A",0],"objects":[],"index":[],"arrays":[["|O",[1],8]]}'
    with pytest.raises(datafile.DataFileError, match="bad array"):  # an object array
        datafile.loads(datafile.MAGIC + len(head).to_bytes(8, "little") + head + bytes(8), datafile.under("scenes"))


@pytest.mark.parametrize("cut", [0, 7, 12, 40, -1])
def test_a_truncated_or_wrong_shape_state_is_treated_as_missing(tmp_path: Path, cut: int) -> None:
    from scenes.draw import datafile
    from scenes.render.states import BeatStates

    whole = datafile.dumps({"state": 3, "mobjects": [], "foreground_mobjects": [], "ledger": []},
                           datafile.under("scenes"))
    (tmp_path / "p.state").write_bytes(whole[:cut] if cut >= 0 else whole)  # -1: whole, wrong shape
    said: list[str] = []
    scene = _fake_scene()
    before = scene.state
    assert not BeatStates(tmp_path, said.append).load_state("p", scene)
    assert scene.state is before and len(said) == 1


def test_a_state_whose_picture_differs_from_its_digest_is_not_used(tmp_path: Path) -> None:
    from scenes.draw import datafile
    from scenes.draw.state import SceneState
    from scenes.render.states import BeatStates

    states = BeatStates(tmp_path, lambda line: None)
    states.put_digest("p", "ab" * 32)
    snap = {"state": SceneState(), "mobjects": [], "foreground_mobjects": [], "ledger": [["x", 1]]}
    (tmp_path / "p.state").write_bytes(datafile.dumps(snap, datafile.under("scenes")))
    scene = _fake_scene()
    assert not states.load_state("p", scene, digest=lambda s: "cd" * 32)
    assert scene.ledger == []
    (tmp_path / "p.state").write_bytes(datafile.dumps(snap, datafile.under("scenes")))
    assert states.load_state("p", scene, digest=lambda s: "ab" * 32) and scene.ledger == [["x", 1]]


def test_a_pickled_glyph_is_not_run_and_is_built_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scenes.draw.visuals import glyphs

    monkeypatch.setenv("GRADREEL_GLYPHS", str(tmp_path / "glyphs"))
    glyphs._store.cache_clear()
    glyphs._master.cache_clear()
    try:
        first = glyphs.label("w = 3", "DejaVu Sans", 20, "white")
        files = list((tmp_path / "glyphs").iterdir())
        assert len(files) == 1 and not files[0].read_bytes().startswith(b"\x80")  # no pickle
        marker = tmp_path / "PWNED"
        files[0].write_bytes(pickle.dumps(_Payload(marker)))
        glyphs._master.cache_clear()
        again = glyphs.label("w = 3", "DejaVu Sans", 20, "white")
        assert not marker.exists()
        assert abs(again.width - first.width) < 1e-9
    finally:
        glyphs._store.cache_clear()
        glyphs._master.cache_clear()


def test_no_pickle_reads_back_anything() -> None:
    """No module of the program unpickles (the cache and the pool's replies are data)."""
    for path in [*ROOT.joinpath("scenes").rglob("*.py"), *ROOT.joinpath("engine").rglob("*.py")]:
        text = path.read_text()
        assert "pickle.load" not in text and "import pickle" not in text, path


@pytest.mark.slow
def test_poisoned_cache_then_edit_renders_without_running_it(tmp_path: Path) -> None:
    """The issue's reproduction: states of a rendered clip replaced by a pickle, last caption
    edited, rendered again: nothing runs, the clip is made, one line per state not used."""
    board = tmp_path / "clip.yaml"
    board.write_text((ROOT / "scenes/storyboards/backward_walk.yaml").read_text())
    out = tmp_path / "out"
    assert render("scene", str(board), "--out", str(out), *TINY).returncode == 0
    marker = tmp_path / "PWNED"
    states = list((out / ".segments").glob("*.state"))
    assert states
    for s in states:
        s.write_bytes(pickle.dumps(_Payload(marker)))
    text, last = board.read_text(), "the numbers we found by hand."  # the last beat's narration
    assert text.count(last) == 1
    board.write_text(text.replace(last, "the numbers we found by hand (edited)."))
    r = render("scene", str(board), "--out", str(out), *TINY)
    assert r.returncode == 0, r.stderr
    assert not marker.exists()
    assert "Traceback" not in r.stderr and "drawn again" in r.stderr


@pytest.mark.slow
def test_a_truncated_segment_with_its_key_deleted_is_drawn_again(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert render("scene", "graph_build", "--out", str(out), *TINY).returncode == 0
    seg = sorted((out / ".segments").glob("*.mp4"))[0]
    seg.write_bytes(seg.read_bytes()[:3000])
    (out / "graph_build.key").unlink()
    r = render("scene", "graph_build", "--out", str(out), *TINY)
    assert r.returncode == 0, r.stderr
    assert "drawn again" in r.stderr and "1 of " in r.stderr
    again = render("scene", "graph_build", "--out", str(out), *TINY)
    assert again.returncode == 0 and "up to date" in again.stderr
