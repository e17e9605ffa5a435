"""Manim's scene bookkeeping on each play, without listing every family whole.

Why: each ``play`` (and so each short step: a light coming on is a 4-frame play) has Manim add
the animated shapes to the scene: ``add_mobjects_from_animations`` lists the family of every
mobject on screen, sorted by z, only to ask whether one shape is among them, and every ``add``
restructures the scene's lists by listing each top-level mobject's family again (Manim's
``get_family`` is a recursive generator, then a pass removing repeats). The results here are
Manim's, item for item and in the same order (mobjects compare by identity), found by walks
that stop as soon as they know.
"""

from __future__ import annotations

from typing import Any, Iterable


def _reaches(mob: Any, wanted: set[int]) -> bool:
    """Whether ``mob``'s family (itself and its submobjects, recursively) holds one of the
    mobjects whose ids are ``wanted``."""
    todo, seen = [mob], set()
    while todo:
        m = todo.pop()
        if id(m) in wanted:
            return True
        if id(m) not in seen:
            seen.add(id(m))
            todo += m.submobjects
    return False


def _family_ids(mobjects: Iterable[Any]) -> set[int]:
    """ids of every mobject in the families of ``mobjects``."""
    todo, seen = list(mobjects), set()
    while todo:
        m = todo.pop()
        if id(m) not in seen:
            seen.add(id(m))
            todo += m.submobjects
    return seen


class QuickLists:
    """Mixed into a Cairo ``Scene``: its ``get_restructured_mobject_list`` and
    ``add_mobjects_from_animations``, with the same results."""

    mobjects: list[Any]

    def get_restructured_mobject_list(self, mobjects: Iterable[Any], to_remove: Iterable[Any]) -> list[Any]:
        """``mobjects`` without ``to_remove``: a mobject whose family holds one of them gives way
        to its submobjects, recursively (a group losing a member is dissolved into the rest)."""
        wanted = {id(m) for m in to_remove}
        out: list[Any] = []

        def keep(items: Iterable[Any]) -> None:
            for m in items:
                if id(m) in wanted:
                    continue
                if _reaches(m, wanted):
                    keep(m.submobjects)
                else:
                    out.append(m)

        keep(mobjects)
        return out

    def add_mobjects_from_animations(self, animations: list[Any]) -> None:
        """Add what an animation (not an introducer, which adds its own) moves and the scene
        does not show yet."""
        shown = _family_ids(self.mobjects)
        for animation in animations:
            if animation.is_introducer():
                continue
            mob = animation.mobject
            if mob is not None and id(mob) not in shown:
                self.add(mob)  # type: ignore[attr-defined]  # Scene.add, next in the class's order
                shown |= _family_ids([mob])
