"""Compare a storyboard's run with real PyTorch, before anything is drawn (``render check``).

Why a thin adapter: :mod:`scenes.oracle.run` already runs a checked program on torch by walking the
same whitelisted syntax tree as the engine (no exec) and reduces both sides to comparable traces.
This module feeds it the program *as it ran* (``--set`` applied, the text the code pane shows),
on the PyTorch :mod:`scenes.oracle.remote` found (this process's, or another Python's), and
turns its verdict into located differences in the program's names (:mod:`scenes.oracle.verdict`).

Storyboard programs must agree bit for bit, with one exception PyTorch itself makes: where its
vectorised CPU kernel (AVX2, AVX-512) rounds one value one ulp away from its plain kernel (it
fuses a multiply-add), and PyTorch run with ``ATEN_CPU_CAPABILITY=default`` agrees with the
engine bit for bit, the first difference is one ulp and is reported as agreement within 1 ulp.
Anything larger, or a difference the plain kernels show too, is a disagreement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.records import Event
from scenes.storyboard.program import Run

if TYPE_CHECKING:
    from scenes.oracle.remote import TorchAt

AGREES = "PyTorch agrees"
WITHIN_ULP = "agrees within 1 ulp: PyTorch's vectorised kernel fuses a multiply-add here"


@dataclass(frozen=True)
class Difference:
    """One disagreement; ``line`` is the program line it is about."""

    line: int
    message: str


@dataclass(frozen=True)
class Verdict:
    """What the comparison found: the ``differences`` (none: PyTorch agrees) and a ``note`` for
    the ``ok`` line (``PyTorch agrees``, or agreement within 1 ulp and where)."""

    differences: list[Difference]
    note: str


def torch_available() -> bool:
    """True when real PyTorch can be imported here."""
    from scenes.oracle.run import torch_available as available

    return available()


def compare(run: Run, source: str, filename: str = "<program>", at: "TorchAt | None" = None) -> Verdict:
    """The engine's log against real PyTorch running ``source``: on ``at`` (a
    :class:`~scenes.oracle.remote.TorchAt`), this process's torch by default."""
    from scenes.oracle.remote import TorchAt, trace
    from scenes.oracle.traces import engine_trace
    from scenes.oracle.verdict import first_difference

    where = at if at is not None else TorchAt(None, "")
    sources: list[Event] = []
    ours = engine_trace(run.log, sources, visits=True)
    found = first_difference(run.log, ours, sources, trace(where, source, filename))
    if found is None:
        return Verdict([], AGREES)
    plain = found.ulps is not None and first_difference(
        run.log, ours, sources, trace(where, source, filename, capability="default")) is None
    if plain and found.ulps == 1:
        return Verdict([], f"PyTorch {WITHIN_ULP} ({found.subject}: gradreel {found.ours}, PyTorch "
                           f"{found.theirs}; with ATEN_CPU_CAPABILITY=default it agrees bit for bit)")
    why = (" (with ATEN_CPU_CAPABILITY=default PyTorch agrees bit for bit: its vectorised kernel parts "
           "from its plain one here by more than 1 ulp)") if plain else ""
    return Verdict([Difference(found.line, found.message() + why)], "")
