"""A storyboard's checklist as drawn: a row per check, its box ticked or not, the rows stacked.

Why a builder of its own: the checklist's view draws it, and the frame's view measures a list to
come (where the legend goes, the list must still find its corner), so both build it alike.
"""

from __future__ import annotations

from manim import DOWN, LEFT, VGroup

from scenes.draw.visuals.glyphs import label
from scenes.theme import Theme


def check_row(text: str, ticked: bool, theme: Theme) -> VGroup:
    """One check: its box (ticked or not) and its words, at the note size, muted until ticked."""
    t = theme
    mark = label("\u2713" if ticked else "\u2610", t.fonts.sans, t.font_sizes.note, t.colors.text if ticked
                 else t.colors.text_muted)
    words = label(text, t.fonts.sans, t.font_sizes.note, t.colors.text if ticked else t.colors.text_muted)
    return VGroup(mark, words).arrange(buff=t.sizes.token_pad * 2)


def check_block(rows: list[VGroup], theme: Theme) -> VGroup:
    """The rows one under another, their left edges aligned."""
    return VGroup(*rows).arrange(DOWN, aligned_edge=LEFT, buff=theme.sizes.token_pad * 2)


def unticked_list(items: list[str], theme: Theme) -> VGroup | None:
    """The checklist of ``items`` as it comes in, none ticked, at the origin; None for no items:
    what the legend, drawn before it, leaves room for."""
    return check_block([check_row(text, False, theme) for text in items], theme) if items else None
