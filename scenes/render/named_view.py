"""What a caption names stays in view while it is up: a check of the camera's moves over
``render inspect`` samples.

Why: the camera moves in on a visit by fading out what the close view leaves out (the walk's
camera, `scenes.render.camera_plan`; a beat's ``focus:``). A move made while the caption "reading
w.grad before backward gives None" is up takes w away as it is read (missing_gradient 16:9 at
13.93 s, issue 39): what is spoken about must stay on screen while it is spoken. A move that
takes a card out of view may start only once every caption naming that card (its tensor's
name, `scenes.storyboard.binding.named_tensors`) is gone. Pure: it reads the plan's moves and
caption spans and the samples' cards (docs/inspect.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scenes.storyboard.caption_events import explaining
from scenes.storyboard.cues import CAMERA_MOVES, note_gives_way, writes_note

SHOWN = 0.5
"""Opacity from which a card counts as in view."""


@dataclass(frozen=True)
class LeftNamed:
    """Card ``id`` taken out of view by the move starting at ``move`` while ``caption``, which
    names it, is up (to ``end``)."""

    id: str
    move: float
    end: float
    caption: str

    def describe(self) -> str:
        return (f"{self.move:.2f} s: the camera's move takes card {self.id} out of view while the caption "
                f"naming it is up (to {self.end:.2f} s): {self.caption!r}")


def in_view(sample: dict) -> frozenset[str]:
    """The cards of an inspect sample in view: at least ``SHOWN`` opaque, their centre in the frame."""
    return _shown(sample, "card")


def _shown(sample: dict, role: str) -> frozenset[str]:
    """The ids of ``role``'s items of an inspect sample at least ``SHOWN`` opaque, their centre in the frame."""
    w, h = sample["frame"]
    return frozenset(i["id"] for i in sample["items"] if i["role"] == role and i["id"] and i["opacity"] >= SHOWN
                     and 0 <= (i["bbox"][0] + i["bbox"][2]) / 2 <= w and 0 <= (i["bbox"][1] + i["bbox"][3]) / 2 <= h)


def left_named(plan: Any, names: Mapping[int, Iterable[str]], seen: Iterable[tuple[float, frozenset[str]]]
               ) -> list[LeftNamed]:
    """The cards a move of ``plan`` takes out of view (in view at its start, not at its end;
    ``seen``: each sample's time and `in_view` cards, in time order) while a caption naming them
    (``names``: a caption span's index -> the tensor ids its words name) is up.

    >>> from types import SimpleNamespace as S
    >>> cap = S(index=1, start=10.0, end=14.8, text="reading w.grad gives None")
    >>> plan = S(cues=[S(kind="camera", start=13.9, duration=0.6)], captions=[cap])
    >>> seen = [(13.8, frozenset({"t1", "t5"})), (14.6, frozenset({"t5"}))]
    >>> [x.describe() for x in left_named(plan, {1: {"t1"}}, seen)]
    ["13.90 s: the camera's move takes card t1 out of view while the caption naming it is up (to 14.80 s): 'reading w.grad gives None'"]
    >>> left_named(S(cues=[S(kind="camera", start=14.8, duration=0.6)], captions=[cap]), {1: {"t1"}}, seen + [(15.4, frozenset())])
    []
    """
    frames = list(seen)
    out: list[LeftNamed] = []
    for m in (c for c in plan.cues if c.kind in CAMERA_MOVES):
        end = m.start + m.duration
        before = [v for t, v in frames if t <= m.start + 1e-6]
        after = [v for t, v in frames if t >= end - 1e-6]
        if not before or not after:
            continue
        left = before[-1] - after[0]
        for cap in plan.captions:
            if cap.start < end - 1e-6 and cap.end > m.start + 1e-6:
                out += [LeftNamed(k, m.start, cap.end, cap.text) for k in sorted(left & set(names.get(cap.index, ())))]
    return out


@dataclass(frozen=True)
class RuleGone:
    """The note of the visit to ``id`` (written at ``visit``) not shown at ``time``, while the
    caption explaining it, ``caption``, is up (to ``end``)."""

    id: str
    visit: float
    time: float
    end: float
    caption: str

    def describe(self) -> str:
        return (f"{self.time:.2f} s: the rule of the visit to {self.id} ({self.visit:.2f} s) is no longer shown while "
                f"the caption explaining it is up (to {self.end:.2f} s): {self.caption!r}")


def notes_shown(sample: dict) -> frozenset[str]:
    """The ids of the visits' notes (``note:t6``) of an inspect sample shown: a row at least
    ``SHOWN`` opaque, its centre in the frame."""
    return _shown(sample, "note")


def rules_gone(plan: Any, seen: Iterable[tuple[float, frozenset[str]]]) -> list[RuleGone]:
    """The visits' notes that go while the caption explaining them runs: a visit that writes a
    note (`writes_note`) is explained by the caption up as it starts; once written (shown at the
    visit's end) the note is shown (``seen``: each sample's time and `notes_shown`, in time
    order) until that caption ends, or until the next cue it gives way to (`note_gives_way`), if
    sooner (REVIEW7 item 4: backward_walk 9:16's
    mul rule faded as the camera closed on w2 while "and s gets the gradient times w2" ran).

    >>> from types import SimpleNamespace as S
    >>> cap = S(start=34.6, end=41.03, text="Mul gets 4/3 and swaps values")
    >>> mul = S(kind="visit", start=34.6, duration=0.5, ids=("n4", "t6"), strings=[S(role="rule")])
    >>> w2 = S(kind="visit", start=40.03, duration=0.5, ids=("n1", "t2"), strings=[S(role="grad")])
    >>> plan = S(cues=[mul, w2], captions=[cap])
    >>> seen = [(35.2, frozenset({"note:t6"})), (40.0, frozenset({"note:t6"})), (40.5, frozenset())]
    >>> [x.describe() for x in rules_gone(plan, seen)]
    ["40.50 s: the rule of the visit to t6 (34.60 s) is no longer shown while the caption explaining it is up (to 41.03 s): 'Mul gets 4/3 and swaps values'"]
    >>> rules_gone(plan, seen[:2] + [(41.1, frozenset())])
    []
    """
    frames = list(seen)
    out: list[RuleGone] = []
    for v in (c for c in plan.cues if c.kind == "visit" and len(c.ids) > 1 and writes_note(plan.cues, c)):
        cap = explaining(plan.captions, v)
        if cap is None:
            continue
        later = [c.start for c in plan.cues if c.start > v.start + 1e-6 and note_gives_way(plan.cues, c)]
        until = min([cap.end, *later])
        note = f"note:{v.ids[1]}"
        span = [(t, shown) for t, shown in frames if v.start + v.duration - 1e-6 <= t < until - 1e-6]
        if not span or note not in span[0][1]:
            continue  # nothing written (a packed graph's visit), or not by the visit's end
        gone = next((t for t, shown in span if note not in shown), None)
        if gone is not None:
            out.append(RuleGone(v.ids[1], v.start, gone, cap.end, cap.text))
    return out
