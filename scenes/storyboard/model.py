"""The storyboard model: frozen dataclasses whose type hints are the single source of truth.

Why hand-rolled: no pydantic is available, and the model is small. :mod:`.typed` reads these type
hints to check YAML data (with did-you-mean for unknown keys) and to generate the JSON Schema, so
the checker, the schema and the code can never disagree. ``field(metadata={"doc": ...})`` texts
become the schema's descriptions, which editors show as hover help.

A beat selects a span of the event log with exactly one of ``lines``, ``backward``, ``visits``,
``accumulations``, ``reset``, ``branch`` or ``passes`` (a ``title_card`` selects none), and says how
to show it. The ``network*`` visuals draw the program's multilayer perceptron as units and weights
(derived from the log by :mod:`.network`) instead of its autograd graph, which at 36 weights has too
many nodes to carry labels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Visual = Literal[
    "title_card",
    "code_and_graph_build",
    "backward_graph",
    "wavefront",
    "accumulate",
    "reset",
    "branch",
    "output",
    "network",
    "network_backward",
    "network_forward",
]
"""The closed list of visuals the scene implements; see VISUAL_SPANS for what each one shows."""

VISUALS: tuple[str, ...] = Visual.__args__  # type: ignore[attr-defined]

SPAN_KEYS: tuple[str, ...] = ("lines", "backward", "visits", "accumulations", "reset", "branch", "passes")

VISUAL_SPANS: dict[str, tuple[str, ...]] = {
    "title_card": (),
    "code_and_graph_build": ("lines",),
    "backward_graph": ("lines",),
    "wavefront": ("backward", "visits"),
    "accumulate": ("accumulations", "backward"),
    "reset": ("reset", "lines"),
    "branch": ("branch", "lines"),
    "output": ("lines",),
    "network": ("lines",),
    "network_backward": ("backward",),
    "network_forward": ("passes",),
}
"""Which span selectors each visual accepts (the first is the usual one)."""

Pace = Literal["slow", "normal", "fast", "rush"]
PACE_FACTOR: dict[str, float] = {"slow": 1.5, "normal": 1.0, "fast": 0.5, "rush": 0.15}
"""``rush`` is for many repeats of one thing (35 more forward passes): the count is the point."""

Style = Literal["fraction", "decimal", "torch"]


def _doc(text: str, **extra: object) -> dict[str, object]:
    return {"doc": text, **extra}


@dataclass(frozen=True)
class Numbers:
    """How values are written: ``fraction`` (8/3, from the exact shadow; falls back to decimals
    once a value is not rational), ``decimal`` (``places`` digits), or ``torch`` (PyTorch's own
    ``tensor(2.6667)``)."""

    style: Style = field(default="fraction", metadata=_doc("fraction, decimal or torch"))
    places: int = field(default=4, metadata=_doc("digits after the point for decimal", minimum=0, maximum=8))


@dataclass(frozen=True)
class Beat:
    """One step of the clip: a span of the event log, a visual, a pace and one narration line."""

    visual: Visual = field(metadata=_doc("how the span is drawn (closed list)"))
    narration: str = field(
        metadata=_doc("one caption line; numbers only as placeholders like {w1.grad}", minLength=1)
    )
    lines: int | tuple[int, int] | None = field(
        default=None, metadata=_doc("forward pass: program line N, or lines [a, b]", minimum=1)
    )
    backward: int | None = field(
        default=None, metadata=_doc("backward call k: its walk and its accumulations", minimum=1)
    )
    visits: int | None = field(default=None, metadata=_doc("backward call k: its node visits only", minimum=1))
    steps: tuple[int, int] | None = field(
        default=None, metadata=_doc("with visits: only visits [i, j] of the walk (1-based)", minimum=1)
    )
    accumulations: int | None = field(
        default=None, metadata=_doc("backward call k: its AccumulateGrad bucket fills", minimum=1)
    )
    reset: int | None = field(default=None, metadata=_doc("the .grad reset on program line N", minimum=1))
    branch: int | None = field(default=None, metadata=_doc("the if on program line N", minimum=1))
    passes: int | tuple[int, int] | None = field(
        default=None, metadata=_doc("forward mode: pass N, or passes [a, b] (needs forward_mode)", minimum=1)
    )
    pace: Pace = field(default="normal", metadata=_doc("slow, normal, fast or rush"))
    emphasis: tuple[str, ...] = field(default=(), metadata=_doc("program names to highlight"))
    dim: tuple[str, ...] = field(default=(), metadata=_doc("program names to fade"))

    def span_key(self) -> str | None:
        """The one span selector given, or None (validation reports zero or several)."""
        given = [k for k in SPAN_KEYS if getattr(self, k) is not None]
        return given[0] if len(given) == 1 else None


@dataclass(frozen=True)
class Storyboard:
    """A clip: what it is called, the program it shows (exactly), how numbers look, its beats."""

    title: str = field(metadata=_doc("shown on the title card and in `render list`", minLength=1))
    program: str = field(metadata=_doc("the program, as a literal block (program: |)", minLength=1))
    beats: tuple[Beat, ...] = field(metadata=_doc("the clip, in order", minItems=1))
    numbers: Style | Numbers = field(
        default="fraction", metadata=_doc("fraction, decimal, torch, or {style: decimal, places: N}")
    )
    forward_mode: str | None = field(
        default=None, metadata=_doc("also differentiate this program name in forward mode (one pass per leaf)",
                                    minLength=1)
    )

    @property
    def number_style(self) -> Numbers:
        """``numbers`` normalised to a :class:`Numbers`."""
        return self.numbers if isinstance(self.numbers, Numbers) else Numbers(style=self.numbers)
