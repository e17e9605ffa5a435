"""Placeholders as written: ``{w1.grad}`` found in a narration line (`parse`), with what it
names (`Placeholder`), and the record of every string a scene shows (`Shown`: its text and the
event it was read from). Resolving a placeholder against the log is `scenes.storyboard.narration`'s.

Why apart: everything that shows a string needs `Shown`, and the article, the checks and the
plan parse narration lines, while only a few modules resolve them against the log.

>>> [p.ref for p in parse("the bucket holds {w1.grad}, and {L} is the loss")[0]]
['w1.grad', 'L']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cuemarks import unmarked
from .errors import did_you_mean
from .model import STYLES, Numbers

FIELDS = ("value", "grad", "grad.before", "grad.add", "grad_fn", "grad_in", "rule")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,/]\d+)*(?![\w])")
NAME_PATTERN = re.compile(r"^[A-Za-z_]\w*(?:\[\d+\])*$")
"""A name a placeholder can give: a program name or a list item as the engine names it (``W[0][1]``)."""
_REF = re.compile(r"^(?P<name>[A-Za-z_]\w*(?:\[\d+\])*)(?:\s*->\s*(?P<to>[A-Za-z_]\w*(?:\[\d+\])*)"
                  r"|\.(?P<field>[\w.]+))?(?:@(?P<pass>\d+)|@call(?P<call>\d+))?"
                  r"(?:\s*:\s*(?P<style>[A-Za-z]+)(?P<count>\d+)?)?$")
SENT = "sent"
"""The field of ``{N->M}``: what N's node sends along its edge to M's node."""
_CODE = re.compile(r"`([^`]*)`")
_BARE_NUMBER = re.compile(r"^\s*-?\d+(?:[.,/]\d+)*\s*$")


@dataclass(frozen=True)
class Placeholder:
    """``{name.field}`` at ``start:end`` of the narration text."""

    start: int
    end: int
    name: str
    field: str
    pass_: int | None = None
    to: str | None = None  # ``{N->M}``: M, the tensor whose node the gradient is sent to
    style: Numbers | None = None  # ``{N:sci}``: this placeholder's own number style
    call: int | None = None  # ``{N@call2}``: as backward call 2 left it

    def numbers(self, board: Numbers) -> Numbers:
        """The style this placeholder is written in: its own, else the storyboard's."""
        return self.style if self.style is not None else board

    @property
    def ref(self) -> str:
        if self.to is not None:
            base = f"{self.name}->{self.to}"
        else:
            base = self.name if self.field == "value" else f"{self.name}.{self.field}"
        if self.call is not None:
            return f"{base}@call{self.call}"
        return base if self.pass_ is None else f"{base}@{self.pass_}"


@dataclass(frozen=True)
class Shown:
    """One displayed string and where it came from.

    ``seq`` is the event it was read from (None for text taken from the storyboard or the program
    source), ``field`` the event key (``after_exact``, ``grads_out[1]``, ``name``...), ``role``
    what the scene does with it (``name``, ``value``, ``grad``, ``caption``...). ``number`` is
    the value the text shows, when it shows one, so that a drawing sized by it (a bucket's
    level) never parses the text back.
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
        ref = _REF.match(inner)
        if ref is None:
            problems.append((m.start(), f"placeholder {{{m.group(1)}}} must be {{NAME}}, {{NAME.grad}}, "
                             "{xs[2].grad}, {NAME->NAME}, {NAME@PASS} or {NAME@callN}, with an optional style: "
                             "{NAME.grad:sci}"))
            continue
        name, fld, to = ref.group("name"), ref.group("field") or "value", ref.group("to")
        if to is not None:
            fld = SENT
        if fld not in FIELDS and to is None:
            problems.append((m.start() + len(name) + 2, f"placeholder {{{inner}}}: unknown field '{fld}'"
                             f"{did_you_mean(fld, FIELDS)} (one of: {', '.join(FIELDS)})"))
            continue
        k, call = ref.group("pass"), ref.group("call")
        if (k is not None and int(k) < 1) or (call is not None and int(call) < 1):
            problems.append((m.start(), f"placeholder {{{inner}}}: {'passes' if call is None else 'calls'} count from 1"))
            continue
        style = _style(ref.group("style"), ref.group("count"))
        if isinstance(style, str):
            problems.append((m.start() + inner.rindex(":") + 1, f"placeholder {{{inner}}}: {style}"))
            continue
        found.append(Placeholder(m.start(), m.end(), name, fld, int(k) if k is not None else None, to, style,
                                 int(call) if call is not None else None))
    rest = _PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), text)
    for i, ch in enumerate(rest):
        if ch in "{}":
            problems.append((i, f"unmatched '{ch}' in narration; placeholders look like {{w1.grad}}"))
    for m in _CODE.finditer(rest):
        if _BARE_NUMBER.match(m.group(1)):
            problems.append((m.start(), f"narration quotes only the number '{m.group(1).strip()}' as code; "
                             "numbers must come from the log: use a placeholder such as {lr}"))
    words = _CODE.sub(lambda m: " " * len(m.group(0)), rest)
    if words.count("`") % 2:
        problems.append((words.index("`"), "unmatched '`' in narration; quote code as `1 - o**2`"))
    for m in _NUMBER.finditer(words):
        problems.append((m.start(), f"narration types the number '{m.group(0)}'; numbers must come "
                         "from the log: use a placeholder such as {w1.grad} or {L}, or quote code in "
                         "backticks"))
    return found, problems


def _style(name: str | None, count: str | None) -> Numbers | None | str:
    """The style of ``{x.grad:sci}`` (``sig4``: 4 significant digits, ``decimal2``: 2 places),
    None without one, or why it is not one."""
    if name is None:
        return None
    if name not in STYLES:
        return (f"unknown number style '{name}'{did_you_mean(name, STYLES)} (one of: {', '.join(STYLES)}; "
                "sig, sci and decimal take a count: {x.grad:sig4}, {x.grad:decimal2})")
    if count is None:
        return Numbers(name)  # type: ignore[arg-type]
    n = int(count)
    if name in ("sig", "sci") and 1 <= n <= 9:
        return Numbers(name, digits=n)  # type: ignore[arg-type]
    if name == "decimal" and n <= 8:
        return Numbers(name, places=n)
    if name in ("fraction", "torch"):
        return f"the style '{name}' takes no count; write {{...:{name}}}"
    return f"'{name}{count}': {name} takes {'1 to 9 digits' if name != 'decimal' else '0 to 8 places'}"


def code_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each backtick-quoted span of a caption, backticks included, which the
    scene sets in the code font (without the backticks)."""
    return [m.span() for m in _CODE.finditer(text)]


def unquoted(text: str) -> str:
    """``text`` without the backticks that quote its code: what plain text shows (a .srt or
    .vtt cue, a page's description), where a backtick would be read literally.

    >>> unquoted("the local rule `1 - o**2`, then `a`")
    'the local rule 1 - o**2, then a'
    """
    return _CODE.sub(lambda m: m.group(1), text)
