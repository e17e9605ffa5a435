"""Compare a storyboard's run with real PyTorch, before anything is drawn (``render check``).

Why a thin adapter: :mod:`scenes.oracle.run` already runs a checked program on torch by walking the
same whitelisted syntax tree as the engine (no exec) and reduces both sides to comparable traces.
This module feeds it the program *as it ran* (``--set`` applied, the text the code pane shows)
and turns its verdict into located differences.
"""

from __future__ import annotations

from dataclasses import dataclass

from scenes.storyboard.program import Run

REL = 0.0  # storyboard programs are + - * / chains and relu: demand exact agreement


@dataclass(frozen=True)
class Difference:
    """One disagreement; ``line`` is the program line (1 when the trace does not say)."""

    line: int
    message: str


def torch_available() -> bool:
    """True when real PyTorch can be imported here."""
    from scenes.oracle.run import torch_available as available

    return available()


def compare(run: Run, source: str, filename: str = "<program>") -> list[Difference]:
    """Differences between the engine's log and real PyTorch running ``source`` (empty: agree)."""
    from scenes.oracle.run import torch_trace
    from scenes.oracle.traces import compare_traces, engine_trace

    verdict = compare_traces(engine_trace(run.log), torch_trace(source, filename), rel=REL)
    return [] if verdict is None else [Difference(1, f"PyTorch disagrees: {verdict}")]
