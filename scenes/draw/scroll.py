"""A code pane scrolling to the lit line, or stepping aside to it: the lines slide, none jumps.

Why not a cut (the old window out and the new one in on one frame, as an editor pages): every
line the two windows share would jump by the scroll's whole distance between two frames, which
reads as a new picture rather than the same code moving (`scenes.render.continuity.jumps`).
Here the lines both windows show slide from where they were to where they go, the lines that
leave slide out and the ones that come slide in, each fading as it crosses the edge of the
pane's text so that no line is drawn outside it. The pane's backdrop does not move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from manim import Mobject, UpdateFromAlphaFunc, smooth
from manim.utils.bezier import interpolate

from scenes.draw.crossfade import first_half, second_half
from scenes.draw.visuals.code_pane import CodePane

_COLOURS = ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas", "stroke_width", "background_stroke_width",
            "sheen_direction", "sheen_factor")
"""What Manim's ``VMobject.interpolate_color`` sets, and so ``become`` copies."""


class _Still:
    """``part`` set back to ``still`` (a copy made with it) on each frame, then moved: what
    ``part.become(still).shift(by)`` sets, to the bit, with the two families paired once per play
    instead of aligned anew each frame (a code pane's rows, every frame of a scroll or a reflow)."""

    def __init__(self, part: Mobject, still: Mobject) -> None:
        self.pairs = list(zip(part.get_family(), still.get_family(), strict=True))

    def __call__(self, by: Any = None) -> None:
        for m, r in self.pairs:
            m.points = np.array(r.points)
            if by is not None and len(m.points):  # ``shift`` moves the parts with points
                m.points += by
            for attr in _COLOURS:  # ``interpolate_color(m, r, 1)``: copies of r's
                val = getattr(r, attr)
                setattr(m, attr, val.copy() if isinstance(val, np.ndarray) else val)


def _row_ys(pane: CodePane) -> dict[int, float]:
    """The centre y of each line's first row in ``pane``'s window, by its 1-based number."""
    return {pane.window[0] + i: rows[0][4] for i, rows in enumerate(pane._parts)}


def scroll(old: CodePane, new: CodePane, riders: Sequence[tuple[Mobject, int]] = ()) -> list[Any] | None:
    """``old``'s window replaced by ``new``'s (the same pane, scrolled): the animations, or None
    when the two windows share no line (nothing to carry: a cut then). ``riders``: what sits
    beside a row of ``old``'s window (a loop's ``pass 2/3``), each with the line it marks: it
    slides with its row and fades as that row does; one whose line ``new`` does not show is
    gone at the end (the caller places it anew). The lines slide at `pane_ease`'s pace: at
    Manim's ``smooth`` a 0.3 s scroll took them 150 px a frame at 10 frames a second
    (dynamic_graph 16:9 at 73.1 s)."""
    was, now = _row_ys(old), _row_ys(new)
    shared = sorted(was.keys() & now.keys())
    if not shared:
        return None
    dy = now[shared[0]] - was[shared[0]]  # up (> 0) when the window moves down the program
    top, bottom = float(new.bg.get_top()[1]), float(new.bg.get_bottom()[1])
    pad = new.theme.sizes.code_pad
    reach = new.row_height / 2  # a row fades over its half height as its centre nears the text's edge

    def shown(y: float) -> float:
        """How much of a row centred at ``y`` shows: 1 inside the text, 0 at its edge."""
        inside = min((top - pad) - y, y - (bottom + pad))
        return max(0.0, min(1.0, inside / reach))

    def sliding(holder: Mobject, parts: list[tuple[Mobject, float | None]], start: float, end: float,
                leaving: bool) -> Any:
        """``parts`` of ``holder`` moving by ``start`` to ``end`` times ``dy``, each faded as the
        row at its y (None: not drawn; the shared lines are drawn by the new pane alone)."""
        rest = [(part, still, y, _Still(part, still)) for part, still, y in ((p, p.copy(), y) for p, y in parts)]

        def update(_: Mobject, alpha: float) -> None:
            if not leaving and alpha >= 1.0:  # at rest, as drawn
                for _, _, _, back in rest:
                    back([0, dy * end, 0])
                return
            shift = dy * (start + (end - start) * pane_ease(alpha))
            for part, still, y, back in rest:
                back([0, shift, 0])
                factor = 0.0 if y is None else shown(y + shift)
                for m, r in zip(part.family_members_with_points(), still.family_members_with_points()):
                    m.set_fill(opacity=r.get_fill_opacity() * factor)
                    m.set_stroke(opacity=r.get_stroke_opacity() * factor)

        return UpdateFromAlphaFunc(holder, update, rate_func=lambda t: t, remover=leaving, introducer=not leaving)

    def rows(pane: CodePane, drawn: set[int], bar: bool) -> list[tuple[Mobject, float | None]]:
        out: list[tuple[Mobject, float | None]] = []
        for i, line in enumerate(pane.lines):
            for row in line.submobjects:
                out.append((row, float(row.get_center()[1]) if pane.window[0] + i in drawn else None))
        return out + [(m, float(m.get_center()[1]) if bar else None) for m in pane.bar_slot.submobjects]

    out = [sliding(old, rows(old, set(was) - set(now), bar=False), 0.0, 1.0, leaving=True),
           sliding(new, rows(new, set(now), bar=True), -1.0, 0.0, leaving=False)]
    for mob, line in riders:  # it fades as the row it sits by
        y = float(mob.get_center()[1])
        out.append(sliding(mob, [(part, y) for part in mob.submobjects], 0.0, 1.0, leaving=line not in now))
    old.bg.set_opacity(0.0)  # one backdrop: the new pane's, in the same place
    return out


def reflow(old: CodePane, new: CodePane, was_lit: int | None, lit: int,
           riders: Sequence[tuple[Mobject, int]] = (), grow: bool = False) -> list[Any]:
    """``old`` replaced by ``new``, a pane of another size over the same code (stepping aside to
    its lit line alone, or coming back whole): the animations. A cut would move the lit line
    across the pane in one frame (`scenes.render.continuity.jumps`). Here the lines both panes
    show slide from their place in ``old`` to theirs in ``new`` over the whole play, at a gentle
    ease (`pane_ease`: a code_line cue can be two frames long), the backdrop closing up on them or
    opening out at the same rate (it moves as far as they do or further, so they stay on it).
    The others fade out in the first half or in in the second, show nowhere near a sliding
    line (`clear`), which would be drawn over them, and nowhere past the backdrop's foot as it
    moves (`on_pane`): the lines printed under the pane ride that foot (`CodePaneView`), and a
    row the pane has closed over, or not yet opened to, would be drawn over them. ``was_lit``/``lit``: the line each pane's
    bar is on: the bar old shows glides to new's lit line as the lines slide, from its place and
    shape in old to its own in new (the walk's ``L.backward()`` lit as the pane steps aside to
    it), and a bar old does not show fades in, riding its line where both panes show it.
    ``riders``: marks beside rows of ``old`` (``→ False`` by its if line), each with the
    line it marks: one whose line both panes show slides with it; another fades as its row
    does (a line sliding past would be drawn over a mark left in place) and is gone at the end
    (the caller places it anew). ``grow``: the panes' text sizes differ (a pane shown large
    going to its column): a line both show, and the same line's bar, change size as they slide,
    from their shape in ``old`` to theirs in ``new`` (`_shapes`), where their parts match one
    for one."""
    move = pane_ease
    at = {old.window[0] + i: line for i, line in enumerate(old.lines)}
    offsets = {new.window[0] + i: at[new.window[0] + i].get_center() - line.get_center()
               for i, line in enumerate(new.lines) if new.window[0] + i in at}
    zero = new.bg.get_center() * 0
    sliding = [(float(row.get_center()[1]), float(offset[1])) for i, line in enumerate(new.lines)
               if (offset := offsets.get(new.window[0] + i)) is not None for row in line.submobjects]

    def clear(y: float, alpha: float, coming: bool) -> float:
        """How much a row at ``y`` may show beside the sliding lines: none within three quarters
        of a row of where one has been (a row going) or has yet to go (a row coming), which would
        draw them over each other or bring a row back; whole a row away (the next row's place)."""
        left, rh = 1.0 - move(alpha), new.row_height
        gap = rh
        for y1, dy in sliding:
            a, b = sorted((y1 + dy * left, y1) if coming else (y1 + dy, y1 + dy * left))
            gap = min(gap, max(0.0, a - y, y - b))
        return max(0.0, min(1.0, 4.0 * gap / rh - 3.0))

    foot0, foot1 = float(old.bg.get_bottom()[1]), float(new.bg.get_bottom()[1])

    def on_pane(y: float, alpha: float) -> float:
        """How much of a row centred at ``y`` shows above the backdrop's foot as it moves: all of
        it a half row above the foot's pad, none at the pad."""
        foot = foot0 + (foot1 - foot0) * move(alpha) + new.theme.sizes.code_pad
        return max(0.0, min(1.0, 2.0 * (y - foot) / new.row_height))

    def parts(pane: CodePane, lines: dict[int, Any]) -> list[tuple[Mobject, Any, str]]:
        """Each row of ``pane``: with the offset it starts at and how it shows (``keep``: whole,
        ``hide``: never, ``in``/``out``: faded, ``rise``: faded in where it slides), then its
        bar: new's glides from old's (`glides`: whole, at its line's offset and one it has
        caught up by half time), which is hidden; else it rises with its row, or fades in with
        the rows that come where its line is not old's."""
        out: list[tuple[Mobject, Any, str]] = []
        for i, line in enumerate(pane.lines):
            n = pane.window[0] + i
            shared = n in offsets
            how = ("keep" if shared else "in") if pane is new else ("hide" if shared else "out")
            out += [(row, lines.get(n, zero), how) for row in line.submobjects]
        if pane is old:
            return out + [(m, zero, "hide" if glides else "out") for m in old.bar_slot.submobjects]
        if glides:  # riding its line's slide, and catching it up from old's bar by half time
            row = lines.get(lit, zero) * [0.0, 1.0, 0.0]  # up or down with it: across, it spans the pane
            catch = old.bar_slot.get_center() - new.bar_slot.get_center() - row
            return out + [(m, (row, catch), "glide") for m in new.bar_slot.submobjects]
        return out + [(m, lines.get(lit, zero), "rise" if lit in offsets else "in") for m in new.bar_slot.submobjects]

    # the bar shown in old goes to the lit line in new, riding the slide (its place, and its shape where
    # the two match): never faded as a row near the sliding lines is (`clear`), which hid it on its own
    # line, the walk's ``L.backward()`` with the pane aside; nor gone between two lines
    glides = was_lit is not None and len(new.bar_slot.submobjects) > 0 and _shows(old.bar_slot)
    sources: dict[int, Mobject] = {}  # id of a new part -> the old part it grows from (``grow``)
    if grow:
        for i, line in enumerate(new.lines):
            if (n := new.window[0] + i) in offsets:
                sources.update(_shapes(at[n].submobjects, line.submobjects))
    if glides:
        sources.update(_shapes(old.bar_slot.submobjects, new.bar_slot.submobjects))

    def animate(pane: CodePane, items: list[tuple[Mobject, Any, str]], leaving: bool) -> Any:
        copies = [(part, part.copy(), offset, how) for part, offset, how in items]
        rest = [(part, still, offset, how, sources[id(part)].copy() if id(part) in sources else None,
                 _Still(part, still), float(still.get_center()[1])) for part, still, offset, how in copies]
        bg = None if leaving else (old.bg.copy(), new.bg.copy())
        bar = new.bar_slot.get_center() if len(new.bar_slot.submobjects) else zero  # the lit line's bar, at rest
        was = old.bar_slot.get_center() if glides else zero

        def update(_: Mobject, alpha: float) -> None:
            left = 1.0 - move(alpha)  # the share of its offset a sliding line still has
            for part, still, offset, how, source, back, y in rest:
                if how == "glide":  # the bar: its line's offset, and the rest of the way from old's bar
                    shift = offset[0] * left + offset[1] * (1.0 - first_half(alpha))
                    back(shift)
                    if source is not None:  # from its old shape to its new one, by half time, where it is
                        for m, a, b in zip(part.family_members_with_points(), source.family_members_with_points(),
                                           still.family_members_with_points()):
                            m.points = interpolate(a.points - was, b.points - bar, first_half(alpha)) + bar + shift
                else:
                    back(offset * left)
                if source is not None and how != "glide":  # from its old shape to its new one
                    for m, a, b in zip(part.family_members_with_points(), source.family_members_with_points(),
                                       still.family_members_with_points()):
                        m.interpolate(a, b, move(alpha))
                if how in ("keep", "hide", "glide"):
                    factor = 0.0 if how == "hide" else 1.0
                elif how == "rise":
                    factor = second_half(alpha)
                else:
                    rate = 1.0 - first_half(alpha) if how == "out" else second_half(alpha)
                    factor = rate * clear(y, alpha, how == "in") * on_pane(y, alpha)
                for m, r in zip(part.family_members_with_points(), still.family_members_with_points()):
                    m.set_fill(opacity=r.get_fill_opacity() * factor)
                    m.set_stroke(opacity=r.get_stroke_opacity() * factor)
            if bg is not None:  # the one backdrop: from the old pane's shape to the new one's
                pane.bg.interpolate(bg[0], bg[1], move(alpha))
            else:
                pane.bg.set_opacity(0.0)

        return UpdateFromAlphaFunc(pane, update, rate_func=lambda t: t, remover=leaving, introducer=not leaving)

    def carry(mob: Mobject, line: int) -> Any:
        """A mark riding its line's slide, or fading with its row as a line that goes."""
        still, y = mob.copy(), float(mob.get_center()[1])
        offset = offsets.get(line)

        def update(_: Mobject, alpha: float) -> None:
            mob.become(still)
            if offset is not None:  # from its line's place in old to the one in new
                mob.shift(-offset * move(alpha))
                return
            factor = (1.0 - first_half(alpha)) * clear(y, alpha, False) * on_pane(y, alpha)
            for m, r in zip(mob.family_members_with_points(), still.family_members_with_points()):
                m.set_fill(opacity=r.get_fill_opacity() * factor)
                m.set_stroke(opacity=r.get_stroke_opacity() * factor)

        return UpdateFromAlphaFunc(mob, update, rate_func=lambda t: t, remover=offset is None)

    return [animate(old, parts(old, {n: zero for n in offsets}), leaving=True),
            animate(new, parts(new, offsets), leaving=False)] + [carry(mob, line) for mob, line in riders]


def _shapes(was: Sequence[Mobject], now: Sequence[Mobject]) -> dict[int, Mobject]:
    """Each part of ``now`` (by id) -> the part of ``was`` it grows from: the parts in order, when
    they match one for one down to their points (the same glyphs at another size); none else."""
    if len(was) != len(now):
        return {}
    for a, b in zip(was, now):
        fa, fb = a.family_members_with_points(), b.family_members_with_points()
        if len(fa) != len(fb) or any(len(x.points) != len(y.points) for x, y in zip(fa, fb)):
            return {}
    return {id(b): a for a, b in zip(was, now)}


def pane_ease(t: float) -> float:
    """An ease whose top speed is 1.08 times the mean (manim's ``smooth``: 2.5 times): a line
    that slides far in a short cue still moves little each frame. The pane's backdrop and the
    lines printed under it move at this pace too: the whole program opening from its lit line
    in a 0.3 s cue goes under a card's width a frame at 10 frames a second
    (`scenes.render.continuity.jumps`; at 1.3 times the mean, dynamic_graph 16:9's pane opened
    by 100 px a frame at 15).

    >>> [round(pane_ease(t), 3) for t in (0.0, 0.25, 0.5, 1.0)]
    [0.0, 0.235, 0.5, 1.0]
    """
    return float(smooth(t, inflection=2.0))


def _shows(m: Mobject) -> bool:
    """Whether any part of ``m`` is drawn with some opacity (its fill or its stroke)."""
    return any(p.get_fill_opacity() > 0.01 or p.get_stroke_opacity() > 0.01 for p in m.family_members_with_points())
