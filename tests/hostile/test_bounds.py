"""Hostile programs that hang or overflow: each stops at a bound, in bounded time.

What lives here: huge integers, squaring loops, a million passes, lists rebound deeper, long
programs whose indexing or slicing was once quadratic. Why apart: each runs in a subprocess
whose timeout is the bound (the harness stops a hang, no test sleeps).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import needs_torch
from tests.hostile.harness import CORPUS, HANG_BOUND, ROOT, one_line, render

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
    code = ("from engine.records import Loop, Number\n"
            "from scenes.storyboard.logindex import _loops\n"
            "ev = []\n"
            "for k in range(200_000):\n"
            "    ev.append(Loop(2 * k, 3, 1 + k, 4))\n"
            "    ev.append(Number(2 * k + 1, 4, 'x', k, None))\n"
            "loop = _loops(ev)[3]\n"
            "assert len(loop.passes) == 200_000 and loop.passes[-1] == (399_998, 399_999), loop.passes[-1]\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=HANG_BOUND)
    assert r.returncode == 0, r.stderr[-2000:]


def test_a_squaring_loop_in_a_storyboard_checks_in_bounded_time() -> None:
    r = render("check", str(CORPUS / "storyboards" / "shadow_square.yaml"), "--no-torch")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok shadow_square")


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


@pytest.mark.parametrize("command", ["scene", "article", "all"])
def test_a_huge_storyboard_is_refused_before_it_is_read(tmp_path: Path, command: str) -> None:
    """Once: the cache key read the storyboard whole before its size was checked; an 8 GiB
    file filled the memory under ``scene``, ``article`` and ``all`` (``watch`` renders the same
    way). The memory bound makes a whole read fail here."""
    big = tmp_path / "big.yaml"
    with big.open("wb") as f:
        f.truncate(8 << 30)  # sparse: no disk is spent
    r = render(command, str(big), "--out", str(tmp_path / "out"), timeout=60, bounded=True)
    one_line(r, "big.yaml:1:1:", "larger than 262144 bytes", "split it")


SHARED = "a = [1.5, 2]\nb = [1.5, 2]\nfor _ in range(40):\n    a = [a, a]\n    b = [b, b]\n"


@pytest.mark.parametrize("source,line", [
    (SHARED + "print(a)\n", 6),
    (SHARED + "a\n", 6),
    (SHARED + "print(a == b)\n", 6),
    (SHARED + "print(a != b)\n", 6),
    ("xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nx = [" + ", ".join(["print(xs)"] * 90_000) + "]\n", 2),
    ("x = [" + ", ".join(["1"] * 300_000) + "]\nprint(1)\n", 1),
], ids=["print_shared", "show_shared", "eq_shared", "ne_shared", "print_flood", "long_literal"])
def test_work_inside_one_statement_stops_at_the_bound(tmp_path: Path, source: str, line: int) -> None:
    """Once: printing or comparing a list shared 2**40 times hung or filled the memory, a print
    flood inside one list literal reached 6 GB, and a 300,000-item literal was blamed on the line
    after it, with "run fewer loop passes" though there was no loop. Each is now stopped where it
    spends the bound, with a hint that fits (the timeout and the memory bound stop a runaway)."""
    p = tmp_path / "flood.py"
    p.write_text(source)
    r = render("log", str(p), timeout=60, bounded=True)
    one_line(r, f"flood.py:{line}:", "stopped after 100000 operations", "outside any loop")
    assert "loop passes" not in r.stderr


def test_forward_mode_of_many_inputs_is_refused_before_its_passes() -> None:
    """Once: forward mode had no bound; 15,000 inputs (15,000 passes over 15,000 additions)
    reached 6 GB in 40 s. Refused before the first pass, saying what it would take."""
    r = render("check", str(CORPUS / "storyboards" / "forward_mode_many_inputs.yaml"), "--no-torch",
               timeout=60, bounded=True)
    one_line(r, "forward_mode_many_inputs.yaml:8:3:", "program line 5", "forward mode needs 15000 passes",
             "fewer inputs")


def _placeholders_over_a_long_log(folder: Path, name: str) -> Path:
    """199 beats of 150 placeholders each (``{w}``, or 100 of ``{x@5}``), after a beat that
    shows a loop of 3,000 (or 1,000) passes; or 200 beats that each show the 3,000 passes."""
    narration, passes = (" ".join(["{x@5}"] * 100), 1000) if name.endswith("pass") else (" ".join(["{w}"] * 150), 3000)
    beats = ['  - visual: code_and_graph_build\n    lines: [2, 6]\n    narration: "The program."\n']
    beats *= 200 if name.startswith("beats") else 1
    beats += [f'  - visual: title_card\n    narration: "{narration}"\n'] * (200 - len(beats))
    p = folder / f"{name}.yaml"
    p.write_text("title: Many placeholders over a long log\nprogram: |\n  import torch\n"
                 f"  w = torch.tensor(1.0, requires_grad=True)\n  x = w\n  for i in range({passes}):\n"
                 "      x = x * 1.0\n  y = x * 2\nbeats:\n" + "".join(beats))
    return p


@pytest.mark.parametrize("name,words", [
    ("long_chain", "long_chain.yaml:10:3: the clip would last 25007 s"),
    ("placeholders_long_log", "placeholders_long_log.yaml:10:3: the clip would last more than 3305 s (its first "
                              "beat already does)"),
    ("placeholders_pass", "placeholders_pass.yaml:10:3: the clip would last more than 1105 s"),
    ("beats_over_a_long_log", "beats_over_a_long_log.yaml:10:3: the clip would last more than 3305 s"),
])
def test_storyboard_checks_are_linear_in_the_log(tmp_path: Path, name: str, words: str) -> None:
    """Once: each visit of a walk scanned the whole walk for what arrived at it, and each
    placeholder the whole log for its value (a ``@pass`` one twice), so a 10,000-node walk
    took 1 min 40 s before saying its clip was too long, 199 beats of 150 placeholders over a
    9,000-event log 5 min 51 s, and 200 beats that each show that log were all planned before
    the clip's length was checked (47 s). The log is indexed once, and the plan stops at the
    first beat past the longest clip (the timeout is the bound)."""
    path = CORPUS / "storyboards" / "long_chain.yaml" if name == "long_chain" \
        else _placeholders_over_a_long_log(tmp_path, name)
    one_line(render("check", str(path), "--no-torch", timeout=30, bounded=True), words, "at most 900 s")


class _CountedScans(list):
    """A log that counts how often it is walked from the start."""

    scans = 0

    def __iter__(self):
        type(self).scans += 1
        return super().__iter__()


@pytest.mark.parametrize("passes", [200, 400])
def test_planning_a_walk_scans_the_log_a_fixed_number_of_times(tmp_path: Path, passes: int) -> None:
    """Counted, not timed: planning a backward walk of N visits, with a placeholder per beat,
    walks the whole log as often for 400 visits as for 200 (once: once more per visit)."""
    from scenes.storyboard import load, plan
    from scenes.storyboard.timings import default_timings

    text = (CORPUS / "storyboards" / "long_chain.yaml").read_text().replace("range(10000)", f"range({passes})")
    text = text.replace('"The walk."', '"The walk: {w.grad} for w, {x.grad_in} at x."')
    p = tmp_path / "chain.yaml"
    p.write_text(text)
    checked = load(str(p))
    index = checked.index
    index.events = _CountedScans(index.events)
    _CountedScans.scans = 0
    made = plan(index.events, checked.storyboard, default_timings(), index.source, index)
    assert len([c for c in made.cues if c.kind == "visit"]) == passes + 1  # the muls and w
    assert _CountedScans.scans <= 6, _CountedScans.scans


@pytest.mark.parametrize("name,words", [
    ("filled_too_long", ["filled_too_long.yaml:9:9: the takeaway is 779 characters once its placeholders are filled",
                         "filled_too_long.yaml:13:16: beat 1's narration is 2575 characters once its placeholders "
                         "are filled; at most 600 can be read on screen"]),
    ("filled_long_word", ["filled_long_word.yaml:12:16: beat 1's narration cannot be cut into captions once its "
                          "placeholders are filled: '1208925819614629174706176/1478", "66 characters with no space",
                          "numbers: decimal"]),
])
def test_a_caption_too_long_once_filled_is_refused_at_check_time(name: str, words: list[str]) -> None:
    """Once: ``render check`` said ok for narrations that their placeholders made 2,575 characters,
    or a fraction of 66 characters with no space (a caption then drawn a few pixels tall)."""
    r = render("check", str(CORPUS / "storyboards" / f"{name}.yaml"), "--no-torch", timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)
