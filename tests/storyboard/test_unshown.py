"""Nothing dropped in silence: what the picture cannot show at an aspect, `render check` says.

Once: a graph of 32 cards was drawn with names only at 16:9 and 1:1 (its values printed under
the code, one line each, most scrolled away) and `render check` said only "ok"; one of 56 cards
was drawn as bare boxes at every aspect, and was passed too."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from scenes.commands.storyboard import main


def _products(folder: Path, n: int, negative: bool = False) -> Path:
    """A storyboard whose graph is n products of named leaves, summed: 4n cards or so;
    ``negative``: x = -0.37, -0.74, ... and w = -0.01, -0.02, ..., so each w.grad is a negative
    number of four decimals (``-0.3310``), one character longer than the layout plans."""
    lines = ["import torch"]
    if negative:
        lines += [f"x{i} = torch.tensor({-(i + 1) * 0.37:.2f})\nw{i} = torch.tensor(-0.0{i + 1}, requires_grad=True)"
                  for i in range(n)]
        lines = "\n".join(lines).split("\n")
    else:
        lines += [f"{v}{i} = torch.tensor({i + 1}.0{', requires_grad=True' * (v == 'w')})" for i in range(n) for v in "xw"]
    lines += [f"p{i} = x{i} * w{i}" for i in range(n)] + ["s = " + " + ".join(f"p{i}" for i in range(n)),
                                                          "L = s.tanh()", "L.backward()"]
    board = folder / f"products{n}.yaml"
    board.write_text("title: Products\nprogram: |\n" + "".join(f"  {ln}\n" for ln in lines)
                     + f"beats:\n  - visual: code_and_graph_build\n    lines: [2, {len(lines) - 1}]\n"
                     "    narration: \"L is {L}.\"\n  - visual: wavefront\n    backward: 1\n"
                     "    narration: \"The walk fills every bucket.\"\n")
    return board


def test_cards_without_their_values_are_a_warning_naming_beat_and_aspect(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = _products(tmp_path, 8)
    assert main(["check", "--no-torch", str(board)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ok products8: 2 beats")
    warned = [ln for ln in out if ln.startswith("  warning: ")]
    assert [ln.split(", beat")[0].rsplit(" ", 1)[1] for ln in warned] == ["16:9", "1:1"], out
    for ln in warned:  # the beat's visual key, the beat, what is missing and where it went
        assert f"{os.path.relpath(board)}:32:13: at " in ln and "beat 1 (code_and_graph_build): the graph's 32 cards are too small " \
            "for their values (names only" in ln and "the values of x0, w0, x1" in ln and "most scroll away" in ln, ln


def test_a_picture_of_bare_boxes_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = _products(tmp_path, 14)
    assert main(["check", "--no-torch", str(board)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()  # the scale depends on the theme's graph region: any two-digit one
    assert len(lines) == 1 and re.fullmatch(
        re.escape(f"{os.path.relpath(board)}:50:13: at 16:9: the graph's 56 cards would be bare boxes (layout scale ")
        + r"0\.\d\d" + re.escape("): no name and no value readable; split the program into clips of fewer tensors "
                                 "(at beats[0].visual)"), lines[0]), lines
    from scenes.commands.main import main as render

    assert render(["scene", str(board), "--out", str(tmp_path / "out"), "--size", "426x240", "--fps", "10"]) == 2
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and "cards would be bare boxes" in err, err
    assert not list((tmp_path / "out").rglob("*.mp4"))


SQUARE = ("title: Square\nprogram: |\n  import torch\n  w = torch.tensor(2.0, requires_grad=True)\n  y = w * w\n"
          "  y.backward()\nbeats:\n")
NETWORK = "  - visual: network\n    lines: [2, 3]\n    narration: \"A network?\"\n"


def test_a_beat_whose_visual_has_nothing_to_draw_is_a_warning(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Once: a ``network`` beat over a program with no network planned nothing, and its narration
    was said over the picture before, with no word from check."""
    board = tmp_path / "square.yaml"
    board.write_text(SQUARE + "  - visual: code_and_graph_build\n    lines: [2, 3]\n    narration: \"y is {y}.\"\n"
                     + NETWORK)
    assert main(["check", "--no-torch", str(board)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [f"  warning: {os.path.relpath(board)}:11:13: at every aspect, beat 2 (network): visual network "
                       "has nothing to draw in this span: its narration is said over the picture of the beat "
                       "before; choose the visual that shows what the span holds"], out


def test_a_storyboard_whose_beats_draw_nothing_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "square.yaml"
    board.write_text(SQUARE + NETWORK)
    assert main(["check", "--no-torch", str(board)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip().splitlines() == [
        f"{os.path.relpath(board)}:8:13: at every aspect: visual network has nothing to draw in this span: no "
        "beat of the storyboard draws anything, so the picture would show nothing; choose the visual that shows "
        "what the span holds (at beats[0].visual)"]


def test_a_bucket_value_too_long_for_its_bucket_is_drawn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Once: a bucket of a compact graph left out its 7-character value (``-0.3310``) at every
    aspect, and the walk's fills showed empty buckets. Now it overhangs the rim at the least
    readable size, so there is nothing to warn of and the value is on screen."""
    from scenes.draw.visuals import bucket
    from scenes.layout.place import layout_events
    from scenes.storyboard import load_and_plan
    from scenes.theme import load_theme

    board = _products(tmp_path, 6, negative=True)
    assert main(["check", "--no-torch", str(board)]) == 0
    assert "warning:" not in capsys.readouterr().out
    checked, _ = load_and_plan(str(board))
    theme = load_theme()
    lay = layout_events(checked.run.events, "16:9", theme)
    box = next(b for k, b in lay.boxes.items() if k.startswith("bucket:"))
    assert bucket(box, theme, value="-1.9862", scale=lay.scale).value is not None


LESSONS_DIR = Path(__file__).parent / "lessons"


def test_check_says_how_large_a_big_graph_is_drawn_at_16_9_and_where_the_camera_moves_in(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A 30-card graph at 16:9 beside its code pane: `render check` says its cards are at the
    least readable size (9 px values), as at 9:16 and 1:1, and how much larger the beat with a
    `focus:` draws the cards it names."""
    assert main(["check", "--no-torch", str(LESSONS_DIR / "cubic_fit3.yaml")]) == 0
    out = capsys.readouterr().out
    for aspect in ("16:9", "9:16", "1:1"):
        line = next((ln for ln in out.splitlines() if ln.strip().startswith(f"at {aspect}, the graph's 30 cards")), "")
        assert "values 9 px at 480p" in line, out
        assert "beat 3 (wavefront) draws `loss`, `errs[0]`, `errs[1]`, `errs[2]`" in line, out


def test_the_focused_cards_of_a_big_graph_are_drawn_as_large_as_check_says() -> None:
    """At 16:9, while the camera is in on the top of the 30-card graph, the names and values of
    the cards it names are at least 11 px high at 480p (9 px outside it), as `render check`
    promises (`value_px` with the camera's factor), within a pixel."""
    from scenes.draw.collisions import glyph_height, visible
    from scenes.layout.clip import clip_layout
    from scenes.layout.readable import focus_moves, value_px
    from scenes.render.inspect import inspect_clip
    from scenes.render.options import RenderOptions
    from scenes.storyboard import load_and_plan
    from scenes.theme import load_theme

    checked, p = load_and_plan(str(LESSONS_DIR / "cubic_fit3.yaml"))
    theme = load_theme()
    lay = clip_layout(p, checked.run.events, checked.index.source, "16:9", theme)
    (move,) = focus_moves(p, lay, theme)
    focus = next(c for c in p.cues if c.kind == "focus")
    beat = next(b for b in p.beats if b.index == focus.beat)
    (sample,) = inspect_clip(checked, p, RenderOptions(aspect="16:9"), at=[beat.start + beat.duration / 2])
    cards = set(focus.ids)
    texts = [i for i in visible(sample["items"]) if i["kind"] == "text" and i["id"] in cards
             and i["role"] in ("label", "value")]
    names = {i["text"] for i in texts if i["role"] == "label"}
    assert {"loss", "errs[0]", "errs[1]", "errs[2]"} <= names
    promised = value_px(lay.detail, lay.scale, theme, move.factor)
    assert promised is not None and promised >= 11.0
    for i in texts:
        assert glyph_height(i) >= 11.0, i
        if i["role"] == "value":
            assert abs(glyph_height(i) - promised) <= 1.0, (i, promised)


def test_a_print_no_beat_shows_is_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Once: dynamic_graph's program printed four lines and its beats showed three; the console
    ended without ``tensor(0.6667)`` and nothing said so."""
    board = tmp_path / "square.yaml"
    board.write_text(SQUARE.replace("  y.backward()\n", "  print(y)\n  y.backward()\n  print(w.grad)\n")
                     + "  - visual: code_and_graph_build\n    lines: [2, 3]\n    narration: \"y is {y}.\"\n"
                     "  - visual: wavefront\n    backward: 1\n    narration: \"The walk fills the bucket.\"\n"
                     "  - visual: output\n    lines: 6\n    narration: \"It prints {w.grad}.\"\n")
    assert main(["check", "--no-torch", str(board)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [f"  warning: {os.path.relpath(board)}:13:13: at every aspect, beat 2 (wavefront): line 4 "
                       "prints 'tensor(4., grad_fn=<MulBackward0>)' and no beat shows it, so the console would skip "
                       "a line the program printed; add a beat with `visual: output` and `lines: 4` before this one"], out
