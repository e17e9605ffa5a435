"""How much a graph's cards say: the layout chooses it, the cards and the walk read it."""

from __future__ import annotations

from enum import StrEnum


class Detail(StrEnum):
    """Which labels a graph's cards carry (`layout_graph` chooses), from the most to none."""

    FULL = "full"  # the theme's cards: name, value and grad_fn rows
    COMPACT = "compact"  # sized for their texts at the least readable size: name over value, grad_fn under
    DENSE = "dense"  # sized for their texts, one row: name and value side by side
    NAME = "name"  # names only
    NONE = "none"  # bare boxes

    @property
    def text_sized(self) -> bool:
        """Cards sized by their texts at the minimum readable size (`compact_dims`, `dense_dims`)."""
        return self in (Detail.COMPACT, Detail.DENSE)

    @property
    def shows_values(self) -> bool:
        """Every card has a row for its value."""
        return self is Detail.FULL or self.text_sized
