"""What the log says, as an article shows it: the values table, what the program printed, and
the lines that make a "Try it in PyTorch" block print the same gradients.

Every number comes from the log through the narration's own placeholders
(:func:`scenes.storyboard.narration.resolve`), in the storyboard's number style, so the table
and the captions cannot write one value two ways.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.records import Error, Expr, Print, Warn
from scenes.storyboard.errors import plain
from scenes.storyboard.logindex import LogIndex
from scenes.storyboard.model import Numbers
from scenes.storyboard.placeholders import Placeholder, Shown
from scenes.storyboard.narration import resolve

NONE = "None"
"""What an empty cell says: PyTorch's own word for a .grad not filled (or a value not made yet)."""


NOT_REACHED = "–"
"""What a "received" cell says where the walk did not reach the node (an input, a skipped path)."""


@dataclass(frozen=True)
class ValueRow:
    """One named tensor: its value and grad_fn at the end of the program, and per backward call
    the gradient its node received in that call's walk (``NOT_REACHED`` where the walk did not
    reach it; a result's too, not only a leaf's) and its ``.grad`` after the call (``NONE``)."""

    name: str
    value: str
    grad_fn: str
    grads: tuple[str, ...]
    received: tuple[str, ...] = ()

    @property
    def cells(self) -> tuple[str, ...]:
        """Per call, what it received then its ``.grad``: the table's columns after grad_fn."""
        return tuple(c for pair in zip(self.received, self.grads) for c in pair)


def grad_headers(index: LogIndex) -> list[str]:
    """The headers of the per-call columns, short so a phone's table header stays one line:
    ``received`` and ``.grad``, numbered by call when there are two or more calls."""
    calls = index.calls
    if len(calls) == 1:
        return ["received", ".grad"]
    return [h for k in range(1, len(calls) + 1) for h in (f"received {k}", f".grad {k}")]


def _ask(index: LogIndex, name: str, field: str, cutoff: int, numbers: Numbers) -> Shown | None:
    got = resolve(Placeholder(0, 0, name, field), index, cutoff, numbers)
    return got if isinstance(got, Shown) else None


def call_ends(index: LogIndex) -> list[int]:
    """The seq of the last event of each backward call's walk, in call order."""
    return [index.walk(call)[-1].seq for call in index.calls]


def value_rows(index: LogIndex, numbers: Numbers) -> list[ValueRow]:
    """A row per program name bound to a tensor, in the order the program first bound them."""
    end = index.events[-1].seq if index.events else -1
    ends = call_ends(index)
    rows = []
    for name in index.logged_names():
        if not name.isidentifier():
            continue
        value = _ask(index, name, "value", end, numbers)
        grad_fn = _ask(index, name, "grad_fn", end, numbers)
        grads = tuple((g.text if (g := _ask(index, name, "grad", cut, numbers)) else NONE) for cut in ends)
        received = tuple(_received(index, name, call, cut, numbers) for call, cut in zip(index.calls, ends))
        rows.append(ValueRow(name, value.text if value else NONE, grad_fn.text if grad_fn else NONE, grads,
                             received))
    return rows


def _received(index: LogIndex, name: str, call: int, cutoff: int, numbers: Numbers) -> str:
    """The gradient the walk of ``call`` brought to ``name``'s node (the narration's
    ``{name.grad_in}`` at the call's end), or ``NOT_REACHED`` if that walk never visited it."""
    got = _ask(index, name, "grad_in", cutoff, numbers)
    start = index.walk(call)[0].seq
    return got.text if got is not None and got.seq is not None and got.seq >= start else NOT_REACHED


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


def leaf_grads(index: LogIndex) -> list[tuple[str, str]]:
    """``(name, str(name.grad))`` for each name whose ``.grad`` the program ends with filled,
    as PyTorch prints it (the accumulation's ``str``): what "Try it in PyTorch" adds a print for."""
    end = index.events[-1].seq if index.events else -1
    out = []
    for name in index.logged_names():
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
