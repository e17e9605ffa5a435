"""Is a ``.grad`` that is None shown one way? The empty bucket told None wears ``w.grad = None``.

Why: an empty bucket meant two things, "the walk has not reached it yet" and "its ``.grad`` is
None" (after ``w.grad = None``, or where the words say ``v.grad is None``), and the picture told
them apart nowhere (issue 39: grad_accumulation's reset and missing_gradient's ``v`` were bare
outlines, ``yh.grad = None`` had its words). docs/visual-grammar.md: a bucket whose ``.grad`` is
None, once the clip has said so (a reset to None, a ``grad_none`` cue naming it), wears the words
``NAME.grad = None`` beside it until a number is written in it; a bare empty bucket is one the
walk has not reached yet. This reads ``render inspect``'s samples beside the plan and the log's
``.grad`` texts (`scenes.render.truth.Truth`): the words must show then, and only while the log
has the ``.grad`` None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scenes.draw.collisions import visible
from scenes.render.truth import Truth, Untrue, said_texts
from scenes.storyboard.plan import Plan
from scenes.storyboard.views.graph import NONE_TEXT

NOTE = "note:bucket:"
"""The id of a note written beside a leaf's bucket: ``note:bucket:t0``."""


class NoneSaid:
    """The moments each leaf's bucket is told None or given a number, from the plan's cues:
    ``bucket_reset`` (to None, or zero_grad's 0), ``bucket_fill`` and ``grad_none``; a
    ``grad_travel`` bound for its AccumulateGrad ends the words' time (the walk reaches it), as
    does a card growing (``node_appear``: a new forward pass, its buckets wait for the walk)."""

    def __init__(self, plan: Plan, truth: Truth) -> None:
        self.truth = truth
        self.told: dict[str, list[tuple[float, float, bool]]] = {}  # leaf -> (start, end, None?) by start
        self.names: dict[str, str] = {}
        leaf_of = {c.ids[0]: c.ids[1] for c in plan.cues if c.kind == "bucket_fill" and len(c.ids) > 1}
        for c in plan.cues:
            if c.kind == "bucket_reset" and c.ids:
                leaf, none = c.ids[0], c.text("after") == NONE_TEXT
            elif c.kind == "bucket_fill" and len(c.ids) > 1:
                leaf, none = c.ids[1], False
            elif c.kind == "grad_none" and c.ids:
                leaf, none = c.ids[0], True
            elif c.kind == "grad_travel" and len(c.ids) > 1 and c.ids[1] in leaf_of:  # a gradient bound for it
                leaf, none = leaf_of[c.ids[1]], False
            else:
                continue
            self.told.setdefault(leaf, []).append((c.start, c.start + c.duration, none))
            if none and c.text("name"):
                self.names[leaf] = c.text("name") or ""
        for marks in self.told.values():
            marks.sort()
        self.grows = [c.start for c in plan.cues if c.kind == "node_appear"]  # a forward pass: the words go

    def check(self, sample: Mapping[str, Any]) -> list[Untrue]:
        """A bucket told None (its cue finished, nothing written in it since) without its words;
        words shown while the log has a number in the bucket. A note's lines (``w.grad`` over
        ``= None``) are read top to bottom as one."""
        time = float(sample["time"])
        seen = visible(sample["items"])
        buckets = {it["id"][len("bucket:"):] for it in seen if it["kind"] == "shape" and it["role"] == "bucket"
                   and (it.get("id") or "").startswith("bucket:") and "->" not in it["id"]}
        rows: dict[str, list[tuple[float, float, str]]] = {}  # leaf -> its note's lines (top, left, text)
        for it in seen:
            if it["kind"] == "text" and (it.get("id") or "").startswith(NOTE) and it.get("text"):
                rows.setdefault(it["id"][len(NOTE):], []).append((it["bbox"][1], it["bbox"][0], it["text"]))
        joined = {leaf: " ".join(text for _, _, text in sorted(lines)) for leaf, lines in rows.items()}
        words = {leaf: text for leaf, text in joined.items() if ".grad" in text and text.endswith(NONE_TEXT)}
        out: list[Untrue] = []
        for leaf, text in words.items():
            allowed = self.truth.grad_texts(leaf, time)
            if None not in allowed:
                out.append(Untrue(time, "None words of bucket", leaf, text, said_texts(allowed)))
        for leaf in buckets:
            begun = [m for m in self.told.get(leaf, []) if m[0] <= time]
            if not begun or not begun[-1][2] or begun[-1][1] > time or any(begun[-1][0] < g <= time for g in self.grows):
                continue  # never told None, a number written since, the words still coming, or a forward pass since
            said = f"{self.names.get(leaf, '')}.grad"
            if not words.get(leaf, "").startswith(said):
                out.append(Untrue(time, "bucket told None", leaf, words.get(leaf, ""), (f"{said} = {NONE_TEXT}",)))
        return out
