"""Watchers of where things are placed and how large: collisions, badges on heads, notes away
from their card, glyphs too small, things near the frame's edge, and how much of the frame the
graph fills or leaves empty."""

from __future__ import annotations

from typing import Any

from scenes.draw.collisions import CONTAINERS, TOUCH, collisions, too_small, visible
from scenes.draw.label_reading import labels_astray
from scenes.draw.reading import READS_ON, notes_astray, waits_on_heads, waits_reading_on
from scenes.layout.label_sides import gap_between
from scenes.render.bucket_sum import fill_frames, meetings, see as see_met, verdict as met_verdict
from scenes.render.fill import graph_fraction, largest_empty, near_edge, teaching
from scenes.storyboard.cues import GLIDES
from tests.frame_checks import Case, Spans, who


class Collide(Spans):
    """Nothing collides (`scenes.draw.collisions.collisions`)."""

    def see(self, sample: dict) -> None:
        for c in collisions(sample["items"], sample["frame"]):
            self.add((c.what, who(c.a), who(c.b)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class WaitsOnHead(Spans):
    """No badge waits on an arrowhead or a label, an op name (`scenes.draw.reading.waits_on_heads`),
    nor level with a value just past its end, where the two read as one number
    (`scenes.draw.reading.waits_reading_on`): compared with the frame looked at before, so a
    token riding over or past one is not counted."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        self.before: list[dict] = []

    def see(self, sample: dict) -> None:
        for c in waits_on_heads(self.before, sample["items"]) + waits_reading_on(self.before, sample["items"]):
            self.add((c.what, who(c.a), who(c.b)), sample["time"], c.describe())
        self.before = sample["items"]

    def found(self) -> list[str]:
        return self.lines()


TAG_CLEAR = 0.25
"""How much of an op name's height it keeps off its card's outline at least: nearer, the card's
border (as wide as the scale makes it, the tag's halo cutting it) reads as underlining or
striking the name (grad_accumulation's ``mul`` 3 px over y's card at scale 1.8)."""


def op_tags(before: list[dict], items: list[dict]) -> list[tuple[dict, dict]]:
    """(tag, its card or bucket) for every visible label of a card or bucket drawn wholly
    outside it (an op name, AccumulateGrad; a card's own name and grad_fn rows lie inside it),
    both standing where they stood in the frame ``before`` (a card growing from nothing round
    its labels, or a camera's move, is not a tag's place)."""
    still = {(i["role"], i.get("id"), i.get("text"), tuple(i["bbox"])) for i in before}
    seen = [i for i in visible(items) if (i["role"], i.get("id"), i.get("text"), tuple(i["bbox"])) in still]
    boxes = {b["id"]: b for b in seen if b["kind"] == "shape" and b["role"] in CONTAINERS and b.get("id")}
    out = []
    for t in seen:
        box = boxes.get(t.get("id")) if t["role"] == "label" else None
        if box is None:
            continue
        (x0, y0, x1, y1), (bx0, by0, bx1, by1) = t["bbox"], box["bbox"]
        if min(x1, bx1) - max(x0, bx0) <= TOUCH or min(y1, by1) - max(y0, by0) <= TOUCH:
            out.append((t, box))
    return out


def reads_level(value: dict, tag: dict) -> bool:
    """Whether ``tag`` lies level with ``value`` (their heights overlap at all) and starts past
    its end within `READS_ON` of its heights: ``L = 1/16 ** 2`` reads as 1/16 squared."""
    (vx0, vy0, vx1, vy1), (tx0, ty0, _, ty1) = value["bbox"], tag["bbox"]
    return min(vy1, ty1) > max(vy0, ty0) and vx1 - TOUCH <= tx0 <= vx1 + READS_ON * (vy1 - vy0)


def frame_marks(before: list[dict], items: list[dict]) -> list[dict]:
    """The visible labels of no card standing where they stood in the frame ``before``: the
    checklist's rows, the legend's words (they stay put while the graph moves)."""
    still = {(i["role"], i.get("text"), tuple(i["bbox"])) for i in before}
    return [i for i in visible(items) if i["role"] == "label" and i.get("id") is None
            and (i["role"], i.get("text"), tuple(i["bbox"])) in still]


class OpTags(Spans):
    """No op name reads as more of a value level with it (`reads_level`), and each keeps
    `TAG_CLEAR` of its height off its own card (`op_tags`), off the ring round that card while
    it shows (the walk's at its visit, a light's: backward_walk's ``mul`` stood on yh's and z's
    rings, struck through), and off the frame's marks, the checklist and the legend
    (`frame_marks`: missing_gradient's ``** 2`` on "3. which loss?")."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        self.before: list[dict] = []

    def see(self, sample: dict) -> None:
        values = [v for v in visible(sample["items"]) if v["role"] == "value"]
        rings = [r for r in visible(sample["items"]) if r["role"] == "ring" and r.get("id")]
        marks = frame_marks(self.before, sample["items"])
        tags, self.before = op_tags(self.before, sample["items"]), sample["items"]
        for tag, box in tags:
            for v in values:
                if reads_level(v, tag):
                    self.add(("an op name reads as more of a value", who(tag), who(v)), sample["time"],
                             f"{who(tag)} {tag['bbox']} right of {who(v)} {v['bbox']}")
            height = tag["bbox"][3] - tag["bbox"][1]
            for mark in marks:
                if gap_between(tuple(tag["bbox"]), tuple(mark["bbox"])) < TAG_CLEAR * height:
                    self.add(("an op name against a frame mark", who(tag), who(mark)), sample["time"],
                             f"{who(tag)} {tag['bbox']} by {who(mark)} {mark['bbox']}")
            gap = gap_between(tuple(tag["bbox"]), tuple(box["bbox"]))
            if gap < TAG_CLEAR * height:
                self.add(("an op name on its card's border", who(tag)), sample["time"],
                         f"{who(tag)} {tag['bbox']} {gap:.1f} px from its {box['role']} {box['bbox']}, "
                         f"under {TAG_CLEAR:g} of its height {height:.1f} px")
            for ring in rings:  # (its box is the ring's outline: its ink reaches half its stroke further)
                gap = gap_between(tuple(tag["bbox"]), tuple(ring["bbox"]))
                if ring["id"] == box["id"] and gap < TAG_CLEAR * height:
                    self.add(("an op name on its card's ring", who(tag)), sample["time"],
                             f"{who(tag)} {tag['bbox']} {gap:.1f} px from its ring {ring['bbox']}, "
                             f"under {TAG_CLEAR:g} of its height {height:.1f} px")

    def found(self) -> list[str]:
        return self.lines()


class NotesAstray(Spans):
    """No note lies nearer another card than its own (`scenes.draw.reading.notes_astray`), and
    no ``.grad = None`` label stands by another card (`scenes.draw.label_reading.labels_astray`)."""

    def see(self, sample: dict) -> None:
        for c in notes_astray(sample["items"]) + labels_astray(sample["items"]):
            self.add((c.what, who(c.a), who(c.b)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class TooSmall(Spans):
    """No text's glyphs under the theme's ``font_sizes.min_glyph_px`` (at 854x480)."""

    def see(self, sample: dict) -> None:
        for c in too_small(sample["items"], sample["frame"], self.case.theme.font_sizes.min_glyph_px):
            self.add((c.what, who(c.a), who(c.b)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class ValuesTooSmall(Spans):
    """No value or name (`scenes.draw.collisions.is_main`) under ``font_sizes.min_glyph_main_px``
    at 854x480 (the 9 px floor of every other text is `TooSmall`'s)."""

    def see(self, sample: dict) -> None:
        f = self.case.theme.font_sizes
        for c in too_small(sample["items"], sample["frame"], f.min_glyph_px, f.min_glyph_main_px):
            if c.what == f"text under {f.min_glyph_main_px:g} px":
                self.add((c.what, who(c.a)), sample["time"], c.describe())

    def found(self) -> list[str]:
        return self.lines()


class NearEdge(Spans):
    """Nothing within the theme's ``layout.safe_edge`` of the frame's width or height from its
    edge (`scenes.render.fill.near_edge`; the caption bar keeps it too), but what a camera move
    carries out of view while it fades (`scenes.draw.glide.glide_out`: fainter than the frame
    before, while the walk's camera or a beat's focus moves the graph)."""

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        self.moves = [(c.start, c.start + c.duration) for c in case.plan.cues if c.kind in GLIDES]
        self.was: dict[tuple, float] = {}

    def see(self, sample: dict) -> None:
        t = sample["time"]
        now = {(i["role"], i["id"], i["text"]): i["opacity"] for i in sample["items"] if i["id"] is not None}
        moving = any(t0 - 1e-6 <= t <= t1 + 1e-6 for t0, t1 in self.moves)
        for c in near_edge(sample["items"], sample["frame"], self.case.theme.layout.safe_edge):
            key = (c.a["role"], c.a["id"], c.a["text"])
            if moving and c.a["id"] is not None and c.a["opacity"] < self.was.get(key, 0.0):
                continue  # carried off as it fades
            self.add((c.what, who(c.a)), t, c.describe())
        self.was = now

    def found(self) -> list[str]:
        return self.lines()


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


class MetInBucket:
    """Gradients that meet in a bucket are there, side by side, as their sum is written, and into
    a bucket that held a value the pass's sum comes before the bucket's (`scenes.render.bucket_sum`)."""

    def __init__(self, case: Case) -> None:
        self.case, self.met = case, meetings(case.plan)

    @staticmethod
    def frames(plan: Any, fps: int) -> set[int]:
        """Every frame of each fill whose gradients met (`fill_frames`): read at every 3rd, a
        lesson's 0.4 s fill may be seen only as it starts and once its terms have gone."""
        return fill_frames(meetings(plan), fps)

    def see(self, sample: dict) -> None:
        for m in self.met:
            see_met(m, sample["time"], sample["items"])

    def found(self) -> list[str]:
        return [f"{self.case.name} {self.case.aspect}: {line}" for m in self.met for line in met_verdict(m)]
