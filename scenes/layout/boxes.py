"""A laid-out graph's records: a card's box and the whole layout (`scenes.layout.place` makes
them; `scenes.layout.lowered` and the camera's views move them). Apart from the layout's method
so that what reshapes a layout need not import the method that made it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scenes.layout.detail import Detail
from scenes.layout.graph import Item
from scenes.layout.routes import Route
from scenes.theme import Rect


@dataclass(frozen=True)
class Box:
    """Centre (x, y) and size (w, h) in scene units."""

    id: str
    kind: str
    x: float
    y: float
    w: float
    h: float

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        return (self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2, self.y + self.h / 2)


@dataclass(frozen=True)
class Layout:
    aspect: str
    region: Rect  # where the boxes are (left, bottom, right, top)
    flow: str  # "right", "down" or "up": the forward direction
    scale: float  # card size relative to the theme's scale-1 sizes
    detail: Detail  # which labels cards carry (`layout_graph`)
    boxes: Mapping[str, Box]
    routes: tuple[Route, ...]
    layers: tuple[tuple[str, ...], ...]
    items: Mapping[str, Item]
    merged: Mapping[str, str] = field(default_factory=dict)  # a result folded into a chain's card -> that card (`collapse`)
    code_lit: bool = False  # the clip's code pane shows only its lit line, at the top, so the graph has its room (`clip_layout`)
    steps: frozenset[str] = frozenset()  # the results of `merged` shown in their card while made (`Collapsed.steps`)
    zoom: float = 1.0  # how much larger a camera draws it than the clip's layout (`scenes.layout.focus.zoomed`):
    # what keeps a least readable size (a token, an arrow's head) is sized at home and drawn this much larger

    def card_of(self, item: str) -> str:
        """The item whose card stands for ``item``: itself, or the card of the chain it folded into."""
        return self.merged.get(item, item)
