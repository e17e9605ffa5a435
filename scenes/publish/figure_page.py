"""The figures as an article shows them: a figure per beat (inline SVG, and ``beat-NN.svg`` for the
Markdown), a stepping figure per backward walk, and the words that describe each one.

Why the words come from the picture: a figure's title and description say what it shows, card
by card (names, values, grad_fns), gradient by gradient and bucket by bucket, from the same
record the drawing is made of, so a screen reader hears the numbers a sighted reader sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scenes.layout.place import Layout
from scenes.publish.figures import Picture, Walk, figures
from scenes.publish.svg import SVG_NS, draw
from scenes.publish.svg_curve import curve_figures
from scenes.publish.svg_network import network_figures
from scenes.storyboard.visuals import TABLE
from scenes.theme import Theme, load_theme


@dataclass(frozen=True)
class BeatFigure:
    """A beat's figure: its file name, its markup and its description (for the Markdown's image)."""

    file: str
    svg: str
    desc: str

    @property
    def inline(self) -> str:
        """The markup for inside a page: HTML puts an ``<svg>`` in SVG's namespace itself."""
        return inline(self.svg)


def inline(svg: str) -> str:
    """``svg`` without its namespace declaration (a file needs it; a page needs no URL of another host)."""
    return svg.replace(f' xmlns="{SVG_NS}"', "", 1)


@dataclass(frozen=True)
class StepView:
    """One step of a stepping figure as the page lists it: number, clip time, text."""

    index: int
    start: float
    text: str


@dataclass(frozen=True)
class Stepper:
    """A stepping figure: its anchor, where it goes (after which beat's section), its markup and
    steps, and its heading (which walk it is, where the clip walks more than once)."""

    anchor: str
    after_beat: int
    svg: str
    steps: tuple[StepView, ...]
    first: float
    last: float
    heading: str = "The walk, step by step"


def figure_name(beat: int) -> str:
    """``beat-03.svg``: the file of beat ``beat``'s figure (0-based)."""
    return f"beat-{beat + 1:02d}.svg"


def describe(pic: Picture, lay: Layout) -> str:
    """What the picture shows, in sentences: cards, the gradients sent, the buckets, what is lit."""
    cards = []
    for card in pic.cards.values():
        kind = lay.items[card.item].kind if card.item in lay.items else ""
        what = {"leaf_grad": "a weight", "leaf_nograd": "an input", "loss": "the loss"}.get(kind, "")
        extra = ", ".join(x for x in (what, card.grad_fn or "") if x)
        cards.append(f"{card.title}{' = ' + card.value if card.value else ''}{f' ({extra})' if extra else ''}")
    out = [f"Cards: {'; '.join(cards)}."]
    title = {i: c.title for i, c in pic.cards.items()}
    if pic.sent:
        out.append("Gradients sent down the graph: " + "; ".join(
            f"{s.text} from {title.get(s.src, s.src)} to {title.get(s.dst, s.dst)}" for s in pic.sent.values()) + ".")
    if pic.buckets:
        fills = {b: f.text for b, f in pic.fills.items()}
        out.append("Buckets: " + "; ".join(
            f"{title.get(lay.items[b].attached_to or '', b)}.grad = {fills.get(b, 'None')}"
            for b in sorted(pic.buckets) if b in lay.items) + ".")
    if pic.unkept:  # .grad told None (a result's, a reset's): the note beside the card or bucket
        out.append("No gradient held: " + "; ".join(f"{name}.grad = {after}" for name, after in
                                                    (pic.unkept[i] for i in sorted(pic.unkept))) + ".")
    faded = pic.dimmed & set(pic.cards)
    if faded:
        out.append("Faded: " + ", ".join(sorted(title.get(i, i) for i in faded)) + ".")
    if pic.lit and not pic.visits:
        out.append("Lit: " + ", ".join(sorted(title.get(i, i) for i in pic.lit)) + ".")
    for v in pic.visits:
        out.append(" ".join(line.rstrip(".") + "." for line in v.lines))
    return " ".join(out)


def _title(pic: Picture, heading: str) -> str:
    """The figure's name: the graph, and the node the walk is at when it is at one."""
    at = [v for v in pic.visits]
    if at:
        return f"The autograd graph as the walk visits {' then '.join(v.called or v.grad_fn for v in at)}: {heading}"
    return f"The autograd graph: {heading}"


def page_figures(index: Any, p: Any, headings: list[str], theme: Theme | None = None
                 ) -> tuple[list[BeatFigure | None], list[Stepper]]:
    """Each beat's figure (None for a beat without one: a title card, the takeaway) and a stepping
    figure per backward walk the clip shows. A network beat's figure is the MLP's
    (:mod:`.svg_network`), a loss_curve beat's the curve's (:mod:`.svg_curve`)."""
    theme = theme or load_theme()
    views = [TABLE[b.visual].view if b.visual in TABLE else b.visual for b in p.beats]
    f = figures(index, p, views, theme)
    out: list[BeatFigure | None] = []
    for k, pic in enumerate(f.pictures):
        if pic is None:
            out.append(None)
            continue
        desc = describe(pic, f.layout)
        drawn = draw(pic, f.layout, theme, f"fig-{k + 1}", _title(pic, headings[k]), desc)
        out.append(BeatFigure(figure_name(k), drawn.markup, desc))
    nets = network_figures(index, p, views, headings, theme)
    curves = curve_figures(p, views, headings, theme)
    for k, other in enumerate(a or b for a, b in zip(nets, curves)):
        if other is not None and out[k] is None:
            out[k] = BeatFigure(figure_name(k), *other)
    return out, [_stepper(w, n, len(f.walks), f.layout, theme) for n, w in enumerate(f.walks)]


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def walk_heading(n: int, total: int) -> str:
    """``The walk, step by step``; with several walks, which one (``The second walk, step by
    step``), so a page's headings do not repeat."""
    if total < 2:
        return "The walk, step by step"
    which = f"The {ORDINALS[n]} walk" if n < len(ORDINALS) else f"Walk {n + 1}"
    return f"{which}, step by step"


def _stepper(walk: Walk, n: int, total: int, lay: Layout, theme: Theme) -> Stepper:
    anchor = f"walk-{n + 1}"
    desc = describe(walk.picture, lay)
    title = f"The backward walk, step by step: {len(walk.steps)} visits"
    drawn = draw(walk.picture, lay, theme, anchor, title, desc, stepping=walk.steps[0].index)
    steps = tuple(StepView(s.index, s.start, s.text) for s in walk.steps)
    return Stepper(anchor, walk.after_beat, inline(drawn.markup), steps, steps[0].start, steps[-1].start,
                   walk_heading(n, total))
