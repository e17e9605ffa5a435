"""The plan of a clip at one aspect: the plan every aspect shares, with the walk's camera moves
laid into pauses it already has.

Why no time of its own: the course site plays the 9:16 clip on phones with the 16:9 clip's
caption track, so every aspect's clip keeps the aspect-free plan's duration and every cue's
and caption's start. Where the walk's camera moves at an aspect (`camera_visits`: the graph is
dense there), each move is a ``camera`` cue in a pause: a time when no cue animates (a caption
coming, going or changing meanwhile joins the move's step, as it joins any cue's:
`scenes.video.timeline.schedule`).
A move into a visit goes in the last pause at least ``camera_move`` long since the visit before
and the gradients it sent have ridden (a token leaves its product in the visit's note, which
the move may take out of view), else in the longest of at least
``camera_least``, landing at its end, and not before the phrase up as that pause begins has
been read, where that leaves ``camera_least`` (what it names may leave the view); a move out
likewise waits for the caption explaining the walk's last note to end (REVIEW7 item 4), and for
the one naming the sum its last fill wrote, where that is up in the pause (dynamic_graph 9:16: the
sum ``1/27 + ... = 4/27``, written in a close view, went with the way out under "w.grad is
4/27", `scenes.render.bucket_sum`); with none,
the move before (into the walk's visit before) shows this visit's cards too (its ``seqs`` list
every visit it shows): the camera never stays on a view that leaves out the node visited, and
a gradient never rides to a card out of view.
What is spoken about stays on screen while it is spoken: the move in from the whole graph (the
walk's first) goes only in a pause, or the part of one, where no caption is up whose words name
a card the visit's close view does not hold (`held`; the names: `named_tensors`), so it waits
until such a caption is gone (the plan leaves room for it between beats,
`scenes.storyboard.plan`; missing_gradient's w, under "reading w.grad before backward gives
None"). From one close view to the next, a card the view before holds that a caption up
during the move names and the next does not hold stays in view: the cue lists it after the
visit's ids and the scene frames the next view on it too where it would leave and that view
still reads (`kept_named`; leaf_nodes 9:16's x under "Mul multiplies it by x on its way to
w1"); the visit still starts at its words. `scenes.render.named_view` checks the picture.
Where the walk with the camera ends (the next beat does not walk, has a ``focus:``, or there is
none), one move with no ids takes it back out, in such a pause before the next beat's first cue,
on what is drawn (`scenes.draw.camera.WalkCamera`: the clip's layout places every card the clip
will draw, and a loop's two cards would shrink into a corner of it); where a card is drawn before
the next walk, a second move out, in a pause before that, takes the camera out on it too (where
the first found no pause, the second takes the camera out all the same). Where no card is drawn
first and the code pane keeps its lit line alone until a later cue lights another line or
prints (`opens_pane`), a move home goes in the last pause before that cue, ``camera_hold`` at
least after the way out lands: until then the way out may frame the whole graph in the room the
lit line leaves (`home_before_pane`; leaf_nodes 9:16 after its walk). Where the pane stands
aside beside the graph (16:9) and a walk's graph is as tall as the frame it may use
(`scenes.layout.column`), its views slide the graph into the column the pane frees: the way out
goes before the pane comes back whole over it (`scenes.storyboard.pane_back`), and the walk's
first view, made under the whole pane, is made again once the pane has stepped aside.

The pauses and the pick are `scenes.render.pauses`, which the whole graph's move
(`scenes.render.whole_plan`) lays its cue into too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple

from scenes.layout.camera import camera_visits, held, walk_region
from scenes.layout.clip import clip_layout
from scenes.layout.column import column_walks
from scenes.layout.place import Layout, tag_reach
from scenes.render.pauses import Span, beat_at, pauses, pick
from scenes.storyboard.binding import caption_names
from scenes.storyboard.caption_events import CaptionSpan, explaining, naming
from scenes.render.whole_plan import pane_beside, whole_cues
from scenes.storyboard.cues import BUILDS, Cue, opens_pane, writes_note, writes_sum
from scenes.storyboard.logindex import LogIndex
from scenes.storyboard.pane_back import back_whole
from scenes.storyboard.plan import Plan
from scenes.storyboard.timings import default_timings
from scenes.storyboard.validate import Checked
from scenes.theme import Theme, load_theme


class Column(NamedTuple):
    """Where the code pane stands aside beside the graph, the column it frees (`camera_cues`):
    the beats of the walks whose graph may slide into it (`column_walks`), and how long a view
    is held at least for a move to it to be worth it (``layout.fill_empty_seconds``)."""

    beats: frozenset[int]
    seconds: float


def camera_cues(p: Plan, camera: frozenset[int], holds: Sequence[bool], home: Layout | None = None,
                index: LogIndex | None = None, grow_out: bool = True, column: Column | None = None) -> list[Cue]:
    """The ``camera`` cues of ``p`` (an aspect-free plan) for the visits of ``camera``, laid in
    its pauses (the module's doc); ``holds[i]``: beat i has a ``focus:``, which the walk's
    camera leaves be. ``home`` (the clip's layout) and ``index`` (its log's): what a visit's
    close view holds and what each caption names; without them a move does not wait for, nor
    keep in view, a card a caption up names. ``grow_out``: the way out may frame the whole graph
    in the room the lit line leaves (`home_before_pane`); not where the pane stands aside beside
    the graph, whose freed column the whole graph's move grows into (`whole_plan.pane_beside`).
    ``column``: there (the pane beside the graph), a view no closer than home may slide the graph
    into that column (`scenes.draw.camera_views`): in a walk whose first visit's view is such, its
    way out goes before the pane comes back whole over the column (`back_whole`), and that first
    view, made under the whole pane, is made again once the pane has stepped aside (`_in_column`)."""
    tm = default_timings()
    named = {k: {home.card_of(t) for t in ts} for k, ts in caption_names(p.captions, p.cues, index).items()} \
        if home is not None and index is not None else {}
    busy = [(c.start, c.start + c.duration) for c in p.cues]
    visits = [c for c in p.cues if c.kind == "visit" and c.seqs and c.seqs[0] in camera and not holds[c.beat]]
    walks = {c.beat for c in visits}
    rides = [c for c in p.cues if c.kind == "grad_travel"]
    out: list[Cue] = []

    def holds_of(seqs: Iterable[int]) -> set[str]:
        """The cards the close views of the visits ``seqs`` hold."""
        assert home is not None
        return {k for v in visits if v.seqs[0] in seqs for k in held(home, home.card_of(v.ids[-1]))}

    def place(found: Sequence[Span], ids: tuple[str, ...], seqs: tuple[int, ...]) -> Cue | None:
        span = pick(found, tm.camera_move, tm.camera_least)
        if span is not None and ids:  # in: not while the phrase up then is read (what it names may leave the view)
            said = max([c.end - c.held for c in p.captions if c.said <= span[0] + 1e-9 < c.end - c.held],
                       default=span[0])  # read: from its words to its reading end (not its lead or hold)
            span = (max(span[0], min(said, span[1] - tm.camera_least)), span[1])
        if span is not None and not ids:
            # out: not while the walk's last note is explained, nor while the sum the walk's last
            # fill wrote is named by a caption up in the pause (they may go as the camera leaves
            # the close view they were written in)
            noted = [c for c in p.cues if c.kind == "visit" and c.start < span[0] and writes_note(p.cues, c)]
            says = explaining(p.captions, noted[-1]) if noted else None
            summed = [c for c in p.cues if c.kind == "bucket_fill" and c.beat in walks and c.start < span[0]
                      and writes_sum(c)]
            named = naming(p.captions, summed[-1]) if summed else None
            ends = [c.end for c in (says, named) if c is not None and c.start < span[1]]
            if ends:
                span = (max(span[0], min(max(ends), span[1] - tm.camera_least)), span[1])
        if span is None:
            return None
        d = round(min(tm.camera_move, span[1] - span[0]), 3)
        start = round(span[1] - d, 3)
        return Cue(start, d, "camera", beat_at(p, start), ids, (), None, seqs)

    def move(lo: float, hi: float, ids: tuple[str, ...], seqs: tuple[int, ...], first: bool = False,
             was: set[str] | None = None) -> bool:
        found = pauses(busy, lo, hi)
        kept = holds_of(seqs) if named and ids else set()
        if first and kept:  # from home: not while a caption names a card the view leaves out
            found = unnamed(found, [c for c in p.captions if named[c.index] - kept])
        cue = place(found, ids, seqs)
        if cue is not None and was and kept:  # from one close view to the next: kept in view (`kept_named`)
            cue = replace(cue, ids=cue.ids + tuple(sorted(kept_named(cue, p.captions, named, was, kept))))
        if cue is not None:
            out.append(cue)
        return cue is not None

    def home_before_pane(beat: int, end: float, ahead: list[float]) -> None:
        """After the way out at ``end`` (the walk of ``beat`` over), a move home in the last pause
        before the first cue that needs the whole code pane, where that comes before the next walk
        and leaves the way out's view held ``camera_hold`` at least, in beats the camera has: the
        pane keeps its lit line alone until then, and the way out grows the graph into the room
        it leaves (`scenes.draw.camera.WalkCamera._out`: leaf_nodes 9:16, the leaves' buckets
        filled under "Each leaf receives its gradient" by a graph a third of the frame, under an
        empty band)."""
        needs = [c for c in p.cues if c.start >= end - 1e-9 and opens_pane(c)]
        first = min(needs, key=lambda c: c.start, default=None)
        if first is None or (ahead and ahead[0] <= first.start) or any(holds[b] for b in range(beat + 1, first.beat + 1)):
            return
        move(end + tm.camera_hold, first.start, (), ())

    slid = False  # the walk's first visit is seen no closer than home: its graph may slide into the column
    after = 0.0  # a move starts once the visit before has started (or the beat before the walk's)
    last: int | None = None  # the move in the walk made last, in ``out``
    before: int | None = None  # the move in the walk made before that one
    for v in visits:
        if v.beat - 1 not in walks and not any(c.beat == v.beat and c.start < v.start for c in visits):
            after = p.beats[v.beat - 1].start if v.beat > 0 else 0.0  # the walk starts
            last = before = None
            slid = column is not None and v.beat in column.beats
        rode = max((c.start + c.duration for c in rides if after <= c.start < v.start), default=after)
        was = holds_of(out[last].seqs) if last is not None and named else None  # the view before
        if move(max(after, rode), v.start, v.ids, v.seqs[:1], last is None, was):
            before, last = last, len(out) - 1
        elif last is not None:  # no pause for it: the view before shows its cards too
            out[last] = replace(out[last], seqs=out[last].seqs + v.seqs[:1])
        after = v.start
        if v is [c for c in visits if c.beat == v.beat][-1] and v.beat + 1 not in walks:  # the walk ends here
            then = min([c.start for c in p.cues if c.beat > v.beat], default=p.duration)
            # out on what is drawn (`WalkCamera`), and again before the next card is drawn, on it
            # too; where the first finds no pause, the second takes the camera out all the same
            had = {id(c) for c in out}
            went = move(after, then, (), ())
            end = out[-1].start + out[-1].duration if went else then
            if went and last is not None and last == len(out) - 2 and too_short(out[last], out[-1], tm.camera_hold):
                # the last close view would be held under camera_hold before the way out: the view
                # before shows its visit (or, with none, the camera stays out for the whole walk)
                gone = out.pop(last)
                if before is not None:
                    out[before] = replace(out[before], seqs=out[before].seqs + gone.seqs)
                else:
                    out.pop()  # the way out of a view never gone in to
                    end, went = then, False
                last = before = None
            builds = [c.start for c in p.cues if c.kind in BUILDS and c.start >= end]
            ahead = [c.start for c in visits if c.start > v.start]
            if builds and (not ahead or min(builds) < min(ahead)):
                move(end, min(builds), (), ())
            elif went and grow_out:
                home_before_pane(v.beat, end, [min(ahead)] if ahead else [])
            if slid:
                # the way out before the pane comes back whole over the column; one after, kept
                # (out on cards drawn since), goes from home then
                outs = [c.start + c.duration for c in out if id(c) not in had and not c.ids]
                back = back_whole(p.cues, after)
                if outs and min(outs) > back + 1e-9:
                    move(after, back, (), ())
    if column is not None:
        out += _in_column(p, out, [c for c in visits if c.beat in walks], column)
    return out


def _in_column(p: Plan, moves: Sequence[Cue], visits: Sequence[Cue], column: Column) -> list[Cue]:
    """A ``camera`` cue, like the walk's first move in (its ids and seqs), in the first pause at
    least ``camera_least`` long after the walk's first visit, in the walks of ``column``, where the
    next move comes more than its ``seconds`` after that visit: that move was made under the whole pane, which the walk
    then stepped aside from; from the view it made, the scene slides the graph into the column
    the pane freed where the view is no closer than home (`scenes.draw.camera_views`; the move
    goes at the start of the pause, not landing at its end: dynamic_graph 16:9's last walk, its
    graph as tall as the frame, left the column empty 104.0-112.4 s)."""
    tm = default_timings()
    busy = [(c.start, c.start + c.duration) for c in (*p.cues, *moves)]
    out: list[Cue] = []
    walks = {v.beat for v in visits}
    starts = [v for n, v in enumerate(visits) if v.beat - 1 not in walks and (n == 0 or visits[n - 1].beat != v.beat)]
    for first in starts:
        inn = [m for m in moves if m.ids and m.start < first.start and m.seqs[:1] == first.seqs[:1]]
        ahead = [m.start for m in moves if m.start > first.start]
        if first.beat not in column.beats or not inn or not ahead or min(ahead) - first.start <= column.seconds + 1e-9:
            continue
        own = max(c.start + c.duration for c in p.cues if c.beat == first.beat and abs(c.start - first.start) < 1e-9)
        found = [s for s in pauses(busy, own, min(ahead)) if s[1] - s[0] >= tm.camera_least - 1e-9]
        if found:
            start = round(found[0][0], 3)
            out.append(Cue(start, round(min(tm.camera_move, found[0][1] - found[0][0]), 3), "camera",
                           beat_at(p, start), inn[-1].ids, (), None, inn[-1].seqs))
    return out


def too_short(inn: Cue, back: Cue, hold: float) -> bool:
    """Whether the view the move ``inn`` goes to is held less than ``hold`` seconds before the
    move ``back`` takes the camera out again: in and back out within a breath reads as the
    camera pumping (`scenes.render.pumps`; leaf_nodes 16:9 in on mul -> w1 at 36.6 s, out 0.6 s
    after).

    >>> too_short(Cue(36.2, 0.8, "camera", 3, ("t5",)), Cue(37.6, 0.7, "camera", 3, ()), 2.0)
    True
    """
    return back.start - (inn.start + inn.duration) < hold - 1e-9


def unnamed(found: Sequence[Span], captions: Sequence[CaptionSpan]) -> list[Span]:
    """The parts of the pauses ``found`` after each of ``captions`` up in them is gone (the
    captions naming a card a move leaves out: it waits until they go).

    >>> cap = CaptionSpan(1, 10.2, 14.83, "reading w.grad gives None", 2)
    >>> unnamed([(11.1, 14.53), (14.83, 15.6)], [cap])
    [(14.83, 15.6)]
    """
    out = []
    for a, b in found:
        later = True
        while later:  # a caption's end may fall inside the next one naming it too
            ends = [c.end for c in captions if c.start < b - 1e-9 and c.end > a + 1e-9]
            later = bool(ends)
            a = max([a, *ends])
        if b - a > 1e-9:
            out.append((a, b))
    return out


def kept_named(cue: Cue, captions: Sequence[CaptionSpan], named: dict[int, set[str]], was: set[str],
               kept: set[str]) -> set[str]:
    """From one close view (holding ``was``) to the next (``kept``) by ``cue``: the cards of the
    view before that a caption up during the move names (``named``: a caption's index -> the
    cards its words name) and the next does not hold. Such a card stays in view: the scene
    frames the next view on it too where it would leave and the view still reads (a viewer
    reads "x" as x leaves the screen: leaf_nodes 9:16, "Mul multiplies it by x on its way to
    w1"; `scenes.draw.camera.WalkCamera`).

    >>> cue = Cue(39.43, 0.6, "camera", 4, ("n1", "t2"))
    >>> cap = CaptionSpan(7, 34.6, 41.03, "... and s gets the gradient times w2.", 4)
    >>> kept_named(cue, [cap], {7: {"t5", "t2"}}, {"t6", "t5", "t2"}, {"t2", "t6"})
    {'t5'}
    """
    up = [c for c in captions if c.start < cue.start + cue.duration - 1e-6 and c.end > cue.start + 1e-6]
    return {k for c in up for k in named.get(c.index, set()) & was} - kept


def plan_at(checked: Checked, p: Plan, aspect: str | None, theme: Theme | None = None) -> Plan:
    """``p`` (``checked``'s plan every aspect shares) as the clip at ``aspect`` plays it: with
    the walk's camera moves where the graph is dense there, laid into its pauses; the same
    duration, cues and captions otherwise. None: ``p``."""
    return laid_out_at(checked, p, aspect, theme)[0]


def laid_out_at(checked: Checked, p: Plan, aspect: str | None,
                theme: Theme | None = None) -> tuple[Plan, Layout | None]:
    """`plan_at`, and the clip's layout at ``aspect`` it planned the camera on (None: no aspect).
    A render hands that one layout on to its keys and its scene (`scenes.render.clip_keys.ClipKeys`):
    laying the graph out is the dearest part of planning, and the camera's cues change nothing
    `clip_layout` reads (which cue kinds there are, whether code shows)."""
    if aspect is None:
        return p, None
    theme = theme or load_theme()
    home = clip_layout(p, checked.run.events, checked.index.source, aspect, theme)
    spec = theme.aspect(aspect)
    camera = camera_visits(p, home, checked.index.source, spec, theme, checked.storyboard.camera)
    holds = [bool(b.focus) for b in checked.storyboard.beats]
    beside = pane_beside(spec, home)
    column = Column(column_walks(p, camera, home, walk_region(p, checked.index.source, spec, theme), tag_reach(theme),
                                 theme.layout.fill_empty * spec.frame_width * spec.frame_height),
                    theme.layout.fill_empty_seconds) if beside and camera else None
    moves = camera_cues(p, camera, holds, home, checked.index, not beside, column) if camera else []
    moves += whole_cues(p, home, checked.index.source, spec, theme, moves, checked.index.events)
    if not moves:
        return p, home
    cues = sorted([*p.cues, *moves], key=lambda c: c.start)
    return replace(p, cues=tuple(cues)), home


def load_and_plan_at(file: str, sets: Iterable[str] = (), name: str | None = None,
                     aspect: str | None = None) -> tuple[Checked, Plan]:
    """`scenes.storyboard.load_and_plan`, then the plan at ``aspect`` (`plan_at`)."""
    from scenes.storyboard import load_and_plan

    checked, p = load_and_plan(file, sets, name)
    return checked, plan_at(checked, p, aspect)
