"""Does the closing picture show what the takeaway names? `render inspect` samples against the plan.

Why: the takeaway is the sentence a viewer leaves with ("w1.grad is 8/3 and w2.grad is 4/9"); a
closing picture that has erased those numbers, or never drew them, asks the viewer to take them on
trust. Each number (or grad_fn) a takeaway caption names is a placeholder filled from the log (its
``strings``); while that caption is up, some item of the picture other than the caption bar must
show it, at least ``SHOWN`` opaque. And the takeaway is set at one size (``one_size``), not the
title's for an event that fits it and the narration's for the next. A number counts as shown inside a longer text (``12`` in
``tensor(12.)``) but not as a piece of another number (``1`` in ``1/2``, ``8/3`` in ``8/35``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from scenes.draw.collisions import visible
from scenes.storyboard.caption_events import CaptionSpan
from scenes.storyboard.plan import Plan

SPREAD = 1.25
"""Largest ratio of two takeaway lines' estimated font sizes (`em`) that still reads as one size:
the title's size beside the narration's is about 1.7."""
RISE, XHEIGHT, DROP = 0.76, 0.55, 0.24
"""Where a line's glyphs reach, in ems (DejaVu, as its outlines' boxes give them): a capital, digit or
tall letter's top, a short letter's top, a descender's bottom below the baseline."""
_TALL = re.compile(r"[A-Z0-9bdfhijklt()\[\]{}/|'\"!?%&#@$]")
_LOW = re.compile(r"[gjpqy,;()\[\]{}|_QJ@$]")
SHOWN = 0.5
"""Opacity an item must have for what it says to count as on screen (a dimmed card's 0.2 does not)."""
CAPTION_ROLES = frozenset({"caption", "title", "takeaway"})
"""The caption bar's texts: the takeaway saying a number is not the picture showing it."""


@dataclass(frozen=True)
class Unshown:
    """A text the takeaway caption up at ``time`` names that no item of the picture shows."""

    time: float
    text: str
    caption: str

    def describe(self) -> str:
        return f"{self.text!r} named by the takeaway ({self.caption!r}) is not on screen at {self.time:.2f} s"


def shows(item_text: str, named: str) -> bool:
    """Whether ``item_text`` shows ``named`` as a whole number or name, not a piece of one.

    >>> shows("tensor(12.)", "12"), shows("8/3", "8/3"), shows("1/2", "1"), shows("8/35", "8/3")
    (True, True, False, False)
    >>> shows("w1.grad = tensor(2.6667)", "tensor(2.6667)"), shows("-0.0754", "0.0754")
    (True, False)
    """
    pattern = r"(?<![\w./-])" + re.escape(named) + r"(?![\w/]|\.\d)"
    return re.search(pattern, item_text) is not None


def unshown(items: Sequence[dict], named: Iterable[str], time: float, caption: str) -> list[Unshown]:
    """The texts of ``named`` that no visible item of one sample (``items``) shows, the caption
    bar's own lines aside.

    >>> bucket = {"kind": "text", "role": "value", "text": "8/3", "bbox": [0, 0, 9, 9], "opacity": 1.0, "id": "bucket:t1"}
    >>> bar = {"kind": "text", "role": "takeaway", "text": "w1.grad is 8/3 and w2.grad is 4/9.", "bbox": [0, 20, 90, 29],
    ...        "opacity": 1.0, "id": "takeaway"}
    >>> [u.text for u in unshown([bucket, bar], ["8/3", "4/9"], 65.0, bar["text"])]
    ['4/9']
    """
    texts = [i["text"] for i in visible(items)
             if i["kind"] == "text" and i["role"] not in CAPTION_ROLES and i["opacity"] >= SHOWN and i["text"]]
    return [Unshown(time, n, caption) for n in dict.fromkeys(named) if not any(shows(t, n) for t in texts)]


def em(text: str, height: float) -> float:
    """The font size (in pixels per em) a line ``text`` whose box is ``height`` pixels tall is set
    at: its box spans from its tallest glyph's top to its lowest glyph's bottom, so a line without
    descenders is shorter at the same size.

    >>> round(em("Gradients from several paths add,", 18.9), 1), round(em("to 12 after two: clear it before", 15.1), 1)
    (18.9, 19.9)
    >>> round(em("Both find -0.0754 for w1_0_0.", 19.2), 1)  # an underscore reaches below the baseline
    19.2
    """
    top = RISE if _TALL.search(text) else XHEIGHT
    return height / (top + (DROP if _LOW.search(text) else 0.0))


def one_size(lines: Iterable[tuple[str, float]]) -> bool:
    """Whether the takeaway's lines (text, box height in pixels) are set at one size (`em`).

    >>> one_size([("Each node multiplied the gradient", 18.8), ("to 12 after two: clear it before", 15.1)])
    True
    >>> one_size([("Each node multiplied the gradient", 18.8), ("w1.grad is 8/3 and w2.grad is 4/9.", 35.5)])
    False
    """
    got = [em(t, h) for t, h in lines if h > 0]
    return not got or max(got) <= SPREAD * min(got)


def takeaway_up(plan: Plan, time: float, fade: float) -> CaptionSpan | None:
    """The takeaway caption of ``plan`` up at ``time``, once it has faded in (``fade`` seconds)
    and the takeaway beat's cues that came by its start have drawn what they bring (the recap;
    not a light that comes later in it, or goes out as it ends), else None."""
    for c in plan.captions:
        if c.style != "takeaway" or not c.start <= time < c.end:
            continue
        drawn = max((q.start + q.duration for q in plan.cues if q.beat == c.beat and q.start <= c.start),
                    default=c.start)
        return c if time >= max(c.start + fade, drawn) else None
    return None
