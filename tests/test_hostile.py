"""Hostile and faulty inputs: the promise holds for each class of them.

The promise: bad input gets one clear message naming the file, line and what was expected, exit
status 2, no traceback; nothing already rendered is lost; nothing but the whitelisted subset
ever runs, and nothing read back from a cache runs code. One test per class of input that once
broke it (issue 23); the inputs that are files live in tests/hostile/. A class that used to hang
runs in a subprocess whose timeout is the bound: the harness stops it, no test sleeps.
"""

from __future__ import annotations

import errno
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.conftest import needs_torch

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "hostile"
RENDER = [sys.executable, "-m", "scenes.commands.main"]
TINY = ["--size", "256x144", "--fps", "5"]
HANG_BOUND = 120.0
"""Seconds a subprocess gets before the harness calls it hung (each takes a few seconds)."""


def render(*args: str, cwd: Path = ROOT, timeout: float = HANG_BOUND, stdin: int | None = None,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*RENDER, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          stdin=stdin, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def one_line(r: subprocess.CompletedProcess, *words: str) -> None:
    """Exit 2, one line on stderr, no traceback, and the line says each of ``words``."""
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    assert r.stderr.count("\n") == 1, r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)


class _Payload:
    """What a poisoned cache file holds: unpickling it calls os.system."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


# --- 1. code execution through the cache -------------------------------------------------------

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
    text = board.read_text().rstrip("\n")
    board.write_text(text[:-1] + ' (edited)."\n')
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


# --- 2. bounds: hangs and overflows ------------------------------------------------------------

ENGINE_PROGRAMS = sorted((CORPUS / "programs").glob("*.py"))


@needs_torch
@pytest.mark.parametrize("path", ENGINE_PROGRAMS, ids=lambda p: p.stem)
def test_hostile_program_matches_torch(path: Path) -> None:
    """Huge integers, a zero range step, a huge exponent: PyTorch's (and Python's) own error
    texts, recorded as error events, not a traceback. Run in a subprocess: the exact shadow of
    ``x = x * x`` forty times once grew without bound (the timeout is the bound)."""
    code = ("import sys; from tests.engine.test_vs_torch import assert_same; "
            "assert_same(open(sys.argv[1]).read())")
    r = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True, text=True,
                       timeout=HANG_BOUND)
    assert r.returncode == 0, r.stderr[-3000:]


def test_exact_shadow_of_a_squaring_loop_is_bounded() -> None:
    r = render("log", str(CORPUS / "programs" / "shadow_square.py"), "--pretty")
    assert r.returncode == 0, r.stderr
    assert "tensor(0.)" in r.stdout


def test_an_exact_shadow_falls_back_to_the_float() -> None:
    """Past the bound the shadow of a Python number is dropped; its value is the float Python has."""
    from engine.interpreter import Interpreter
    from engine.subset import parse

    source = "x = 1/3\nfor _ in range(12):\n    x = x * x\n"
    interp = Interpreter(source, "p.py", 10_000)
    interp.run(parse(source, "p.py"))
    assert interp.env["x"].exact is None and interp.env["x"].value == (1 / 3) ** 4096


def test_a_loop_of_a_million_passes_stops_at_the_bound_in_a_storyboard() -> None:
    """Once: ``for i in range(10**6): t = t + i`` ran for minutes under the 1,000,000-operation
    bound (render log wrote hundreds of MB); the bound is now 100,000 and its line says what to do."""
    from engine import DEFAULT_MAX_OPS

    r = render("check", str(CORPUS / "storyboards" / "million_passes.yaml"), "--no-torch", timeout=60)
    one_line(r, "million_passes.yaml:7:3:", f"stopped after {DEFAULT_MAX_OPS} operations", "fewer loop passes")
    assert DEFAULT_MAX_OPS <= 100_000


@pytest.mark.parametrize("args,words", [
    (["--at", "nan"], "--at nan: must be a time"),
    (["--at", "1", "--at", "inf"], "--at inf: must be a time"),
    (["--every", "inf"], "--every inf: must be a positive number"),
    (["--every", "1e-9"], "--every 1e-09: shorter than one frame; give at least 0.06667 s"),
])
def test_inspect_times_that_are_no_frame_are_refused(args: list[str], words: str) -> None:
    """Once: --at nan or inf was a ValueError traceback, and --every 1e-9 built 5e10 sample
    times (a hang); the timeout is the bound."""
    one_line(render("inspect", "graph_build", *args, timeout=60), words)


def test_a_loop_that_appends_to_its_list_stops_at_the_bound_in_a_storyboard() -> None:
    one_line(render("check", str(CORPUS / "storyboards" / "append_forever.yaml"), "--no-torch"),
             "append_forever.yaml:", "program line", "stopped after", "fewer loop passes")


def test_a_list_rebound_deeper_each_pass_meets_the_bound() -> None:
    """Once: ``xs = [xs]`` in a loop walked the whole nesting at each binding to name its tensors,
    uncounted: 3,000 passes took 8 s, 50,000 would take hours. The items walked are operations."""
    r = render("log", str(CORPUS / "refused" / "list_nested_deeper.py"), timeout=60)
    one_line(r, "list_nested_deeper.py:", "stopped after", "fewer loop passes")


def test_the_passes_of_a_long_loop_are_found_in_linear_time() -> None:
    """Once: each ``loop`` event copied the rest of the log (``events[i + 1:]``), so the 100,000
    passes of ``for x in xs: xs.append(x)`` took 20 s to index; 400,000 would take minutes.
    Run in a subprocess whose timeout is the bound."""
    code = ("from scenes.storyboard.logindex import _loops\n"
            "ev = []\n"
            "for k in range(200_000):\n"
            "    ev.append({'seq': 2 * k, 'kind': 'loop', 'line': 3, 'end': 4})\n"
            "    ev.append({'seq': 2 * k + 1, 'kind': 'number', 'line': 4})\n"
            "loop = _loops(ev)[3]\n"
            "assert len(loop.passes) == 200_000 and loop.passes[-1] == (399_998, 399_999), loop.passes[-1]\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=HANG_BOUND)
    assert r.returncode == 0, r.stderr[-2000:]


def test_a_squaring_loop_in_a_storyboard_checks_in_bounded_time() -> None:
    r = render("check", str(CORPUS / "storyboards" / "shadow_square.yaml"), "--no-torch")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok shadow_square")


@pytest.fixture
def specials(tmp_path: Path) -> dict[str, Path]:
    """A FIFO, a directory, a symlink loop and a device, each named as a storyboard and a program."""
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    (tmp_path / "dir.yaml").mkdir()
    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop2.yaml")
    (tmp_path / "loop2.yaml").symlink_to(tmp_path / "loop.yaml")
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    return {"fifo": fifo, "dir": tmp_path / "dir.yaml", "loop": tmp_path / "loop.yaml",
            "fifo.py": tmp_path / "fifo.py", "zero.py": tmp_path / "zero.py"}


@pytest.mark.parametrize("command", ["plan", "check", "scene", "article", "inspect", "log"])
@pytest.mark.parametrize("kind,words", [("fifo", "FIFO"), ("dir", "directory"), ("loop", "symlink loop")])
def test_a_storyboard_that_is_no_regular_file_is_named(specials, tmp_path: Path, command: str, kind: str,
                                                       words: str) -> None:
    """Once: render plan on a FIFO blocked for ever; scene and article said 'no such storyboard'."""
    extra = ["--out", str(tmp_path / "out")] if command in ("scene", "article") else []
    r = render(command, str(specials[kind]), *extra, stdin=subprocess.DEVNULL)
    one_line(r, words)


@pytest.mark.parametrize("kind,words", [("fifo.py", "FIFO"), ("zero.py", "character device")])
def test_a_program_that_is_no_regular_file_is_refused_before_reading(specials, kind: str, words: str) -> None:
    """Once: a FIFO blocked for ever, and /dev/zero was read to 7 GB before the size check."""
    one_line(render("log", str(specials[kind])), words)


def test_a_non_utf8_program_names_its_line(tmp_path: Path) -> None:
    p = tmp_path / "p.py"
    p.write_bytes(b"import torch\nw = torch.tensor(1.)\nprint('caf\xe9')\n")
    one_line(render("log", str(p)), f"{p}:3:11:", "not UTF-8", "0xe9")


def test_a_flat_megabyte_expression_is_located_at_its_line(tmp_path: Path) -> None:
    p = tmp_path / "flat.py"
    p.write_text("import torch\nx = " + "1+" * 400_000 + "1\n")
    one_line(render("log", str(p)), f"{p}:2:1:", "line 2")


def test_render_plan_refuses_two_forms_at_once() -> None:
    """Once: ``render plan NAME --json --srt`` printed the JSON and said nothing of --srt."""
    r = render("plan", "graph_build", "--json", "--srt")
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stdout == "", r.stderr
    assert "argument --srt: not allowed with argument --json" in r.stderr.splitlines()[-1], r.stderr


@pytest.mark.parametrize("args,words", [
    (["--forward-mode", "L"], "--forward-mode L: for a program file; a storyboard gives forward_mode: in its YAML"),
    (["--max-ops", "3"], "--max-ops 3: for a program file; a storyboard's program runs under the bound of 100000"),
    (["--max-ops", "0"], "--max-ops 0: for a program file"),
])
def test_render_log_of_a_storyboard_refuses_the_options_it_cannot_apply(args: list[str], words: str) -> None:
    """Once: ``render log graph_build --max-ops 3`` (or ``--forward-mode L``) printed the whole
    log as if the option had not been given."""
    one_line(render("log", "graph_build", *args), words)


@pytest.mark.parametrize("args,words", [
    (["--size", "0x0"], "--size: '0x0' is not WIDTHxHEIGHT with even numbers from 16 to 3840"),
    (["--size", "100000x100000"], "'100000x100000' is not WIDTHxHEIGHT"),
    (["-j", "-3"], "-j/--jobs: '-3' is not a whole number of processes"),
    (["-j", "x"], "-j/--jobs: 'x' is not a whole number of processes"),
])
@pytest.mark.parametrize("command", ["scene", "all"])
def test_a_frame_size_or_process_count_out_of_range_is_refused(tmp_path: Path, command: str, args: list[str],
                                                              words: str) -> None:
    """Once: ``--size 0x0`` was a ZeroDivisionError traceback from Manim's camera, 100000x100000
    a 37 GiB allocation, and ``-j -3`` was taken as -j 1."""
    target = ["graph_build"] if command == "scene" else ["graph_build", "mlp"]
    r = render(command, *target, *args, "--force", "--out", str(tmp_path))
    assert r.returncode == 2 and "Traceback" not in r.stderr and words in r.stderr.splitlines()[-1], r.stderr
    assert list(tmp_path.iterdir()) == []


def test_source_segment_is_the_text_ast_gives() -> None:
    """The engine's one-split source_segment against ast.get_source_segment, node for node: the
    project's programs, and lines with multi-byte text, CR LF ends and a node over several lines."""
    import ast

    from engine.segments import source_segment

    sources = [p.read_text() for p in ROOT.glob("tests/**/*.py") if "programs" in p.parts or "refused" in p.parts]
    sources += ["x = 'é€𝄞' + 'ü'; y = 1.5\r\nz = (1.0 +\r\n     2.5)\rw = 3e-1\n", "a = [1,\n 2]\nb = 2.0  # \x0c\nc = 0.5\n"]
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            assert source_segment(source, node) == ast.get_source_segment(source, node), (source[:80], ast.dump(node))


@pytest.mark.parametrize("sep", ["\n", "; "])
def test_a_long_program_of_float_literals_runs_in_linear_time(tmp_path: Path, sep: str) -> None:
    """Once: each float literal's text was cut from the source by ast.get_source_segment, which
    splits the whole source again: 4,000 lines of ``x = 1.5`` took 18 s, 20,000 would take minutes
    (the timeout is the bound)."""
    p = tmp_path / "long.py"
    p.write_text("import torch\n" + sep.join(["x = 1.5", "y = x * 0.25", "z = y - 1e-3"] * 6000)
                 + "\nprint(z)\n")
    r = render("log", str(p), "--pretty", timeout=60)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.rstrip().endswith("print       0.374")


@pytest.mark.parametrize("value", ["-1", "0"])
def test_max_ops_below_one_is_refused(value: str) -> None:
    one_line(render("log", str(CORPUS / "programs" / "range_step_zero.py"), "--max-ops", value),
             f"--max-ops {value}")


@pytest.mark.parametrize("name,words", [
    ("many_beats", "300 beats; a clip may have at most 200"),
    ("long_narration", "narration is 700 characters; at most 600"),
    ("control_chars", "U+0007"),
    ("forward_mode_code", "forward_mode: 'y; import os' is not a name"),
    ("forward_mode_unknown", "forward_mode_unknown.yaml:2:15: forward_mode: the program ends with no tensor "
                             "named loss (it ends with w, y)"),
    ("range_step_zero", "ValueError: range() arg 3 must not be zero"),
    ("names_value_number", "2:16: names: the value of 'w*x' must be text, got 3"),
    ("names_empty_key", "names_empty_key.yaml:2:13: names: a key must not be empty"),
    ("names_list", "2:8: names must be a mapping of keys to values, got a list"),
])
def test_a_storyboard_outside_the_bounds_is_refused_where_it_is(name: str, words: str) -> None:
    r = render("check", str(CORPUS / "storyboards" / f"{name}.yaml"), "--no-torch")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"tests/hostile/storyboards/{name}.yaml:" in r.stderr and words in r.stderr, r.stderr


def _checklist_board(tmp_path: Path, items: list[str]) -> Path:
    """A storyboard whose checklist is ``items``, one a line, the first on line 3."""
    rows = "".join(f"  - {json.dumps(item)}\n" for item in items)
    board = tmp_path / "checks.yaml"
    board.write_text(f"title: Checks\nchecklist:\n{rows}program: |\n  import torch\n  w = torch.tensor(1.0)\n"
                     "beats:\n  - visual: title_card\n    narration: \"Hi\"\n    check: 1\n")
    return board


@pytest.mark.parametrize("items,where,words", [
    (["ok", "x" * 10_000], "checks.yaml:4:5:", "checklist item 2 is 10000 characters; at most 30"),
    (["ok", "x" * 31], "checks.yaml:4:5:", "checklist item 2 is 31 characters; at most 30"),
    ([f"item {k}" for k in range(10_000)], "checks.yaml:3:3:", "10000 items; a checklist may have at most 8"),
    (["ok", "ring\a"], "checks.yaml:4:5:", "checklist item 2 holds the control character U+0007"),
])
def test_a_checklist_outside_the_bounds_is_refused_at_its_item(tmp_path: Path, items: list[str], where: str,
                                                               words: str) -> None:
    """Once: an item of 10,000 characters, 10,000 items, or a BEL in an item were accepted (the list
    is drawn on screen, in one corner: it must fit the narrowest frame)."""
    one_line(render("check", str(_checklist_board(tmp_path, items)), "--no-torch"), where, words)


@pytest.mark.parametrize("aspect", ["9:16", "1:1"])
def test_a_checklist_at_its_bounds_is_accepted_and_fits_the_narrowest_frame(tmp_path: Path, aspect: str) -> None:
    """Each of the most items, each of the most of the widest letter, is inside the frame."""
    from scenes.storyboard.inputcheck import MAX_CHECKLIST_ITEM_CHARS, MAX_CHECKLIST_ITEMS

    items = [f"{k}" + "W" * (MAX_CHECKLIST_ITEM_CHARS - 1) for k in range(1, MAX_CHECKLIST_ITEMS + 1)]
    board = _checklist_board(tmp_path, items)
    r = render("inspect", str(board), "--aspect", aspect, "--at", "1.5")
    assert r.returncode == 0, r.stderr
    sample = json.loads(r.stdout.splitlines()[0])
    width, height = sample["frame"]
    rows = [it["bbox"] for it in sample["items"] if it.get("text") in items]
    assert len(rows) == MAX_CHECKLIST_ITEMS, sample["items"]
    assert all(0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height for x0, y0, x1, y1 in rows), rows


def test_control_characters_are_refused_in_every_text_and_raw_in_the_file(tmp_path: Path) -> None:
    text = (CORPUS / "storyboards" / "control_chars.yaml").read_text()
    r = render("check", str(CORPUS / "storyboards" / "control_chars.yaml"), "--no-torch")
    assert "U+0007" in r.stderr and "U+001B" in r.stderr  # the title's and the narration's
    raw = tmp_path / "raw.yaml"
    raw.write_text(text.replace("\\a", "\a"))
    one_line(render("check", str(raw), "--no-torch"), "raw.yaml:1:", "U+0007")


def test_a_message_quoting_the_storyboard_escapes_its_control_characters(tmp_path: Path) -> None:
    """Once: ``emphasis: ["\\e[2J"]`` was quoted raw in "is not a name the program defines": the
    terminal cleared its screen, and a U+202E turned the rest of the line around."""
    text = (ROOT / "scenes/storyboards/graph_build.yaml").read_text()
    board = tmp_path / "esc.yaml"
    board.write_text(text.replace("emphasis: [w1, w2]", 'emphasis: ["\\e[2Jw1", "\\u202ew2"]', 1))
    r = render("check", str(board), "--no-torch")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "\x1b" not in r.stderr and "\u202e" not in r.stderr, r.stderr
    assert "'\\x1b[2Jw1' is not a name" in r.stderr and "'\\u202ew2' is not a name" in r.stderr, r.stderr


def test_a_file_of_a_thousand_problems_shows_the_first_and_counts_the_rest(tmp_path: Path) -> None:
    """Once: 60,000 aliases (or a narration of 590 ``{``) printed a line each, 60,000 lines."""
    from scenes.storyboard.errors import MAX_SHOWN

    board = tmp_path / "many.yaml"
    board.write_text("a: &a x\nb: [" + ",".join(["*a"] * 1000) + "]\n")
    r = render("check", str(board), "--no-torch")
    lines = r.stderr.splitlines()
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(lines) == MAX_SHOWN + 1, r.stderr[-2000:]
    assert "anchors (&a)" in lines[0] and all("aliases (*a) are not allowed" in line for line in lines[1:-1])
    assert lines[-1].endswith(f"many.yaml: {1001 - MAX_SHOWN} more problems, not shown; fix those above first")


def test_a_clip_planned_too_long_is_refused(tmp_path: Path) -> None:
    from scenes.storyboard.loaded import MAX_CLIP_SECONDS

    words = "the gradient walks back through every node and adds up " * 10
    beats = "".join(f'  - visual: title_card\n    narration: "{words[:590]}"\n' for _ in range(150))
    board = tmp_path / "long.yaml"
    board.write_text("title: Long\nprogram: |\n  import torch\n  w = torch.tensor(1.0)\nbeats:\n" + beats)
    r = render("check", str(board), "--no-torch")
    assert r.returncode == 2 and f"at most {MAX_CLIP_SECONDS:.0f} s" in r.stderr, r.stderr


def test_render_check_goes_on_to_the_next_storyboard() -> None:
    """Once: the first storyboard's ValueError traceback ended the run before B was checked."""
    r = render("check", str(CORPUS / "storyboards" / "range_step_zero.yaml"),
               str(CORPUS / "storyboards" / "shadow_square.yaml"), "--no-torch")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "range() arg 3" in r.stderr and "ok shadow_square" in r.stdout


def test_render_log_pretty_escapes_control_characters() -> None:
    r = render("log", str(CORPUS / "printed" / "control_print.py"), "--pretty")
    assert r.returncode == 0
    assert not any(c in r.stdout for c in "\a\x1b\x7f")
    assert "ring\\x07 \\x1b[31mred\\x7f" in r.stdout


def test_a_storyboard_named_like_a_glob_renders(tmp_path: Path) -> None:
    """``render scene './*.yaml'`` of a file called ``*.yaml``: its name was a bad glob pattern."""
    from scenes.render.pipeline import _sweep_leftovers

    (tmp_path / ".other-pid999999999").mkdir()
    _sweep_leftovers(tmp_path, "*")  # the pattern is the name itself, not a wildcard
    assert (tmp_path / ".other-pid999999999").exists()
    (tmp_path / ".*-pid999999999").mkdir()
    _sweep_leftovers(tmp_path, "*")
    assert not (tmp_path / ".*-pid999999999").exists()


# --- 3. outputs are never inputs ----------------------------------------------------------------

@pytest.mark.parametrize("out,words", [
    ("afile", "--out afile: a file, not a directory"),
    ("afile/sub", "afile is a file, not a directory"),
    ("/dev/null", "a character device, not a directory"),
    ("/proc/x", "cannot write there"),
])
@pytest.mark.parametrize("command", ["scene", "all"])
def test_an_out_that_is_no_writable_folder_is_refused_before_the_program_runs(
        tmp_path: Path, out: str, words: str, command: str) -> None:
    (tmp_path / "afile").write_text("mine\n")
    target = ["graph_build"] if command == "scene" else []
    r = render(command, *target, "--out", out, cwd=tmp_path)
    one_line(r, words)
    assert (tmp_path / "afile").read_text() == "mine\n"


@pytest.mark.parametrize("args,words", [
    (["article", "graph_build", "--out", "afile"], "--out afile: a file, not a directory"),
    (["article", "graph_build", "--out", "afile/sub"], "afile is a file, not a directory"),
    (["site", "afile"], "site folder afile: a file, not a directory"),
    (["site", "/dev/null"], "site folder /dev/null: a character device, not a directory"),
])
def test_an_article_or_site_folder_that_is_no_folder_is_refused(tmp_path: Path, args: list[str],
                                                                words: str) -> None:
    """Once: a FileExistsError traceback from mkdir (render article after rendering the clip)."""
    (tmp_path / "afile").write_text("mine\n")
    one_line(render(*args, cwd=tmp_path), words)
    assert (tmp_path / "afile").read_text() == "mine\n"


def test_a_render_never_overwrites_its_storyboard(tmp_path: Path) -> None:
    board = tmp_path / "clip.srt"
    text = (ROOT / "scenes/storyboards/graph_build.yaml").read_text()
    board.write_text(text)
    one_line(render("scene", "./clip.srt", "--out", ".", *TINY, cwd=tmp_path), "overwrite its input")
    assert board.read_text() == text


def test_a_render_never_overwrites_a_file_it_did_not_make(tmp_path: Path) -> None:
    (tmp_path / "graph_build.png").write_text("my holiday photo\n")
    one_line(render("scene", "graph_build", "--out", str(tmp_path), *TINY), "not a poster gradreel made")
    assert (tmp_path / "graph_build.png").read_text() == "my holiday photo\n"


@pytest.mark.parametrize("command", ["scene", "article"])
def test_an_out_that_is_the_storyboards_folder_is_refused(tmp_path: Path, command: str) -> None:
    """Once: ``render article sb/clip.yaml --out sb`` wrote the clip, its .segments and the
    article's folder among the storyboards."""
    (tmp_path / "sb").mkdir()
    (tmp_path / "sb" / "clip.yaml").write_text((ROOT / "scenes/storyboards/graph_build.yaml").read_text())
    one_line(render(command, "sb/clip.yaml", "--out", "sb", *TINY, cwd=tmp_path),
             "--out sb: the folder of the storyboard sb/clip.yaml", "choose another --out")
    assert sorted(p.name for p in (tmp_path / "sb").iterdir()) == ["clip.yaml"]


@pytest.mark.parametrize("board,out,words", [
    ("clip/clip.md", ".", "clip: holds the storyboard clip/clip.md"),
    ("out/clip/deep/clip.yaml", "out", "out/clip: holds the storyboard out/clip/deep/clip.yaml"),
])
def test_an_article_never_overwrites_its_storyboard(tmp_path: Path, board: str, out: str, words: str) -> None:
    """Once: ``render article clip/clip.md --out .`` replaced the storyboard by the article's
    markdown, ``clip/clip.md`` (the article's folder is ``OUT/NAME``)."""
    text = (ROOT / "scenes/storyboards/graph_build.yaml").read_text()
    (tmp_path / board).parent.mkdir(parents=True)
    (tmp_path / board).write_text(text)
    one_line(render("article", board, "--out", out, *TINY, cwd=tmp_path), words, "choose another --out")
    assert (tmp_path / board).read_text() == text


def test_an_article_folder_holding_other_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "out" / "graph_build").mkdir(parents=True)
    (tmp_path / "out" / "graph_build" / "notes.txt").write_text("mine\n")
    one_line(render("article", "graph_build", "--out", "out", *TINY, cwd=tmp_path),
             "out/graph_build: holds notes.txt, which no article writes")
    assert (tmp_path / "out" / "graph_build" / "notes.txt").read_text() == "mine\n"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["graph_build"]


def test_a_site_folder_that_is_the_storyboards_folder_is_refused(tmp_path: Path) -> None:
    """Once: ``render site course/storyboards`` wrote an empty course page among the storyboards."""
    (tmp_path / "storyboards").mkdir()
    (tmp_path / "storyboards" / "clip.yaml").write_text((ROOT / "scenes/storyboards/graph_build.yaml").read_text())
    one_line(render("site", "storyboards", cwd=tmp_path), "site folder storyboards: the folder of the storyboards",
             "the folder holding the clips")
    assert [p.name for p in (tmp_path / "storyboards").iterdir()] == ["clip.yaml"]


@pytest.mark.parametrize("args,page", [(["site", "."], "index.html"),
                                       (["article", "graph_build", "--out", ".", *TINY], "graph_build/index.html")])
def test_a_page_never_overwrites_an_index_html_it_did_not_make(tmp_path: Path, args: list[str], page: str) -> None:
    """Once: ``render site DIR`` replaced the folder's own index.html by the course page."""
    (tmp_path / page).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / page).write_text("<!doctype html><p>my home page</p>\n")
    one_line(render(*args, cwd=tmp_path), f"{page}: not a page gradreel made")
    assert (tmp_path / page).read_text() == "<!doctype html><p>my home page</p>\n"


def test_a_render_at_another_aspect_never_overwrites_a_file_it_did_not_make(tmp_path: Path) -> None:
    """Once: the outputs were checked at 16:9 only; ``--aspect 9:16`` wrote over ``NAME.9x16.png``."""
    (tmp_path / "graph_build.9x16.png").write_text("my holiday photo\n")
    for command in ("scene", "article"):
        one_line(render(command, "graph_build", "--aspect", "9:16", "--out", str(tmp_path), *TINY),
                 "graph_build.9x16.png: not a poster gradreel made")
    assert (tmp_path / "graph_build.9x16.png").read_text() == "my holiday photo\n"


@pytest.mark.slow
def test_an_article_at_another_aspect_shows_that_clip(tmp_path: Path) -> None:
    """Once: ``render article NAME --aspect 9:16`` rendered the 9:16 clip, then looked for the 16:9
    one's key: a FileNotFoundError traceback."""
    from scenes.render.guard import PAGE_MARK

    r = render("article", "graph_build", "--aspect", "9:16", "--out", str(tmp_path), "--size", "144x256",
               "--fps", "5")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    page = tmp_path / "graph_build" / "index.html"
    assert r.stdout.strip().endswith(str(page)) and PAGE_MARK in page.read_text()  # how a page is known as ours
    assert (tmp_path / "graph_build" / "graph_build.mp4").read_bytes() == (tmp_path / "graph_build.9x16.mp4").read_bytes()


def test_write_atomic_leaves_no_temp_file_on_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scenes import atomic

    target = tmp_path / "x.state"
    target.write_bytes(b"old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full)
    with pytest.raises(OSError):
        atomic.write_atomic(target, b"new" * 1000)
    assert [p.name for p in tmp_path.iterdir()] == ["x.state"] and target.read_bytes() == b"old"


def _can_mount_tmpfs() -> bool:
    try:
        return subprocess.run(["unshare", "-rm", "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux") or not _can_mount_tmpfs(),
                    reason="needs unshare -rm to mount a small tmpfs")
def test_a_full_disk_is_one_line_and_leaves_no_temp_file(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    script = (f"mount -t tmpfs -o size=1m tmpfs {disk} && "
              f"{sys.executable} -m scenes.commands.main scene graph_build --out {disk}/out {' '.join(TINY)}; "
              f"echo status=$?; find {disk} -name '.*' -o -name '*tmp*'")
    r = subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=ROOT, capture_output=True, text=True,
                       timeout=HANG_BOUND * 2, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "status=2" in r.stdout, (r.stdout, r.stderr[-2000:])
    errors = [line for line in r.stderr.splitlines() if not line.startswith("graph_build: beat")]
    assert len(errors) == 1 and "no space left" in errors[0] and "Traceback" not in r.stderr, r.stderr[-2000:]
    leftovers = [line for line in r.stdout.splitlines() if line.strip() and not line.startswith("status=")
                 and not line.endswith("/.segments")]
    assert leftovers == [], leftovers


# --- 4. messages name the real cause -----------------------------------------------------------

BOARD = "scenes/storyboards/backward_walk.yaml"


@pytest.mark.parametrize("sets,words", [
    (["w1=2"], ["--set w1=2", "RuntimeError: Only Tensors of floating point"]),
    (["w1=99999999999999999999999999999"], ["--set w1=99999999999999999999999999999",
                                            "Overflow when unpacking long long"]),
    (["w1=1/0"], ["--set w1=1/0", "division by zero"]),
    (["w1=1e39"], ["--set w1=1e39", "beyond float32's range"]),
    (["w1=1e400"], ["--set w1=1e400", "beyond float32's range"]),
    (["w1=2.0", "w1=5.0"], ["--set w1 given twice (2.0 and 5.0)"]),
])
def test_set_problems_name_set_and_the_value(sets: list[str], words: list[str]) -> None:
    args = [a for s in sets for a in ("--set", s)]
    r = render("check", BOARD, "--no-torch", *args)
    one_line(r, BOARD, *words)
    assert "NameError" not in r.stderr


def test_set_on_a_name_given_a_number_twice_is_refused() -> None:
    one_line(render("check", str(CORPUS / "storyboards" / "set_twice.yaml"), "--no-torch", "--set", "w=3.0"),
             "--set w=3.0", "line 2 and again on line 5")


@pytest.mark.parametrize("name,words", [("import_alias", "import torch as t"),
                                        ("shadow_torch", "binding the name torch")])
def test_torch_by_another_name_is_refused_with_its_own_message(name: str, words: str) -> None:
    path = CORPUS / "refused" / f"{name}.py"
    one_line(render("log", str(path)), str(path), words)


@pytest.mark.parametrize("name,where,words", [("list_repeat", 2, "repeating a list ([x] * n) is not supported"),
                                              ("list_join", 3, "joining lists (xs + ys) is not supported")])
def test_a_list_made_by_arithmetic_is_refused_at_its_line(name: str, where: int, words: str) -> None:
    """Once: ``[0.0] * 10**6`` was logged as "TypeError: unsupported operand type(s) for *: 'list'
    and 'int'", an error Python does not raise; now it is refused, saying how to build the list."""
    path = CORPUS / "refused" / f"{name}.py"
    one_line(render("log", str(path)), f"{path}:{where}:", words, "xs.append(...) in a for loop")


# --- 5. text in any script the fonts can draw --------------------------------------------------

def test_right_to_left_words_keep_their_glyphs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once: Manim's Text dropped the Hebrew of "שלום עולם and then..." below some size; every
    letter now has its outline, and the row's strut stays its first (leftmost) glyph."""
    from scenes.draw.visuals import glyphs

    monkeypatch.setenv("GRADREEL_GLYPHS", str(tmp_path))
    glyphs._store.cache_clear()
    glyphs._master.cache_clear()
    try:
        for text in ["שלום עולם and then w = 3 here.", "مرحبا بالعالم", "y = w * w (עברית ו-English)"]:
            letters = sum(1 for c in text if not c.isspace())
            assert len(glyphs.label(text, "DejaVu Sans", 20, "white")) == letters, text
            row = glyphs.label(glyphs.STRUT + text, "DejaVu Sans", 20, "white")
            assert row[0].get_center()[0] == min(m.get_center()[0] for m in row)
        assert glyphs.label("a < b & c", "DejaVu Sans", 20, "white") is not None  # not read as markup
    finally:
        glyphs._store.cache_clear()
        glyphs._master.cache_clear()


def test_a_glyph_no_font_has_is_refused_at_check_time_with_its_code_point() -> None:
    one_line(render("check", str(CORPUS / "storyboards" / "missing_glyph.yaml"), "--no-torch"),
             "missing_glyph.yaml:8:16:", "U+1F680")
    ok = render("check", str(CORPUS / "storyboards" / "rtl_narration.yaml"), "--no-torch")
    assert ok.returncode == 0, ok.stderr


# --- 6. processes --------------------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"spawn_main" in cmdline:
            out.append(int(stat.parent.name))
    return out


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs Linux pidfds")
def test_a_worker_whose_parent_is_killed_stops_at_once_and_writes_nothing(tmp_path: Path) -> None:
    """kill -9 of ``render scene -j 2``: its worker used to draw on for seconds and write one
    more segment. The wait for the worker's end is on its pidfd, bounded by the harness."""
    import select
    import signal

    out = tmp_path / "out"
    proc = subprocess.Popen([*RENDER, "scene", "backward_walk", "-j", "2", "--force", "--out", str(out), *TINY],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stderr is not None
    workers: list[int] = []
    for line in proc.stderr:  # the worker draws the later beats: wait until it has begun one
        workers = _children(proc.pid)
        if workers and any(f"beat {k}/" in line for k in range(5, 9)) and "(cached)" not in line:
            break
    assert workers, "no worker process was started"
    fds = [os.pidfd_open(w) for w in workers]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=HANG_BOUND)
    written = sorted(p.name for p in (out / ".segments").iterdir() if not p.name.startswith("."))
    for fd in fds:
        ready, _, _ = select.select([fd], [], [], 5.0)
        assert ready, "the worker is still running after its parent was killed"
        os.close(fd)
    assert sorted(p.name for p in (out / ".segments").iterdir() if not p.name.startswith(".")) == written


def test_a_killed_renders_media_folder_is_swept_by_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scenes.render.beats import MEDIA_PREFIX, sweep_media_folders

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / f"{MEDIA_PREFIX}pid{dead.pid}-abc").mkdir()
    (tmp_path / f"{MEDIA_PREFIX}pid{os.getpid()}-def").mkdir()
    sweep_media_folders()
    assert [p.name for p in tmp_path.iterdir()] == [f"{MEDIA_PREFIX}pid{os.getpid()}-def"]
