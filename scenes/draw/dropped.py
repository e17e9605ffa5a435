"""Bucket values the drawing would drop, asked of the function that draws them.

Why: a bucket sized by the layout for a value `layout.value_chars` wide draws a longer value
(``-0.3715`` in a compact graph) below the least readable size, so `bucket` leaves it out, and
the viewer never sees that ``.grad``. `render check` reports it; to say so it calls `bucket`
itself, at each aspect's layout, so the rule is the drawing's own, not a copy. Manim is loaded
only for a value longer than the layout plans (the only ones that can fail to fit a text-sized
bucket), so checking a small clip stays fast.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scenes.layout.place import Layout


def dropped_bucket_values(plan: Any, layouts: Mapping[str, Layout], theme: Any) -> list[tuple[int, str, str]]:
    """``(beat, aspect, "w0.grad = -0.3715")`` for each bucket value `bucket` would not draw
    (its fitted size under `font_sizes.min_readable`), the first beat that shows it."""
    fills = [(c.beat, c.ids[1] if c.kind == "bucket_fill" else c.ids[0], c.text("name"), c.text("after"))
             for c in plan.cues if c.kind in ("bucket_fill", "bucket_reset") and c.ids]
    long = [(beat, leaf, name, text) for beat, leaf, name, text in fills
            if text is not None and len(text) > theme.layout.value_chars]
    if not long:
        return []
    from scenes.draw.visuals import bucket  # Manim: only for a value wider than planned

    out: list[tuple[int, str, str]] = []
    for aspect, lay in layouts.items():
        seen: set[tuple[str, str]] = set()
        for beat, leaf, name, text in long:
            box = lay.boxes.get(f"bucket:{leaf}")
            if box is None or (leaf, text) in seen:
                continue
            seen.add((leaf, text))
            if bucket(box, theme, value=text, scale=lay.scale).value is None:
                out.append((beat, aspect, f"{name or leaf}.grad = {text}"))
    return out
