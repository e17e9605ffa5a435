"""The beat visuals, each declared once: the spans it accepts, the events it draws, its view.

Why one table: the model's closed list of visuals (and so the JSON Schema's enum), validation and
the plan's dispatch are all read from :data:`TABLE`, so a visual cannot be known to one of them and
missing from another. The table is plain data, importable by the model; how each event kind
becomes cues is the job of the visual's *view* (:mod:`.views`), which must plan every event kind
a visual names (checked at import).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.records import (
    Accumulate,
    Backward,
    Branch,
    Error,
    Event,
    Expr,
    ForwardPass,
    GradReset,
    Jvp,
    Node,
    Print,
    Tangent,
    Tensor,
    Update,
    Visit,
    Warn,
)

Kinds = frozenset[type[Event]]
_LINES_LOG: Kinds = frozenset({Print, Expr, Error, Warn})  # what a program line writes besides tensors


@dataclass(frozen=True)
class Needs:
    """Events a beat's span must contain for the visual to make sense, and the message if not."""

    kinds: Kinds
    message: str


@dataclass(frozen=True)
class VisualSpec:
    """One visual. ``spans``: the span selectors it accepts, the usual one first (none: the beat
    shows no span). ``kinds``: the event records of its span it draws; others are passed over.
    ``view``: the picture whose planners turn those events into cues (``graph``, ``network``,
    ``title``; see :mod:`.views`). ``lights_code``: the code pane's bar moves to each drawn
    event's program line first (a ``code_line`` cue). ``every_pass``: a span inside a loop shows
    all of its passes at once (no ``pass:`` needed)."""

    name: str
    doc: str
    spans: tuple[str, ...]
    kinds: Kinds
    view: str
    lights_code: bool = False
    needs: Needs | None = None
    every_pass: bool = False


TABLE: dict[str, VisualSpec] = {v.name: v for v in (
    VisualSpec("title_card", "the clip's title, large, on an empty frame", (), frozenset(), "title"),
    VisualSpec("code_and_graph_build", "the forward pass: code line by line, cards and arrows", ("lines",),
               frozenset({Tensor, Update, GradReset, Branch}) | _LINES_LOG, "graph", lights_code=True),
    VisualSpec("backward_graph", "the grad_fn nodes and AccumulateGrad buckets a forward pass recorded",
               ("lines",), frozenset({Node}), "graph", lights_code=True),
    VisualSpec("wavefront", "a backward walk: node visits, gradients travelling, buckets filling",
               ("backward", "visits"), frozenset({Backward, Visit, Accumulate, Error, Warn}), "graph"),
    VisualSpec("accumulate", "the AccumulateGrad bucket fills of a backward call", ("accumulations", "backward"),
               frozenset({Accumulate, Error}), "graph"),
    VisualSpec("reset", "a .grad reset emptying its bucket", ("reset", "lines"), frozenset({GradReset}), "graph",
               lights_code=True),
    VisualSpec("branch", "an if's test and the way it went", ("branch", "lines"), frozenset({Branch}), "graph",
               lights_code=True),
    VisualSpec("output", "what program lines print", ("lines",), _LINES_LOG, "graph", lights_code=True,
               needs=Needs(frozenset({Print, Expr}),
                           "visual output needs a line that prints; these lines print nothing")),
    VisualSpec("network", "the program's MLP as units and weights", ("lines",), frozenset({Tensor}), "network"),
    VisualSpec("network_backward", "a backward call sweeping the MLP, weights filling", ("backward",),
               frozenset({Backward, Visit, Accumulate}), "network"),
    VisualSpec("network_forward", "forward-mode passes over the MLP, one per seed weight", ("passes",),
               frozenset({ForwardPass, Tangent, Jvp}), "network"),
    VisualSpec("update", "a training step: the scaled gradient flows into the weight, its arithmetic written",
               ("lines",), frozenset({Update}), "step", lights_code=True,
               needs=Needs(frozenset({Update}), "visual update needs a line that changes a tensor in place "
                                                  "(w -= lr * w.grad)")),
    VisualSpec("loss_curve", "a value a loop's line binds, one point per pass, on plain axes", ("lines",),
               frozenset({Tensor}), "curve", every_pass=True,
               needs=Needs(frozenset({Tensor}), "visual loss_curve needs a line inside a loop that binds a tensor")),
)}
"""Every visual, by name, in the order the schema lists them."""

VISUAL_NAMES: tuple[str, ...] = tuple(TABLE)
VISUAL_SPANS: dict[str, tuple[str, ...]] = {name: v.spans for name, v in TABLE.items()}
"""Which span selectors each visual accepts (the first is the usual one)."""
VISUAL_KINDS: dict[str, Kinds] = {name: v.kinds for name, v in TABLE.items()}
"""The event kinds each visual draws."""
