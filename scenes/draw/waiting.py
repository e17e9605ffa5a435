"""The walk's gradient tokens as they wait: giving way to a number written level with them,
back to their place in a bucket's row once a view has room for it, into the frame for the fill
that sums them.

Why a module of its own: :mod:`scenes.draw.rides` moves a token from one place to the next;
where a waiting token stands as what is around it changes (a rule's result, a fill's sum, the
camera's view) is another idea, asked by the walk at each visit and by the buckets at a fill.
The tokens are the walk's (``WalkView.tokens``); it keeps no record of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from manim import Animation, Mobject, VGroup

from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.frame_spots import FreeFrame, bounds
from scenes.draw.labels import CardLabels
from scenes.draw.onscreen import OnScreen
from scenes.draw.reading import reading_over, reading_run
from scenes.draw.record import tag_of
from scenes.draw.state import WalkView
from scenes.layout.detour import clear_of
from scenes.layout.label_spots import inside, rect_around
from scenes.layout.place import Box
from scenes.layout.ride_cover import row_places
from scenes.theme import Rect


class WaitingTokens(View):
    """Moves the walk's tokens where they wait (`make_way`, `clear_sum`, `rejoin`, `gather`); asks
    ``labels`` for the rings of nodes drawn with no card, ``onscreen`` for what is shown and the
    glides, ``frame`` for the free frame."""

    def __init__(self, ctx: DrawContext, labels: CardLabels, onscreen: OnScreen, frame: FreeFrame) -> None:
        super().__init__(ctx)
        self.labels, self.onscreen, self.frame = labels, onscreen, frame

    @property
    def walk(self) -> WalkView:
        """The walk's record: its tokens, badges and marks."""
        return self.ctx.state.walk

    def make_way(self, products: list[Mobject], going: list[Mobject], step: StepScratch,
                 badge: VGroup | None = None) -> Anims:
        """Each token waiting for its node's visit (standing where it waits, not in a bucket's
        row) that a rule's result just written, ``products``, reads on, the two level, the token
        just past the result (`reading_run`): it glides to the nearest spot off every result's
        and value's run and off what is shown (the note, ``going`` gone). A note with no spot of
        its own off the numbers waiting may end left of one, and a reader reads on along a line:
        the number, not the note, gives way. ``badge``: the visited node's new badge, not shown
        yet (the tokens that rode in glide onto it after), may stand where its token waited,
        just past its own note's result, or past a card's value (`OnScreen.value_runs`: its
        token waited by its node while the camera's close view hid that card, which the move for
        the visit showed again): it moves there too."""
        runs = [reading_run(bounds(p)) for p in products if p.width > 0]
        if badge is not None:
            to = self._off_runs(badge, (float(badge.get_x()), float(badge.get_y())),
                                runs + self.onscreen.value_runs(), going)
            if to is not None:
                badge.move_to([to[0], to[1], 0.0])
        if not runs:
            return []
        return self._give_way(runs, going, step, lambda item, tok: not self.in_row(tok, item))

    def clear_sum(self, value: Mobject, leaf: str, going: list[Mobject], step: StepScratch) -> Anims:
        """Each token waiting in the row of another bucket than ``leaf``'s (`_to_row`), level with
        the sum ``value`` the fill of ``leaf``'s bucket writes, just past it (`reading_run`), glides
        to the nearest spot off its run, as `make_way` moves one off a rule's result: the bucket
        is empty until then, and the token, set beside its own bucket between the two, then reads
        as more of the sum (micrograd_readme 1:1: b's first token read ``138.83 6.94``)."""
        if value.width <= 0:
            return []
        return self._give_way([reading_run(bounds(value))], going, step,
                              lambda item, tok: item != leaf and self.in_row(tok, item))

    def clear_note(self, lines: Sequence[Mobject], leaf: str, going: list[Mobject], step: StepScratch) -> Anims:
        """Each token waiting in the row of another bucket than ``leaf``'s standing just over or
        under a line of the sums the fill of ``leaf``'s bucket writes, ``lines`` (`reading_over`),
        glides to the nearest spot off there, as `clear_sum` moves one off the sum's run: the note
        keeps off the token, and the two may stand one just over the other, the token reading as
        one of the sum's (micrograd_readme 16:9: b's ``-27.77``, its row's place out past its first
        two, waited 6 px over the end of a's ``... = 138.83``). A token `clear_sum` moved in this
        step stays."""
        runs = [reading_over(bounds(m)) for m in lines if m.width > 0]
        if not runs:
            return []
        return self._give_way(runs, going, step, lambda item, tok: item != leaf and self.in_row(tok, item))

    def _give_way(self, runs: list[Rect], going: list[Mobject], step: StepScratch,
                  which: Callable[[str, Mobject], bool]) -> Anims:
        """The glides of the walk's tokens ``which`` picks (by their node's item), standing where
        they wait (not on their way in this step), off ``runs`` (`_off_runs`)."""
        out: Anims = []
        for node, toks in self.walk.tokens.items():
            for tok in toks:
                here = middle(getattr(tok, "rests", None) or bounds(tok))
                if not which(self.ctx.item(node), tok) or not np.allclose(tok.get_center()[:2], here):
                    continue
                to = self._off_runs(tok, here, runs, going)
                if to is not None:
                    out.append(self.onscreen.glide(tok, to, [tok, *going], step))
        return out

    def _off_runs(self, tok: VGroup, here: tuple[float, float], runs: list[Rect], going: list[Mobject]
                  ) -> tuple[float, float] | None:
        """Where ``tok``, waiting at ``here`` on one of ``runs``, waits instead: the nearest spot off
        them, off every result's and value's run, and off what is shown, ``going`` gone, as a ride
        settles (`OnScreen.ride`'s rests); None where it is clear of ``runs`` or no spot is free."""
        if clear_of(here, (tok.width, tok.height), runs):
            return None
        to = self.onscreen.free_spot(here, tok, runs + self.kept_off(tok, going, hidden=False))
        return None if math.dist(to, here) < 1e-9 else to

    def kept_off(self, tok: VGroup, going: list[Mobject], hidden: bool = True,
                 but: Sequence[Mobject] = ()) -> list[Rect]:
        """What ``tok`` waits off: what is shown (and what the camera hid: it shows again), ``going``
        gone, the visit's marks, every result's and value's run (``hidden``: the values' the camera
        hid too), the arrowheads, where the other tokens wait (but ``but``, moving elsewhere) and the
        rings of nodes drawn with no card."""
        marks = [*self.walk.visit_marks, *self.walk.badges.values(), *self.ctx.state.graph.tags.values()]
        waits = [r for ms in self.walk.tokens.values() for m in ms
                 if m is not tok and m not in but and (r := getattr(m, "rests", None))]
        return (self.onscreen.shown_rects(exclude=[tok, *going], extra=[m for m in marks if m is not tok], away=True)
                + self.onscreen.result_runs() + self.onscreen.value_runs(away=hidden) + self.onscreen.arrowheads()
                + waits + self.labels.unseen_rings(self.onscreen.shown_ids()))

    def in_row(self, tok: Mobject, leaf: str) -> bool:
        """Whether ``tok`` waits in the row beside the bucket of ``leaf`` (`_to_row`)."""
        found = tag_of(tok)
        return found is not None and found.id == arrow_id(f"bucket:{leaf}", leaf)

    def rejoin(self, going: list[Mobject], step: StepScratch, but: str | None = None) -> Anims:
        """Each token of a row beside a bucket that waits off its place in it (`_to_row`: where it
        joined, its place was out of the frame, or taken) glides there once it is in the frame
        and free of all a waiting token keeps off (as `_off_runs` sees it, ``going`` gone): the
        camera's move had taken the row to the frame's edge (micrograd_readme 9:16: a's second
        token, its place left of the frame, waited 200 px up, where t8's card showed later, and
        read ``c + 1 = -2.00 0.00``), and a later view has room for it. ``but``: the node
        visited, whose tokens go on to its badge."""
        out: Anims = []
        for node, toks in self.walk.tokens.items():
            leaf = self.ctx.item(node)
            row = [m for m in toks if self.in_row(m, leaf)] if node != but else []
            box = self.lay.boxes.get(f"bucket:{leaf}")
            if len(row) < 2 or box is None:
                continue
            first = middle(getattr(row[0], "rests", None) or bounds(row[0]))
            places = self.row_spots(first, box, row, going=going)
            for tok, at in zip(row[1:], places[1:]):
                nth, rest = getattr(tok, "row_place", None), getattr(tok, "rests", None)
                if nth is None or rest is None or not np.allclose(tok.get_center()[:2], middle(rest)):
                    continue  # at its place, or on its way in this step
                if not inside(rect_around(at[0], at[1], (tok.width, tok.height)), self.frame.free_rect()):
                    continue
                if not clear_of(at, (tok.width, tok.height), self.kept_off(tok, going)):
                    continue
                out.append(self.onscreen.glide(tok, at, [tok, *going], step))
                tok.row_place = None
        return out

    def row_spots(self, first: tuple[float, float], box: Box, row: Sequence[Mobject],
                  toward: float | None = None, going: Sequence[Mobject] = ()) -> list[tuple[float, float]]:
        """The places of the tokens ``row`` in the row beside the bucket ``box`` whose first stands
        at ``first``, wrapped into rows one over another where it would leave the free frame
        (`row_places`): a row running on past the frame's edge had its last tokens stacked there
        (micrograd_readme 9:16, a's last two at the left edge). The rows stack toward the height
        ``toward`` (the bucket's middle unless told), on past all a waiting token keeps off
        (``going`` gone; 9:16: t4's ``** 3`` where b's second row starts)."""
        gap = self.theme.spacing.edge_clearance
        taken = self.kept_off(row[-1], [*going, *row], but=row)
        return row_places(first, box.x, [m.width for m in row], gap, self.frame.free_rect(),
                          max(m.height for m in row) + gap, box.y if toward is None else toward, taken)

    def gather(self, leaf: str, row: list[VGroup], going: list[Mobject], step: StepScratch,
               away: set[int]) -> list[tuple[VGroup, Animation]]:
        """At the visit to ``leaf``'s AccumulateGrad, each token of the row beside its bucket
        (``row``) that waits out of the frame (``away``: faded by the camera's move that carried
        it there) or off its place glides to its place in the row (`row_spots`: wrapped where the
        frame ends), or the nearest spot to it free of all a waiting token keeps off (``going``
        gone), coming out from where it waited as it goes: the fill sums the row, and a term out
        of view as its sum is written is not there (micrograd_readme 16:9: b's 999.60 and -333.20,
        carried past the frame's right side by the view before the fill); gone to the nearest
        free spot each, they stood over one another at the frame's edge, and the sum read its
        terms from scattered places. Each with its glide; the caller brings it back into view
        (`CameraFocus.bring_back`)."""
        box = self.lay.boxes.get(f"bucket:{leaf}")
        free, out = self.frame.free_rect(), []
        mine = [m for m in row if not getattr(m, "in_mouth", False) and self.in_row(m, leaf) and m.width > 0]
        if box is None or not mine:
            return []

        def seen(m: VGroup) -> bool:  # in view where it waits
            return id(m) not in away and inside(getattr(m, "rests", None) or bounds(m), free)

        gap = self.theme.spacing.edge_clearance
        # from where the first waits, or from beside the bucket where fewer rows take them all (a
        # view carried b's first two 1.9 token widths out from it: one a row, by the frame's edge)
        starts = [middle(getattr(mine[0], "rests", None) or bounds(mine[0]))] if seen(mine[0]) else []
        spot = self.labels.badge_spot(box, mine[0], self.kept_off(mine[0], going + mine), top=True)
        if not starts or (spot[0] - box.x) * (starts[0][0] - box.x) > 0:  # on its side (1:1: not toward b's)
            starts.append(spot)
        first = min(starts, key=lambda at: abs(self.row_spots(at, box, mine, going=going)[-1][1] - at[1]))
        # the rows stack toward the bucket's middle, or away where fewer places are taken (16:9: a's
        # sum, written under the buckets, ran between b's rows)
        taken = self.kept_off(mine[0], going + mine, but=mine)
        options = [self.row_spots(first, box, mine, toward, going) for toward in (box.y, 2 * first[1] - box.y)]
        places = min(options, key=lambda ats: (sum(
            not inside(rect_around(x, y, (m.width, m.height)), free) or not clear_of((x, y), (m.width, m.height), taken)
            for m, (x, y) in zip(mine, ats)), max(abs(y - first[1]) for _, y in ats)))  # and the fewest rows
        was = [getattr(m, "rests", None) or bounds(m) for m in mine]
        stay = [seen(m) and math.dist(middle(r), at) <= gap for m, r, at in zip(mine, was, places)]  # at its place
        placed = [r for r, kept in zip(was, stay) if kept]  # where the others wait
        for tok, at, kept_here in zip(mine, places, stay):
            if kept_here:
                continue
            kept = self.kept_off(tok, going + mine, but=mine) + placed
            if not (inside(rect_around(at[0], at[1], (tok.width, tok.height)), free)
                    and clear_of(at, (tok.width, tok.height), kept)):
                at = self.onscreen.free_spot(at, tok, kept)
            glide = self.onscreen.glide(tok, at, [*mine, *going], step)  # (the others go to theirs)
            if not seen(tok):
                glide.under = bounds(tok)  # unseen where it waited, as opaque as it is clear of there
            tok.rests, tok.row_place = rect_around(at[0], at[1], (tok.width, tok.height)), None
            placed.append(tok.rests)
            out.append((tok, glide))
        return out


def middle(r: Rect) -> tuple[float, float]:
    """The centre of the rectangle ``r``."""
    return ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2)


def arrow_id(src: str, dst: str) -> str:
    """The record's id of the arrow src -> dst (forward), as `edge_arrow` tags it: a token riding
    it, and the product it leaves, carry it too, so `scenes.render.flight` follows its way."""
    return f"{src}->{dst}"
