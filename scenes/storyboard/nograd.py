"""Why ``{N.grad}`` has no value at a beat, and which placeholder or beat has it then.

Why its own module: "has no value yet" alone sent authors hunting; what holds the number at
that moment is in the log (a walk that reached N's node but has not filled its bucket, a tensor
that is no leaf, a backward call no beat has shown yet), so the message reads it from there.

>>> from engine import run_program
>>> from scenes.storyboard.logindex import LogIndex
>>> from scenes.storyboard.model import Numbers
>>> log = run_program("import torch\\nw = torch.tensor(2.0, requires_grad=True)\\ny = w * w\\ny.backward()\\n", "p.py")
>>> index = LogIndex.build(list(log.events), log.header["source"])
>>> no_grad_yet("y.grad", "y", index, len(index.events), Numbers()).split(";")[0]
'{y.grad} has no value at this beat: y is not a leaf, so y.grad stays None (backward fills the .grad of leaves only)'
"""

from __future__ import annotations

import re

from engine.records import Accumulate, Backward, GradReset, Visit

from .errors import did_you_mean
from .logindex import LogIndex
from .model import Numbers
from .numfmt import show


def no_grad_yet(ref: str, name: str, index: LogIndex, cutoff: int, numbers: Numbers) -> str:
    """The message for ``{ref}`` (a ``.grad`` field of ``name``) when no fill of ``name``'s
    bucket is at or before seq ``cutoff``: what is true then, and what to write instead."""
    end = index.events[-1].seq if index.events else 0
    visit = index.latest(name, (Visit,), cutoff)
    fill = index.first_after(name, (Accumulate,), cutoff)
    later_visit = index.first_after(name, (Visit,), cutoff)
    ever_filled = fill is not None or index.latest(name, (Accumulate,), end) is not None
    if isinstance(visit, Visit):
        arrived = show(visit.grad_in, visit.grad_in_exact, numbers)
        got = f"the gradient that reached its node ({visit.grad_fn}) is {{{name}.grad_in}} ({arrived})"
        if not ever_filled:
            return (f"{{{ref}}} has no value at this beat: {name} is not a leaf, so {name}.grad stays None "
                    f"(backward fills the .grad of leaves only); in backward call {visit.call} {got}")
        if isinstance(fill, Accumulate):
            return (f"{{{ref}}} has no value yet at this beat: backward call {visit.call} has reached "
                    f"{name}'s node but its bucket fills later; at this beat {got}, or show the fill first "
                    f"(a beat with {_fills(fill)}) and narrate {{{ref}}} after it")
    if not ever_filled:
        if isinstance(later_visit, Visit):
            return (f"{{{ref}}} has no value at this beat: {name} is not a leaf, so {name}.grad stays None "
                    f"(backward fills the .grad of leaves only); write {{{name}.grad_in}} in a beat after "
                    f"one that shows backward call {later_visit.call} (backward: {later_visit.call})")
        return (f"{{{ref}}} has no value: no backward call reaches {name} ({name}.grad stays None); "
                f"it needs requires_grad=True and a path to the tensor backward() is called on")
    if fill is None:  # a fill at or before the cutoff: the caller found it; said plainly all the same
        return f"{{{ref}}} has no value yet at this beat: {name}.grad is None until a backward call fills it"
    started = [c for c, at in index.walk_at.items() if index.events[at].seq <= cutoff]
    walk = next((index.events[index.walk_at[c]] for c in started if c == fill.call), None)
    if isinstance(walk, Backward):
        return (f"{{{ref}}} has no value yet at this beat: backward call {fill.call} (line {walk.line}) has "
                f"not reached {name} by the end of this beat's span; widen the span or narrate it in a "
                f"beat with {_fills(fill)}")
    return (f"{{{ref}}} has no value yet at this beat: {name}.grad is None until {_by(fill)}, which no beat "
            f"before this one shows; add a beat with {_fills(fill)} before this one, or move this narration "
            f"after it")


def _fills(fill: Accumulate) -> str:
    """The span that shows a fill: its backward call's accumulations."""
    return f"accumulations: {fill.call}" if fill.call is not None else f"lines: {fill.line}"


def _by(fill: Accumulate) -> str:
    """Who fills the bucket: ``backward call 2 (line 9)``."""
    return f"backward call {fill.call} (line {fill.line}) fills it" if fill.call is not None \
        else f"line {fill.line} fills it"


def reset_before(ref: str, name: str, reset: GradReset, index: LogIndex, numbers: Numbers) -> str:
    """The message for ``{ref}`` when ``name``'s ``.grad`` was last reset (to None, or the field is
    not ``grad``): what it held before the reset, and the ``{N.grad@k}`` that reads it there."""
    said = f"{{{ref}}} has no value at this beat: {name}.grad was reset on line {reset.line}"
    filled = index.latest(name, (Accumulate,), reset.seq)
    if not isinstance(filled, Accumulate):
        return said
    loop = index.loop_of(name)
    k = next((i for i, (a, z) in enumerate(loop.passes, 1) if a <= reset.seq <= z), None) if loop else None
    held = show(filled.after, filled.after_exact, numbers)
    field = ref.split("@")[0]
    read = f"{{{field}@{k}}} reads it as pass {k} filled it" if k is not None else \
        "a placeholder in a beat before the reset reads it"
    return f"{said}; before that it held {held} ({read})"


def leaf_grad_none(name: str, index: LogIndex, until: int) -> bool:
    """Whether the log has leaf ``name``'s ``.grad`` None at seq ``until``: no fill of its bucket
    yet, or a ``name.grad = None`` after the last one."""
    last = index.latest(name, (Accumulate, GradReset), until)
    return last is None or (isinstance(last, GradReset) and last.to is None)


def grad_none_problem(name: str, narration: str, index: LogIndex, until: int) -> str | None:
    """Why ``grad_none: [name]`` cannot be drawn in a beat whose span ends at seq ``until``, or None.

    The note says what the engine reads for ``name.grad``: None, for a tensor the log records as
    no leaf (``is_leaf`` false: a result, whose ``.grad`` backward never fills), or for a leaf
    whose bucket the log has empty then (`leaf_grad_none`: its bucket wears the words); and the
    note comes as the words name ``name.grad``, so the narration must.

    >>> from engine import run_program
    >>> log = run_program("import torch\\nw = torch.tensor(2.0, requires_grad=True)\\ny = w * w\\ny.backward()\\n", "p.py")
    >>> index = LogIndex.build(list(log.events), log.header["source"])
    >>> end = index.events[-1].seq
    >>> grad_none_problem("y", "y.grad stays None.", index, end) is None
    True
    >>> grad_none_problem("w", "w.grad", index, end).split(" (")[0]
    "grad_none: 'w' is a leaf whose .grad is not None at this beat"
    >>> grad_none_problem("w", "w.grad is None", index, 3) is None  # before backward fills it
    True
    >>> grad_none_problem("y", "y keeps none.", index, end).split(";")[0]
    "grad_none: y's note comes as the words name y.grad, and this beat's narration does not"
    """
    tensors = index.logged_names()
    if name not in tensors:
        return (f"grad_none: '{name}' is not a tensor of the log (its tensors are {', '.join(tensors) or 'none'})"
                f"{did_you_mean(name, tensors)}")
    made = [t for t in index.ids_of(name, until=until) if t in index.tensor_event]
    if not made:
        return f"grad_none: '{name}' is not made yet at this beat; name it in a beat after the line that makes it"
    if any(index.tensor_event[t].is_leaf for t in made) and not leaf_grad_none(name, index, until):
        return (f"grad_none: '{name}' is a leaf whose .grad is not None at this beat (its bucket holds "
                f"a gradient); name it in a beat where the log has {name}.grad None: before a backward "
                f"call fills it, or after {name}.grad = None")
    if not re.search(rf"(?<![\w.]){re.escape(name)}\.grad\b", narration):
        return (f"grad_none: {name}'s note comes as the words name {name}.grad, and this beat's narration "
                f"does not; say it there (\"{name}.grad is None\") or leave {name} out of grad_none")
    return None
