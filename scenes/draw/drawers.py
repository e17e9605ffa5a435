"""Which method draws each cue kind: ``@draws("visit")`` marks it, :func:`drawer_table` collects.

Why a registry instead of looking methods up by a formatted name: the scene's handlers are spread
over its mixins (:mod:`.backward`, :mod:`.buckets`, :mod:`.console`, :mod:`.network`, :mod:`.titles`),
and a cue kind with no handler must fail loudly rather than draw nothing. A drawer for an
undeclared kind, two drawers for one kind, or a declared kind
(:data:`scenes.storyboard.cues.CUE_KINDS`) without a drawer fail when the scene's class is
made, that is at import.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from scenes.storyboard.cues import CUE_KINDS

Drawer = Callable[[Any, Any], list[Any]]
"""``(scene, cue) -> animations``: one cue's drawing, changing the scene's state as it goes."""
F = TypeVar("F", bound=Callable[..., Any])
_MARK = "_draws_cue_kind"


def draws(kind: str) -> Callable[[F], F]:
    """Mark a scene method as the drawer of cue kind ``kind`` (one the cue table declares)."""
    if kind not in CUE_KINDS:
        raise ValueError(f"@draws({kind!r}): no such cue kind; declare it in scenes/storyboard/cues.py")

    def mark(fn: F) -> F:
        setattr(fn, _MARK, kind)
        return fn
    return mark


def drawer_table(cls: type) -> dict[str, Drawer]:
    """Cue kind -> the method of ``cls`` (or its bases) marked to draw it; a method overridden
    under the same name in a subclass replaces its base's. Raises TypeError unless every declared
    cue kind has exactly one drawer."""
    by_kind: dict[str, tuple[str, Drawer]] = {}
    for klass in reversed(cls.__mro__):
        for name, fn in vars(klass).items():
            kind = getattr(fn, _MARK, None)
            if kind is None:
                continue
            if kind in by_kind and by_kind[kind][0] != name:
                raise TypeError(f"{cls.__name__}: cue kind {kind} has two drawers, {by_kind[kind][0]} and {name}")
            by_kind[kind] = (name, fn)
    missing = [k for k in CUE_KINDS if k not in by_kind]
    if missing:
        raise TypeError(f"{cls.__name__} has no drawer for cue kind {', '.join(missing)} (mark one with @draws)")
    return {k: by_kind[k][1] for k in CUE_KINDS}


def with_drawers(cls: type) -> type:
    """Class decorator: set ``cls.DRAWERS`` to its :func:`drawer_table` (failing as that does)."""
    cls.DRAWERS = drawer_table(cls)  # type: ignore[attr-defined]
    return cls
