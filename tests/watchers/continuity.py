"""Watchers of continuity: what the picture shows with a stable id stays itself from frame to
frame (no blink, jump or rename), a gradient token rides its edge, an arrow touches its cards."""

from __future__ import annotations

from scenes.render.continuity import EDGED, TEXT_ONLY, blinks, jumps, loose_arrows, renames
from scenes.render.fades import drops, pops
from scenes.render.flight import flights
from scenes.render.pumps import pumps
from scenes.storyboard.cues import GLIDES
from tests.frame_checks import Case


class Kept:
    """Keeps what the continuity checks read of each frame: its time and its items with an id."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.samples: list[dict] = []

    def see(self, sample: dict) -> None:
        self.samples.append({"time": sample["time"], "frame": sample["frame"],
                             "items": [i for i in sample["items"] if i["id"] is not None]})


class Blinks(Kept):
    """Nothing with a stable id is gone for under half a second and back (`continuity.blinks`)."""

    def found(self) -> list[str]:
        return [f"{self.case.name} {self.case.aspect}: {b.describe()}" for b in blinks(self.samples)]


class Jumps(Kept):
    """Nothing with a stable id, nor the code pane's edges or a printed line, moves more than a
    card's width in a frame at ``continuity.LOOKED_AT_FPS`` (`continuity.jumps`): the theme's card
    width at scale 1 in pixels at this frame size, or the item's own if wider; what a camera move
    carries out of view as it fades is let go."""

    def see(self, sample: dict) -> None:
        self.samples.append({"time": sample["time"], "frame": sample["frame"],
                             "items": [i for i in sample["items"] if i["id"] is not None or i["role"] in EDGED | TEXT_ONLY]})

    def found(self) -> list[str]:
        spec = self.case.theme.aspect(self.case.aspect)
        width = self.samples[0]["frame"][0] if self.samples else 0
        card_px = self.case.theme.sizes.card_width * width / spec.frame_width
        moves = [(c.start, c.start + c.duration) for c in self.case.plan.cues if c.kind in GLIDES]
        return [f"{self.case.name} {self.case.aspect}: {j.describe()}" for j in jumps(self.samples, card_px, moves=moves)]


class Pops(Kept):
    """Cards come in over an animation, not several in one frame (`continuity.pops`): the camera's
    move out once brought the rest of the graph in in one or two frames after its glide."""

    def found(self) -> list[str]:
        return [f"{self.case.name} {self.case.aspect}: {p.describe()}" for p in pops(self.samples)]


class Drops(Kept):
    """What a camera move takes out of view fades with the move (`continuity.drops`): no card
    inside the frame loses half its opacity in one frame while the walk's camera or a beat's
    focus moves the graph."""

    def found(self) -> list[str]:
        moves = [(c.start, c.start + c.duration) for c in self.case.plan.cues if c.kind in GLIDES]
        return [f"{self.case.name} {self.case.aspect}: {d.describe()}" for d in drops(self.samples, moves)]


class Pumps(Kept):
    """The camera does not go out and come back in (or in and back out) within a breath
    (`pumps.pumps`): two moves one after the other, each drawing the graph ``PUMP_LEAST`` times
    smaller or larger, the second undoing the first under ``PUMP_HOLD`` s after it."""

    def found(self) -> list[str]:
        return [f"{self.case.name} {self.case.aspect}: {p.describe()}" for p in pumps(self.samples)]


class Renames(Kept):
    """A card keeps its name through the clip (`continuity.renames`): one node, one name."""

    def found(self) -> list[str]:
        return [f"{self.case.name} {self.case.aspect}: {r.describe()}" for r in renames(self.samples)]


class Flights(Kept):
    """A gradient token rides its edge (`flight.flights`): never hidden on the way, never further
    than ``FLIGHT_REACH`` card heights off it, never backing away from where it lands by more
    than ``FLIGHT_SLACK`` card heights, and the product it leaves keeps its number. What the
    camera's moves carry (the plan's ``camera``, ``focus`` and ``unfocus`` cues) is no flight."""

    def found(self) -> list[str]:
        spec = self.case.theme.aspect(self.case.aspect)
        width = self.samples[0]["frame"][0] if self.samples else 0
        card_px = self.case.theme.sizes.card_height * width / spec.frame_width
        moves = [(c.start, c.start + c.duration) for c in self.case.plan.cues if c.kind in GLIDES]
        return [f"{self.case.name} {self.case.aspect}: {a.describe()}"
                for a in flights(self.samples, FLIGHT_REACH * card_px, FLIGHT_SLACK * card_px, moves)]


class LooseArrows(Kept):
    """An arrow touches the cards it joins on every frame, also while it turns round
    (`continuity.loose_arrows`): never clear of both by more than ``LOOSE_REACH`` heights of the taller card it joins."""

    def found(self) -> list[str]:
        spec = self.case.theme.aspect(self.case.aspect)
        width = self.samples[0]["frame"][0] if self.samples else 0
        at_1 = self.case.theme.sizes.card_height * width / spec.frame_width
        found = loose_arrows(self.samples, LOOSE_REACH * at_1, card_px=at_1)
        return [f"{self.case.name} {self.case.aspect}: {x.describe()}" for x in found]


LOOSE_REACH = 0.1
"""How far (in card heights at scale 1) an arrow's box may lie from a card and still touch it:
a route ends by its card's border, a few pixels off (about 2 px at 854x480)."""


FLIGHT_REACH = 0.6
"""How far (in card heights at scale 1) a riding token's centre may stray from its way: the
steps it takes beside the line round a word or a card (about a pill's width)."""
FLIGHT_SLACK = 0.25
"""How far (in card heights at scale 1) a riding token may go back from the nearest it has
been to where it lands: the turn round a card's corner, not a detour."""
