"""The loop's pass mark beside the code pane's for line, and code quoted in a caption."""

from __future__ import annotations

import pytest

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
