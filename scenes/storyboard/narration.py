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
``{N.rule}``        the local rule of N's node as the screen writes it beside the node
                    (``pow: d² → × 2d``): one notation for screen, caption and article
``{N.grad_in}``     the gradient that arrived at N's node in the latest visit
``{N->M}``          the gradient N's node sent along its edge to M's node in the latest visit
                    of N (``{sq->a}``: the 6 that ``sq = a ** 2`` sends back to a = 3)
``{N@k}``           any of the above as it was at the end of pass k of the loop N is made or
                    changed in (``{loss@2}``, ``{w.grad@3}``; a ``.grad`` cleared at the end of
                    the pass is read as it was filled)
``{N@callk}``       any of the above as backward call k left it (``{w.grad@call2}``: the 12 two
                    calls of ``(w * w).backward()`` add up to, whatever came after)
``{N:STYLE}``       any of the above in its own number style rather than the storyboard's:
                    ``{x.grad:sci}``, ``{x.grad:sig4}`` (4 significant digits),
                    ``{L:decimal2}``, ``{L:fraction}``, ``{L:torch}``
==================  ===========================================================

N is a name the program binds to a tensor or to a Python number (``{lr}`` for ``lr = 0.1``), a
list item as the engine names it (``{ws[2].grad}``), or a storyboard ``names:`` entry.

Text in backticks is quoted code (`` `1 - o**2` ``), drawn in the code font; digits are allowed
there, but a backtick span that is only a number is refused like any typed number.

The placeholders are found and recorded by :mod:`scenes.storyboard.placeholders`.
"""

from __future__ import annotations

import math
from bisect import bisect_right

from .cuemarks import unmarked
from engine.records import Accumulate, Event, GradReset, Tensor, Update, Visit

from .logindex import LogIndex
from .model import Numbers
from .nograd import no_grad_yet, reset_before
from .numfmt import python_number, show, torch_str
from .placeholders import NAME_PATTERN, SENT, Placeholder, Shown, parse
from .rules import rule_of, words_of

def unknown_name(p: Placeholder, index: LogIndex) -> str | None:
    """Why the placeholder's name can never have a value (whatever the moment), or None."""
    if p.to is not None:  # {N->M}: both are tensors
        for name in (p.name, p.to):
            if name in index.numbers and name not in index.name_tensors:
                return f"{{{p.ref}}}: '{name}' is a Python number; gradients are sent between tensors"
            wrong = unknown_name(Placeholder(p.start, p.end, name, "value"), index)
            if wrong is not None:
                return wrong.replace(f"{{{name}}}", f"{{{p.ref}}}", 1)
        return None
    name = p.name
    if name in index.name_tensors:
        return None
    if name in index.numbers:
        return None if p.field == "value" else \
            f"{{{p.ref}}}: '{name}' is a Python number; it has a value only ({{{name}}})"
    aliased = _grad_alias(p, index)
    if aliased is not None:
        return aliased
    known = [n for n in index.logged_names() if NAME_PATTERN.match(n)] + list(index.numbers)
    items, holder = _items_of(name, known)
    if items and holder == name:
        return (f"{{{p.ref}}}: '{name}' is a list; a placeholder names one of its items: "
                f"{_some(['{' + p.ref.replace(name, i, 1) + '}' for i in items])}")
    if items:
        return (f"{{{p.ref}}}: the program has no tensor named '{name}'; the list {holder} holds "
                f"{_some(items)} (an item with a name of its own goes by that name)")
    return (f"{{{p.ref}}}: the program has no tensor named '{name}'; it defines "
            f"{_some(known) or 'no tensors'}")


def _grad_alias(p: Placeholder, index: LogIndex) -> str | None:
    """The message for a name the program binds to a tensor's ``.grad`` (``g = w.grad``): what
    to write instead, ``{w.grad}``. Why not fill ``{g}``: the log records the grad tensor, not
    that ``g`` holds it, nor when a ``w.grad = None`` leaves ``g`` holding the old one."""
    from .program import grad_bindings

    bound = grad_bindings(index.source).get(p.name)
    if not bound:
        return None
    suffix = "" if p.pass_ is None else f"@{p.pass_}"
    lines = ", ".join(str(n) for n, _ in bound)
    owners = list(dict.fromkeys(owner for _, owner in bound))
    grads = " or ".join(f"{o}.grad" for o in owners)
    write = " or ".join(f"{{{o}.grad{suffix}}}" for o in owners)
    why = ("it is a gradient, with a value only" if p.field != "value"
           else "a placeholder reads a gradient by its tensor's name")
    return f"{{{p.ref}}}: '{p.name}' is {grads} (program line {lines}); {why}: write {write}"


def _items_of(name: str, known: list[str]) -> tuple[list[str], str]:
    """The items the log names of the list ``name`` is (``ws`` -> ``ws[0], ws[1]``) or is an item
    of (``ws[2]``: the nearest enclosing list that has named items), and that list's name."""
    holder = name
    while True:
        items = [k for k in known if k.startswith(holder + "[")]
        if items or "[" not in holder:
            return items, holder
        holder = holder[:holder.rindex("[")]


def _some(names: list[str], most: int = 12) -> str:
    """``a, b, c`` or, for a long list, its first names and how many in all."""
    if len(names) <= most:
        return ", ".join(names)
    return f"{', '.join(names[:most - 2])}, ..., {names[-1]} ({len(names)} in all)"


def _rule(p: Placeholder, index: LogIndex, cutoff: int) -> Shown | str:
    """``{N.rule}``: the words of N's node's local rule, the very text the screen writes."""
    ev = index.latest(p.name, (Tensor,), cutoff)
    if ev is None:
        return f"{{{p.ref}}} has no value yet at this beat: '{p.name}' is made later in the program"
    rule = rule_of(ev.grad_fn, ev.op)
    if rule is None:
        what = f"its grad_fn {ev.grad_fn} has none the screen writes" if ev.grad_fn else "it is a leaf"
        return f"{{{p.ref}}}: '{p.name}' has no local rule ({what})"
    return Shown(words_of(rule, ev, index), ev.seq, "rule", "caption")


def resolve(p: Placeholder, index: LogIndex, cutoff: int, numbers: Numbers) -> Shown | str:
    """The filled text of one placeholder, or a message saying why it has no value here."""
    name, numbers = p.name, p.numbers(numbers)
    wrong = unknown_name(p, index)
    if wrong is not None:
        return wrong
    if p.call is not None:
        got_call = _call_end(p, index)
        if isinstance(got_call, str):
            return got_call
        cutoff = got_call
    if name not in index.name_tensors:
        return _python_number(p, index, cutoff, numbers)
    within: tuple[int, int] | None = None
    if p.pass_ is not None:
        got = _pass_of(p, index)
        if isinstance(got, str):
            return got
        within, cutoff = got, got[1]
    if p.field == "rule":
        return _rule(p, index, cutoff)
    if p.field in ("value", "grad_fn"):
        ev = index.latest(name, (Tensor, Update), cutoff)
        if ev is None:
            return f"{{{p.ref}}} has no value yet at this beat: '{name}' is made later in the program"
        if p.field == "grad_fn":
            if ev.grad_fn is None:
                return f"{{{p.ref}}}: '{name}' has no grad_fn (it is a leaf or needs no grad)"
            return Shown(ev.grad_fn, ev.seq, "grad_fn", "caption")
        return _number(ev, "value", "exact", "str", numbers)
    if p.field == SENT:
        return _sent(p, index, cutoff, numbers)
    if p.field == "grad_in":
        ev = index.latest(name, (Visit,), cutoff)
        if ev is None:
            return f"{{{p.ref}}} has no value yet at this beat: no backward walk has reached '{name}'"
        return _number(ev, "grad_in", "grad_in_exact", None, numbers)
    ev = index.latest(name, (Accumulate, GradReset), cutoff)
    if within is not None and isinstance(ev, GradReset) and ev.seq >= within[0]:
        filled = index.latest(name, (Accumulate,), ev.seq)
        ev = filled if filled is not None and filled.seq >= within[0] else ev  # cleared at the pass's end
    if ev is None:
        return no_grad_yet(p.ref, name, index, cutoff, numbers)
    if isinstance(ev, GradReset):
        if p.field != "grad" or ev.to is None:
            return reset_before(p.ref, name, ev, index, numbers)
        return Shown(show(ev.to, "0", numbers, torch_str(ev.to)), ev.seq, "to", "caption")
    if p.field == "grad":
        return _number(ev, "after", "after_exact", "str", numbers)
    key = p.field.split(".")[1]
    if getattr(ev, key) is None:
        return f"{{{p.ref}}} has no value at this beat: {name}.grad was None before this accumulation"
    return _number(ev, key, f"{key}_exact", None, numbers)


def _sent(p: Placeholder, index: LogIndex, cutoff: int, numbers: Numbers) -> Shown | str:
    """``{N->M}``: the gradient the latest visit of N's node (by ``cutoff``) sent along its one
    edge to M's node. Two edges to M (``a * a``) each carry their own: refused, naming both,
    since their sum is a number only M's node (``{M.grad_in}``) holds."""
    ev = index.latest(p.name, (Visit,), cutoff)
    if not isinstance(ev, Visit) or p.to is None:
        return f"{{{p.ref}}} has no value yet at this beat: no backward walk has reached '{p.name}'"
    targets = set(index.ids_of(p.to))
    edges = list(ev.edges or [])
    hits = [j for j, e in enumerate(edges) if e is not None and e in targets]
    if not hits:
        sent = [_called(index, e) for e in edges if e is not None]
        where = f"it sends to {', '.join(sent)}" if sent else "it has no edges (a leaf's)"
        return (f"{{{p.ref}}}: {p.name}'s node ({ev.grad_fn}) sends nothing to '{p.to}' in backward call "
                f"{ev.call}; {where}")
    outs, exact = list(ev.grads_out or []), list(ev.grads_out_exact or [])
    if len(hits) > 1:
        values = " and ".join(show(outs[j], exact[j] if j < len(exact) else None, numbers) for j in hits)
        return (f"{{{p.ref}}}: {p.name}'s node ({ev.grad_fn}) sends to '{p.to}' along {len(hits)} edges "
                f"({values}); a placeholder shows one number: {p.to}'s node receives their sum, "
                f"{{{p.to}.grad_in}}")
    j = hits[0]
    return _shown(outs[j], exact[j] if j < len(exact) else None, None, ev.seq,
                  (f"grads_out[{j}]", f"grads_out_exact[{j}]", None), numbers)


def _called(index: LogIndex, node: str) -> str:
    """What a message calls the tensor of ``node``: its name, else its code (`` `sq * b` ``),
    else its grad_fn (an internal node)."""
    ev = index.node_event.get(node)
    tensor = index.tensor_event.get(ev.tensor or "") if ev is not None else None
    if tensor is None:
        return ev.grad_fn if ev is not None else node
    if tensor.name:
        return tensor.name
    lines = index.lines
    if tensor.span and 0 < tensor.line <= len(lines):
        return "`" + lines[tensor.line - 1].encode("utf-8")[tensor.span[0]:tensor.span[1]].decode("utf-8", "replace") + "`"
    return tensor.grad_fn or node


def _pass_of(p: Placeholder, index: LogIndex) -> tuple[int, int] | str:
    """``(first, last)`` seq of pass ``p.pass_`` of the loop the name is made or changed in
    (the innermost loop around the last line that made, changed, filled or visited it)."""
    loop = index.loop_of(p.name)
    if loop is None:
        return f"{{{p.ref}}}: '{p.name}' is not made or changed inside a for loop that ran; remove @{p.pass_}"
    n = len(loop.passes)
    if p.pass_ > n:
        return f"{{{p.ref}}}: the for loop on line {loop.line} ran {n} time{'s' * (n != 1)}; there is no pass {p.pass_}"
    return loop.passes[p.pass_ - 1]


def _call_end(p: Placeholder, index: LogIndex) -> int | str:
    """The seq of the last event of backward call ``p.call`` (``{w.grad@call2}``), or why there is none."""
    last = [e.seq for e in index.events if getattr(e, "call", None) == p.call]
    if not last:
        ran = max((c for e in index.events if isinstance(c := getattr(e, "call", None), int)), default=0)
        return (f"{{{p.ref}}}: backward ran {ran} time{'s' * (ran != 1)} in the program; "
                f"there is no call {p.call}")
    return last[-1]


def _python_number(p: Placeholder, index: LogIndex, cutoff: int, numbers: Numbers) -> Shown | str:
    """A Python number the program bound to a name (``lr = 0.1``), as of the cutoff or the pass."""
    evs = index.numbers[p.name]
    if p.pass_ is not None:
        loop = index.number_loop(p.name)
        if loop is None:
            return f"{{{p.ref}}}: '{p.name}' is not bound inside a for loop that ran; remove @{p.pass_}"
        if p.pass_ > len(loop.passes):
            return f"{{{p.ref}}}: the for loop on line {loop.line} ran {len(loop.passes)} times"
        cutoff = loop.passes[p.pass_ - 1][1]
    k = bisect_right(evs, cutoff, key=lambda e: e.seq)
    ev = evs[k - 1] if k else None
    if ev is None:
        return f"{{{p.ref}}} has no value yet at this beat: '{p.name}' is bound later in the program"
    if numbers.style == "fraction" and ev.exact is not None:
        return Shown(ev.exact, ev.seq, "exact", "caption")
    return Shown(python_number(ev.value, numbers), ev.seq, "value", "caption")


def _number(ev: Event, key: str, exact_key: str, str_key: str | None, numbers: Numbers) -> Shown:
    """Format the record's field ``key`` in the storyboard's style, naming the field the text was
    read from (the plan shows the docs' field names, which are the records' own)."""
    return _shown(getattr(ev, key), getattr(ev, exact_key), getattr(ev, str_key) if str_key else None,
                  ev.seq, (key, exact_key, str_key), numbers)


def _shown(value: float | str | None, exact: str | None, text: str | None, seq: int, keys: tuple[str, str, str | None],
           numbers: Numbers) -> Shown:
    """A logged number in the storyboard's style; ``keys`` name the fields it was read from
    (value, exact, str), the one shown becoming the :class:`Shown`'s field."""
    key, exact_key, str_key = keys
    number = float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None
    if numbers.style == "fraction" and exact is not None:
        return Shown(exact, seq, exact_key, "caption", number)
    if numbers.style == "torch" and text is not None and str_key is not None:
        return Shown(text, seq, str_key, "caption", number)
    return Shown(show(value, None, numbers), seq, key, "caption", number)


def fill(text: str, index: LogIndex, cutoff: int, numbers: Numbers) -> tuple[str, list[Shown], list[str]]:
    """The narration with placeholders filled, the numbers it shows, and any problems; its cue
    marks (:mod:`.cuemarks`) taken out."""
    text = unmarked(text)
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
