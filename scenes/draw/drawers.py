"""Which method draws each cue kind: ``@draws("visit")`` marks it, :func:`drawer_table` collects.

Why a registry instead of looking methods up by a formatted name: the drawers are spread over the
scene's views (:mod:`scenes.draw.views`), and a cue kind with no drawer must fail loudly rather
than draw nothing. A drawer for an undeclared kind, two drawers for one kind (in one view or in
two), or a declared kind (:data:`scenes.storyboard.cues.CUE_KINDS`) without a drawer fail when
the table is made, that is when the scene is imported.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, TypeVar

from scenes.storyboard.cues import CUE_KINDS

F = TypeVar("F", bound=Callable[..., Any])
_MARK = "_draws_cue_kind"


class Drawer(NamedTuple):
    """One cue kind's drawer: the view class that declares it, the method's name and the
    function, ``(view, cue, step) -> animations``."""

    owner: type
    name: str
    fn: Callable[..., list[Any]]


def draws(kind: str) -> Callable[[F], F]:
    """Mark a method as the drawer of cue kind ``kind`` (one the cue table declares)."""
    if kind not in CUE_KINDS:
        raise ValueError(f"@draws({kind!r}): no such cue kind; declare it in scenes/storyboard/cues.py")

    def mark(fn: F) -> F:
        setattr(fn, _MARK, kind)
        return fn
    return mark


def _marked(cls: type) -> dict[str, tuple[str, Callable[..., list[Any]]]]:
    """Cue kind -> (name, method) of ``cls`` (or its bases) marked to draw it; a method overridden
    under the same name in a subclass replaces its base's."""
    by_kind: dict[str, tuple[str, Callable[..., list[Any]]]] = {}
    for klass in reversed(cls.__mro__):
        for name, fn in vars(klass).items():
            kind = getattr(fn, _MARK, None)
            if kind is None:
                continue
            if kind in by_kind and by_kind[kind][0] != name:
                raise TypeError(f"{cls.__name__}: cue kind {kind} has two drawers, {by_kind[kind][0]} and {name}")
            by_kind[kind] = (name, fn)
    return by_kind


def drawer_table(views: tuple[type, ...]) -> dict[str, Drawer]:
    """Cue kind -> its drawer among the methods of the view classes ``views``, in the order the
    cue table declares the kinds. Raises TypeError unless every declared kind has exactly one."""
    table: dict[str, Drawer] = {}
    for owner in views:
        for kind, (name, fn) in _marked(owner).items():
            if kind in table:
                was = table[kind]
                raise TypeError(f"cue kind {kind} has two drawers, "
                                f"{was.owner.__name__}.{was.name} and {owner.__name__}.{name}")
            table[kind] = Drawer(owner, name, fn)
    missing = [k for k in CUE_KINDS if k not in table]
    if missing:
        raise TypeError(f"no view draws cue kind {', '.join(missing)} (mark a view's method with @draws)")
    return {k: table[k] for k in CUE_KINDS}
