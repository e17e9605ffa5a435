"""The checks read from every inspected frame of a clip, declared once: one pass over the frames
feeds them all (`inspect_checks`), so a new check costs no new inspection.

Each check is a `FrameCheck`: its name (the test id's last part), its table of cases that still
fail (``still``: strict xfails, each with what is wrong), which cases it applies to, and a
`Watcher` factory. Lessons are read every 3rd frame, the clips at every frame. A watcher is fed each sample (`see`) in time order and says at the end what it
found, one line each (`found`). Adding a check is one watcher class and one entry in `CHECKS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from scenes.draw.collisions import collisions, glyph_height, notes_astray, too_small, waits_on_heads
from scenes.layout.clip import first_sentence
from scenes.render.bucket_sum import meetings, see as see_met, verdict as met_verdict
from scenes.render.continuity import blinks, jumps, loose_arrows, renames
from scenes.render.flight import flights
from scenes.render.fill import graph_fraction, largest_empty, near_edge, teaching
from scenes.render.grammar import Palette, off_colour
from scenes.render.inspect import inspect_clip, sample_frames
from scenes.render.options import RenderOptions, fps_of
from scenes.render.takeaway import one_size, takeaway_up, unshown
from scenes.render.truth import Truth
from scenes.storyboard import load_and_plan
from scenes.render.camera_plan import load_and_plan_at
from scenes.theme import load_theme

TRUTH_EVERY = 0.5
"""Seconds between the samples the truth is checked at (``render inspect --every 0.5``)."""


@dataclass(frozen=True)
class Case:
    """What a watcher knows of the clip it watches: its name, aspect, checked storyboard and plan."""

    name: str
    aspect: str
    checked: Any
    plan: Any
    opts: RenderOptions
    theme: Any


class Watcher(Protocol):
    def see(self, sample: dict) -> None: ...
    def found(self) -> list[str]: ...


class Spans:
    """Problems keyed by what and who, each kept with the first and last time seen, how many
    samples, and the first description: one line each (``NAME ASPECT t0-t1 s (n frames): ...``)."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.table: dict[tuple, list] = {}

    def add(self, key: tuple, time: float, describe: str) -> None:
        self.table.setdefault(key, [time, time, 0, describe])
        self.table[key][1] = time
        self.table[key][2] += 1

    def lines(self) -> list[str]:
        c = self.case
        return [f"{c.name} {c.aspect} {t0:.2f}-{t1:.2f} s ({n} frames): {first}" for t0, t1, n, first in self.table.values()]


def _who(item: dict | None) -> str:
    if item is None:
        return ""
    text = f" {item['text']!r}" if item.get("text") is not None else ""
    return f"{item['role']}{text}" + (f" ({item['id']})" if item.get("id") is not None else "")


class Collide(Spans):
    """Nothing collides (`scenes.draw.collisions.collisions`)."""

    def see(self, sample: dict) -> None:
        for c in collisions(sample["items"], sample["frame"]):
            self.add((c.what, _who(c.a), _who(c.b)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class WaitsOnHead(Spans):
    """No badge waits on an arrowhead or a label, an op name (`scenes.draw.collisions.waits_on_heads`):
    compared with the frame looked at before, so a token riding over one is not counted."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        self.before: list[dict] = []

    def see(self, sample: dict) -> None:
        for c in waits_on_heads(self.before, sample["items"]):
            self.add((c.what, _who(c.a), _who(c.b)), sample["time"], c.describe())
        self.before = sample["items"]

    def found(self) -> list[str]:
        return self.lines()


class NotesAstray(Spans):
    """No note lies nearer another card than its own (`scenes.draw.collisions.notes_astray`)."""

    def see(self, sample: dict) -> None:
        for c in notes_astray(sample["items"]):
            self.add((c.what, _who(c.a), _who(c.b)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class TooSmall(Spans):
    """No text's glyphs under the theme's ``font_sizes.min_glyph_px`` (at 854x480)."""

    def see(self, sample: dict) -> None:
        for c in too_small(sample["items"], sample["frame"], self.case.theme.font_sizes.min_glyph_px):
            self.add((c.what, _who(c.a), _who(c.b)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class ValuesTooSmall(Spans):
    """No value or name (`scenes.draw.collisions.is_main`) under ``font_sizes.min_glyph_main_px``
    at 854x480 (the 9 px floor of every other text is `TooSmall`'s)."""

    def see(self, sample: dict) -> None:
        f = self.case.theme.font_sizes
        for c in too_small(sample["items"], sample["frame"], f.min_glyph_px, f.min_glyph_main_px):
            if c.what == f"text under {f.min_glyph_main_px:g} px":
                self.add((c.what, _who(c.a)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class NearEdge(Spans):
    """Nothing within the theme's ``layout.safe_edge`` of the frame's width or height from its
    edge (`scenes.render.fill.near_edge`; the caption bar keeps it too)."""

    def see(self, sample: dict) -> None:
        for c in near_edge(sample["items"], sample["frame"], self.case.theme.layout.safe_edge):
            self.add((c.what, _who(c.a)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class MetInBucket:
    """Gradients that meet in a bucket are there, side by side, as their sum is written, and into
    a bucket that held a value the pass's sum comes before the bucket's (`scenes.render.bucket_sum`)."""

    def __init__(self, case: Case) -> None:
        self.case, self.met = case, meetings(case.plan)

    def see(self, sample: dict) -> None:
        for m in self.met:
            see_met(m, sample["time"], sample["items"])

    def found(self) -> list[str]:
        return [f"{self.case.name} {self.case.aspect}: {line}" for m in self.met for line in met_verdict(m)]


class GraphFill:
    """The graph (or network) takes at least ``layout.fill_graph`` of the frame's area at its
    largest (`scenes.render.fill.graph_fraction`)."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.best = (0.0, 0.0)

    def see(self, sample: dict) -> None:
        share = graph_fraction(sample["items"], sample["frame"])
        if share > self.best[0]:
            self.best = (share, sample["time"])

    def found(self) -> list[str]:
        need = self.case.theme.layout.fill_graph
        share, time = self.best
        if share >= need:
            return []
        return [f"{self.case.name} {self.case.aspect}: the graph takes {share:.0%} of the frame at most "
                f"({time:.2f} s), under {need:.0%}"]


EMPTY_EVERY = 0.2
"""Seconds between the frames the empty area is measured at: a span of seconds is what counts."""


class EmptyArea:
    """No rectangle over ``layout.fill_empty`` of the frame stays empty for longer than
    ``layout.fill_empty_seconds`` while the clip teaches (`scenes.render.fill.largest_empty`,
    `teaching`), measured every ``EMPTY_EVERY`` seconds."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.next = 0.0
        self.run: list[tuple[float, float]] = []  # (time, share) of the current run of empty samples
        self.spans: list[tuple[float, float, float]] = []

    def see(self, sample: dict) -> None:
        if sample["time"] + 1e-9 < self.next:
            return
        self.next = sample["time"] + EMPTY_EVERY
        lay = self.case.theme.layout
        share = largest_empty(sample["items"], sample["frame"], lay.safe_edge)[0] if teaching(sample["items"]) else 0.0
        if share > lay.fill_empty:
            self.run.append((sample["time"], share))
            return
        self._close()

    def _close(self) -> None:
        if self.run and self.run[-1][0] - self.run[0][0] > self.case.theme.layout.fill_empty_seconds:
            self.spans.append((self.run[0][0], self.run[-1][0], max(s for _, s in self.run)))
        self.run = []

    def found(self) -> list[str]:
        self._close()
        return [f"{self.case.name} {self.case.aspect} {t0:.2f}-{t1:.2f} s: {share:.0%} of the frame empty"
                for t0, t1, share in self.spans]


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


class OffColour(Spans):
    """Nothing is drawn in another meaning's colour (`scenes.render.grammar.off_colour`): the
    loss's red is the loss's only, forward mode's colour is not the gradient's, ..."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        self.palette = Palette.of(case.theme)

    def see(self, sample: dict) -> None:
        for o in off_colour(sample["items"], self.palette):
            self.add((_who(o.item), o.said, o.shown), sample["time"], o.describe())

    def found(self) -> list[str]:
        return self.lines()


class Jumps(Kept):
    """Nothing with a stable id moves more than a card's width between two frames (`continuity.jumps`):
    the theme's card width at scale 1 in pixels at this frame size, or the item's own if wider."""

    def found(self) -> list[str]:
        spec = self.case.theme.aspect(self.case.aspect)
        width = self.samples[0]["frame"][0] if self.samples else 0
        card_px = self.case.theme.sizes.card_width * width / spec.frame_width
        return [f"{self.case.name} {self.case.aspect}: {j.describe()}" for j in jumps(self.samples, card_px)]


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
        moves = [(c.start, c.start + c.duration) for c in self.case.plan.cues if c.kind in CAMERA_CUES]
        return [f"{self.case.name} {self.case.aspect}: {a.describe()}"
                for a in flights(self.samples, FLIGHT_REACH * card_px, FLIGHT_SLACK * card_px, moves)]


CAMERA_CUES = ("camera", "focus", "unfocus")
"""The cue kinds that move the graph as a whole: the walk's camera and a beat's focus."""


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


CONSOLE_CUES = ("output_line", "message")
"""The cue kinds that print: their lines are the console's."""


def _console(sample: dict) -> list[dict]:
    return [i for i in sample["items"] if i["role"] == "console" and i["opacity"] >= 0.5]


def _printed(cue: Any) -> str:
    """A console cue's line as the console shows it (words joined by one space): a message as
    Python prints its head and first sentence, an output line as its strings."""
    if cue.kind == "message":
        return f"{cue.text('type')}: {first_sentence(cue.text('message') or '')}"
    return " ".join("  ".join(s.text for s in cue.strings).split())


class AtTimes:
    """Looks at the first frame at or after each of ``due`` (the last frame, for a time past
    it): `look` is called with that sample. A subclass lists its times and what it looks for."""

    def __init__(self, due: list[float]) -> None:
        self.due = sorted(due)
        self.last: dict | None = None

    def see(self, sample: dict) -> None:
        self.last = sample
        while self.due and self.due[0] <= sample["time"] + 1e-6:
            self.look(self.due.pop(0), sample)

    def close(self) -> None:
        while self.due and self.last is not None:
            self.look(self.due.pop(0), self.last)

    def look(self, due: float, sample: dict) -> None: ...


class ConsoleReadable(Spans, AtTimes):
    """What the program prints is readable (tests/scene/test_console_text.py says why): when each
    console cue is done, every line of every console item at least half opaque has glyphs of
    ``font_sizes.min_glyph_px`` or more (each line measured on its share of the item's box, as
    `too_small` measures a text) and lies in the frame; a message shows as Python prints it."""

    def __init__(self, case: Case) -> None:
        Spans.__init__(self, case)
        cues = [c for c in case.plan.cues if c.kind in CONSOLE_CUES]
        AtTimes.__init__(self, [min(c.start + c.duration, case.plan.duration) for c in cues])
        self.messages = [_printed(c) for c in cues if c.kind == "message"]
        self.shown: set[str] = set()

    def look(self, due: float, sample: dict) -> None:
        width, height = sample["frame"]
        for i in _console(sample):
            self.shown.add(" ".join(i["text"].split()))
            x0, y0, x1, y1 = i["bbox"]
            lines = i["text"].split("\n")
            step = (y1 - y0) / len(lines)
            for k, line in enumerate(lines):
                px = glyph_height({**i, "text": line, "bbox": [x0, y0 + k * step, x1, y0 + (k + 1) * step]})
                if px < self.case.theme.font_sizes.min_glyph_px:
                    self.add(("small", line), due, f"{line!r} of {i['text']!r} has {px:.1f} px glyphs")
            if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
                self.add(("out", i["text"]), due, f"{i['text']!r} reaches out of the frame: {i['bbox']}")

    def found(self) -> list[str]:
        self.close()
        return self.lines() + [f"{self.case.name} {self.case.aspect}: the message is never shown as {m!r}"
                               for m in self.messages if m not in self.shown]


class BeatPrintsKept(Spans, AtTimes):
    """Where the printed lines' room is small, none of a beat's is scrolled away while the beat is
    on (missing_gradient's warning scrolled off under its ``None`` while the caption said "PyTorch
    warns"): at the last frame of each beat that prints, every line it printed is on screen."""

    END = 0.05
    """Seconds before a beat's end it is looked at: its last frame, not the next beat's first."""

    def __init__(self, case: Case) -> None:
        Spans.__init__(self, case)
        self.beats: dict[float, list[str]] = {}
        for b in case.plan.beats:
            printed = [_printed(c) for c in case.plan.cues
                       if c.kind in CONSOLE_CUES and b.start <= c.start < b.start + b.duration]
            if printed:
                self.beats[b.start + b.duration - self.END - 1 / fps_of(case.opts)] = printed
        AtTimes.__init__(self, list(self.beats))

    def look(self, due: float, sample: dict) -> None:
        shown = [" ".join(i["text"].split()) for i in _console(sample)]
        for want in self.beats[due]:
            if want not in shown:
                self.add(("gone", want), sample["time"], f"{want!r} is not on screen at its beat's end (shown: {shown})")

    def found(self) -> list[str]:
        self.close()
        return self.lines()


@dataclass(frozen=True)
class FrameCheck:
    """One check over a clip's frames. ``still``: (clip, aspect) -> what still fails (a strict
    xfail); ``applies``: whether the check runs for (clip, aspect, is_lesson)."""

    name: str
    watcher: Callable[[Case], Watcher]
    still: dict[tuple[str, str], str] = field(default_factory=dict)
    applies: Callable[[str, str, bool], bool] = lambda name, aspect, lesson: True


def inspect_checks(path: str, name: str, aspect: str, checks: list[FrameCheck], every: int) -> dict[str, list[str]]:
    """Every ``every``-th frame of the storyboard at ``path`` (and every half second, for the truth)
    inspected once, fed to each check's watcher: check name -> the lines it found."""
    checked, plan = load_and_plan_at(path, aspect=aspect)
    opts = RenderOptions(aspect=aspect)
    case = Case(name, aspect, checked, plan, opts, load_theme())
    watchers = {c.name: c.watcher(case) for c in checks}
    fps = fps_of(opts)
    truth = set(sample_frames(plan.duration, fps, every=TRUTH_EVERY))
    looked = set(range(0, round(plan.duration * fps), every))
    for sample in inspect_clip(checked, plan, opts, frames=sorted(looked | truth)):
        on_step = round(sample["time"] * fps) in looked
        for c in checks:
            if on_step or c.name == "truth":
                watchers[c.name].see(sample)
    return {n: w.found() for n, w in watchers.items()}
