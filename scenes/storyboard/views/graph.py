"""The autograd-graph view's planners: one function per event kind, each adding its cues.

Why per event kind: a visual of this view (``code_and_graph_build``, ``wavefront``, ``output``,
...) names the event kinds it draws in :mod:`..visuals`; the plan calls this module's planner for
each such event of the beat's span. Tensors become cards and arrows, nodes become grad_fn cards
and buckets, the walk becomes visits and travelling gradients, printouts become console lines.
"""

from __future__ import annotations

from ..builder import Builder
from ..logindex import Event
from ..narration import Shown
from ..numfmt import show, torch_str

MAX_EXPRESSION_CHARS = 12  # longer code would not fit a card's name row; the op name stands in


def title(b: Builder) -> None:
    """A title card's one cue: the storyboard's title."""
    b.add("title", b.tm.title_hold, (), [Shown(b.board.title, None, "title", "title")])


def tensor(b: Builder, ev: Event) -> None:
    strings = [Shown(ev["name"], ev["seq"], "name", "name")] if ev.get("name") else []
    expr = expression(b, ev) if not strings else None
    if expr is not None:  # an unnamed result is called by its code: `yh - y`
        strings.append(Shown(expr, ev["seq"], "span", "name"))
    if ev.get("op") and ev.get("op") != "tensor":
        strings.append(Shown(ev["op"], ev["seq"], "op", "op"))
    strings.append(b.value(ev, "value", "exact", "str", "value"))
    if ev.get("grad_fn"):
        strings.append(Shown(ev["grad_fn"], ev["seq"], "grad_fn", "grad_fn"))
    b.add("node_appear", b.tm.node_appear, (ev["id"], ev.get("node")), strings, [ev["seq"]])
    sources = [i for i in ev.get("inputs") or [] if isinstance(i, str) and i in b.index.tensor_event]
    t = b.now
    for src in dict.fromkeys(sources):
        b.add("edge_grow", b.tm.edge_grow, (src, ev["id"]), (), [ev["seq"]], at=t)


def expression(b: Builder, ev: Event) -> str | None:
    """The source text of an unnamed op's expression, when it is short enough for a card."""
    span, line = ev.get("span"), ev.get("line", 0)
    if not span or ev.get("op") in (None, "tensor", "grad") or not 0 < line <= len(b.index.lines):
        return None
    text = b.index.lines[line - 1].encode("utf-8")[span[0]:span[1]].decode("utf-8", "replace").strip()
    return text if 0 < len(text) <= MAX_EXPRESSION_CHARS else None


def update(b: Builder, ev: Event) -> None:
    strings = [Shown(ev["name"], ev["seq"], "name", "name")] if ev.get("name") else []
    strings.append(b.value(ev, "value", "exact", "str", "value"))
    b.add("value_update", b.tm.node_appear, (ev["tensor"], ev.get("node")), strings, [ev["seq"]])


def node(b: Builder, ev: Event) -> None:
    names = b.name_of(ev.get("tensor"))
    grad_fn = Shown(ev["grad_fn"], ev["seq"], "grad_fn", "grad_fn")
    if ev["grad_fn"] == "AccumulateGrad":
        b.add("bucket_appear", b.tm.bucket_fill, (ev["id"], ev.get("tensor")), [grad_fn] + names, [ev["seq"]])
    else:
        b.add("grad_fn_appear", b.tm.node_appear, (ev["id"], ev.get("tensor")), [grad_fn] + names, [ev["seq"]])
    t = b.now
    for target in dict.fromkeys(e for e in ev.get("edges") or [] if e):
        b.add("edge_grow", b.tm.edge_grow, (ev["id"], target), (), [ev["seq"]], at=t)


def backward(b: Builder, ev: Event) -> None:
    root = b.index.tensor_event.get(ev["root"], {})
    b.add("backward_start", b.tm.wavefront_step, (ev["root"], ev.get("node") or root.get("node")),
          b.name_of(ev["root"]), [ev["seq"]])


def visit(b: Builder, ev: Event) -> None:
    strings = [Shown(ev["grad_fn"], ev["seq"], "grad_fn", "grad_fn"),
               b.value(ev, "grad_in", "grad_in_exact", None, "grad")]
    b.add("visit", b.tm.wavefront_step, (ev["node"], ev.get("tensor")), strings, [ev["seq"]])
    t = b.now
    exacts = ev.get("grads_out_exact") or [None] * len(ev.get("grads_out") or [])
    for j, (target, grad) in enumerate(zip(ev.get("edges") or [], ev.get("grads_out") or [])):
        if target is None or grad is None:
            continue
        if b.numbers.style == "fraction" and exacts[j] is not None:
            s = Shown(exacts[j], ev["seq"], f"grads_out_exact[{j}]", "grad")
        else:
            s = Shown(show(grad, None, b.numbers), ev["seq"], f"grads_out[{j}]", "grad")
        b.add("grad_travel", b.tm.grad_travel, (ev["node"], target), [s], [ev["seq"]], at=t)


def accumulate(b: Builder, ev: Event) -> None:
    strings = b.name_of(ev["tensor"])
    if ev.get("before") is not None:
        strings.append(b.value(ev, "before", "before_exact", None, "before"))
    strings.append(b.value(ev, "add", "add_exact", None, "add"))
    strings.append(b.value(ev, "after", "after_exact", "str", "after"))
    b.add("bucket_fill", b.tm.bucket_fill, (ev["node"], ev["tensor"]), strings, [ev["seq"]])


def grad_reset(b: Builder, ev: Event) -> None:
    strings = b.name_of(ev["tensor"])
    to = ev.get("to")
    text = "None" if to is None else show(to, "0", b.numbers, torch_str(to))
    strings.append(Shown(text, ev["seq"], "to", "after"))
    leaf = b.index.tensor_event.get(ev["tensor"], {})
    b.add("bucket_reset", b.tm.bucket_fill, (ev["tensor"], leaf.get("node")), strings, [ev["seq"]])


def branch(b: Builder, ev: Event) -> None:
    strings = [Shown(ev["test"], ev["seq"], "test", "code"), Shown(str(bool(ev["taken"])), ev["seq"], "taken", "taken")]
    b.add("branch_test", b.tm.wavefront_step, (), strings, [ev["seq"]])


def print_(b: Builder, ev: Event) -> None:
    b.add("output_line", b.tm.node_appear, (), [Shown(ev["text"], ev["seq"], "text", "output")], [ev["seq"]])


def expr(b: Builder, ev: Event) -> None:
    b.add("output_line", b.tm.node_appear, (), [Shown(ev["str"], ev["seq"], "str", "output")], [ev["seq"]])


def message(b: Builder, ev: Event) -> None:
    """An error or a warning: its type and message, at the node it names if any."""
    strings = [Shown(ev.get("type", ""), ev["seq"], "type", "type"), Shown(ev["message"], ev["seq"], "message", "message")]
    b.add("message", b.tm.node_appear * 2, (ev.get("node"),), strings, [ev["seq"]])


PLANNERS = {
    "tensor": tensor, "update": update, "node": node, "backward": backward, "visit": visit,
    "accumulate": accumulate, "grad_reset": grad_reset, "branch": branch, "print": print_, "expr": expr,
    "error": message, "warning": message,
}
"""Event kind -> the planner that turns one such event into cues."""
