"""The takeaway's numbers, side by side: the closing picture's recap of what the takeaway names.

Why: the takeaway is said over the last picture, and a sentence such as "w1.grad is 8/3 and
w2.grad is 4/9" teaches only if the viewer sees those numbers while hearing it, together, not
scattered over buckets the walk has since dimmed or moved. Each placeholder of the takeaway,
read at the end of the log as the caption reads it, becomes one entry of a ``recap`` cue: its
name (``w1.grad``, ``L.grad_fn``, ``w.grad after call 2``), then the text the caption shows. Two placeholders of one
quantity in two styles (``{w1.grad}`` and ``{w1.grad:torch}``) share a row: ``w1.grad = 8/3 =
tensor(2.6667)``, the exact value beside what ``print`` writes.
"""

from __future__ import annotations

from .logindex import LogIndex
from .model import Numbers
from .placeholders import Placeholder, Shown, parse
from .narration import resolve

NAME, VALUE = "name", "value"
"""The roles of a recap cue's strings: a row's name, then each text the takeaway gives it."""


def recap_strings(text: str, index: LogIndex, numbers: Numbers) -> tuple[Shown, ...]:
    """The recap cue's strings for the takeaway ``text``: per quantity it names, in the order
    it first names it, a ``name`` string (its placeholder without a style) and a ``value`` string
    for each distinct text it is given. Placeholders without a value are left out (validation
    refuses them before a plan is made)."""
    rows: dict[str, list[Shown]] = {}
    end = len(index.events) - 1
    for p in parse(text)[0]:
        got = resolve(p, index, end, numbers)
        if isinstance(got, str):
            continue
        values = rows.setdefault(row_name(p), [])
        if got.text not in (v.text for v in values):
            values.append(Shown(got.text, got.seq, got.field, VALUE, got.number))
    return tuple(s for ref, values in rows.items() for s in (Shown(ref, None, "placeholder", NAME), *values))


def row_name(p: Placeholder) -> str:
    """What a recap row calls the quantity of ``p``: its placeholder without a style, a moment
    in words (``w.grad after call 2``, ``loss after pass 3``) rather than ``@``.

    >>> [row_name(p) for p in parse("{w.grad@call2} {w.grad:torch} {loss@3} {L.grad_fn}")[0]]
    ['w.grad after call 2', 'w.grad', 'loss after pass 3', 'L.grad_fn']
    """
    base = p.ref.split("@")[0]
    if p.call is not None:
        return f"{base} after call {p.call}"
    return base if p.pass_ is None else f"{base} after pass {p.pass_}"


def recap_rows(strings: tuple[Shown, ...]) -> list[tuple[str, list[str]]]:
    """A recap cue's strings back as rows: ``(name, [text, ...])``.

    >>> rows = (Shown("w1.grad", None, "placeholder", NAME), Shown("8/3", 25, "after_exact", VALUE),
    ...         Shown("tensor(2.6667)", 25, "str", VALUE), Shown("w2.grad", None, "placeholder", NAME),
    ...         Shown("4/9", 21, "after_exact", VALUE))
    >>> recap_rows(rows)
    [('w1.grad', ['8/3', 'tensor(2.6667)']), ('w2.grad', ['4/9'])]
    """
    out: list[tuple[str, list[str]]] = []
    for s in strings:
        if s.role == NAME:
            out.append((s.text, []))
        elif out:
            out[-1][1].append(s.text)
    return out
