"""Messages name the real cause, and text in any script the fonts can draw is drawn.

What lives here: --set values that are not floats, torch by another name, lists made by
arithmetic; right-to-left words and a glyph no font has (in a caption or a program name); what a
program prints, escaped wherever it is shown; YAML read as 1.2 (``pass: 1:30``); a course.yaml
that is not a file; the site's hints, run as pasted; placeholders naming a grad alias or a list
item the log does not have. Why apart: the input is valid YAML and subset Python; the test is
what the one line says (or that the words keep their glyphs, or that the hint works).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.hostile.harness import CORPUS, one_line, render

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


# text in any script the fonts can draw

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


# YAML read as YAML 1.2

def test_a_sexagesimal_pass_is_refused_with_the_authors_text(tmp_path: Path) -> None:
    """Once: YAML 1.1 read ``pass: 1:30`` as 90, and check said "pass 90 does not exist"."""
    board = tmp_path / "pass.yaml"
    board.write_text("title: Passes\nprogram: |\n  import torch\n  w = torch.tensor(1.0, requires_grad=True)\n"
                     "  for step in range(3):\n      w = w * 2\nbeats:\n  - visual: code_and_graph_build\n"
                     "    lines: 4\n    pass: 1:30\n    narration: \"Here w is {w}.\"\n")
    r = render("check", str(board), "--no-torch")
    one_line(r, "pass.yaml:10:11:", "pass must be a whole number, got '1:30'")
    assert "90" not in r.stderr


# a course.yaml that is not a file

@pytest.mark.parametrize("kind,words", [("fifo", "a FIFO (named pipe)"), ("dir", "a directory"),
                                        ("device", "a character device"), ("dangling", "a symlink to nothing")])
def test_a_course_file_that_is_not_a_regular_file_is_refused(tmp_path: Path, kind: str, words: str) -> None:
    """Once: a course.yaml that was a FIFO, a folder or a device was taken for no course file at
    all, and the site listed every storyboard in another order, exit 0. A FIFO is never opened
    (that would block): the render is bounded by the harness's timeout."""
    import os

    (tmp_path / "storyboards").mkdir()
    (tmp_path / "storyboards" / "a.yaml").write_text((CORPUS / "storyboards" / "shadow_square.yaml").read_text())
    (tmp_path / "out").mkdir()
    course = tmp_path / "course.yaml"
    {"fifo": lambda: os.mkfifo(course), "dir": course.mkdir, "device": lambda: course.symlink_to("/dev/null"),
     "dangling": lambda: course.symlink_to(tmp_path / "gone.yaml")}[kind]()
    r = render("site", "out", cwd=tmp_path, timeout=60)
    one_line(r, f"{course}:1:1: course.yaml is {words}, not a regular file", "remove it")
    assert not (tmp_path / "out" / "index.html").exists()


# hints that work when pasted

def _site_of_one(home: Path, name: str) -> subprocess.CompletedProcess:
    """``render site out`` in an author's folder whose one storyboard is ``name``, not rendered."""
    (home / "storyboards").mkdir()
    (home / "storyboards" / f"{name}.yaml").write_text((CORPUS / "storyboards" / "shadow_square.yaml").read_text())
    (home / "out").mkdir()
    return render("site", "out", cwd=home)


@pytest.mark.parametrize("name", ["-x", "my clip"])
def test_the_site_says_to_rename_a_storyboard_no_render_would_take(tmp_path: Path, name: str) -> None:
    """A storyboard whose name the rule refuses is left out of the site with that rule and the
    rename, not with a command that would be refused when pasted."""
    r = _site_of_one(tmp_path, name)
    assert r.returncode == 0, r.stderr
    assert "rename the file (e.g. x.yaml)" in r.stderr or "rename the file (e.g. my_clip.yaml)" in r.stderr, r.stderr
    assert "render scene" not in r.stderr and "left out of the site" in r.stderr


@pytest.mark.parametrize("name", ["a.yml"])
def test_the_sites_hint_renders_the_clip_when_pasted(tmp_path: Path, name: str) -> None:
    """Once: a clip not rendered yet was hinted as ``render scene -x --out out``, which argparse
    reads as an option (and ``render scene NAME`` looks in the project's storyboards, not the
    author's): the hinted command, run as written, now renders the clip the site then lists."""
    import shlex

    from tests.hostile.harness import TINY

    first = _site_of_one(tmp_path, name)
    assert first.returncode == 0, first.stderr
    hint = first.stderr.split(" yet (", 1)[1].split("); left out", 1)[0]
    words = shlex.split(hint)
    assert words[:2] == ["render", "scene"], hint
    pasted = render(*words[1:], *TINY, cwd=tmp_path)
    assert pasted.returncode == 0, (hint, pasted.stderr)
    again = render("site", "out", cwd=tmp_path)
    assert again.returncode == 0 and "not rendered" not in again.stderr and "site: 1 clips" in again.stderr, again.stderr


# what a program prints, shown and never run

PRINTED = "ring\\x07 \\x1b[31mred\\x7f \\u202eevil"
"""``print("ring\\a \\x1b[31mred\\x7f \\u202eevil")`` as every screen shows it: ``render log --pretty``,
the clip's console and the article."""


def _raw(text: str) -> bool:
    return any(c in text for c in "\a\x1b\x7f\u202e")


def test_control_characters_a_program_prints_are_escaped_on_the_clips_console() -> None:
    """Once: the console drew the BEL, ESC and DEL as boxes and the U+202E turned the line."""
    import json

    r = render("inspect", str(CORPUS / "storyboards" / "control_print.yaml"), "--at", "2.5")
    assert r.returncode == 0, r.stderr
    texts = [it["text"] for it in json.loads(r.stdout.splitlines()[0])["items"] if it.get("role") == "console"]
    assert texts == [PRINTED], texts


def test_control_characters_a_program_prints_are_escaped_in_the_article_and_the_table() -> None:
    from scenes.publish.values import printed, try_it
    from scenes.storyboard import load

    checked = load(str(CORPUS / "storyboards" / "control_print.yaml"))
    assert printed(checked.index) == [PRINTED]
    assert not _raw(try_it(checked.index)[1])
    table = render("log", str(CORPUS / "storyboards" / "control_print.yaml"), "--pretty")
    assert table.returncode == 0 and PRINTED in table.stdout and not _raw(table.stdout), table.stdout


def test_a_name_no_font_can_draw_is_refused_at_check_time_with_how_to_fix() -> None:
    """Once: ``w𓀀 = ...`` passed ``render check`` and its card and code line showed a box."""
    from scenes.storyboard.fontcover import undrawable

    if undrawable("𓀀") is None:
        pytest.skip("a font of this machine draws U+13000")
    one_line(render("check", str(CORPUS / "storyboards" / "missing_glyph_name.yaml"), "--no-torch"),
             "missing_glyph_name.yaml:4:4: the name 'w𓀀' on program line 2 holds '𓀀' (U+13000",
             "no installed font can draw", "rename it")


# placeholders that name what the log does not: what to write instead

def test_a_placeholder_naming_a_grad_alias_says_to_write_the_tensors_grad() -> None:
    """Once: ``g = ws[1].grad`` then ``{g}`` said "the program has no tensor named 'g'; it
    defines y", though the program binds g (to the grad tensor, which the log names ws[1].grad)."""
    one_line(render("check", str(CORPUS / "storyboards" / "grad_alias.yaml"), "--no-torch"),
             "grad_alias.yaml:11:54: {g}: 'g' is ws[1].grad (program line 5)", "write {ws[1].grad}")


def test_a_missing_list_item_lists_the_items_of_its_list() -> None:
    """Once: ``{ws[3].grad}`` said "it defines w, y": the names ws[1] and ws[2] were never listed."""
    one_line(render("check", str(CORPUS / "storyboards" / "list_item_missing.yaml"), "--no-torch"),
             "list_item_missing.yaml:11:47: {ws[3].grad}: the program has no tensor named 'ws[3]'",
             "the list ws holds ws[1], ws[2]", "an item with a name of its own goes by that name")


@pytest.mark.parametrize("narration,words", [
    ("{ws}", "{ws}: 'ws' is a list; a placeholder names one of its items: {ws[1]}, {ws[2]}"),
    ("{wz.grad}", "{wz.grad}: the program has no tensor named 'wz'; it defines w, ws[1], ws[2], y (at"),
])
def test_names_suggested_for_an_unknown_placeholder_include_list_items(tmp_path: Path, narration: str,
                                                                       words: str) -> None:
    board = tmp_path / "items.yaml"
    board.write_text((CORPUS / "storyboards" / "list_item_missing.yaml").read_text().replace("{ws[3].grad}", narration))
    one_line(render("check", str(board), "--no-torch"), words)


def test_each_undrawable_name_is_refused_once_and_other_text_once_a_line(tmp_path: Path) -> None:
    from scenes.storyboard.fontcover import undrawable

    if undrawable("𓀀𓀁𓀃") is None:
        pytest.skip("a font of this machine draws U+13000")
    board = tmp_path / "names.yaml"
    board.write_text((CORPUS / "storyboards" / "missing_glyph_name.yaml").read_text().replace(
        "  y = w𓀀 * w𓀀\n", "  y = w𓀀 * w𓀀  # 𓀁 and 𓀁\n  z𓀃 = y * 2\n"))
    r = render("check", str(board), "--no-torch")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.splitlines()
    assert [line.split(": ", 1)[1].split(" holds")[0] for line in lines] == [
        "the name 'w𓀀' on program line 2", "program line 3", "the name 'z𓀃' on program line 4"], lines
