"""The graph's shapes as a camera move sees them: every shape of the graph and of the walk on it
once (`graph_shapes`), the cards each mark belongs to (`owners`), the cards a close view would
leave floating with no arrow to anything (`floating`), and one share of a move for a card and
its marks (`together`). Read from the scene's records; which shapes move, fade or come back is
`scenes.draw.focus.CameraFocus`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from manim import Mobject

from scenes.draw.context import DrawContext
from scenes.draw.frame_spots import bounds
from scenes.draw.state import SceneState
from scenes.layout.focus import inside


def graph_shapes(state: SceneState) -> list[Mobject]:
    """Every shape of the graph and of the walk on it, once each."""
    g, w = state.graph, state.walk
    found: list[Mobject] = [*g.cards.values(), *g.tags.values(), *g.arrows.values(), *g.buckets.values(),
                            *g.bucket_tags, *g.lit.values(), *g.unkept.values(),
                            *g.none_words.values()]
    if w.wave is not None:
        found.append(w.wave)
    found += [m for ms in w.tokens.values() for m in ms] + list(w.visit_marks) + list(w.badges.values())
    # (a visit's products are pills in its note, which moves them: one kept for a later ride
    # once its note is gone is not drawn, and a move would bring it back on screen)
    found += [m for ms in w.fill_tokens.values() for m in ms]
    seen: set[int] = set()
    inner = {id(s) for m in found for s in m.get_family()[1:]}  # a tag inside its card moves with it
    out = []
    for m in found:
        if id(m) not in seen and id(m) not in inner:
            seen.add(id(m))
            out.append(m)
    return out


def owners(ctx: DrawContext) -> dict[int, list[Mobject]]:
    """Shape id -> the cards (or buckets) a mark drawn beside it belongs to: a node's badge,
    op name and the tokens that rode to it, a bucket's waiting badge, the walk's glow and a
    light's; an arrow's two cards; a bucket's card. While the camera is close a mark shows only where its
    cards do: a badge left beside a card gone out of view would read as some other card's,
    and an arrow from a card out of view floats in the frame."""
    g, w = ctx.state.graph, ctx.state.walk

    def card(some_id: str) -> Mobject | None:
        item = ctx.item(some_id)  # a route's end may be a bucket's box, "bucket:<leaf>"
        leaf = item[len("bucket:"):] if item.startswith("bucket:") else item
        return g.cards.get(item) if item in g.cards else g.buckets.get(leaf)

    pairs: list[tuple[Mobject, Mobject | None]] = [(m, g.cards.get(k)) for k, m in g.tags.items()]
    pairs += [(m, card(k)) for k, m in w.badges.items()]
    pairs += [(m, card(k)) for k, ms in w.tokens.items() for m in ms]
    pairs += [(m, g.buckets.get(k) or card(k)) for k, ms in w.fill_tokens.items() for m in ms]
    pairs += [(m, g.buckets.get(k[:-7]) if k.endswith("/bucket") else g.cards.get(k)) for k, m in g.lit.items()]
    if w.wave is not None:  # the glow behind the card it lights: alone, its fill shows as a block
        x, y = w.wave.get_center()[:2]
        lit = [c for c in [*g.cards.values(), *g.buckets.values()] if inside((x, y, x, y), bounds(c))]
        pairs.append((w.wave, min(lit, key=lambda c: c.width * c.height, default=None)))
    pairs += [(a, card(k)) for r, a in g.arrows.items() for k in (r.src, r.dst)]
    pairs += [(b, g.cards.get(k)) for k, b in g.buckets.items()]  # a weight's bucket shows with its card
    out: dict[int, list[Mobject]] = {}
    for m, o in pairs:
        if o is not None and o is not m:
            out.setdefault(id(m), []).append(o)
    return out


def floating(ctx: DrawContext, shown: set[int]) -> set[int]:
    """The ids of the cards of ``shown`` (ids of shapes in the close view) whose every edge
    of the graph leads to a card out of it: such a card would float
    in the close-up with no arrow to anything (review 3: w2 and its bucket beside the loss's
    visit, yh out of view), so it leaves the view with the cards it links to."""
    g = ctx.state.graph
    links: dict[str, set[str]] = {}
    for r in ctx.layout.routes:
        a, b = ctx.item(r.src), ctx.item(r.dst)
        if a in g.cards and b in g.cards:  # a bucket's arrow to its card is no link to the rest
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    out: set[int] = set()
    for k, near in links.items():
        if id(g.cards[k]) in shown and not any(id(g.cards[o]) in shown for o in near):
            out.add(id(g.cards[k]))  # its bucket goes with it (`owners`)
    return out


def together(values: dict[int, float], owned: dict[int, list[Mobject]],
             pick: Callable[[list[float]], float] = min) -> dict[int, float]:
    """``values`` (shape id -> a share of a move: how far along its way it is seen, when a shape
    that moves meets it, when it fades in) made one for a card and its marks (``owned``:
    `owners`), the least of theirs (or the latest, as ``pick`` says): a mark takes its cards',
    then a card its marks' (an arrow's two cards do not wait for it).

    >>> card, badge = Mobject(), Mobject()
    >>> together({id(card): 0.5, id(badge): 0.25}, {id(badge): [card]}) == {id(card): 0.25, id(badge): 0.25}
    True
    """
    for _ in range(2):
        for m in list(values):
            own = [o for o in owned.get(m, []) if id(o) in values]
            values[m] = pick([values[m], *(values[id(o)] for o in own)])
            if len(own) == 1:
                values[id(own[0])] = pick([values[id(own[0])], values[m]])
    return values
