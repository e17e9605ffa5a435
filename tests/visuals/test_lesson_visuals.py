"""The loop's pass mark beside the code pane's for line, and code quoted in a caption."""

from __future__ import annotations

import pytest

from engine.records import record_of

pytest.importorskip("manim")

from scenes.draw.visuals import CodePane, caption_bar, pass_mark  # noqa: E402
from scenes.theme import default_theme  # noqa: E402

THEME = default_theme()
EPS = 1e-3
LOOP = "import torch\nw = torch.tensor(0.5, requires_grad=True)\nfor step in range(3):\n    loss = w * 2\n"


def bbox(m) -> tuple[float, float, float, float]:
    (x0, y0, _), (x1, y1, _) = m.get_corner([-1, -1, 0]), m.get_corner([1, 1, 0])
    return (x0, y0, x1, y1)


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
def test_pass_mark_sits_after_the_for_line_inside_the_pane(aspect: str) -> None:
    pane = CodePane(LOOP, THEME.aspect(aspect).code, THEME)
    mark = pass_mark(pane, 3, "pass 2/3", THEME)
    x0, y0, x1, y1 = bbox(mark)
    bottom, top = pane.line_extent[2]
    assert x0 > pane.lines[2].get_right()[0]  # after "for step in range(3):", not over it
    assert bottom - EPS <= y0 and y1 <= top + EPS  # on that line's row
    assert x1 <= pane.bg.get_right()[0] + EPS
    assert mark.height < pane.lines[2].height * 1.2


def test_pass_mark_in_a_window_of_a_long_program_sits_on_the_for_lines_row() -> None:
    """At 1:1 a long program shows a window of its lines: the mark goes on the for line's row of
    the window (rows are the window's, not the program's), or the nearest row when it scrolled off."""
    source = "import torch\n" + "".join(f"a{i} = torch.tensor({i}.0)\n" for i in range(20)) + LOOP
    n = len(source.splitlines())
    pane = CodePane(source, THEME.aspect("1:1").code, THEME, first=n)  # clamped: the last lines
    a, b = pane.window
    assert a > 1 and b == n  # a window at the program's end
    for_line = n - 1
    mark = pass_mark(pane, for_line, "pass 2/3", THEME)
    bottom, top = pane.line_extent[for_line - a]
    _, y0, _, y1 = bbox(mark)
    assert bottom - EPS <= y0 and y1 <= top + EPS
    above = pass_mark(pane, 1, "pass 1/3", THEME)  # scrolled off: the window's first row
    bottom, top = pane.line_extent[0]
    assert bottom - EPS <= bbox(above)[1] and bbox(above)[3] <= top + EPS


def test_quoted_code_is_set_in_the_code_font_without_backticks() -> None:
    rect = THEME.aspect("16:9").caption
    plain = caption_bar("the derivative is 1 - o**2 here", rect, THEME)
    quoted = caption_bar("the derivative is `1 - o**2` here", rect, THEME)
    assert quoted.lines == ["the derivative is `1 - o**2` here"]
    assert len(quoted.text) == len(plain.text)  # same glyphs: the backticks are not drawn
    # monospace glyphs of the code are wider than the sans ones
    assert quoted.text.width > plain.text.width


def test_quoted_code_is_never_broken_across_lines() -> None:
    rect = THEME.aspect("9:16").caption
    text = "a long caption that runs on and on until `w -= lr * w.grad` has to wrap somewhere near it"
    cap = caption_bar(text, rect, THEME)
    assert len(cap.lines) > 1
    assert any("`w -= lr * w.grad`" in line for line in cap.lines)


def _curve(aspect: str, events: list[dict]):
    """The curve view over the aspect's graph region, with no plan or layout (it reads neither)."""
    from scenes.draw.context import DrawContext
    from scenes.draw.curve import LossCurve

    class _Context(DrawContext):
        def graph_region(self):
            return self.spec.graph

    return LossCurve(_Context(None, events, None, THEME, THEME.aspect(aspect), None))


@pytest.mark.parametrize("aspect", ["16:9", "9:16", "1:1"])
def test_loss_curve_points_follow_the_values_inside_the_graph_region(aspect: str) -> None:
    from scenes.storyboard.cues import Cue
    from scenes.storyboard.placeholders import Shown

    values = [4.0, 0.16, 0.0064]
    events = [record_of({"seq": i, "kind": "tensor", "line": 1, "value": v}) for i, v in enumerate(values)]
    from scenes.draw.context import StepScratch

    curve = _curve(aspect, events)
    axes = Cue(0, 1, "curve_axes", 0, (), (Shown("loss", 0, "name", "name"), Shown("4", 0, "exact", "top"),
                                             Shown("4/625", 2, "exact", "bottom"), Shown("3", 9, "pass", "total")),
               None, (0, 2))
    curve.draw_axes(axes, StepScratch())
    dots = []
    for i, text in enumerate(["4", "4/25", "4/625"]):
        cue = Cue(1 + i, 1, "curve_point", 0, (f"t{i}",), (Shown(text, i, "exact", "value"),
                                                            Shown(str(i + 1), 9, "pass", "count")), None, (i,))
        curve.draw_point(cue, StepScratch())
        dots.append(curve.curve.panel[-1])
    left, bottom, right, top = THEME.aspect(aspect).graph
    m = THEME.aspect(aspect).margin
    for part in curve.curve.panel[1:]:
        x0, y0, x1, y1 = bbox(part)
        assert left - m <= x0 and x1 <= right + m and bottom - m <= y0 and y1 <= top + m
    ys = [d[0].get_center()[1] for d in dots]
    xs = [d[0].get_center()[0] for d in dots]
    assert ys[0] > ys[1] > ys[2] and xs[0] < xs[1] < xs[2]
    for a, b in zip(dots, dots[1:]):  # value labels of neighbouring points stay apart
        ax, bx = bbox(a[1]), bbox(b[1])
        assert ax[2] <= bx[0] + EPS or ax[1] >= bx[3] - EPS or bx[1] >= ax[3] - EPS
    assert [t for t, _ in curve.ctx.ledger] == ["loss", "4", "4/625", "3", "4", "1", "4/25", "2", "4/625", "3"]
