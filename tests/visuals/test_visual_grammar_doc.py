"""docs/visual-grammar.md's table of meanings says what the theme says (issue 39, item 5).

Why: the page is where a newcomer learns the series' colours; a colour changed in
scenes/theme.yaml, or a meaning added, must not leave it telling another story.
"""

from __future__ import annotations

import re
from pathlib import Path

from scenes.theme import default_theme

DOC = Path(__file__).resolve().parents[2] / "docs" / "visual-grammar.md"
ROW = re.compile(r"^\| `(?P<meaning>\w+)` \| (?P<keys>(?:`\w+` ?)+) \| `(?P<hex>#[0-9a-f]{6})`")


def table(text: str) -> dict[str, tuple[str, str]]:
    """meaning -> (its colour keys, space-separated; its first colour), from the page's rows."""
    out = {}
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            out[m["meaning"]] = (" ".join(re.findall(r"`(\w+)`", m["keys"])), m["hex"])
    return out


def test_the_page_lists_every_meaning_with_its_colour() -> None:
    theme = default_theme()
    want = {m: (keys, theme.colour(m).lower()) for m, keys in theme.meanings.items()}
    assert table(DOC.read_text(encoding="utf-8")) == want


def test_a_stale_row_is_found() -> None:
    text = DOC.read_text(encoding="utf-8").replace("`#e5534b`", "`#ff0000`", 1)
    theme = default_theme()
    assert table(text)["loss"][1] != theme.colour("loss").lower()
