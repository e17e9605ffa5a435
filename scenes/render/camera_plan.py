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
lit line leaves (`home_before_pane`; leaf_nodes 9:16 after its walk).

The pauses and the pick are `scenes.render.pauses`, which the whole graph's move
(`scenes.render.whole_plan`) lays its cue into too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from scenes.layout.camera import camera_visits, held
from scenes.layout.clip import clip_layout
from scenes.layout.place import Layout
from scenes.render.pauses import Span, beat_at, pauses, pick
from scenes.storyboard.binding import caption_names
from scenes.storyboard.caption_events import CaptionSpan, explaining, naming
from scenes.render.whole_plan import pane_beside, whole_cues
from scenes.storyboard.cues import BUILDS, Cue, opens_pane, writes_note, writes_sum
from scenes.storyboard.logindex import LogIndex
from scenes.storyboard.plan import Plan
from scenes.storyboard.timings import default_timings
from scenes.storyboard.validate import Checked
from scenes.theme import Theme, load_theme

def camera_cues(p: Plan, camera: frozenset[int], holds: Sequence[bool], home: Layout | None = None,
                index: LogIndex | None = None, grow_out: bool = True) -> list[Cue]:
    """The ``camera`` cues of ``p`` (an aspect-free plan) for the visits of ``camera``, laid in
    its pauses (the module's doc); ``holds[i]``: beat i has a ``focus:``, which the walk's
    camera leaves be. ``home`` (the clip's layout) and ``index`` (its log's): what a visit's
    close view holds and what each caption names; without them a move does not wait for, nor
    keep in view, a card a caption up names. ``grow_out``: the way out may frame the whole graph
    in the room the lit line leaves (`home_before_pane`); not where the pane stands aside beside
    the graph, whose freed column the whole graph's move grows into (`whole_plan.pane_beside`)."""
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

    after = 0.0  # a move starts once the visit before has started (or the beat before the walk's)
    last: int | None = None  # the move in the walk made last, in ``out``
    before: int | None = None  # the move in the walk made before that one
    for v in visits:
        if v.beat - 1 not in walks and not any(c.beat == v.beat and c.start < v.start for c in visits):
            after = p.beats[v.beat - 1].start if v.beat > 0 else 0.0  # the walk starts
            last = before = None
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
    A render hands that one layout on to its keys and its scene (`scenes.render.beats.ClipKeys`):
    laying the graph out is the dearest part of planning, and the camera's cues change nothing
    `clip_layout` reads (which cue kinds there are, whether code shows)."""
    if aspect is None:
        return p, None
    theme = theme or load_theme()
    home = clip_layout(p, checked.run.events, checked.index.source, aspect, theme)
    spec = theme.aspect(aspect)
    camera = camera_visits(p, home, checked.index.source, spec, theme, checked.storyboard.camera)
    holds = [bool(b.focus) for b in checked.storyboard.beats]
    moves = camera_cues(p, camera, holds, home, checked.index, not pane_beside(spec, home)) if camera else []
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
