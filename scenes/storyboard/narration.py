"""Narration lines: placeholders such as ``{w1.grad}`` filled from the log, never typed numbers.

Why placeholders: a caption that says "the bucket holds 8/3" must change when ``--set w1=0.5``
changes the maths, and must agree with the picture. A placeholder is resolved against the state of
the log at the end of its beat's span (for a span-less title card: at the end of the previous
beat), and every filled number remembers the event it came from.

Placeholder forms, for a program name N:

==================  ===========================================================
``{N}``             N's value (latest ``tensor``/``update`` event of N)
``{N.grad}``        N's ``.grad`` (latest ``accumulate`` ``after``, or a reset to 0)
``{N.grad.before}`` ``.grad`` before the latest accumulation; ``{N.grad.add}`` what it added
``{N.grad_fn}``     the class name of N's grad_fn (``MulBackward0``)
``{N.grad_in}``     the gradient that arrived at N's node in the latest visit
==================  ===========================================================

>>> [p.ref for p in parse("the bucket holds {w1.grad}, and {L} is the loss")[0]]
['w1.grad', 'L']
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .errors import did_you_mean
from .logindex import Event, LogIndex
from .model import Numbers
from .numfmt import show, torch_str

FIELDS = ("value", "grad", "grad.before", "grad.add", "grad_fn", "grad_in")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,/]\d+)*(?![\w])")


@dataclass(frozen=True)
class Placeholder:
    """``{name.field}`` at ``start:end`` of the narration text."""

    start: int
    end: int
    name: str
    field: str

    @property
    def ref(self) -> str:
        return self.name if self.field == "value" else f"{self.name}.{self.field}"


@dataclass(frozen=True)
class Shown:
    """One displayed string and where it came from.

    ``seq`` is the event it was read from (None for text taken from the storyboard or the program
    source), ``field`` the event key (``after_exact``, ``grads_out[1]``, ``name``...), ``role``
    what the scene does with it (``name``, ``value``, ``grad``, ``caption``...).
    """

    text: str
    seq: int | None
    field: str
    role: str
    number: float | None = None  # the finite logged value the text shows, for what is drawn to scale (a bucket's level)


def parse(text: str) -> tuple[list[Placeholder], list[tuple[int, str]]]:
    """Placeholders of ``text`` and ``(offset, message)`` problems in its fixed words."""
    found: list[Placeholder] = []
    problems: list[tuple[int, str]] = []
    for m in _PLACEHOLDER.finditer(text):
        inner = m.group(1).strip()
        name, _, fld = inner.partition(".")
        fld = fld or "value"
        if not name.isidentifier():
            problems.append((m.start(), f"placeholder {{{m.group(1)}}} must be {{NAME}} or {{NAME.grad}}"))
            continue
        if fld not in FIELDS:
            problems.append((m.start() + len(name) + 2, f"placeholder {{{inner}}}: unknown field '{fld}'"
                             f"{did_you_mean(fld, FIELDS)} (one of: {', '.join(FIELDS)})"))
            continue
        found.append(Placeholder(m.start(), m.end(), name, fld))
    rest = _PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), text)
    for i, ch in enumerate(rest):
        if ch in "{}":
            problems.append((i, f"unmatched '{ch}' in narration; placeholders look like {{w1.grad}}"))
    for m in _NUMBER.finditer(rest):
        problems.append((m.start(), f"narration types the number '{m.group(0)}'; numbers must come "
                         "from the log: use a placeholder such as {w1.grad} or {L}"))
    return found, problems


def _latest(index: LogIndex, cutoff: int, kinds: tuple[str, ...], test) -> Event | None:
    best = None
    for ev in index.events:
        if ev["seq"] > cutoff:
            break
        if ev["kind"] in kinds and test(ev):
            best = ev
    return best


def resolve(p: Placeholder, index: LogIndex, cutoff: int, numbers: Numbers) -> Shown | str:
    """The filled text of one placeholder, or a message saying why it has no value here."""
    name = p.name
    if name not in index.name_tensors:
        return f"{{{p.ref}}}: the program has no tensor named '{name}'; it defines {', '.join(n for n in index.logged_names() if n.isidentifier()) or 'no tensors'}"
    ids = set(index.name_tensors[name])
    if p.field in ("value", "grad_fn"):
        ev = _latest(index, cutoff, ("tensor", "update"), lambda e: e.get("name") == name or e.get("tensor") in ids
                     or e.get("id") in ids)
        if ev is None:
            return f"{{{p.ref}}} has no value yet at this beat: '{name}' is made later in the program"
        if p.field == "grad_fn":
            if ev.get("grad_fn") is None:
                return f"{{{p.ref}}}: '{name}' has no grad_fn (it is a leaf or needs no grad)"
            return Shown(ev["grad_fn"], ev["seq"], "grad_fn", "caption")
        return _number(ev, "value", "exact", "str", numbers)
    if p.field == "grad_in":
        ev = _latest(index, cutoff, ("visit",), lambda e: e.get("tensor") in ids)
        if ev is None:
            return f"{{{p.ref}}} has no value yet at this beat: no backward walk has reached '{name}'"
        return _number(ev, "grad_in", "grad_in_exact", None, numbers)
    ev = _latest(index, cutoff, ("accumulate", "grad_reset"), lambda e: e.get("tensor") in ids)
    if ev is None:
        return f"{{{p.ref}}} has no value yet at this beat: {name}.grad is None until a backward call fills it"
    if ev["kind"] == "grad_reset":
        if p.field != "grad" or ev.get("to") is None:
            return f"{{{p.ref}}} has no value at this beat: {name}.grad was reset on line {ev['line']}"
        return Shown(show(ev["to"], "0", numbers, torch_str(ev["to"])), ev["seq"], "to", "caption")
    if p.field == "grad":
        return _number(ev, "after", "after_exact", "str", numbers)
    key = p.field.split(".")[1]
    if ev.get(key) is None:
        return f"{{{p.ref}}} has no value at this beat: {name}.grad was None before this accumulation"
    return _number(ev, key, f"{key}_exact", None, numbers)


def _number(ev: Event, key: str, exact_key: str, str_key: str | None, numbers: Numbers) -> Shown:
    """Format ``ev[key]`` in the storyboard's style, naming the field the text was read from."""
    exact = ev.get(exact_key)
    value = ev.get(key)
    number = float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None
    if numbers.style == "fraction" and exact is not None:
        return Shown(exact, ev["seq"], exact_key, "caption", number)
    if numbers.style == "torch" and str_key and ev.get(str_key) is not None:
        return Shown(ev[str_key], ev["seq"], str_key, "caption", number)
    return Shown(show(ev[key], None, numbers), ev["seq"], key, "caption", number)


def fill(text: str, index: LogIndex, cutoff: int, numbers: Numbers) -> tuple[str, list[Shown], list[str]]:
    """The narration with placeholders filled, the numbers it shows, and any problems."""
    placeholders, _ = parse(text)
    out, shown, problems, pos = [], [], [], 0
    for p in placeholders:
        got = resolve(p, index, cutoff, numbers)
        out.append(text[pos:p.start])
        if isinstance(got, str):
            problems.append(got)
            out.append(text[p.start:p.end])
        else:
            out.append(got.text)
            shown.append(got)
        pos = p.end
    out.append(text[pos:])
    return "".join(out), shown, problems
