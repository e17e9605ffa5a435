"""Is what meets in a bucket seen there as its sum is written? `render inspect` samples against the plan.

Why (REVIEW3 item 1, seed 004: "The two contributions meet in w's bucket and add up to 6"): the
gradients reaching a leaf in one backward() (``w * w``'s two 3) stopped on its card's arrowheads
and faded there; the sum ``3 + 3 = 6`` came after, small, beside an empty bucket, and a second
pass showed only ``6 + 6 = 12``. So, for each fill whose gradients met (a ``bucket_fill`` cue
with two or more ``part`` strings): the note ``3 + 3 = 6`` is written, and at some frame while it
is written every term is a badge of that bucket (its mouth, or its row beside it: within the bucket's width
and twice the row's width of it), still seen; into a
bucket that held a value, ``6 + 6 = 12`` is written too, not before the pass's own sum (the
engine sums the paths before AccumulateGrad adds to ``.grad``). And the sum stays written while
the first caption naming its value is up (`naming`: dynamic_graph's ``1/3 + 1/3 = 2/3`` went
with the walk's marks just as "shows 2/3, the sum of what its two arrows carried" came up,
REVIEW5 item 6). Numbers are the plan's strings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

from scenes.storyboard.caption_events import naming
from scenes.storyboard.plan import Plan

SHOWN = 0.5
"""Opacity an item must have to count as on screen (`scenes.render.takeaway.SHOWN`)."""
SEEN = 0.05
"""Opacity from which a note counts as being written (`scenes.render.continuity.SEEN`)."""
LATE = 1.0
"""Seconds after its fill ends by which a sum must have been written."""
FADES = 0.4
"""Seconds at each end of the caption naming a sum in which the sum may still be coming or going."""


@dataclass
class Met:
    """A fill whose gradients met: its bucket's id, the terms, the pass's sum and the bucket's
    own (None into an empty bucket), its time; what was seen of it so far."""

    bucket: str
    terms: tuple[str, ...]
    text: str
    then: str | None
    start: float
    end: float
    named: tuple[float, float] | None = None  # the caption naming the sum's value is up (`naming`)
    first: float | None = None  # when the pass's sum first showed
    unnamed: float | None = None  # a frame the caption naming it was up and it was not written
    then_first: float | None = None
    together: bool = False  # some frame showed it written with all its terms at the bucket
    problems: list[str] = field(default_factory=list)


def meetings(plan: Plan) -> list[Met]:
    """The plan's fills whose gradients met (two or more ``part`` strings), in order."""
    out = []
    for c in plan.cues:
        parts = tuple(s.text for s in c.strings if s.role == "part")
        if c.kind != "bucket_fill" or len(parts) < 2 or len(c.ids) < 2 or c.text("add") is None:
            continue
        before, after = c.text("before"), c.text("after")
        then = f"{before} + {c.text('add')} = {after}" if before is not None and after is not None else None
        says = naming(plan.captions, c)
        out.append(Met(f"bucket:{c.ids[1]}", parts, f"{' + '.join(parts)} = {c.text('add')}", then,
                       c.start, c.start + c.duration, (says.start, says.end) if says is not None else None))
    return out


def fill_frames(mets: Sequence[Met], fps: int) -> set[int]:
    """Every frame (at ``fps``) of each of ``mets``' fills, and of the second after it (`LATE`):
    where the terms and their sum share the screen. A lesson read every 3rd frame (0.2 s) sees a
    0.4 s fill twice, and may see it just as it starts (nothing written yet) and as the terms
    have gone (micrograd_readme's b at 15 fps: frames 0 and 3 of its 6; in 1 and 2 the five terms
    wait by the bucket under their sum).

    >>> sorted(fill_frames([Met("bucket:t0", ("3", "3"), "3 + 3 = 6", None, 1.0, 1.2)], 10))
    [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]
    """
    return {f for m in mets for f in range(math.floor(m.start * fps), math.ceil((m.end + LATE) * fps) + 1)}


def _near(a: Sequence[float], b: Sequence[float], reach: float) -> bool:
    return a[0] - reach <= b[2] and b[0] - reach <= a[2] and a[1] - reach <= b[3] and b[1] - reach <= a[3]


def missing_terms(met: Met, items: list[dict]) -> list[str]:
    """The terms of ``met`` not shown as badges of its bucket near it
    in ``items`` (one frame's `render inspect` items).

    >>> m = Met("bucket:t0", ("3", "3"), "3 + 3 = 6", None, 0.0, 0.8)
    >>> bucket = {"role": "bucket", "id": "bucket:t0", "bbox": [100, 100, 160, 150], "opacity": 1.0}
    >>> def badge(x, y, ident): return {"role": "badge", "text": "3", "id": ident, "opacity": 1.0,
    ...                                 "bbox": [x, y, x + 20, y + 30]}
    >>> missing_terms(m, [bucket, badge(105, 90, "bucket:t0->t0"), badge(135, 90, "bucket:t0->t0")])
    []
    >>> missing_terms(m, [bucket, badge(105, 20, "t0->t1"), badge(135, 20, "t0->t1")])  # on the card's arrowheads
    ['3', '3']
    """
    shapes = [i["bbox"] for i in items if i["role"] in ("bucket", "value") and i.get("id") == met.bucket]
    if not shapes:
        return list(met.terms)
    box = (min(b[0] for b in shapes), min(b[1] for b in shapes), max(b[2] for b in shapes), max(b[3] for b in shapes))
    badges = [i for i in items if i["role"] == "badge" and i["opacity"] >= SEEN  # seen, going in or not
              and str(i.get("id") or "").startswith(met.bucket)]
    reach = (box[2] - box[0]) + 2 * sum(b["bbox"][2] - b["bbox"][0] for b in badges)  # a row settles loosely
    there = [i.get("text") for i in badges if _near(i["bbox"], box, reach)]
    missing = []
    for term in met.terms:
        if term in there:
            there.remove(term)
        else:
            missing.append(term)
    return missing


def written(bucket: str, items: list[dict]) -> set[str]:
    """What the note of ``bucket`` reads in one frame's items: each line, and each run of lines
    top to bottom joined by spaces (a sum wrapped two terms a line by its bucket,
    `scenes.draw.bucket_notes.wrapped`, reads as the one sum).

    >>> def line(text, y): return {"role": "note", "text": text, "id": "note:b", "opacity": 1.0, "bbox": [0, y, 9, y + 5]}
    >>> sorted(written("b", [line("= 6", 20), line("3 + 3", 10)]))
    ['3 + 3', '3 + 3 = 6', '= 6']
    """
    lines = sorted((i for i in items if i["role"] == "note" and i["opacity"] >= SEEN
                    and i.get("id") == f"note:{bucket}" and i.get("text")), key=lambda i: tuple(i.get("bbox", (0.0, 0.0))[1::-1]))
    texts = [i["text"] for i in lines]
    return {" ".join(texts[a:b]) for a in range(len(texts)) for b in range(a + 1, len(texts) + 1)}


def see(met: Met, time: float, items: list[dict]) -> None:
    """Take in one frame of the clip at ``time``: whether the pass's sum is written (coming in
    counts: a lesson is sampled every 0.2 s, its fill lasts 0.4 s) and its terms are all at the
    bucket then."""
    notes = written(met.bucket, items)
    if met.text in notes and met.start - 1e-6 <= time <= met.end + LATE:
        if met.first is None:
            met.first = time
        gone = missing_terms(met, items)
        if not gone:
            met.together = True
        elif not met.problems:
            met.problems.append(f"at {time:.2f} s {met.text!r} is written while {' and '.join(gone)} "
                                f"are not at {met.bucket}")
    named = met.named
    if (named is not None and met.unnamed is None and max(named[0], met.end) + FADES <= time <= named[1] - FADES
            and met.text not in notes):
        met.unnamed = time
    if met.then is not None and met.then_first is None and met.then in notes and met.start - 1e-6 <= time:
        met.then_first = time


def verdict(met: Met) -> list[str]:
    """What was wrong with ``met`` over the whole clip (`see` each frame first).

    >>> m = Met("bucket:t0", ("3", "3"), "3 + 3 = 6", "6 + 6 = 12", 1.0, 1.8)
    >>> see(m, 1.5, [{"role": "note", "text": "6 + 6 = 12", "id": "note:bucket:t0", "opacity": 1.0}])
    >>> verdict(m)
    ["'3 + 3 = 6' never written by bucket:t0 (1.00-1.80 s)"]
    """
    out = [] if met.together else met.problems[:1]
    if met.unnamed is not None and met.named is not None:
        out.append(f"{met.text!r} gone at {met.unnamed:.2f} s while the caption naming its sum is up "
                   f"({met.named[0]:.2f}-{met.named[1]:.2f} s)")
    if met.first is None:
        out.append(f"{met.text!r} never written by {met.bucket} ({met.start:.2f}-{met.end:.2f} s)")
    if met.then is not None and met.then_first is None:
        out.append(f"{met.then!r} never written by {met.bucket} after {met.start:.2f} s")
    elif met.then_first is not None and met.first is not None and met.then_first < met.first:
        out.append(f"{met.then!r} written at {met.then_first:.2f} s, before the pass's {met.text!r}")
    return out
