"""Whether the subject fills the frame: pure functions over one `render inspect` sample's items.

Why: a clip can be clean of collisions and still be small, crowd the frame's edge, or leave a
third of the picture empty while it teaches (issue 39, item 4). Each rule is measured here on
the items' boxes in pixels (docs/inspect.md) and its thresholds come from the theme
(``font_sizes.min_glyph_main_px``, ``aspects.*.safe_edge``, ``layout.fill_*``); the frame checks
of tests/watchers/placement.py read the samples of a clip through them.

- `near_edge`: a visible item closer to the frame's edge than ``safe_edge`` of the frame's width
  (left, right) or height (top, bottom). The caption bar is no exception: it is a box inside the
  margins, not a full-width band, so its lines keep the margin too.
- `graph_fraction`: the share of the frame's area the graph's (or network's) bounding box takes.
- `largest_empty`: the largest rectangle of the frame (inside its safe margin) that no visible
  item touches, as a share of the frame's area.
"""

from __future__ import annotations

from typing import Any, Iterable

from scenes.draw.collisions import Collision, visible

Item = dict[str, Any]

GRAPH_ROLES = frozenset({"card", "bucket", "arrow", "badge", "unit"})
"""Shapes that are the graph (or the network) itself."""
CHROME = frozenset({"code", "code_bar", "pane", "console", "caption", "title", "takeaway", "panel"})
"""Roles that are not the graph: the code pane (its lines, bar and backdrop), what it prints, the
captions and titles."""
OUTSIDE_TEACHING = frozenset({"title", "takeaway"})
"""Roles whose presence says the clip is opening or closing, not teaching."""


def _owned(item: Item) -> bool:
    """A text that belongs to a graph node: a card's (``t4``) or a bucket's (``bucket:t1``)."""
    ident = item.get("id") or ""
    return ident.startswith("bucket:") or (ident[:1] == "t" and ident[1:2].isdigit())


def is_graph(item: Item) -> bool:
    """Whether ``item`` is part of the graph or network: one of `GRAPH_ROLES`, or a text of a
    node (its name, value, op name or grad_fn)."""
    return item["role"] in GRAPH_ROLES or (item["role"] not in CHROME and _owned(item))


def near_edge(items: Iterable[Item], frame: tuple[float, float] | list[float], edge: float) -> list[Collision]:
    """Every visible item of one frame closer to an edge than ``edge`` (a fraction) of the
    frame's width (left and right) or height (top and bottom). Touching it (`TOUCH`) is fine;
    a ``panel`` (a backdrop in the background's colour) has no edge to see. A ``ring`` round a
    card (the walk's glow, a light's) keeps it too, by its outline: a card at the margin ringed
    by the takeaway reached into it (backward_graph 9:16, 3 px at 1080p).

    >>> t = {"kind": "text", "role": "value", "text": "y", "bbox": [12, 200, 30, 212], "opacity": 1.0, "id": "t3"}
    >>> [c.what for c in near_edge([t], (480, 854), 0.03)], near_edge([t], (480, 854), 0.02)
    (['within 3% of the edge'], [])
    """
    from scenes.draw.collisions import TOUCH

    width, height = frame
    mx, my = edge * width - TOUCH, edge * height - TOUCH
    out = []
    for i in visible(items):
        if i["role"] == "panel":  # a backdrop shows no edge
            continue
        x0, y0, x1, y1 = i["bbox"]
        if x0 < mx or y0 < my or x1 > width - mx or y1 > height - my:
            out.append(Collision(f"within {edge * 100:g}% of the edge", i))
    return out


def graph_box(items: Iterable[Item]) -> tuple[float, float, float, float] | None:
    """The bounding box of the visible graph items (`is_graph`), or None when none shows."""
    boxes = [i["bbox"] for i in visible(items) if is_graph(i)]
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def graph_fraction(items: Iterable[Item], frame: tuple[float, float] | list[float]) -> float:
    """The share of the frame's area that the graph's bounding box (`graph_box`) takes.

    >>> card = {"kind": "shape", "role": "card", "text": None, "bbox": [0, 0, 427, 240], "opacity": 1.0, "id": "t1"}
    >>> code = {"kind": "text", "role": "code", "text": "x", "bbox": [500, 0, 854, 480], "opacity": 1.0, "id": "line 1"}
    >>> graph_fraction([card, code], (854, 480))
    0.25
    """
    box = graph_box(items)
    if box is None:
        return 0.0
    width, height = frame
    x0, y0, x1, y1 = max(box[0], 0), max(box[1], 0), min(box[2], width), min(box[3], height)
    return max(0.0, x1 - x0) * max(0.0, y1 - y0) / (width * height)


def teaching(items: Iterable[Item]) -> bool:
    """Whether the frame teaches: no title and no takeaway shows (`OUTSIDE_TEACHING`)."""
    return not any(i["role"] in OUTSIDE_TEACHING for i in visible(items))


def largest_empty(items: Iterable[Item], frame: tuple[float, float] | list[float], edge: float,
                  cells: int = 32) -> tuple[float, tuple[float, float, float, float]]:
    """The largest rectangle inside the frame's safe margin (``edge`` of each side) that no
    visible item's box touches, as a share of the whole frame's area, and that rectangle in
    pixels. Measured on a grid of ``cells`` x ``cells`` (a cell touched by a box is full), with
    the largest-rectangle-in-a-histogram sweep: a coarse grid errs towards full.

    >>> card = {"kind": "shape", "role": "card", "text": None, "bbox": [0, 0, 854, 238], "opacity": 1.0, "id": "t1"}
    >>> share, box = largest_empty([card], (854, 480), 0.0)
    >>> round(share, 2), [round(v) for v in box]
    (0.5, [0, 240, 854, 480])
    """
    width, height = frame
    x0, y0 = edge * width, edge * height
    cw, ch = (width - 2 * x0) / cells, (height - 2 * y0) / cells
    full = [[False] * cells for _ in range(cells)]
    for i in visible(items):
        bx0, by0, bx1, by1 = i["bbox"]
        c0, c1 = max(0, int((bx0 - x0) // cw)), min(cells - 1, int((bx1 - x0) // cw))
        r0, r1 = max(0, int((by0 - y0) // ch)), min(cells - 1, int((by1 - y0) // ch))
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                full[r][c] = True
    best, where = 0, (0, 0, 0, 0)
    heights = [0] * cells
    for r in range(cells):
        heights = [0 if full[r][c] else heights[c] + 1 for c in range(cells)]
        stack: list[int] = []
        for c in range(cells + 1):
            h = heights[c] if c < cells else 0
            while stack and heights[stack[-1]] >= h:
                top = stack.pop()
                left = stack[-1] + 1 if stack else 0
                area = heights[top] * (c - left)
                if area > best:
                    best, where = area, (left, r - heights[top] + 1, c, r + 1)
            stack.append(c)
    c0, r0, c1, r1 = where
    rect = (x0 + c0 * cw, y0 + r0 * ch, x0 + c1 * cw, y0 + r1 * ch)
    return best * cw * ch / (width * height), rect
