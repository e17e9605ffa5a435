"""How full a gradient bucket is drawn: the one rule of the series, for the clip and the article's
figures alike (docs/visual-grammar.md, "A bucket's level").

A bucket's level is its ``.grad`` over the largest ``.grad`` that bucket holds in the clip: the
fullest it gets is full to the brim, so a single fill is full, and gradients gathering in one
bucket read as parts of that (grad_accumulation: 6 then 12 is half then full, and the 6 after
``w.grad = None`` is half again). Buckets are not compared with each other (leaf_nodes' 1/2
and 1 are both full): each holds its own weight's gradient. A level says how much has gathered,
so a negative ``.grad`` shows none, its number carrying the sign; an empty bucket (``None``) and
``zero_grad``'s 0 show none either. Levels come from the logged numbers, never from the rounded
text a storyboard's number style prints.
"""

from __future__ import annotations

from typing import Any


def fill_scales(plan: Any) -> dict[str, float]:
    """Per leaf, the largest |.grad| the clip's fills reach: its bucket is full at that value."""
    top: dict[str, float] = {}
    for c in plan.cues:
        if c.kind == "bucket_fill" and len(c.ids) > 1:
            top[c.ids[1]] = max(top.get(c.ids[1], 0.0), abs(c.number("after") or 0.0))
    return top


def fill_level(grad: float | None, top: float | None) -> float:
    """A bucket's level, 0 to 1, for ``grad`` out of the clip's largest ``top`` for that bucket
    (`fill_scales`; none known: out of 1): none for a negative ``.grad`` or none at all.

    >>> fill_level(6, 12), fill_level(12, 12), fill_level(-1.0, 2.0), fill_level(None, 2.0), fill_level(0.5, None)
    (0.5, 1.0, 0.0, 0.0, 0.5)
    """
    return min(1.0, max(grad or 0.0, 0.0) / (top or 1.0))
