"""The scene's own record of what it drew: role tags on shapes, and the walk that lists them.

Why tags where shapes are made: the builders that make a card, an arrow, a label or a caption
know what it is (``card``, ``value``, ``caption``) and whose it is (the tensor id of a card);
nothing later can tell a value from a name by looking at glyphs. :func:`tag` stores that on the
mobject (``.copy()`` keeps it, so a Transform's target carries it); :func:`items` walks the
scene's mobjects at one moment and lists every tagged one with its box in pixels and its opacity.
:func:`sample` plays a clip's steps without drawing (the player's begin / update / finish, no
camera, no encoder) and calls back at the frames asked for. ``render inspect`` prints the items
(docs/inspect.md); :mod:`scenes.draw.collisions` checks them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import numpy as np

ATTR = "gradreel_tag"
"""The attribute a tag is stored under on a mobject."""


@dataclass(frozen=True)
class Tag:
    """What a shape is: ``kind`` "text" or "shape", its ``role`` (caption, code, label, value,
    badge, title, console, card, arrow, bucket...), the string it shows, whose it is, and the
    ``meaning`` of the visual grammar it stands for (``Theme.meanings``: a loss's card, a
    gradient's arrow), said by the builder from what the log says it is, never from its colour."""

    kind: str
    role: str
    text: str | None = None
    id: str | None = None
    meaning: str | None = None


def tag(mob: Any, role: str | None, *, text: str | None = None, id: str | None = None,
        kind: str | None = None, meaning: str | None = None) -> Any:
    """Tag ``mob`` (and return it). A text tag keeps the text, id and meaning it had unless
    given; ``role=None`` removes the tag (a copy drawn as a halo is not a second label)."""
    if role is None:
        if hasattr(mob, ATTR):
            delattr(mob, ATTR)
        return mob
    old: Tag | None = getattr(mob, ATTR, None)
    kind = kind or (old.kind if old is not None else ("text" if text is not None else "shape"))
    if text is None and old is not None:
        text = old.text
    setattr(mob, ATTR, Tag(kind, role, text, id if id is not None else (old.id if old is not None else None),
                           meaning if meaning is not None else (old.meaning if old is not None else None)))
    return mob


def tag_of(mob: Any) -> Tag | None:
    return getattr(mob, ATTR, None)


def _points(mob: Any) -> Iterator[Any]:
    for m in mob.get_family():
        pts = getattr(m, "points", None)
        if pts is not None and len(pts):
            yield m, pts


def _opacity(shapes: Iterable[Any]) -> float:
    """How opaque ``shapes`` draw together: the largest alpha of their fills and of the strokes
    that are drawn (stroke width above 0), in one reduction over all of them."""
    alphas = []
    for m in shapes:
        fill = getattr(m, "fill_rgbas", None)
        if fill is not None and len(fill):
            alphas.append(fill[:, 3])
        stroke = getattr(m, "stroke_rgbas", None)
        if stroke is not None and len(stroke) and (getattr(m, "stroke_width", 0) or 0) > 0:
            alphas.append(stroke[:, 3])
    return float(np.concatenate(alphas).max()) if alphas else 0.0


class Frame:
    """Scene units to pixels from the top-left corner, for one frame size."""

    def __init__(self, pixel_width: int, pixel_height: int, frame_width: float, frame_height: float) -> None:
        self.pw, self.ph, self.fw, self.fh = pixel_width, pixel_height, frame_width, frame_height

    def box(self, x0: float, y0: float, x1: float, y1: float) -> list[float]:
        kx, ky = self.pw / self.fw, self.ph / self.fh
        return [round((x0 + self.fw / 2) * kx, 1), round((self.fh / 2 - y1) * ky, 1),
                round((x1 + self.fw / 2) * kx, 1), round((self.fh / 2 - y0) * ky, 1)]


def _walk(mobs: Iterable[Any], inside_text: bool, out: list[tuple[Any, Tag]]) -> None:
    for m in mobs:
        t = tag_of(m)
        if t is not None and not (inside_text and t.kind == "text"):
            out.append((m, t))
        _walk(m.submobjects, inside_text or (t is not None and t.kind == "text"), out)


def tagged(mobs: Iterable[Any]) -> list[tuple[Any, Tag]]:
    """Every tagged shape in ``mobs`` and their families, outer texts only, as :func:`items`
    lists them (a scene's drawers ask what is on screen where, to keep off it)."""
    found: list[tuple[Any, Tag]] = []
    _walk(mobs, False, found)
    return found


def _hex(rgba: Any) -> str:
    return "#" + "".join(f"{round(float(v) * 255):02x}" for v in rgba[:3])


def colour(parts: Iterable[Any]) -> str | None:
    """The colour a shape shows, as ``#rrggbb``: the first drawn stroke of its parts (a card's
    outline, an arrow, a bucket's rim), else the first visible fill (a text's glyphs, a badge's
    pill); None when nothing of it shows."""
    first_fill = None
    for m in parts:
        stroke = getattr(m, "stroke_rgbas", None)
        if stroke is not None and len(stroke) and (getattr(m, "stroke_width", 0) or 0) > 0 and stroke[0][3] > 0:
            return _hex(stroke[0])
        if first_fill is None:
            fill = getattr(m, "fill_rgbas", None)
            if fill is not None and len(fill) and fill[0][3] > 0:
                first_fill = fill[0]
    return None if first_fill is None else _hex(first_fill)


def opacity(mob: Any) -> float:
    """How opaque a shape and its family draw now: the largest of its parts' (see ``items``)."""
    return _opacity(s for s, _ in _points(mob))


def items(scene: Any, frame: Frame) -> list[dict[str, Any]]:
    """Every tagged shape on screen now, in drawing order: ``{kind, role, text, bbox, opacity,
    id, colour, meaning}``, ``bbox`` ``[x0, y0, x1, y1]`` in pixels from the top-left corner,
    ``colour`` what :func:`colour` reads. A text inside a tagged text (the number on a badge) is
    the outer one's; a shape without points is left out."""
    from manim.utils.iterables import list_update

    found: list[tuple[Any, Tag]] = []
    _walk(list_update(scene.mobjects, scene.foreground_mobjects), False, found)
    out = []
    for m, t in sorted(found, key=lambda mt: mt[0].z_index):  # Cairo's order: by z_index, then as added
        parts = list(_points(m))
        if not parts:
            continue
        pts = np.concatenate([p[:, :2] for _, p in parts])  # one reduction each way, not one per part
        (xs0, ys0), (xs1, ys1) = pts.min(axis=0).tolist(), pts.max(axis=0).tolist()
        out.append({"kind": t.kind, "role": t.role, "text": t.text, "bbox": frame.box(xs0, ys0, xs1, ys1),
                    "opacity": round(_opacity(s for s, _ in parts), 3), "id": t.id,
                    "colour": colour(s for s, _ in parts), "meaning": t.meaning})
    return out


def carry_tags(animations: list[Any]) -> None:
    """A finished Transform leaves its mobject (with the tags it had) showing the target: give
    the mobject's family the target's tags, member by member (Transform aligned the families).
    Called at the end of every play, a render's as inspect's (`ClipScene.step_done`): once only
    inspect did, and a render placed what came next around shapes inspect no longer listed."""
    todo = list(animations)
    while todo:
        a = todo.pop()
        todo += getattr(a, "animations", [])
        target = getattr(a, "target_copy", None)
        if target is None or getattr(a, "mobject", None) is None:
            continue
        for m, t in zip(a.mobject.get_family(), target.get_family()):
            new = tag_of(t)
            if new is None:
                tag(m, None)
            else:
                setattr(m, ATTR, new)


def sample(scene: Any, steps: Iterable[Any], fps: int, frames: Iterable[int],
           seen: Callable[[int, bool], None]) -> None:
    """Play ``steps`` (one clip's, in order, from the scene's start) without drawing, calling
    ``seen(frame, same)`` with the scene as it is at each of ``frames`` (sorted): mid-animation
    inside a play (at the time the player draws that frame), else after the steps before it.
    ``same``: nothing was played since the frame reported before (a hold draws one picture, so
    what is on screen need not be listed again)."""
    from scenes.video.player import _begin, _end

    want = sorted(set(frames))
    k, cur = 0, 0
    moved = True

    def until(limit: int) -> None:  # report the frames before ``limit`` with the scene as it is
        nonlocal k, moved
        while k < len(want) and want[k] < limit:
            seen(want[k], not moved)
            moved = False
            k += 1

    for st in steps:
        if k == len(want):  # every frame asked for is seen: the rest need not be played
            return
        cur += st.hold
        until(cur)
        if not st.frames:
            continue
        anims = scene.step_animations(st.actions)
        moved = True  # a step may add or take away shapes even where it plays no animation
        if anims:
            _begin(scene, anims, st.frames, fps)
            while k < len(want) and want[k] < cur + st.frames:
                scene.update_to_time((want[k] - cur) / fps)
                seen(want[k], False)
                k += 1
            _end(scene)  # the scene carries its shapes' tags (`carry_tags`), as in a render
        cur += st.frames
        until(cur)
    until(1 << 62)
