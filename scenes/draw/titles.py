"""Caption and title cues of the clip scene: the caption bar, opening and closing titles.

Why titles look for room: an opening title has the empty frame; a later one (a chapter or the
closing line) must not hide the graph's cards, so it takes a free band beside the code or above
or below the graph, and only when there is none covers the whole graph region as an end card.
A mixin of ``ClipScene``, like :mod:`scenes.draw.backward`.
"""

from __future__ import annotations

from typing import Any

from manim import FadeIn, FadeOut

from scenes.draw.drawers import draws
from scenes.draw.state import CodeView, ConsoleView, GraphView, TitleView
from scenes.theme import Rect
from scenes.draw.visuals import caption_bar
from scenes.draw.visuals.caption import narration_size

Anims = list[Any]
Z_CAPTION = 2  # above everything: cards, tokens, the code pane


class TitleCues:
    """Handlers for captions coming and going and for title cues (mixed into ClipScene)."""

    # state and helpers provided by ClipScene
    theme: Any
    spec: Any
    lay: Any
    graph: GraphView
    code: CodeView
    console: ConsoleView
    titles: TitleView

    def _caption_in(self, cap: Any) -> Anims:
        """A caption event in the caption bar, in its own lines; the clip's title (over the first
        beat) and its takeaway (after the last) are events too, set at the title's size where
        the bar has room for it."""
        out = self._caption_out()
        style = cap.style
        size = self.theme.font_sizes.title if style in ("title", "takeaway") else self._narration_size()
        self.titles.caption = caption_bar(cap.text, self.spec.caption, self.theme, size=size,
                                          lines=cap.lines, role=style).set_z_index(Z_CAPTION)
        for s in cap.strings:
            self._record(s)
        return out + [FadeIn(self.titles.caption)]

    def _narration_size(self) -> float:
        """One size for every narration caption (``narration_size``): a caption set smaller
        than the one before it reads as a different voice."""
        if getattr(self, "_narration_font", None) is None:
            self._narration_font = narration_size(self.spec.caption, self.theme)
        return self._narration_font

    def _caption_out(self) -> Anims:
        if self.titles.caption is None:
            return []
        old, self.titles.caption = self.titles.caption, None
        return [FadeOut(old)]

    @draws("title")
    def _cue_title(self, cue: Any) -> Anims:
        """An opening title large in the middle of the empty frame; a later one on a backdrop in
        the graph region's free band, never over its cards."""
        cap = self.spec.caption
        network = self.views.network  # type: ignore[attr-defined]
        if network.drawn():  # the MLP view keeps a band above the network for this
            return self._title_in(cue, network.title_band())
        if not self.graph.cards and self.code.pane is None:
            m, s = self.spec.margin, self.spec
            left, right = -s.frame_width / 2 + m, s.frame_width / 2 - m
            bottom, top = cap[3] + m, s.frame_height / 2 - m
            h = (top - bottom) * self.theme.proportions.title_height
            mid = (top + bottom) / 2
            return self._title_in(cue, (left, mid - h / 2, right, mid + h / 2), size=self.theme.font_sizes.title)
        h = cap[3] - cap[1]
        band = self._free_band_beside_code(h)
        if band is not None:
            return self._title_in(cue, band)
        left, bottom, right, top = self._graph_region()
        if self.lay.boxes:  # over the graph's free band, not over its cards
            low = min(bx.y - bx.h / 2 for bx in self.lay.boxes.values())
            high = max(bx.y + bx.h / 2 for bx in self.lay.boxes.values())
            if low - bottom >= h:
                return self._title_in(cue, (left, (low + bottom - h) / 2, right, (low + bottom + h) / 2))
            if top - high >= h:
                return self._title_in(cue, (left, (top + high - h) / 2, right, (top + high + h) / 2))
        # no free band: the backdrop covers the whole graph region, an end card rather than a
        # bar across the middle cards (such a bar can hide an arrow and a tag)
        out = self._title_in(cue, (left, bottom, right, top), size=self.theme.font_sizes.title)
        assert self.titles.overlay is not None
        self.titles.overlay.bg.set_fill(opacity=self.theme.opacity.title_cover)
        return out

    def _title_in(self, cue: Any, rect: Rect, size: float | None = None) -> Anims:
        """A title on its backdrop in ``rect`` (at the caption's font size unless ``size``),
        replacing any title already up."""
        out: Anims = [FadeOut(self.titles.overlay)] if self.titles.overlay is not None else []
        self.titles.overlay = caption_bar(cue.text("title") or "", rect, self.theme, size=size,
                                          role="title").set_z_index(Z_CAPTION)
        for s in cue.strings:
            self._record(s)
        return out + [FadeIn(self.titles.overlay)]

    def _free_band_beside_code(self, h: float) -> Rect | None:
        """Where the code column (16:9) has room below the code and its printed output, a band of
        height ``h`` there: a closing title then sits beside the graph instead of over it."""
        code, graph = self.spec.code, self.spec.graph
        if self.code.pane is None or code[2] > graph[0]:
            return None
        m = self.spec.margin
        low = self.code.pane.bg.get_bottom()[1]
        if self.console.lines is not None:
            low = min(low, self.console.lines.get_bottom()[1])
        floor = self.spec.caption[3] + m
        if low - m - floor < h:
            return None
        mid = (low - m + floor) / 2
        return (code[0], mid - h / 2, code[2], mid + h / 2)
