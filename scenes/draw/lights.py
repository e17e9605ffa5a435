"""The light: the cards a phrase talks about glow while it is read (the ``light`` cue).

Why a view of its own: a phrase about a thing already drawn (``yh sits between the leaves and
the loss``, a takeaway tracing the path from the loss to the buckets) had nothing to point at it,
and the picture stood still under the words. A ``light`` cue sets which cards glow now: the
cards of its ids (a node id lights its tensor's card, or its bucket once drawn), in the walk's
glow (``wavefront``); the cards lit before and not now fade out. A light with no ids puts them
all out; the plan sends one at the end of the beat, so no light outlives the beat that said it.
A card the storyboard faded (``dim``) is raised while it is lit, to ``opacity.skipped_lit``, then faded
again: review 2's "x and y are skipped" ringed two blank boxes, their names at 15 % opacity; shown
whole, review 5 read them as selected, as the walk's path. It is not ringed in the glow either, the
colour of a node being visited (review 6 item 6), but with a dashed ring in the input's grey
(`Rings.skipped`): pointed at, and still skipped.
On the MLP view (mlp, reverse_mode), where no card stands for a tensor, an id lights what the
network shows it as (`Network.owner`): a unit's ring (its outline while still to come) or a
weight's line, in the same glow colour: ``[[yh]]``, ``[[layer h1_0]]``, ``[[from L]]``.
"""

from __future__ import annotations

from manim import FadeIn, FadeOut, Mobject, Transform

from scenes.draw.backward import Z_GLOW
from scenes.draw.context import Anims, DrawContext, StepScratch, View
from scenes.draw.drawers import draws
from scenes.draw.network import Z_LIT, NetworkDiagram
from scenes.layout.place import Box
from scenes.storyboard.cues import Cue


class Lights(View):
    """Draws ``light``: one glow per lit card or bucket, or per unit or weight of ``network``'s
    diagram while it is up, kept in ``state.graph.lit``."""

    def __init__(self, ctx: DrawContext, network: NetworkDiagram) -> None:
        super().__init__(ctx)
        self.network = network
        self.raised: dict[str, tuple[Mobject, Mobject]] = {}  # lit key -> the faded card raised while lit, and as it was

    def _boxes(self, ids: tuple[str, ...]) -> dict[str, Box]:
        """Item -> the box its glow goes round: a node whose leaf has a bucket on screen lights
        the bucket (the backward graph's end), any other id its card."""
        graph, out = self.ctx.state.graph, {}
        for i in ids:
            item = self.ctx.item(i)
            bucket = graph.buckets.get(item) if i.startswith("n") else None
            if bucket is not None:
                x, y = (float(v) for v in bucket.get_center()[:2])
                out[f"{item}/bucket"] = Box(item, "bucket", x, y, float(bucket.width), float(bucket.height))
            elif item in graph.cards and item in self.ctx.layout.boxes:
                out[item] = self.ctx.layout.boxes[item]
        return out

    def _network_owners(self, ids: tuple[str, ...]) -> list[str]:
        """The units and weights the MLP view shows ``ids`` as (a tensor, its node, a later pass's
        tensor), in order, once each; none while the network is not up."""
        view = self.ctx.state.network
        if not (view.units or view.ghosts) or view.hidden:
            return []
        net = self.network.geometry.net
        owners = (net.unit_of(i) or net.owner.get(i) for i in ids)
        return list(dict.fromkeys(o for o in owners if o is not None))

    @draws("light")
    def draw_light(self, cue: Cue, step: StepScratch) -> Anims:
        lit = self.ctx.state.graph.lit
        want = self._boxes(cue.ids)
        keep = set(want) | {f"{o}/net" for o in self._network_owners(cue.ids)}
        going = [k for k in lit if k not in keep]
        out: Anims = [FadeOut(lit.pop(k)) for k in going]
        darkness = self.theme.opacity.dimmed
        for k in going:  # a faded card it raised fades again, to what it was
            raised = self.raised.pop(k, None)
            if raised is not None:
                card, was = raised
                out.append(Transform(card, was))
        scale = self.ctx.layout.scale
        graph = self.ctx.state.graph
        for k, box in want.items():
            if k not in lit:
                card = graph.cards.get(box.id) if box.id in graph.dimmed else None
                glow: Mobject = (self.ctx.rings.around([box], scale=scale) if card is None
                                 else self.ctx.rings.skipped(box, scale=scale)).set_z_index(Z_GLOW)
                if card is not None:  # a lit card must read: a faded one shows, still faded, while lit
                    self.raised[k] = (card, card.copy())
                    out.append(Transform(card, undimmed(card, darkness, self.theme.opacity.skipped_lit)))
                lit[k] = glow
                out.append(FadeIn(glow))
        for owner in self._network_owners(cue.ids):
            k = f"{owner}/net"
            mark = self.network.mark(owner, "now", backward=False) if k not in lit else None
            if mark is not None:
                lit[k] = mark.set_z_index(Z_LIT)
                out.append(FadeIn(mark))
        return out


def undimmed(card: Mobject, darkness: float, lit: float = 0.0) -> Mobject:
    """A copy of ``card`` as if it had been faded by ``lit`` instead of ``darkness`` (the ``dim``
    cue's): each part's fill and stroke opacity raised by the ratio (at most 1), so ``lit`` 0 is
    the card as it was before the fade. What a faded card turns into while a light names it: at
    the theme's ``opacity.skipped_lit``, readable yet fainter than the cards a walk reaches, so a
    skipped card the caption points at does not read as one of them (review 5)."""
    ratio, whole = (1.0 - lit) / (1.0 - darkness), 1.0 / (1.0 - darkness)
    copy = card.copy()
    backdrop = getattr(copy, "frame", None)  # the box's fill comes back whole: a glow behind it stays behind
    for m in copy.family_members_with_points():
        m.set_fill(opacity=min(1.0, m.get_fill_opacity() * (whole if m is backdrop else ratio)), family=False)
        m.set_stroke(opacity=min(1.0, m.get_stroke_opacity() * ratio), family=False)
    return copy
