"""The cue kinds: every kind of thing the plan tells the scene to do, declared once.

Why one table: a cue kind is a contract between the plan, which emits it, and the scene, which
draws it. Each entry says what the cue's ``ids`` name, the ``role`` of its strings, and how the
scene treats it besides drawing it (the properties below). The plan refuses to emit a kind that
is not here, and the scene (``scenes.draw.drawers``) refuses at import to lack a drawer for one.
Every string a cue shows is a :class:`~.placeholders.Shown` naming the event and field it was read
from; ``network*`` cues name the unit or weight (tensor id) an autograd node belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable
from typing import Literal

from .placeholders import Shown


@dataclass(frozen=True)
class Cue:
    """One thing the scene does, from ``start`` for ``duration`` seconds; ``kind`` names its
    entry in :data:`CUE_KINDS`."""

    start: float
    duration: float
    kind: str
    beat: int
    ids: tuple[str, ...] = ()
    strings: tuple[Shown, ...] = ()
    line: int | None = None
    seqs: tuple[int, ...] = ()

    def text(self, role: str) -> str | None:
        """The string with ``role``, if the cue shows one."""
        return next((s.text for s in self.strings if s.role == role), None)

    def number(self, role: str) -> float | None:
        """The logged value behind the string with ``role`` (None if it has none, or is not finite)."""
        return next((s.number for s in self.strings if s.role == role), None)


@dataclass(frozen=True)
class CueKind:
    """One cue kind: its name, what its ``ids`` and strings are, and how the scene treats it.

    ``ends_walk``: drawing it fades the glow on the last node the backward walk visited (it is
    about something else than the walk). ``follows_line``: the code pane lights the program line
    of its first event (``L.backward()`` during the walk). ``console``: it prints under the code
    pane, which leaves room for such lines. ``reads_fill_scale``: its drawing reads the leaf's
    largest |.grad| over the whole clip, so that number joins its segment's key. ``walk_line``:
    its line is the backward walk's (``L.backward()``): where the graph lies under the code, the
    pane steps aside for it. ``reveals``: how far into it (a fraction of its duration) the
    numbers it shows are whole on screen (the scene fades them in late, after what they come
    from has landed); a phrase naming one of them starts the cue that much before the number is
    named, so that it is readable when said. ``camera``: how it moves the camera, if it does:
    ``"glide"``, the graph glides to a new view and what the view leaves fades with the move
    (`scenes.draw.glide`); ``"frame"``, the whole graph grows into (or shrinks from) the room the
    code pane frees. ``carries``: it moves the number it shows from one card to another (a gradient
    token riding an arrow); with a voice, a phrase saying that number starts it so that it lands as
    the number is said, and a visit's phrase that does not say it takes it along after the visit.
    """

    name: str
    ids: str
    strings: str
    ends_walk: bool = False
    follows_line: bool = False
    console: bool = False
    reads_fill_scale: bool = False
    walk_line: bool = False
    reveals: float = 0.0
    camera: Literal["", "glide", "frame"] = ""
    carries: bool = False


CUE_KINDS: dict[str, CueKind] = {k.name: k for k in (
    CueKind("title", "()", "title (title)", ends_walk=True),
    CueKind("code_line", "()", "the program line's text (code); the cue's line is set", ends_walk=True),
    CueKind("node_appear", "(tensor, [node])", "name, op, value, grad_fn (each when present)", ends_walk=True),
    CueKind("edge_grow", "(from, to)", "none; tensor ids in a forward build, node ids else"),
    CueKind("value_update", "(tensor, [node])", "name, value", ends_walk=True),
    CueKind("grad_fn_appear", "(node, [tensor])", "grad_fn, name (the tensor's, or an unnamed result's code), value (its forward card's)"),
    CueKind("bucket_appear", "(accumulate node, leaf)", "grad_fn, name"),
    CueKind("backward_start", "(root tensor, root node)", "name of the root (when named)", follows_line=True,
            walk_line=True),
    CueKind("visit", "(node, [tensor])",
            "grad_fn, grad (grad_in; none at a bucket two or more met at), part (each gradient that met "
            "there, when two or more and not a bucket), rule (its words)",
            follows_line=True, walk_line=True),
    CueKind("grad_travel", "(from node, to node)", "grad (grads_out[j])", carries=True),
    CueKind("local_rule", "(node, to node)",
            "in (grad_in), factor (each factor of the local derivative), out (grads_out[j]), target (name)"),
    CueKind("bucket_fill", "(accumulate node, leaf)",
            "name, before (if .grad was set), part (what each path sent, when two or more met at an "
            "empty bucket), add, after",
            follows_line=True, reads_fill_scale=True, walk_line=True, reveals=1.0),
    CueKind("bucket_reset", "(leaf, [accumulate node])", 'name, after ("None", or the zero)',
            ends_walk=True, follows_line=True),
    CueKind("grad_none", "(tensor, [node])",
            "name (`yh.grad`), after (\"None\": the log records the tensor as no leaf, so backward never fills "
            "its .grad); drawn as the words name `yh.grad`, and kept"),
    CueKind("branch_test", "()", 'code (the test), taken ("True"/"False"); the cue\'s line is the if line',
            ends_walk=True, follows_line=True),
    CueKind("output_line", "()", "output", ends_walk=True, follows_line=True, console=True),
    CueKind("message", "([node])", "type, message (an error or warning)", ends_walk=True, follows_line=True, console=True),
    CueKind("check", "()", "item (each item of the storyboard's checklist), ticked (the one this beat ticks; none in the cue that brings the list in)"),
    CueKind("emphasis", "tensor and node ids", "none"),
    CueKind("dim", "tensor and node ids", "none"),
    CueKind("light", "tensor and node ids (none: every light goes)",
            "none: the cards (or buckets) a phrase talks about glow until the next light; the beat ends with none"),
    CueKind("focus", "tensor ids", "none: the camera moves to their cards, drawn larger, for the beat",
            camera="glide"),
    CueKind("unfocus", "()", "none: the camera moves back to the whole graph, at the focused beat's end",
            camera="glide"),
    CueKind("camera", "(node, [tensor], [card, ...]) or ()",
            "none: the walk's camera moves in on the node about to be visited (where the graph is dense), "
            "keeping in view the cards after its ids (a caption up names them), or with no ids out to the "
            "whole graph; in a pause before the visit (scenes.render.camera_plan)", camera="glide"),
    CueKind("whole", "()",
            "none: the code pane steps aside to its lit line and the whole graph, built, grows into the "
            "frame it frees (scenes.render.whole_plan)", camera="frame"),
    CueKind("whole_back", "()", "none: the whole graph shrinks back home and the code pane comes back whole",
            camera="frame"),
    CueKind("unit_appear", "(unit tensor)", "name (a unit of the program's MLP)"),
    CueKind("link_appear", "(weight, src unit, dst unit)", "none (a weight joining two units)"),
    CueKind("unit_weights", "(unit, weight, ...)",
            "weight (each weight's value, in the order of its ids), input (the value of the unit each "
            "weight's line comes from, in the same order)"),
    CueKind("unit_sum", "(unit, sum tensor, product, ...)",
            "product (each weight times its input, in the order of the unit_weights' weights), "
            "value (the weighted sum the unit's activation takes: the products' sum)"),
    CueKind("unit_act", "(unit, sum tensor)", "op (the activation as the program calls it: relu), value (the unit's output)"),
    CueKind("unit_done", "(unit)", "none: the unit's arithmetic goes, the whole network is there again"),
    CueKind("pass_count", "(root or seed tensor)",
            "count (backward call / forward pass), total (forward passes)"),
    CueKind("sweep_step", "(unit or weight)", "none: the reverse sweep reaches it"),
    CueKind("link_fill", "(weight)", "none: its .grad arrived (accumulate)"),
    CueKind("reach_count", "()", "reached (weights the reverse sweep has reached, layers so far), total (weights)"),
    CueKind("tangent_sweep", "(weights and units)", "none: one forward pass, seed to loss, in order"),
    CueKind("jvp_fill", "(seed weight)", "name, value (d root / d seed of that pass)"),
    CueKind("update_step", "(tensor, [node])", "name, before, op (- or +), factor and grad (lr and "
            "w.grad) or operand, after", ends_walk=True, follows_line=True, console=True),
    CueKind("curve_axes", "()", "name, top and bottom (the extreme values), total (passes)", ends_walk=True),
    CueKind("curve_point", "(tensor)", "value, count (its pass)"),
    CueKind("recap", "()", "name (a quantity the takeaway names, `w1.grad`), then value (each text the takeaway "
            "gives it: `8/3`, `tensor(2.6667)`), per quantity; the walk's marks and badges stay"),
    CueKind("loop_pass", "()", "count, total (the loop's pass and how many ran; none: no loop now); "
            "the cue's line is the for line"),
)}
"""Every cue kind, by name, in the order of the plan's contract."""


def cue_kind(name: str) -> CueKind:
    """The declaration of cue kind ``name``; an undeclared one is an error, never drawn as nothing."""
    try:
        return CUE_KINDS[name]
    except KeyError:
        raise KeyError(f"cue kind {name!r} is not declared in scenes/storyboard/cues.py") from None


CONSOLE_KINDS = frozenset(k.name for k in CUE_KINDS.values() if k.console)
"""Cue kinds that print under the code pane."""

CAMERA_MOVES = frozenset(k.name for k in CUE_KINDS.values() if k.camera)
"""Cue kinds that move the camera."""

GLIDES = frozenset(k.name for k in CUE_KINDS.values() if k.camera == "glide")
"""Cue kinds that glide the graph to a new view, fading what the view leaves."""

BUILDS = frozenset({"node_appear", "edge_grow", "grad_fn_appear", "bucket_appear"})
"""Cue kinds that draw a part of the graph: the graph is built once the last of them is done."""


def needs_pane(c: Cue) -> bool:
    """Whether cue ``c`` needs the whole code pane: it lights a line, or prints under it (a pane
    stepped aside to its lit line comes back whole for it, unless that line printed all it shows)."""
    return c.kind == "code_line" or c.kind in CONSOLE_KINDS or cue_kind(c.kind).follows_line


def opens_pane(c: Cue) -> bool:
    """Whether cue ``c`` may bring a code pane stepped aside to the walk's lit line back whole: it
    prints under the pane, lights a program line, or follows one that may not be the walk's
    (`scenes.draw.code`'s ``bar_to``); a walk's cue keeps the walk's line lit."""
    k = cue_kind(c.kind)
    return k.console or (c.kind == "code_line" and c.line is not None) or (k.follows_line and not k.walk_line)


def writes_note(cues: Iterable[Cue], visit: Cue) -> bool:
    """Whether ``visit`` writes a note beside its node: its rule's words, the gradients that met
    there, a product (its ``local_rule`` cues, among ``cues``, start with it); a leaf's visit
    writes none (its gradient waits by its bucket)."""
    return any(s.role in ("rule", "part") for s in visit.strings) or any(
        c.kind == "local_rule" and c.ids[0] == visit.ids[0] and abs(c.start - visit.start) < 1e-6 for c in cues)


def writes_sum(fill: Cue) -> bool:
    """Whether the ``bucket_fill`` cue ``fill`` writes a sum beside its bucket: the gradients that
    met there (``3 + 3 = 6``, two or more ``part`` strings and the ``add``), or what ``.grad``
    held plus what arrives (``6 + 6 = 12``: ``before``, ``add``, ``after``)
    (`scenes.draw.buckets.Buckets`, `scenes.draw.bucket_notes.BucketNotes.sums_note`).

    >>> from scenes.storyboard.placeholders import Shown
    >>> def fill(*roles): return Cue(0.0, 0.8, "bucket_fill", 1, ("n0", "t0"), tuple(Shown("1", None, r, r) for r in roles))
    >>> writes_sum(fill("part", "part", "add")), writes_sum(fill("part", "add", "after")), writes_sum(fill("before", "add", "after"))
    (True, False, True)
    """
    roles = [s.role for s in fill.strings]
    return "add" in roles and (roles.count("part") > 1 or {"before", "after"} <= set(roles))


NOTE_STAYS = frozenset({"visit", "local_rule", "grad_travel", "camera", "emphasis", "dim", "light"})
"""Cue kinds a visit's note stays through while the caption explaining it runs: the walk going on
(a visit that writes no note of its own), its tokens riding, the camera, the lights."""


def note_gives_way(cues: Iterable[Cue], c: Cue) -> bool:
    """Whether the last visit's note gives way to cue ``c`` (of ``cues``): one about something
    else than the walk (a bucket's fill, the code, a print), or a visit writing a note of its own."""
    return c.kind not in NOTE_STAYS or (c.kind == "visit" and writes_note(cues, c))
