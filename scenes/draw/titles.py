"""Caption and title cues of the clip scene: the caption bar, opening and closing titles.

Why titles look for room: an opening title has the empty frame; a later one (a chapter or the
closing line) must not hide the graph's cards, so it takes a free band beside the code or above
or below the graph, and only when there is none covers the whole graph region as an end card.
A view of ``ClipScene``, owning ``state.titles``.
"""

from __future__ import annotations

from functools import cached_property

from manim import FadeIn, FadeOut, ReplacementTransform, VGroup

from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.crossfade import cut, first_half
from scenes.draw.drawers import draws
from scenes.draw.network import NetworkDiagram
from scenes.draw.state import TitleView
from scenes.storyboard.caption_events import CaptionSpan
from scenes.storyboard.cues import Cue
from scenes.theme import Rect
from scenes.draw.visuals import caption_bar
from scenes.draw.visuals.caption import narration_size

Z_CAPTION = 2  # above everything: cards, tokens, the code pane


class Titles(View):
    """Draws title cues, puts captions in the bar and takes them out (``caption_in``,
    ``caption_clear``, ``caption_out``), and takes a title away when a cue of something else comes (``give_way``).
    Reads the graph's, the code pane's and the console's records, and asks the network where a
    title may go over it."""

    def __init__(self, ctx: DrawContext, network: NetworkDiagram) -> None:
        super().__init__(ctx)
        self.network = network

    @property
    def titles(self) -> TitleView:
        return self.ctx.state.titles

    def caption_in(self, cap: CaptionSpan) -> Anims:
        """A caption event in the caption bar, in its own lines; the clip's title (over the first
        beat) is one too, set at the title's size where the bar has room for it, and so is the
        takeaway (after the last), at the narration's one size: a takeaway cut into events would
        otherwise jump to the title's size mid-sentence wherever an event fits it. With a caption
        up, the bar stays and its words are cut to the next at half the fade, as subtitles
        change: a bar (or words) that went and came back at every event would blink mid-sentence."""
        old = self.titles.caption
        style = cap.style
        size = self.theme.font_sizes.title if style == "title" else self.narration_size
        self.titles.caption = caption_bar(cap.text, self.ctx.spec.caption, self.theme, size=size,
                                          lines=cap.lines, role=style).set_z_index(Z_CAPTION)
        self.ctx.record_all(cap.strings)
        if old is None:
            return [FadeIn(self.titles.caption)]
        new = self.titles.caption
        if not len(old.text):  # the bar waited empty (`caption_clear`)
            return [ReplacementTransform(old.bg, new.bg), FadeIn(new.text)]
        return [ReplacementTransform(old.bg, new.bg), *cut(old.text, new.text)]

    @cached_property
    def narration_size(self) -> float:
        """One size for every narration caption (``narration_size``): a caption set smaller
        than the one before it reads as a different voice."""
        return narration_size(self.ctx.spec.caption, self.theme)

    def caption_clear(self) -> Anims:
        """The caption's words go and its bar stays up, empty, for the next caption to fill
        (`scenes.video.timeline.BAR_HELD`): a short pause between two captions."""
        bar = self.titles.caption
        if bar is None or not len(bar.text):
            return []
        words = bar.text  # out of the bar now: what the next beat starts from holds no old words
        bar.remove(words)
        bar.text, bar.lines = VGroup(), []
        return [FadeOut(words)]

    def caption_out(self) -> Anims:
        if self.titles.caption is None:
            return []
        old, self.titles.caption = self.titles.caption, None
        return [FadeOut(old)]

    def give_way(self, kind: str, step: StepScratch) -> Anims:
        """A title up goes when a cue of another kind comes, gone by half time
        (``step.going``: what the step brings starts then, so the two never share a frame)."""
        if self.titles.overlay is None or kind == "title":
            return []
        going = FadeOut(self.titles.overlay, rate_func=first_half)
        step.going.append(going)
        self.titles.overlay = None
        return [going]

    @draws("title")
    def draw_title(self, cue: Cue, step: StepScratch) -> Anims:
        """An opening title large in the middle of the empty frame; a later one on a backdrop in
        the graph region's free band, never over its cards."""
        cap = self.ctx.spec.caption
        if self.network.drawn():  # the MLP view keeps a band above the network for this
            return self._title_in(cue, self.network.title_band())
        if not self.ctx.state.graph.cards and self.ctx.state.code.pane is None:
            m = self.ctx.spec.margin
            left, _, right, top = self.ctx.frame_rect()
            bottom = cap[3] + m
            h = (top - bottom) * self.theme.proportions.title_height
            mid = (top + bottom) / 2
            return self._title_in(cue, (left, mid - h / 2, right, mid + h / 2), size=self.theme.font_sizes.title)
        h = cap[3] - cap[1]
        band = self._free_band_beside_code(h)
        if band is not None:
            return self._title_in(cue, band)
        left, bottom, right, top = self.ctx.graph_region()
        boxes = self.ctx.layout.boxes
        if boxes:  # over the graph's free band, not over its cards
            low = min(bx.y - bx.h / 2 for bx in boxes.values())
            high = max(bx.y + bx.h / 2 for bx in boxes.values())
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

    def _title_in(self, cue: Cue, rect: Rect, size: float | None = None) -> Anims:
        """A title on its backdrop in ``rect`` (at the caption's font size unless ``size``),
        replacing any title already up."""
        out: Anims = [FadeOut(self.titles.overlay)] if self.titles.overlay is not None else []
        self.titles.overlay = caption_bar(cue.text("title") or "", rect, self.theme, size=size,
                                          role="title").set_z_index(Z_CAPTION)
        self.ctx.record_all(cue.strings)
        return out + [FadeIn(self.titles.overlay)]

    def _free_band_beside_code(self, h: float) -> Rect | None:
        """Where the code column (16:9) has room below the code and its printed output, a band of
        height ``h`` there: a closing title then sits beside the graph instead of over it."""
        spec, pane, printed = self.ctx.spec, self.ctx.state.code.pane, self.ctx.state.console.lines
        code, graph = spec.code, spec.graph
        if pane is None or code[2] > graph[0]:
            return None
        m = spec.margin
        low = pane.bg.get_bottom()[1]
        if printed is not None:
            low = min(low, printed.get_bottom()[1])
        floor = spec.caption[3] + m
        if low - m - floor < h:
            return None
        mid = (low - m + floor) / 2
        return (code[0], mid - h / 2, code[2], mid + h / 2)
