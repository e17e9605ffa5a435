"""A clip's thumbnail on the course page: its poster cropped to the picture it teaches.

Why not the poster itself: a poster is the whole frame (the code pane, the console, the legend
and the graph beside them), and a course page shows it a few centimetres wide, where the
graph's cards are a blur of 2-px text. The subject is the graph the clip draws: the crop is the
box of the graph's shapes where the poster's frame draws them (noted in the poster by the render
that drew it, :mod:`scenes.render.poster_box`, as ``render inspect`` reads a frame; a graph grown
into the frame the code pane freed is larger and elsewhere than the clip's layout has it at
home), widened to the thumbnail's shape, on the
poster's closing picture (the filled buckets, the numbers the takeaway names); what lies outside the graph's box is left out
(the frame's background instead), whole: no sliver of the code pane shows at the edge. A clip whose picture is not the graph's cards
(the network, a curve) fills its frame already: its thumbnail is the whole poster, on the
frame's background above and below so that every thumbnail has one shape. Nothing is
chosen by hand: the box comes from the frame, the frame from the poster rule
(:mod:`scenes.render.poster`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scenes.storyboard.store import THUMB_ENDING
from scenes.theme import Theme

THUMB_SHAPE = 4 / 3
"""Width over height of every thumbnail: a graph is taller than wide, the frame wider than tall."""

THUMB_WIDTH = 640
"""At most this many pixels wide (a phone's column at twice its density), never enlarged."""

LEAST_HEIGHT = 0.55
"""A crop is at least this share of the frame's height: a two-card graph is shown large, not
magnified until the poster's pixels show."""

Box = tuple[float, float, float, float]


def thumb_name(name: str) -> str:
    """``NAME.thumb.png``: the thumbnail's file, beside the clip's poster (no storyboard's name
    ends in ``.thumb``: :func:`scenes.storyboard.store.name_problem`)."""
    return f"{name}{THUMB_ENDING}.png"


def _aspect_of(size: tuple[int, int]) -> str:
    """The aspect a poster of ``size`` pixels was rendered at."""
    w, h = size
    return "16:9" if w > h * 1.2 else "9:16" if h > w * 1.2 else "1:1"


def subject_box(checked: Any, plan: Any, theme: Theme, size: tuple[int, int],
                noted: tuple[bool, Box | None] = (False, None)) -> Box | None:
    """The graph's box in the poster's pixels (``x0, y0, x1, y1``, top-left origin), a gap
    around it, where the poster's frame draws it (a graph grown into the frame the code pane
    freed is not where the clip's layout has it at home); None when the clip draws no graph of
    cards (its whole frame is the subject) or the frame shows none. ``noted``: whether the render
    that drew the poster noted where (:mod:`scenes.render.poster_box`), and the box; where it did
    not (a beat drawn on another machine), the clip is played up to the poster (`poster_items`)."""
    if not any(c.kind == "node_appear" for c in plan.cues):
        return None
    known, box = noted
    gap = theme.spacing.item_gap * size[1] / theme.aspect(_aspect_of(size)).frame_height
    if not known:
        return drawn_box(poster_items(checked, plan, theme, size), gap)
    return _around(box, gap)


def drawn_box(items: list[dict[str, Any]], gap: float) -> Box | None:
    """The box round the graph's shapes among ``items`` (`scenes.render.fill.graph_box`: its
    cards, buckets, arrows, badges and their texts), ``gap`` pixels around it; None where none shows.

    >>> card = {"kind": "shape", "role": "card", "text": None, "bbox": [500, 40, 560, 80], "opacity": 1.0, "id": "t1"}
    >>> code = {"kind": "text", "role": "code", "text": "x", "bbox": [10, 0, 400, 20], "opacity": 1.0, "id": "line 1"}
    >>> drawn_box([card, code], 6.0)
    (494.0, 34.0, 566.0, 86.0)
    """
    from scenes.render.fill import graph_box

    return _around(graph_box(items), gap)


def _around(box: Box | None, gap: float) -> Box | None:
    """``box`` with ``gap`` pixels around it (None stays None)."""
    return None if box is None else (box[0] - gap, box[1] - gap, box[2] + gap, box[3] + gap)


def poster_items(checked: Any, plan: Any, theme: Theme, size: tuple[int, int]) -> list[dict[str, Any]]:
    """What the poster's frame shows (`render inspect`'s items at the poster's time,
    :mod:`scenes.render.poster`), in a frame of ``size`` pixels at the aspect it has: the clip
    played as a render plays it at that aspect (its camera and whole-graph moves,
    `scenes.render.camera_plan.plan_at`), without drawing a frame."""
    from scenes.render.camera_plan import plan_at
    from scenes.render.inspect import inspect_clip
    from scenes.render.options import RenderOptions, fps_of
    from scenes.render.poster import poster_time

    aspect = _aspect_of(size)
    p = plan_at(checked, plan, aspect, theme)
    opts = RenderOptions(aspect=aspect, size=size, voice="off", voice_key="off")
    at = poster_time(p, theme.timings.caption_fade, fps_of(opts))
    return next(iter(inspect_clip(checked, p, opts, at=[at])))["items"]


def crop_box(subject: Box | None, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The thumbnail's crop of a frame of ``size``: ``subject`` widened (or heightened) about
    its centre to :data:`THUMB_SHAPE`, at least :data:`LEAST_HEIGHT` of the frame tall, and
    moved inside the frame; without a subject, the whole frame.

    >>> crop_box((500, 20, 740, 390), (854, 480))  # a tall graph right of the code pane
    (361, 20, 854, 390)
    >>> crop_box(None, (854, 480))
    (0, 0, 854, 480)
    """
    w, h = size
    if subject is None:
        return (0, 0, w, h)
    x0, y0, x1, y1 = subject
    ch = min(h, max(y1 - y0, (x1 - x0) / THUMB_SHAPE, h * LEAST_HEIGHT))
    cw = min(w, ch * THUMB_SHAPE)
    ch = cw / THUMB_SHAPE
    left = min(max(0.0, (x0 + x1) / 2 - cw / 2), w - cw)
    top = min(max(0.0, (y0 + y1) / 2 - ch / 2), h - ch)
    return (round(left), round(top), round(left + cw), round(top + ch))


def whole_things(ink: Any, box: tuple[int, int, int, int], reach: int) -> Any:
    """Where to keep the frame's pixels: each drawn thing (``ink``'s connected patches, a
    boolean array of rows by columns, joined across a glyph's gaps) that lies inside ``box``
    grown by ``reach``, whole; what runs further out (the code pane, a board of numbers beside
    the graph) is left out whole, not cut into a sliver at the box's edge. A label of the graph
    that runs a little past the box (a bucket's ``AccumulateGrad``) stays whole.

    >>> import numpy as np
    >>> ink = np.zeros((40, 80), bool); ink[16:24, 30:44] = True  # a card
    >>> ink[10:30, 0:14] = True; ink[34, 50:58] = True  # a board the box cuts, a label running out of it
    >>> kept = whole_things(ink, (10, 4, 60, 33), 6)
    >>> bool(kept[20, 35]), bool(kept[20, 12]), bool(kept[34, 57])
    (True, False, True)
    """
    import numpy as np
    from scipy import ndimage

    x0, y0, x1, y1 = box
    h, w = ink.shape
    gx0, gy0, gx1, gy1 = max(0, x0 - reach), max(0, y0 - reach), min(w, x1 + reach), min(h, y1 + reach)
    joined = ndimage.binary_dilation(ink, np.ones((5, 13), bool))  # a line of words, a card and its text: one thing
    things, n = ndimage.label(joined)
    keep = np.zeros(n + 1, bool)
    for k, where in enumerate(ndimage.find_objects(things), start=1):
        if where is not None:
            ys, xs = where
            keep[k] = gx0 <= xs.start and xs.stop <= gx1 and gy0 <= ys.start and ys.stop <= gy1 \
                and xs.start < x1 and xs.stop > x0 and ys.start < y1 and ys.stop > y0
    return keep[things]


INK = 24
"""How far (the sum over R, G and B) a pixel is from the background to count as drawn: a
video's colours wander a few steps from the theme's around what is drawn."""

STRONG = 2 * INK
"""A patch of pixels past :data:`INK` counts as drawn only where one of them is this far from the
background: a panel's fill (a recap board's, 20 to 23 from the frame's) sits at :data:`INK`,
and the video's noise lifts strips of its edge over it, which would join the board to the graph."""


def drawn(pixels: Any, background: Any) -> Any:
    """Which of ``pixels`` (rows by columns by RGB) are drawn: past :data:`INK` from
    ``background``, in a patch holding a pixel past :data:`STRONG`.

    >>> import numpy as np
    >>> px = np.zeros((4, 8, 3), int); px[1, 1] = 10; px[1, 2] = 30; px[1, 6] = 10  # a glyph's edge, its core, noise
    >>> drawn(px, np.zeros(3, int))[1].tolist()
    [False, True, True, False, False, False, False, False]
    """
    import numpy as np
    from scipy import ndimage

    far = np.abs(pixels - background).sum(axis=2)
    patches, n = ndimage.label(far > INK, np.ones((3, 3), bool))
    strong = np.zeros(n + 1, bool)
    strong[np.unique(patches[far > STRONG])] = True
    strong[0] = False
    return strong[patches]


def thumbnail(poster: Path, checked: Any, plan: Any, theme: Theme) -> tuple[bytes, tuple[int, int]]:
    """The thumbnail of the clip whose poster is ``poster``, as PNG bytes, and its size."""
    import io

    import numpy as np
    from PIL import Image

    from scenes.render import poster_box

    with Image.open(poster) as im:
        frame = im.convert("RGB")
        noted = poster_box.read_chunk(getattr(im, "text", {}).get(poster_box.CHUNK))
    background = frame.getpixel((0, 0))  # the frame's margin, as encoded (the theme's colour, shifted a step)
    subject = subject_box(checked, plan, theme, frame.size, noted)
    if subject is not None:  # only the graph: a sliver of the code pane or of a board reads as a cut word
        pixels = np.asarray(frame, dtype=np.int16)
        ink = drawn(pixels, np.array(background, dtype=np.int16))
        box = tuple(round(v) for v in subject)
        reach = round(theme.spacing.item_gap * frame.size[1] / theme.aspect(_aspect_of(frame.size)).frame_height)
        kept = whole_things(ink, (box[0], box[1], box[2], box[3]), reach)
        frame = Image.fromarray(np.where(kept[..., None], pixels, np.array(background)).astype(np.uint8))
    crop = frame.crop(crop_box(subject, frame.size))
    tall = round(crop.width / THUMB_SHAPE)
    if crop.height < tall:  # the whole frame, wider than a thumbnail: on the frame's background, centred
        padded = Image.new("RGB", (crop.width, tall), background)
        padded.paste(crop, (0, (tall - crop.height) // 2))
        crop = padded
    if crop.width > THUMB_WIDTH:
        crop = crop.resize((THUMB_WIDTH, round(THUMB_WIDTH * crop.height / crop.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    crop.save(out, "PNG", optimize=True)
    return out.getvalue(), crop.size
