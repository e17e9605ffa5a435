"""Number styles for every scale: ``sig`` and ``sci`` storyboards, a placeholder's own style
(``{x.grad:sci}``), and a ``decimal`` value too small for its places written with significant
digits instead of ``0.0000``, the same in the picture, the captions and the article."""

from __future__ import annotations

from pathlib import Path

import pytest

from scenes.publish.prose import beat_prose
from scenes.storyboard import PlanTimings, StoryboardError, load, plan
from scenes.storyboard.model import Numbers
from scenes.storyboard.placeholders import parse
from scenes.storyboard.numfmt import show

VANISHING = """title: A vanishing gradient
numbers: {numbers}
program: |
  import torch
  x = torch.tensor(0.1, requires_grad=True)
  y = x ** 8
  y.backward()
beats:
  - visual: code_and_graph_build
    lines: [2, 3]
    narration: "{first}"
  - visual: accumulate
    accumulations: 1
    narration: "x.grad is {{x.grad}}; as PyTorch prints it, {{x.grad:torch}}."
"""


def _lesson(tmp_path: Path, numbers: str, first: str = "y is x to the eighth power, {y}.") -> tuple:
    path = tmp_path / "vanishing.yaml"
    path.write_text(VANISHING.format(numbers=numbers, first=first))
    checked = load(str(path))
    p = plan(checked.run.events, checked.storyboard, PlanTimings(), checked.index.source)
    return checked, p


@pytest.mark.parametrize("style, small, third, big", [
    (Numbers("sig"), "5.52e-06", "0.333", "1.23e+03"),
    (Numbers("sig", digits=5), "5.5153e-06", "0.33333", "1234.5"),
    (Numbers("sci"), "5.52e-06", "3.33e-01", "1.23e+03"),
    (Numbers("decimal"), "5.52e-06", "0.3333", "1234.5000"),
    (Numbers("decimal", 2, digits=2), "5.5e-06", "0.33", "1234.50"),
    (Numbers("fraction"), "5.52e-06", "0.3333", "1234.5000"),  # no exact shadow: decimals
])
def test_each_style_at_every_scale(style: Numbers, small: str, third: str, big: str) -> None:
    assert [show(v, None, style) for v in (5.5153e-06, 1 / 3, 1234.5)] == [small, third, big]
    assert show(0.0, None, style) in ("0", "0.0000", "0.00", "0.00e+00")  # a true zero stays a zero


def test_a_placeholder_chooses_its_own_style() -> None:
    (p, q, r), problems = parse("{x.grad:sci} {L@2:sig4} {w->a:decimal2}")
    assert problems == []
    assert (p.ref, p.style) == ("x.grad", Numbers("sci"))
    assert (q.ref, q.style) == ("L@2", Numbers("sig", digits=4))
    assert (r.ref, r.style) == ("w->a", Numbers("decimal", 2))
    assert p.numbers(Numbers("torch")) == Numbers("sci")
    for bad, says in [("{x:sigma}", "unknown number style 'sigma'; did you mean 'sig'?"),
                      ("{x:torch2}", "the style 'torch' takes no count"), ("{x:sci0}", "sci takes 1 to 9 digits")]:
        assert says in parse(bad)[1][0][1]


def test_a_vanishing_gradient_is_never_zero_on_screen_in_captions_or_article(tmp_path: Path) -> None:
    checked, p = _lesson(tmp_path, "decimal")
    shown = [s.text for c in p.cues for s in c.strings] + [c.text for c in p.captions]
    assert not any("0.0000" in t for t in shown), shown
    bucket = next(c for c in p.cues if c.kind == "bucket_fill")
    assert bucket.strings[-1].text == "8e-07"  # 8 * 0.1**7 in float32, 3 significant digits
    said = " ".join(c.text for c in p.captions)
    assert "x.grad is 8e-07; as PyTorch prints it, tensor(8.0000e-07)." in said
    article = [pr.markdown for pr in beat_prose(checked.storyboard, p)]
    assert article[-1] == "x.grad is `8e-07`; as PyTorch prints it, `tensor(8.0000e-07)`."


@pytest.mark.parametrize("numbers, grad, y", [("sci", "8.00e-07", "1.00e-08"), ("{style: sig, digits: 2}", "8e-07", "1e-08")])
def test_a_storyboard_style_reaches_cards_buckets_captions_and_article(tmp_path: Path, numbers: str, grad: str,
                                                                        y: str) -> None:
    checked, p = _lesson(tmp_path, numbers)
    bucket = next(c for c in p.cues if c.kind == "bucket_fill")
    assert bucket.strings[-1].text == grad
    assert y in [s.text for c in p.cues if c.kind == "node_appear" for s in c.strings]
    said = " ".join(c.text for c in p.captions)
    assert f"power, {y}." in said and f"x.grad is {grad};" in said
    assert f"`{grad}`" in beat_prose(checked.storyboard, p)[-1].markdown


def test_a_bad_placeholder_style_is_refused_at_its_line(tmp_path: Path) -> None:
    with pytest.raises(StoryboardError) as err:
        _lesson(tmp_path, "decimal", first="y is {y:scientific}.")
    assert "vanishing.yaml:11:" in str(err.value) and "unknown number style 'scientific'" in str(err.value)


def test_a_torch_value_too_wide_for_its_card_is_printed_with_its_name(tmp_path: Path) -> None:
    """``numbers: torch`` prints ``tensor(0.1000, requires_grad=True)`` under the code, not on
    the card: the printed line says whose value it is, as the card would."""
    from scenes.layout.clip import printed_texts

    _, p = _lesson(tmp_path, "torch")
    assert printed_texts(p)[:2] == ["x = tensor(0.1000, requires_grad=True)", "y = tensor(1.0000e-08, grad_fn=<PowBackward0>)"]
