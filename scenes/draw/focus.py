"""The camera of a beat's `focus:`: the graph moves so that some cards fill its region, larger,
and moves back at the beat's end.

Why the shapes move and not Manim's camera: the code pane, the captions and the legend stay
where they are; only the graph is seen closer. The scene reads the layout as seen from there
(`scenes.layout.focus.zoomed`) while the camera is close, so what the beat's cues draw lands on
the moved cards; what the move takes out of the graph's region fades out (it would lie over the
code or the captions) and comes back with the move back. Each move is in two halves, so that a
card that moves never passes over one that fades: going in, what leaves fades first and the
rest then grows; coming back, the rest shrinks first and what returns then fades in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from manim import Mobject, Transform, UpdateFromAlphaFunc

from scenes.draw.crossfade import first_half, second_half
from scenes.draw.drawers import draws
from scenes.draw.frame_spots import bounds
from scenes.layout.focus import Zoom, focus_zoom, inside, zoomed

Anims = list[Any]


class FocusCues:
    """The `focus` and `unfocus` cues; mixed into ClipScene (uses its layout and views)."""

    def _graph_shapes(self) -> list[Mobject]:
        """Every shape of the graph and of the walk on it, once each."""
        g, w = self.graph, self.walk  # type: ignore[attr-defined]
        found: list[Mobject] = [*g.cards.values(), *g.tags.values(), *g.arrows.values(), *g.buckets.values()]
        if w.wave is not None:
            found.append(w.wave)
        found += [m for ms in w.tokens.values() for m in ms] + list(w.visit_marks)
        found += [m for ms in w.fill_tokens.values() for m in ms] + list(w.products.values())
        seen: set[int] = set()
        inner = {id(s) for m in found for s in m.get_family()[1:]}  # a tag inside its card moves with it
        out = []
        for m in found:
            if id(m) not in seen and id(m) not in inner:
                seen.add(id(m))
                out.append(m)
        return out

    def _rekey(self, new: Any) -> None:
        """The arrows (and the routes the walk took) filed under ``new``'s routes: the layout's
        routes are the keys the cues look arrows up by, and the zoom makes new ones, in order."""
        to = dict(zip(self.lay.routes, new.routes))  # type: ignore[attr-defined]
        g, w = self.graph, self.walk  # type: ignore[attr-defined]
        g.arrows = {to.get(r, r): a for r, a in g.arrows.items()}
        w.riding = [(to.get(r, r), t) for r, t in w.riding]
        self.lay = new

    def _moved(self, m: Mobject, z: Zoom) -> Mobject:
        return self._zoom_shape(m.copy(), z)

    @staticmethod
    def _zoom_shape(m: Mobject, z: Zoom) -> Mobject:
        """``m`` itself, moved and scaled as the camera's move ``z`` moves the graph."""
        m.shift([z.to[0] - z.about[0], z.to[1] - z.about[1], 0])
        m.scale(z.factor, about_point=np.array([z.to[0], z.to[1], 0.0]))
        return m

    def _drawn_at_home(self, make: Callable[[Any], Mobject]) -> Mobject:
        """A shape ``make`` builds from a layout, built from the layout at home and then moved
        as the camera is: while close, a text sized by the least readable size (a compact card,
        an op name) would be that size in the close view, and too small once the camera is back."""
        home = getattr(self, "_home", None)
        if home is None:
            return make(self.lay)  # type: ignore[attr-defined]
        return self._zoom_shape(make(home), self._zoom)

    @staticmethod
    def _jump(m: Mobject, target: Mobject, out: bool) -> Any:
        """What leaves the region (``out``) fades where it is, then jumps to ``target`` unseen;
        what comes back jumps unseen, then fades in: no half-faded shape slides across the code
        or off the frame."""
        start, home_faded = m.copy(), m.copy().set_opacity(0.0)
        shown_target = target

        hidden = shown_target.copy().set_opacity(0.0)

        def blend(mob: Mobject, a: Mobject, b: Mobject, alpha: float) -> None:
            for sm, sa, sb in zip(mob.family_members_with_points(), a.family_members_with_points(),
                                  b.family_members_with_points()):
                sm.interpolate(sa, sb, alpha)

        def step(mob: Mobject, alpha: float) -> None:
            if out:
                if alpha < 0.5:
                    blend(mob, start, home_faded, 2 * alpha)
                else:
                    blend(mob, shown_target, shown_target, 1.0)
            elif alpha < 0.5:
                blend(mob, hidden, hidden, 1.0)
            else:
                blend(mob, hidden, shown_target, 2 * alpha - 1)

        return UpdateFromAlphaFunc(m, step)

    @draws("focus")
    def _cue_focus(self, cue: Any) -> Anims:
        items = {self._item(i) for i in cue.ids}  # type: ignore[attr-defined]
        z = focus_zoom(self.lay, items, self.theme.layout.focus_zoom)  # type: ignore[attr-defined]
        if z.factor == 1.0 and z.about == z.to:
            return []
        self._home, self._zoom = self.lay, z  # type: ignore[has-type]
        self._rekey(zoomed(self.lay, z))
        self._rests = {}  # where tokens wait is read from the layout
        self._faded: dict[int, list[tuple[Any, Any]]] = {}
        out: Anims = []
        for m in self._graph_shapes():
            target = self._moved(m, z)
            if not inside(bounds(target), self.lay.region):  # type: ignore[attr-defined]
                self._faded[id(m)] = [(s.fill_rgbas.copy(), s.stroke_rgbas.copy()) for s in m.get_family()
                                      if hasattr(s, "fill_rgbas")]
                target.set_opacity(0.0)
                out.append(self._jump(m, target, out=True))
            else:  # moves once what leaves has faded: the growing cards never pass over a fading one
                out.append(Transform(m, target, rate_func=second_half))
        return out

    def _fade_outside(self) -> None:
        """While the camera is close, what a cue has just drawn outside the graph's region (an
        arrow from a card the zoom left out) is faded as the zoom faded the rest."""
        if getattr(self, "_home", None) is None:
            return
        for m in self._graph_shapes():
            if id(m) not in self._faded and not inside(bounds(m), self.lay.region):  # type: ignore[attr-defined]
                self._faded[id(m)] = [(s.fill_rgbas.copy(), s.stroke_rgbas.copy()) for s in m.get_family()
                                      if hasattr(s, "fill_rgbas")]
                m.set_opacity(0.0)

    @draws("unfocus")
    def _cue_unfocus(self, cue: Any) -> Anims:
        home = getattr(self, "_home", None)
        if home is None:
            return []
        z = self._zoom.inverse()
        self._rekey(home)
        self._home = None
        self._rests = {}
        out: Anims = []
        for m in self._graph_shapes():
            target = self._moved(m, z)
            saved = self._faded.get(id(m))
            parts = [s for s in target.get_family() if hasattr(s, "fill_rgbas")]
            if saved is not None and len(saved) == len(parts):
                for s, (fill, stroke) in zip(parts, saved):
                    if len(s.fill_rgbas) == len(fill) and len(s.stroke_rgbas) == len(stroke):
                        s.fill_rgbas, s.stroke_rgbas = fill, stroke
            out.append(self._jump(m, target, out=False) if saved is not None  # back before what returns shows
                       else Transform(m, target, rate_func=first_half))
        self._faded = {}
        return out
