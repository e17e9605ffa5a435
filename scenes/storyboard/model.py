"""The storyboard model: frozen pydantic models whose type hints are the single source of truth.

Why pydantic: it checks the YAML data against these hints (``extra="forbid"``: an unknown key is
a problem) and generates the JSON Schema (:mod:`.schema`) from the same models, so the checker,
the schema and the code can never disagree; :mod:`.modelcheck` turns its errors into located
problems with did-you-mean. ``Field(description=...)`` texts become the schema's descriptions,
which editors show as hover help.

A beat selects a span of the event log with exactly one of ``lines``, ``backward``, ``visits``,
``accumulations``, ``reset``, ``branch`` or ``passes`` (a ``title_card`` selects none), and says how
to show it. The ``network*`` visuals draw the program's multilayer perceptron as units and weights
(derived from the log by :mod:`.network`) instead of its autograd graph, which at 36 weights has too
many nodes to carry labels.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from annotated_types import Ge, Le, MinLen
from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, Strict, Tag
from pydantic_core import PydanticCustomError

from .visuals import VISUAL_NAMES

Visual = Literal[VISUAL_NAMES]  # type: ignore[valid-type]
"""The closed list of visuals the scene implements, read from :data:`.visuals.TABLE`."""

VISUALS: tuple[str, ...] = VISUAL_NAMES

SPAN_KEYS: tuple[str, ...] = ("lines", "backward", "visits", "accumulations", "reset", "branch", "passes")

Pace = Literal["slow", "normal", "fast", "rush"]
PACE_FACTOR: dict[str, float] = {"slow": 1.5, "normal": 1.0, "fast": 0.5, "rush": 0.15}
"""``rush`` is for many repeats of one thing (35 more forward passes): the count is the point."""

Style = Literal["fraction", "decimal", "torch", "sig", "sci"]
STYLES: tuple[str, ...] = ("fraction", "decimal", "torch", "sig", "sci")
"""The number styles, as :data:`Style` lists them (also the placeholder's ``{x.grad:sci}``)."""


def _not_blank(text: str) -> str:
    """Refuse text that is only spaces: ``title: " "`` is as empty as ``title: ""``."""
    if not text.strip():
        raise PydanticCustomError("blank", "must not be empty")
    return text


def yaml_shape(value: Any) -> str:
    """How a value reads in YAML: ``scalar``, ``list`` or ``mapping``."""
    if isinstance(value, (dict, BaseModel)):
        return "mapping"
    return "list" if isinstance(value, (list, tuple)) else "scalar"


def _by_shape(expected: str) -> Discriminator:
    """Pick a union's member by the value's shape, as an author reads it (``lines: 3`` is a line,
    ``lines: [2, 4]`` a range); a value of another shape is one problem, ``must be EXPECTED``."""
    return Discriminator(yaml_shape, custom_error_type="shape", custom_error_message=f"must be {expected}")


Positive = Annotated[int, Strict(), Ge(1)]
"""A whole number from 1: YAML's ``2``, never ``2.0``, ``"2"`` or ``true``."""

Text = Annotated[str, Strict()]

NonEmpty = Annotated[str, Strict(), MinLen(1), AfterValidator(_not_blank)]

def _step_kind(value: Any) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return "number"
    return "name" if isinstance(value, str) else None


StepRef = Annotated[
    Annotated[Positive, Tag("number")] | Annotated[NonEmpty, Tag("name")],
    Discriminator(_step_kind, custom_error_type="shape",
                  custom_error_message="must be a visit number (from 1) or a name the walk visits"),
]
"""One end of ``steps:``: the Nth visit of the walk, or the visit of a program name's node."""

Range = Annotated[
    Annotated[Positive, Tag("scalar")] | Annotated[tuple[Positive, Positive], Tag("list")],
    _by_shape("a whole number or a list [a, b]"),
]
"""N or [a, b]."""


class _Model(BaseModel):
    """Every model: an unknown key is a problem, and a checked value never changes (hashable)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Numbers(_Model):
    """How values are written: ``fraction`` (8/3, from the exact shadow; falls back to decimals
    once a value is not rational), ``decimal`` (``places`` digits after the point), ``torch``
    (PyTorch's own ``tensor(2.6667)``), ``sig`` (``digits`` significant digits: ``0.333``,
    ``5.52e-06``) or ``sci`` (scientific with ``digits`` significant digits: ``5.52e-06``).
    Why ``digits`` also for ``decimal``: a nonzero value that ``places`` would round to zero
    (a vanishing gradient, 5.5153e-06 as ``0.0000``) is written with ``digits`` significant
    digits instead."""

    style: Style = Field("fraction", description="fraction, decimal, torch, sig or sci")
    places: Annotated[int, Strict(), Ge(0), Le(8)] = Field(4, description="digits after the point for decimal")
    digits: Annotated[int, Strict(), Ge(1), Le(9)] = Field(
        3, description="significant digits for sig and sci (and for a decimal value too small for its places)")

    def __init__(self, style: Style = "fraction", places: int = 4, digits: int = 3, **data: Any) -> None:
        """Also positional, ``Numbers("decimal", 2)``, as code and tests write it."""
        super().__init__(style=style, places=places, digits=digits, **data)


NumberStyle = Annotated[
    Annotated[Style, Tag("scalar")] | Annotated[Numbers, Tag("mapping")],
    _by_shape("'fraction', 'decimal', 'torch', 'sig' or 'sci' or a mapping"),
]
"""``numbers:`` as written: a style, or ``{style: decimal, places: N}`` / ``{style: sig, digits: N}``."""


class Beat(_Model):
    """One step of the clip: a span of the event log, a visual, a pace and one narration line."""

    visual: Visual = Field(description="how the span is drawn (closed list)")
    narration: NonEmpty = Field(description="one caption line; numbers only as placeholders like {w1.grad}")
    lines: Range | None = Field(None, description="forward pass: program line N, or lines [a, b]")
    backward: Positive | None = Field(None, description="backward call k: its walk and its accumulations")
    visits: Positive | None = Field(None, description="backward call k: its node visits only")
    steps: tuple[StepRef, StepRef] | None = Field(
        None, description="with visits: only visits [i, j] of the walk (1-based), or from one name's "
                          "node to another's ([yh, w1]; a leaf's name is its AccumulateGrad)")
    accumulations: Positive | None = Field(None, description="backward call k: its AccumulateGrad bucket fills")
    reset: Positive | None = Field(None, description="the .grad reset on program line N")
    branch: Positive | None = Field(None, description="the if on program line N")
    passes: Range | None = Field(
        None, description="forward mode: pass N, or passes [a, b] (needs forward_mode)")
    pass_: Positive | None = Field(
        None, alias="pass",
        description="with lines, reset or branch inside a for loop: its Nth run (1-based)")
    pace: Pace = Field("normal", description="slow, normal, fast or rush")
    emphasis: tuple[Text, ...] = Field((), description="program names to highlight")
    dim: tuple[Text, ...] = Field((), description="program names to fade")
    focus: tuple[Text, ...] = Field(
        (), description="tensors of the log (program names) the camera moves to for this beat, drawing "
                        "their part of the graph larger, and back after")
    grad_none: tuple[Text, ...] = Field(
        (), description="tensors whose .grad the narration says is None: as its words name yh.grad, a note "
                        "beside a result's card writes yh.grad = None (backward keeps no gradient in a result's "
                        ".grad); a leaf's bucket wears v.grad = None where the log has it empty then")
    unit: NonEmpty | None = Field(
        None, description="with visual network: the program name of one unit the beat draws (h1_0) whose "
                          "arithmetic is written out as it comes: its weights on its incoming lines, their sum, "
                          "its activation (relu) and its output; then the whole network again")
    check: Positive | None = Field(
        None, description="tick item N of the storyboard's checklist once this beat has shown what it prints")
    asks: Positive | None = Field(
        None, description="item N of the checklist is asked here, not yet ticked: the list comes in (a later "
                          "beat's check: N ticks it, once its evidence is shown)")
    title: NonEmpty | None = Field(
        None, description="a short title of the beat's own, for its chapter and its article section "
                          "(else the first phrase of its narration); no numbers, as in narration")

    def span_key(self) -> str | None:
        """The one span selector given, or None (validation reports zero or several)."""
        given = [k for k in SPAN_KEYS if getattr(self, k) is not None]
        return given[0] if len(given) == 1 else None


class Takeaway(_Model):
    """What the clip leaves the viewer with, said after the last beat over its picture instead
    of the title again: its own words, with the key numbers as placeholders read at the end of
    the log (``{w1.grad}``)."""

    text: NonEmpty = Field(description="the closing point, with placeholders such as {w1.grad} for its numbers")
    points: tuple[NonEmpty, ...] = Field(
        (), description="the article's key takeaways (no article: of its own), one a line: what the reader keeps, "
                        "numbers as placeholders read at the end of the log; none: the page has no such list")


class ArticleSection(_Model):
    """One section of the clip's written version: a heading, Markdown text with the narration's
    placeholders (read at the end of the beat it shows, else at the end of the log), and the beat
    whose figure illustrates it."""

    heading: NonEmpty | None = Field(
        None, description="the section's heading; without one, the text is the article's introduction "
                          "(first section) or runs on from the section before")
    text: NonEmpty = Field(description="Markdown, numbers only as placeholders such as {w1.grad}")
    figure: Positive | None = Field(
        None, description="beat N's figure illustrates the section; its placeholders are read at the end of beat N")
    arithmetic: Annotated[bool, Strict()] = Field(
        False, description="with figure: list each visit's arithmetic of beat N after the text, as the screen writes it")


class Storyboard(_Model):
    """A clip: what it is called, the program it shows (exactly), how numbers look, its beats."""

    title: NonEmpty = Field(description="shown on the title card and in `render list`")
    program: NonEmpty = Field(description="the program, as a literal block (program: |)")
    beats: Annotated[tuple[Beat, ...], MinLen(1)] = Field(description="the clip, in order")
    numbers: NumberStyle = Field("fraction", description="fraction, decimal, torch, sig, sci, or {style: decimal, places: N} / {style: sci, digits: N}")
    forward_mode: NonEmpty | None = Field(
        None, description="also differentiate this program name in forward mode (one pass per leaf)")
    takeaway: Takeaway | None = Field(
        None, description="the closing caption after the last beat: text with the key numbers as placeholders")
    names: dict[NonEmpty, NonEmpty] = Field(
        default_factory=dict,
        description='names for unnamed results, for narration only: {"b**3": cube} lets a caption say {cube}')
    camera: Literal["visits", "home"] = Field(
        "visits", description="the backward walk's camera: visits (the default) moves in on each visited node where "
                              "the graph is dense (at an aspect whose theme allows it, docs/storyboards.md), home "
                              "keeps the whole graph in view")
    checklist: tuple[NonEmpty, ...] = Field(
        (), description="a list shown on screen from the first beat with `check:`; each such beat ticks one item")
    voice: NonEmpty | None = Field(
        None, description="who says the narration: neural (piper's joe), draft (espeak-ng, instant), recorded "
                          "(your own recordings, in NAME.voice/ beside this file), off (silent, "
                          "captions paced by reading time) or a path to your own piper model (.onnx, relative to "
                          "this file, its .onnx.json beside it); default: course.yaml's voice, else neural")
    say: dict[NonEmpty, NonEmpty] = Field(
        default_factory=dict,
        description='how the voice says words of your narration: {ReLU: "ray loo"}; a key is one word as written '
                    "(code in backticks too); numbers and code have the theme's pronunciation already")
    article: tuple[ArticleSection, ...] = Field(
        (), description="the article's own text, section by section (render article); without it, the "
                        "article is written from the beats")

    @property
    def number_style(self) -> Numbers:
        """``numbers`` normalised to a :class:`Numbers`."""
        return self.numbers if isinstance(self.numbers, Numbers) else Numbers(style=self.numbers)
