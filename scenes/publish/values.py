"""What the log says, as an article shows it: the values table, what the program printed, and
the lines that make a "Try it in PyTorch" block print the same gradients.

Every number comes from the log, written by the narration's own formatter
(:func:`scenes.storyboard.numfmt.show`) in the storyboard's number style, so the table and the
captions cannot write one value two ways. The table reads the log per tensor, not per name (a
placeholder's ``{h.grad_in}`` is the latest ``h``'s): a name bound again is another row.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.records import Accumulate, Error, Event, Expr, GradReset, Print, Tensor, Update, Visit, Warn
from scenes.storyboard.errors import plain
from scenes.storyboard.logindex import LogIndex
from scenes.storyboard.model import Numbers
from scenes.storyboard.numfmt import show, torch_str
from scenes.storyboard.placeholders import Placeholder, Shown
from scenes.storyboard.narration import resolve

NONE = "None"
"""What an empty cell says: PyTorch's own word for a .grad not filled (or a value not made yet)."""


NOT_REACHED = "–"
"""What a "received" cell says where the walk did not reach the node (an input, a skipped path)."""


@dataclass(frozen=True)
class ValueRow:
    """One tensor the program named: its value and grad_fn at the end of the program, and per
    backward call the gradient its node received in that call's walk (``NOT_REACHED`` where the
    walk did not reach it; a result's too, not only a leaf's) and its ``.grad`` after the call
    (``NONE``). ``made`` tells it from the other tensors bound to the same name (``line 25,
    pass 2``: where the program made it); empty when the name was bound once. ``said``: the
    storyboard's name for a result the program leaves unnamed (``d``), whose ``name`` is then its
    expression (``yh - y``), as the graph labels it; empty for a name the program bound."""

    name: str
    value: str
    grad_fn: str
    grads: tuple[str, ...]
    received: tuple[str, ...] = ()
    made: str = ""
    said: str = ""

    @property
    def cells(self) -> tuple[str, str]:
        """What it received, then its ``.grad``: the table's two columns between value and
        grad_fn. With one call, the values; with several, a line per call (``call 2: -1``), the
        calls that never reached the node left out (``NOT_REACHED`` if none did) and a ``.grad``
        that every call left the same written once."""
        if len(self.received) <= 1:
            return (self.received[0] if self.received else NOT_REACHED, self.grads[0] if self.grads else NONE)
        got = [f"call {k}: {g}" for k, g in enumerate(self.received, 1) if g != NOT_REACHED]
        grads = self.grads[0] if len(set(self.grads)) == 1 else \
            "\n".join(f"call {k}: {g}" for k, g in enumerate(self.grads, 1))
        return "\n".join(got) or NOT_REACHED, grads


def grad_headers(index: LogIndex) -> list[str]:
    """The headers of the per-call columns: ``received`` and ``.grad`` (their cells say the call
    when there are several: :attr:`ValueRow.cells`), short so a phone's header stays one line."""
    return ["received", ".grad"]


def call_ends(index: LogIndex) -> list[int]:
    """The seq of the last event of each backward call's walk, in call order."""
    return [index.walk(call)[-1].seq for call in index.calls]


def value_rows(index: LogIndex, numbers: Numbers) -> list[ValueRow]:
    """A row per tensor bound to a program name: the names in the order the program first bound
    them, each name's tensors in the order they were made (a name bound again, ``s = s * 2`` or
    ``h = h * w`` in a loop, names a new tensor: a row of its own, never one row mixing the value
    of the last with what the first received); then a row per result the storyboard names for its
    captions, under its expression (the program names no ``d``)."""
    about = _events_by_tensor(index)
    ends = call_ends(index)
    walks = [(index.walk(call)[0].seq, end) for call, end in zip(index.calls, ends)]
    rows = []
    for name in index.logged_names():
        if not name.isidentifier():
            continue
        tids = index.name_tensors[name]
        for tid, made in zip(tids, made_at(index, tids)):
            evs = about.get(tid, [])
            last = next((e for e in reversed(evs) if isinstance(e, (Tensor, Update))), None)
            value = show(last.value, last.exact, numbers, last.str) if last is not None else NONE
            grad_fn = last.grad_fn if last is not None and last.grad_fn else NONE
            received = tuple(_received(evs, a, z, numbers) for a, z in walks)
            grads = tuple(_grad(evs, z, numbers) for _, z in walks)
            said = index.said_names.get(name)
            rows.append(ValueRow(said or name, value, grad_fn, grads, received, made, name if said else ""))
    return rows


def made_at(index: LogIndex, tids: list[str]) -> list[str]:
    """For the tensors bound to one name, where each was made, so a reader tells them apart:
    ``line 4``, and where two were made on one line, the pass of the loop around it (``line 25,
    pass 2``; ``line 7, 2 of 2`` if no loop tells them apart); empty when the name was bound once."""
    if len(tids) < 2:
        return [""] * len(tids)
    made = [index.tensor_event[t] for t in tids]
    out = []
    for ev in made:
        same = [e for e in made if e.line == ev.line]
        if len(same) == 1:
            out.append(f"line {ev.line}")
            continue
        loop = index.loop_around(ev.line, ev.line)
        k = next((k for k, (a, z) in enumerate(loop.passes, 1) if a <= ev.seq <= z), None) if loop else None
        out.append(f"line {ev.line}, pass {k}" if k is not None else
                   f"line {ev.line}, {same.index(ev) + 1} of {len(same)}")
    return out


def _events_by_tensor(index: LogIndex) -> dict[str, list[Event]]:
    """Per tensor id, the events that made or changed it, visited its node, filled or reset its
    ``.grad``, in log order: one pass over the log for the whole table."""
    out: dict[str, list[Event]] = {}
    for ev in index.events:
        match ev:
            case Tensor(id=tid) | Update(tensor=tid) | Visit(tensor=tid) | Accumulate(tensor=tid) | \
                    GradReset(tensor=tid) if tid:
                out.setdefault(tid, []).append(ev)
    return out


def _received(evs: list[Event], start: int, end: int, numbers: Numbers) -> str:
    """The gradient the walk spanning seqs ``start..end`` brought to the tensor's node (its last
    visit in it), or ``NOT_REACHED`` if that walk never visited it."""
    got = next((e for e in reversed(evs) if isinstance(e, Visit) and start <= e.seq <= end), None)
    return show(got.grad_in, got.grad_in_exact, numbers) if got is not None else NOT_REACHED


def _grad(evs: list[Event], end: int, numbers: Numbers) -> str:
    """The tensor's ``.grad`` at seq ``end``: the last fill's sum, the value a reset left
    (``zero_()``), or ``NONE`` (never filled, or reset to None)."""
    ev = next((e for e in reversed(evs) if isinstance(e, (Accumulate, GradReset)) and e.seq <= end), None)
    if isinstance(ev, Accumulate):
        return show(ev.after, ev.after_exact, numbers, ev.str)
    if isinstance(ev, GradReset) and ev.to is not None:
        return show(ev.to, "0", numbers, torch_str(ev.to))
    return NONE


def printed(index: LogIndex) -> list[str]:
    """What the program printed, line by line, as a notebook shows it: its ``print`` output, the
    value of a bare expression, and each warning or error with its type; control characters and
    direction overrides written as escapes, as the clip's console shows them (an ESC in the
    article's ``NAME.md`` is run by the terminal that shows it, a U+202E turns the line around)."""
    out: list[str] = []
    for ev in index.events:
        match ev:
            case Print():
                out += [plain(line) for line in ev.text.split("\n")]
            case Expr() if ev.str not in (None, "None"):
                out.append(plain(ev.str))
            case Warn() | Error():
                out.append(plain(f"{ev.type}: {ev.message}"))
    return out


def _ask(index: LogIndex, name: str, field: str, cutoff: int, numbers: Numbers) -> Shown | None:
    got = resolve(Placeholder(0, 0, name, field), index, cutoff, numbers)
    return got if isinstance(got, Shown) else None


def leaf_grads(index: LogIndex) -> list[tuple[str, str]]:
    """``(name, str(name.grad))`` for each name whose ``.grad`` the program ends with filled,
    as PyTorch prints it (the accumulation's ``str``): what "Try it in PyTorch" adds a print for."""
    end = index.events[-1].seq if index.events else -1
    out = []
    for name in index.program_names():
        if name.isidentifier() and (g := _ask(index, name, "grad", end, Numbers("torch"))) is not None:
            out.append((name, g.text))
    return out


def try_it(index: LogIndex) -> tuple[str, str]:
    """The program to paste into Python with PyTorch installed, ending with a print of each
    filled ``.grad``, and what it prints (from the log). A ``.grad`` the program's own last line
    already prints (``print(w.grad)``) gets no second print: the output would say it twice."""
    last = next((line.strip() for line in reversed(index.source.splitlines()) if line.strip()), "")
    grads = [(name, text) for name, text in leaf_grads(index) if last != f"print({name}.grad)"]
    program = index.source.rstrip("\n") + "\n"
    if grads:
        program += "".join(f'print("{name}.grad =", {name}.grad)\n' for name, _ in grads)
    output = printed(index) + [f"{name}.grad = {text}" for name, text in grads]
    return program, "\n".join(output)
