"""One visual grammar for the series (issue 19, item 10): each colour means one thing.

The theme's ``meanings`` say which ``colors`` show the loss, a weight, an input that needs no
gradient, an intermediate result, a gradient flowing (and the bucket that holds one), where the
walk is now, a forward edge, a skipped path and an error. Two meanings never share a colour; a
gradient is never drawn in a weight's colour; every colour a drawing reads for what it shows
belongs to a meaning.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scenes.theme import ThemeError, default_theme, load_theme, shared_colours

THEME = default_theme()
MEANINGS = {"loss", "weight", "input", "result", "gradient"}  # the five the issue names, at least


def test_no_two_meanings_share_a_colour() -> None:
    assert MEANINGS <= set(THEME.meanings)
    assert shared_colours(THEME) == []


def test_the_gradient_is_not_the_weights_colour() -> None:
    c = THEME.colors
    assert c.grad.lower() != c.leaf_grad.lower()


def test_each_colour_key_has_at_most_one_meaning() -> None:
    keys = [k for v in THEME.meanings.values() for k in v.split()]
    assert len(keys) == len(set(keys))


def test_a_shared_colour_is_found(tmp_path: Path) -> None:
    """The check fails a theme where the weight and the gradient are both orange, and names them."""
    text = Path(__file__).resolve().parents[2].joinpath("scenes/theme.yaml").read_text(encoding="utf-8")
    bad = text.replace(f'leaf_grad: "{THEME.colors.leaf_grad}"', f'leaf_grad: "{THEME.colors.grad}"')
    assert bad != text
    (tmp_path / "t.yaml").write_text(bad, encoding="utf-8")
    found = shared_colours(load_theme(tmp_path / "t.yaml"))
    assert found and "weight" in found[0] and "gradient" in found[0]


def test_a_meaning_the_scenes_draw_is_declared(tmp_path: Path) -> None:
    """A theme without forward mode's colour fails when loaded, not halfway through a render."""
    text = Path(__file__).resolve().parents[2].joinpath("scenes/theme.yaml").read_text(encoding="utf-8")
    bad = "\n".join(ln for ln in text.splitlines() if not ln.startswith("  forward_mode:"))
    assert bad != text
    (tmp_path / "t.yaml").write_text(bad, encoding="utf-8")
    with pytest.raises(ThemeError, match="meanings.forward_mode: missing"):
        load_theme(tmp_path / "t.yaml")


def test_a_meaning_names_a_colour_key(tmp_path: Path) -> None:
    text = Path(__file__).resolve().parents[2].joinpath("scenes/theme.yaml").read_text(encoding="utf-8")
    (tmp_path / "t.yaml").write_text(text.replace("  weight: leaf_grad", "  weight: leaf_grd"), encoding="utf-8")
    with pytest.raises(ThemeError, match="meanings.weight"):
        load_theme(tmp_path / "t.yaml")
