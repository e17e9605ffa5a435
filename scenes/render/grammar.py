"""One colour, one meaning, on screen: what of a frame is drawn in another meaning's colour.

Why a check over frames and not only over the theme: the theme says which colour shows the loss,
a weight, an input, a result, a gradient, forward mode... (``Theme.meanings``, two meanings never
share a colour), but a drawer can still paint a result in the loss's red (every top unit of a
network was) or forward mode's finished weights in the gradient's orange. Each builder says what
an item stands for when it tags it (``meaning``, from what the log says it is: a loss's card, a
gradient's arrow), and ``render inspect`` lists the colour it is drawn in; this module compares
the two (docs/visual-grammar.md). Pure: items in, problems out.

- An item that says its meaning must not be drawn in another meaning's colour, except the two
  that lie over anything for a moment: ``now`` (the walk's glow, a card the caption points at)
  and ``skipped`` (dimmed).
- An item that says none (chrome: captions, code, muted words) must not be drawn in a meaning's
  colour, or it would read as one; a text in a chrome text colour is chrome (muted words share
  the input's grey, theme.yaml's ``text_muted``).
- A colour that is no meaning's (a blend while a Transform recolours, the background) is not
  judged: only the exact colours of the theme say something.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from scenes.theme_model import Theme

OVERLAYS = ("now", "skipped")
"""Meanings whose colour may lie over an item of any meaning for a while: a highlight, a dim."""
CHROME_TEXT = ("text", "text_muted", "code_text", "caption_text", "background")
"""Colour keys a text may be drawn in and mean nothing by (a token's number is the background's)."""
MIN_OPACITY = 0.1  # fainter is not seen (as for the collisions)


@dataclass(frozen=True)
class Palette:
    """The theme's colours by what they say: hex -> meaning, and the chrome colours of text."""

    meaning: dict[str, str]
    chrome_text: frozenset[str]

    @classmethod
    def of(cls, theme: Theme) -> Palette:
        colours = theme.colors
        by_hex = {str(getattr(colours, k)).lower(): m for m, keys in theme.meanings.items() for k in keys.split()}
        return cls(by_hex, frozenset(str(getattr(colours, k)).lower() for k in CHROME_TEXT))


@dataclass(frozen=True)
class OffColour:
    """An item drawn in the colour of ``shown`` while it is ``said`` (None: chrome)."""

    item: dict[str, Any]
    said: str | None
    shown: str

    def describe(self) -> str:
        it = self.item
        who = it["role"] + (f" {it['text']!r}" if it.get("text") else "") + (f" ({it['id']})" if it.get("id") else "")
        said = f"a {self.said}" if self.said else "chrome (it means nothing)"
        return f"{who} is {said} but drawn in {it['colour']}, the {self.shown}'s colour"


def off_colour(items: Iterable[dict[str, Any]], palette: Palette) -> list[OffColour]:
    """Each visible item drawn in a meaning's colour that is not its own (module docstring).

    >>> from scenes.theme import default_theme
    >>> t = default_theme(); p = Palette.of(t); red, blue = t.colour("loss"), t.colour("result")
    >>> card = {"kind": "shape", "role": "card", "text": None, "id": "t4", "opacity": 1.0}
    >>> off_colour([{**card, "colour": blue, "meaning": "result"}], p)
    []
    >>> [o.describe() for o in off_colour([{**card, "colour": red, "meaning": "result"}], p)]
    ["card (t4) is a result but drawn in #e5534b, the loss's colour"]
    >>> [o.shown for o in off_colour([{**card, "role": "label", "kind": "text", "colour": red, "meaning": None}], p)]
    ['loss']
    """
    out = []
    for it in items:
        hexa = it.get("colour")
        if hexa is None or it["opacity"] < MIN_OPACITY:
            continue
        shown = palette.meaning.get(hexa.lower())
        said = it.get("meaning")
        if shown is None or shown == said or shown in OVERLAYS:
            continue
        if said is None and it["kind"] == "text" and hexa.lower() in palette.chrome_text:
            continue
        out.append(OffColour(it, said, shown))
    return out
