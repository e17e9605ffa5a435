"""Watchers of what the picture means: its cards and printed lines agree with the log, the
takeaway's numbers show while it is up, nothing is drawn in another meaning's colour, and the
camera keeps in view what the caption up names."""

from __future__ import annotations

from scenes.render.grammar import Palette, off_colour
from scenes.render.inspect import sample_frames
from scenes.render.named_view import in_view, left_named, notes_shown, rules_gone
from scenes.render.none_said import NoneSaid
from scenes.render.options import fps_of
from scenes.render.takeaway import one_size, takeaway_up, unshown
from scenes.render.truth import Truth
from scenes.storyboard.binding import caption_names
from tests.frame_checks import TRUTH_EVERY, Case, Spans, who


class Untrue(Spans):
    """Every half second, cards, buckets and printed lines agree with the log then (`Truth`)."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        self.truth = Truth(case.checked.run.events, case.plan, case.checked.storyboard.number_style)
        self.frames = set(sample_frames(case.plan.duration, fps_of(case.opts), every=TRUTH_EVERY))

    def see(self, sample: dict) -> None:
        if round(sample["time"] * fps_of(self.case.opts)) not in self.frames:
            return
        for u in self.truth.check(sample):
            self.add((u.what, u.id, u.shown), u.time, u.describe())

    def found(self) -> list[str]:
        return self.lines()


class NoneUnsaid(Spans):
    """A bucket told None (``w.grad = None``, a ``grad_none`` naming a leaf) wears the words
    ``w.grad = None`` until a number is written in it, and they show only while the log has its
    ``.grad`` None (`scenes.render.none_said`): one picture of None, apart from a bucket the walk
    has not reached yet."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        truth = Truth(case.checked.run.events, case.plan, case.checked.storyboard.number_style)
        self.said = NoneSaid(case.plan, truth)

    def see(self, sample: dict) -> None:
        for u in self.said.check(sample):
            self.add((u.what, u.id, u.shown), u.time, u.describe())

    def found(self) -> list[str]:
        return self.lines()


class TakeawayShown(Spans):
    """While a takeaway caption is up, every number it names shows in the picture
    (`takeaway.unshown`), and its lines are set at one size (`takeaway.one_size`)."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        self.heights: dict[str, float] = {}  # each takeaway line, fully in -> its box's height

    def see(self, sample: dict) -> None:
        cap = takeaway_up(self.case.plan, sample["time"], self.case.theme.timings.caption_fade)
        if cap is None:
            return
        for i in sample["items"]:
            if i["role"] == "takeaway" and i["opacity"] >= 1.0 and i["text"]:
                self.heights[i["text"]] = i["bbox"][3] - i["bbox"][1]
        for u in unshown(sample["items"], [s.text for s in cap.strings], sample["time"], cap.text):
            self.add((u.text, cap.index), u.time, u.describe())

    def found(self) -> list[str]:
        sizes = [] if one_size(self.heights.items()) else [
            f"{self.case.name} {self.case.aspect}: the takeaway's lines are set at more than one size: "
            + ", ".join(f"{t!r} {h:.1f} px" for t, h in self.heights.items())]
        return self.lines() + sizes


class OffColour(Spans):
    """Nothing is drawn in another meaning's colour (`scenes.render.grammar.off_colour`): the
    loss's red is the loss's only, forward mode's colour is not the gradient's, ..."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        self.palette = Palette.of(case.theme)

    def see(self, sample: dict) -> None:
        for o in off_colour(sample["items"], self.palette):
            self.add((who(o.item), o.said, o.shown), sample["time"], o.describe())

    def found(self) -> list[str]:
        return self.lines()



class NamedLeaves:
    """No camera move takes a card out of view while a caption naming it is up
    (`scenes.render.named_view.left_named`): what is spoken about stays on screen while it is spoken."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.seen: list[tuple[float, frozenset[str]]] = []

    def see(self, sample: dict) -> None:
        self.seen.append((sample["time"], in_view(sample)))

    def found(self) -> list[str]:
        index = self.case.checked.index
        names = caption_names(self.case.plan.captions, self.case.plan.cues, index)
        return [f"{self.case.name} {self.case.aspect}: {x.describe()}"
                for x in left_named(self.case.plan, names, self.seen)]


class RulesKept:
    """A visit's rule stays shown until the caption explaining it ends (`named_view.rules_gone`):
    the camera closing on the next node took the mul rule away under "and s gets the gradient
    times w2" (backward_walk 9:16, REVIEW7 item 4)."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.seen: list[tuple[float, frozenset[str]]] = []

    def see(self, sample: dict) -> None:
        self.seen.append((sample["time"], notes_shown(sample)))

    def found(self) -> list[str]:
        return [f"{self.case.name} {self.case.aspect}: {x.describe()}" for x in rules_gone(self.case.plan, self.seen)]
