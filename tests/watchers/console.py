"""Watchers of the console: what the program prints is readable and a beat's printed lines stay
on screen while the beat is on."""

from __future__ import annotations

from typing import Any

from scenes.draw.collisions import glyph_height
from scenes.layout.clip import first_sentence
from scenes.render.options import fps_of
from tests.frame_checks import Case, Spans


CONSOLE_CUES = ("output_line", "message")
"""The cue kinds that print: their lines are the console's."""


def _console(sample: dict) -> list[dict]:
    return [i for i in sample["items"] if i["role"] == "console" and i["opacity"] >= 0.5]


def _printed(cue: Any) -> str:
    """A console cue's line as the console shows it (words joined by one space): a message as
    Python prints its head and first sentence, an output line as its strings."""
    if cue.kind == "message":
        return f"{cue.text('type')}: {first_sentence(cue.text('message') or '')}"
    return " ".join("  ".join(s.text for s in cue.strings).split())


class AtTimes:
    """Looks at the first frame at or after each of ``due`` (the last frame, for a time past
    it): `look` is called with that sample. A subclass lists its times and what it looks for."""

    def __init__(self, due: list[float]) -> None:
        self.due = sorted(due)
        self.last: dict | None = None

    def see(self, sample: dict) -> None:
        self.last = sample
        while self.due and self.due[0] <= sample["time"] + 1e-6:
            self.look(self.due.pop(0), sample)

    def close(self) -> None:
        while self.due and self.last is not None:
            self.look(self.due.pop(0), self.last)

    def look(self, due: float, sample: dict) -> None: ...


class ConsoleReadable(Spans, AtTimes):
    """What the program prints is readable (tests/scene/test_console_text.py says why): when each
    console cue is done, every line of every console item at least half opaque has glyphs of
    ``font_sizes.min_glyph_px`` or more (each line measured on its share of the item's box, as
    `too_small` measures a text) and lies in the frame; a message shows as Python prints it."""

    def __init__(self, case: Case) -> None:
        Spans.__init__(self, case)
        cues = [c for c in case.plan.cues if c.kind in CONSOLE_CUES]
        AtTimes.__init__(self, [min(c.start + c.duration, case.plan.duration) for c in cues])
        self.messages = [_printed(c) for c in cues if c.kind == "message"]
        self.shown: set[str] = set()

    def look(self, due: float, sample: dict) -> None:
        width, height = sample["frame"]
        for i in _console(sample):
            self.shown.add(" ".join(i["text"].split()))
            x0, y0, x1, y1 = i["bbox"]
            lines = i["text"].split("\n")
            step = (y1 - y0) / len(lines)
            for k, line in enumerate(lines):
                px = glyph_height({**i, "text": line, "bbox": [x0, y0 + k * step, x1, y0 + (k + 1) * step]})
                if px < self.case.theme.font_sizes.min_glyph_px:
                    self.add(("small", line), due, f"{line!r} of {i['text']!r} has {px:.1f} px glyphs")
            if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
                self.add(("out", i["text"]), due, f"{i['text']!r} reaches out of the frame: {i['bbox']}")

    def found(self) -> list[str]:
        self.close()
        return self.lines() + [f"{self.case.name} {self.case.aspect}: the message is never shown as {m!r}"
                               for m in self.messages if m not in self.shown]


class BeatPrintsKept(Spans, AtTimes):
    """Where the printed lines' room is small, none of a beat's is scrolled away while the beat is
    on (missing_gradient's warning scrolled off under its ``None`` while the caption said "PyTorch
    warns"): at the last frame of each beat that prints, every line it printed is on screen."""

    END = 0.05
    """Seconds before a beat's end it is looked at: its last frame, not the next beat's first."""

    def __init__(self, case: Case) -> None:
        Spans.__init__(self, case)
        self.beats: dict[float, list[str]] = {}
        for b in case.plan.beats:
            printed = [_printed(c) for c in case.plan.cues
                       if c.kind in CONSOLE_CUES and b.start <= c.start < b.start + b.duration]
            if printed:
                self.beats[b.start + b.duration - self.END - 1 / fps_of(case.opts)] = printed
        AtTimes.__init__(self, list(self.beats))

    def look(self, due: float, sample: dict) -> None:
        shown = [" ".join(i["text"].split()) for i in _console(sample)]
        for want in self.beats[due]:
            if want not in shown:
                self.add(("gone", want), sample["time"], f"{want!r} is not on screen at its beat's end (shown: {shown})")

    def found(self) -> list[str]:
        self.close()
        return self.lines()


SETTLE = 0.5
"""Seconds a printed line may stand without its code line, or two lines of the pane over each
other, before it counts: the pane's own moves (a line fading in as it opens) take no longer."""


class PrintedWithLine(Spans):
    """A printed line under a pane of one line stands with the code line that printed it (issue
    39 item 2: the console shows what the program prints, and where from): whenever the pane
    shows its lit line alone (stepped aside) and a console line is shown, that line is one that
    printed the console line's text (any, where several lines print the same text).
    leaf_nodes 16:9's pane kept `print(w1.grad)` alone from 46 s and the `None` line 8 printed
    stood under it; the walk's `L.backward()` had `None` under it from 20 s. Seen for over
    `SETTLE` seconds: a pane opening fades its lines in after the printed lines move. (A long
    program's window scrolled past a line that printed is not looked at here.)"""

    def __init__(self, case: Case) -> None:
        Spans.__init__(self, case)
        events = case.checked.run.events
        self.printers: dict[str, set[str]] = {}
        for c in case.plan.cues:
            if c.kind in CONSOLE_CUES and c.seqs and events[c.seqs[0]].line is not None:
                self.printers.setdefault(_printed(c), set()).add(f"line {events[c.seqs[0]].line}")
        self.since: dict[str, float] = {}

    def see(self, sample: dict) -> None:
        shown = {i["id"] for i in sample["items"] if i["role"] == "code" and i["opacity"] >= 0.5}
        t = sample["time"]
        alone = set()
        for i in _console(sample) if len(shown) == 1 else []:
            text = " ".join(i["text"].split())
            lines = self.printers.get(text)
            if lines is None or lines & shown:
                continue
            alone.add(text)
            start = self.since.setdefault(text, t)
            if t - start >= SETTLE - 1e-6:
                self.add(("alone", text), t, f"{text!r} is printed with none of {sorted(lines)} shown (shown: {sorted(shown)})")
        self.since = {k: v for k, v in self.since.items() if k in alone}

    def found(self) -> list[str]:
        return self.lines()

