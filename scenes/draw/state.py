"""The clip scene's state: what is on screen and how later cues will change it, one record per view.

Why records: a beat's stored snapshot (:mod:`scenes.render.states`) and its digest (part of every
segment key, :func:`scenes.video.digest.state_digest`) are made of exactly the fields declared
here, so a new field is in the key because it is in a record, and nothing else the scene holds
is: its plan, events, theme and layout are the same for every beat (keyed once per clip), and
caches derived from them or one step's scratch are not state at all.

Fields hold ids, texts and numbers, and Manim mobjects by reference (the same objects as in the
scene's display list, stored with it as data by :mod:`scenes.draw.datafile`). Manim is not
imported here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from manim import Mobject, VGroup

    from scenes.layout.focus import Zoom

    from scenes.draw.visuals import CodePane
    from scenes.layout.routes import Route


@dataclass
class GraphView:
    """The computation graph: cards, op names, arrows, gradient buckets, and what the walk and
    the dim cues did to them."""

    cards: dict[str, VGroup] = field(default_factory=dict)  # tensor id -> its card
    tags: dict[str, VGroup] = field(default_factory=dict)  # tensor id -> the op name beside its card
    bucket_tags: list[VGroup] = field(default_factory=list)  # AccumulateGrad under each bucket, a name over it
    arrows: dict[Route, VGroup] = field(default_factory=dict)
    buckets: dict[str, VGroup] = field(default_factory=dict)  # leaf -> its .grad bucket
    bucket_text: dict[str, str | None] = field(default_factory=dict)  # the value each bucket shows now
    backward: bool = False  # a backward cue has come: every weight has its bucket
    walked: set[str] = field(default_factory=set)  # results the walk visited since the last new graph
    dimmed: set[str] = field(default_factory=set)  # items a dim cue faded: an arrow turned later stays faded
    ghost: set[str] = field(default_factory=set)  # the freed graph kept, faded, beside the next one
    legend: VGroup | None = None  # what each colour means, drawn with the first card (empty: no room)
    walk_legend: bool = False  # the legend is the walk's, in the room the code pane freed (`LegendFrame.walk_legend`)
    legend_under: bool = False  # the legend stands beside the graph's top under the whole code pane, or
    # between its cards (a tall frame: `LegendRoom.under_the_pane`, `between_cards`), and moves into
    # the strip the pane frees for the walk
    legend_home: VGroup | None = None  # that legend at its place while the walk's stands in the strip: back with the pane
    legend_away: bool = False  # the takeaway's board took the legend's room (`Recap._legend_away`): it stays away
    legend_yields: tuple[str, ...] = ()  # the legend found a corner only shorter or smaller (`smaller_legends`):
    # the cue kinds it gives room to (`LegendFrame.give_way`): the whole graph's grow, the takeaway's
    # board, and where it stands in the graph's region the walk's close view (``camera``)
    waiting: set[str] = field(default_factory=set)  # cards grown with their name alone, waiting for their value
    lit: dict[str, Mobject] = field(default_factory=dict)  # item (item/bucket, unit/net) -> the glow a light cue put round it
    unkept: dict[str, VGroup] = field(default_factory=dict)  # result's tensor id -> its `yh.grad = None` note (scenes/draw/unkept.py)
    none_words: dict[str, VGroup] = field(default_factory=dict)  # leaf -> `w.grad = None` by its empty bucket (BucketNotes.none_words)


@dataclass
class WalkView:
    """The backward walk's marks: the wavefront's glow, the tokens riding and waiting, the marks
    of the last visit, the gradient each visited node received (its badge: kept, as micrograd's
    diagrams keep every node's gradient). They go when a cue about something else comes."""

    wave: VGroup | None = None
    tokens: dict[str, list[VGroup]] = field(default_factory=dict)  # node id -> tokens that rode to it
    visit_marks: list[Mobject] = field(default_factory=list)
    held: list[Mobject] = field(default_factory=list)  # a bucket's sum outlasting the walk until the
    # caption naming it goes (its ``named_until``: `BackwardWalk.give_way`)
    badges: dict[str, Mobject] = field(default_factory=dict)  # node -> the gradient it received, kept to the walk's end
    fill_tokens: dict[str, list[VGroup]] = field(default_factory=dict)  # leaf -> the badge beside its bucket
    products: dict[tuple[str, str], list[Mobject]] = field(default_factory=dict)  # (node, to node) -> the last
    # visit's products in its note, one per input slot in the rules' order (w * w: two, one per edge)


@dataclass
class CodeView:
    """The code pane and the program line it lights."""

    pane: CodePane | None = None
    bar_line: int | None = None
    marks: dict[str, VGroup] = field(default_factory=dict)  # beside code lines: "pass" ("pass 2/3" by the
    # for line of the loop the beat is in), "branch" ("→ True" by the if line whose test ran last)
    marks_at: dict[str, tuple[int, str]] = field(default_factory=dict)  # each mark's line and text: they move with the window
    aside: bool = False  # the pane has stepped aside for the walk: only its lit line shows
    foot: float | None = None  # the bottom of the whole pane, where printed lines start (not the aside one's)
    printed_away: bool = False  # the printed lines faded with the pane stepping aside: for a tall frame's walk, or
    # to a line that printed none of them (scenes/draw/code.py's _printed_aside)
    reopen: bool = False  # the pane, aside, opens whole at the next cue: its code_line was too short to open in
    centred: tuple[tuple[float, float, float, float], float] | None = None  # shown large in the middle before
    # the first picture: its rectangle and text size (scenes/draw/code.py's _centred)

    def lines_foot(self) -> float | None:
        """Where the printed lines hang from: the whole pane's foot, or the lit line's where the
        pane stands aside (they stay on screen under it, where the pane freed its room), unless they
        went with it (``printed_away``)."""
        if self.aside and not self.printed_away and self.pane is not None:
            return float(self.pane.bg.get_bottom()[1])
        return self.foot

    def printed_shift(self, lines: Any, gap: float) -> float:
        """How far the printed ``lines`` move up (down, where negative) to hang under the pane as
        it stands (`lines_foot`), the first a gap under it, as `Console` prints them."""
        foot = self.lines_foot()
        return 0.0 if foot is None else foot - gap - float(lines.get_top()[1])


@dataclass
class ConsoleView:
    """Every program output line so far, stacked under the code pane."""

    lines: VGroup | None = None  # the count of lines scrolled away (``more``) first, then the lines
    more: VGroup | None = None  # "N earlier lines not shown", once the oldest lines have left
    earlier: int = 0  # how many lines have scrolled away
    printers: list[int | None] = field(default_factory=list)  # the program line that printed each line shown,
    # oldest first (None: not a print of the program's, a value the console shows for a view)


@dataclass
class TitleView:
    """The caption bar and the title (or end card) over the picture."""

    caption: VGroup | None = None
    overlay: VGroup | None = None
    recap: VGroup | None = None  # the takeaway's numbers side by side (scenes/draw/recap.py)
    recap_of: list[list[str]] = field(default_factory=list)  # per row, the layout keys of what it names
    # (a gradient's bucket and card, else a card: `recap_named.rows_named`)
    recap_waits: bool = False  # the board is placed, not shown: it first fades in where the whole
    # graph's last grow takes it, by what it names (`WholeGraph.takes_across`)


@dataclass
class NetworkView:
    """The MLP view: units and weights drawn, the sweep's and the pass's traces, counter rows."""

    units: dict[str, Mobject] = field(default_factory=dict)  # unit id -> its circle
    links: dict[str, Mobject] = field(default_factory=dict)  # weight -> its line
    plain: list[Mobject] = field(default_factory=list)  # lines into a unit no weight feeds
    sweep: list[Mobject] = field(default_factory=list)  # the reverse sweep's marks
    swept: list[str] = field(default_factory=list)  # units and weights the reverse sweep lit, kept for the ending
    trace: list[Mobject] = field(default_factory=list)  # the current forward pass's marks
    done: dict[str, Mobject] = field(default_factory=dict)  # weight -> its mark once its pass landed
    rows: dict[int, Mobject] = field(default_factory=dict)  # tally row (scenes.draw.network's Row) -> its text
    layer_labels: dict[int, Mobject] = field(default_factory=dict)  # layer depth -> its name (input, hidden 1, ...)
    names: dict[str, Mobject] = field(default_factory=dict)  # weight -> its name beside its line (the first pass's)
    ghosts: dict[str, Mobject] = field(default_factory=dict)  # unit id -> its outline until the unit is drawn
    math: list[Mobject] = field(default_factory=list)  # one unit's arithmetic while it is written (scenes.draw.unit_math)
    spots: dict[str, tuple] = field(default_factory=dict)  # weight -> (x, y, size, sign, its texts): its product goes there
    panel: Mobject | None = None  # the backdrop over the graph's cards, when the network comes over them
    hidden: bool = False  # gone while the graph's cards are drawn in the region they share


@dataclass
class ChecklistView:
    """The storyboard's checklist: its rows once shown, and which items are ticked."""

    rows: list[Mobject] = field(default_factory=list)  # one per item, in order
    ticked: list[int] = field(default_factory=list)  # 1-based items ticked so far
    aside: tuple[float, float] | None = None  # how far it moved with the walk's legend (`LegendFrame.walk_legend`)
    lands: tuple[float, float] | None = None  # where the rows' block's centre goes in that move (or back)


@dataclass
class CurveView:
    """The loss_curve's panel (axes, points, lines), its value range and the last point drawn."""

    panel: VGroup | None = None
    range: tuple[float, float] = (0.0, 1.0)
    box: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)  # the axes' left, bottom, right, top
    total: int = 1  # passes the loop ran: the horizontal axis holds one slot each
    last: tuple[float, float, float] | None = None


Rect = tuple[float, float, float, float]


@dataclass
class CameraView:
    """Where the camera looks (:mod:`scenes.draw.focus`): the move of the clip's layout it shows
    (None: home), whether the walk's camera made it (it stays in from beat to beat while the walk
    goes on) or a beat's ``focus:``, where the walk's camera places what the cues draw and where
    a shape may show, and the shapes it faded out of view with their colours from before."""

    zoom: Zoom | None = None
    by_walk: bool = False
    region: Rect | None = None  # the walk's camera: the layout's region while close
    sight: tuple[Rect, tuple[Rect, ...], float] | None = None  # the walk's camera: where a shape shows
    # (`scenes.layout.camera.seen_in`: inside, kept off, by how much)
    faded: list[tuple[Mobject, list[tuple[np.ndarray, np.ndarray]]]] = field(default_factory=list)
    whole: Any = None  # the whole graph grown as the pane steps aside (`scenes.draw.whole`): its
    # move (`scenes.layout.whole.Stretch`) and the region the cues place things in meanwhile


@dataclass
class SceneState:
    """All of the scene's state, by view."""

    graph: GraphView = field(default_factory=GraphView)
    walk: WalkView = field(default_factory=WalkView)
    code: CodeView = field(default_factory=CodeView)
    console: ConsoleView = field(default_factory=ConsoleView)
    titles: TitleView = field(default_factory=TitleView)
    network: NetworkView = field(default_factory=NetworkView)
    curve: CurveView = field(default_factory=CurveView)
    checklist: ChecklistView = field(default_factory=ChecklistView)
    camera: CameraView = field(default_factory=CameraView)

