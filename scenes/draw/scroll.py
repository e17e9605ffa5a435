"""A long program's code pane scrolling to the lit line: the lines slide, none jumps.

Why not a cut (the old window out and the new one in on one frame, as an editor pages): every
line the two windows share would jump by the scroll's whole distance between two frames, which
reads as a new picture rather than the same code moving (`scenes.render.continuity.jumps`).
Here the lines both windows show slide from where they were to where they go, the lines that
leave slide out and the ones that come slide in, each fading as it crosses the edge of the
pane's text so that no line is drawn outside it. The pane's backdrop does not move.
"""

from __future__ import annotations

from typing import Any

from manim import Mobject, UpdateFromAlphaFunc, smooth

from scenes.draw.visuals.code_pane import CodePane


def _row_ys(pane: CodePane) -> dict[int, float]:
    """The centre y of each line's first row in ``pane``'s window, by its 1-based number."""
    return {pane.window[0] + i: rows[0][4] for i, rows in enumerate(pane._parts)}


def scroll(old: CodePane, new: CodePane) -> list[Any] | None:
    """``old``'s window replaced by ``new``'s (the same pane, scrolled): the animations, or None
    when the two windows share no line (nothing to carry: a cut then)."""
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

    def sliding(pane: CodePane, start: float, end: float, keep: set[int], leaving: bool) -> Any:
        """``pane``'s lines and bar moving by ``start`` to ``end`` times ``dy``; only the
        lines of ``keep`` drawn (the shared lines are drawn by the new pane alone, and its bar)."""
        parts: list[tuple[Mobject, Mobject, bool]] = []  # (part, its copy at rest, drawn)
        first = pane.window[0]
        for i, line in enumerate(pane.lines):
            for row in line.submobjects:
                parts.append((row, row.copy(), first + i in keep))
        parts += [(m, m.copy(), not leaving) for m in pane.bar_slot.submobjects]

        def update(_: Mobject, alpha: float) -> None:
            if not leaving and alpha >= 1.0:  # at rest, as drawn
                for part, rest, _ in parts:
                    part.become(rest)
                return
            shift = dy * (start + (end - start) * smooth(alpha))
            for part, rest, drawn in parts:
                part.become(rest).shift([0, shift, 0])
                y = float(rest.get_center()[1]) + shift
                factor = shown(y) if drawn else 0.0
                for m, r in zip(part.family_members_with_points(), rest.family_members_with_points()):
                    m.set_fill(opacity=r.get_fill_opacity() * factor)
                    m.set_stroke(opacity=r.get_stroke_opacity() * factor)
            if leaving and alpha >= 1.0:
                pane.bg.set_opacity(0.0)

        return UpdateFromAlphaFunc(pane, update, rate_func=lambda t: t, remover=leaving, introducer=not leaving)

    old_only = set(was) - set(now)
    out = [sliding(old, 0.0, 1.0, old_only, leaving=True), sliding(new, -1.0, 0.0, set(now), leaving=False)]
    old.bg.set_opacity(0.0)  # one backdrop: the new pane's, in the same place
    return out
