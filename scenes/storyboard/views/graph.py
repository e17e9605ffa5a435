"""The autograd-graph view's planners: one function per event kind, each adding its cues.

Why per event kind: a visual of this view (``code_and_graph_build``, ``wavefront``, ``output``,
...) names the event kinds it draws in :mod:`..visuals`; the plan calls this module's planner for
each such event of the beat's span. Tensors become cards and arrows, nodes become grad_fn cards
and buckets, the walk becomes visits and travelling gradients, printouts become console lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np

from engine.onscreen import Const, Derived, Gate, Input, Output
from engine.ops import COMPARE
from engine.records import (
    Accumulate,
    Backward,
    Branch,
    Error,
    Expr,
    GradReset,
    Node,
    Print,
    Tensor,
    Update,
    Visit,
    Warn,
)

from ..builder import Builder
from ..errors import plain
from ..logindex import Event
from ..placeholders import Shown
from ..numfmt import show, torch_str
from ..rules import Rule, rule_of, words_of

NONE_TEXT = "None"
"""What a reset to ``None`` (``p.grad = None``) writes; the bucket draws it empty (scenes/draw/buckets.py)."""
MAX_EXPRESSION_CHARS = 12  # longer code would not fit a card's name row; the op name stands in


def title(b: Builder) -> None:
    """A title card's one cue: the storyboard's title."""
    b.add("title", b.tm.title_hold, (), [Shown(b.board.title, None, "title", "title")])


def unrecorded(t: Tensor, tensor_of: Mapping[str, Tensor]) -> bool:
    """Whether ``t``, made from other tensors, is no operation of autograd's graph: a
    ``.detach()``, or a result with no grad_fn of an input that requires grad (computed under
    ``torch.no_grad()``). It is drawn as a literal is, a plain value with no op tag and no edge
    from its inputs, since nothing links it to them for backward(). A comparison (``s > 0``) is
    not one: it is a branch's test, which the branch mark shows, and the layout keeps it by its
    operand as before."""
    if t.op == "detach":
        return True
    if t.grad_fn or t.op in (None, "tensor", "grad") or t.op in COMPARE:
        return False
    return any(isinstance(i, str) and i in tensor_of and tensor_of[i].requires_grad for i in t.inputs or [])


def tensor(b: Builder, ev: Event) -> None:
    strings = [Shown(ev.name, ev.seq, "name", "name")] if ev.name else []
    expr = expression(b, ev) if not strings else None
    if expr is not None:  # an unnamed result is called by its code: `yh - y`
        strings.append(Shown(expr, ev.seq, "span", "name"))
    linked = not unrecorded(ev, b.index.tensor_event)  # else a plain value: no op tag, no edge in
    if ev.op and ev.op != "tensor" and linked:
        strings.append(Shown(ev.op, ev.seq, "op", "op"))
        inputs = ev.inputs or []
        for k, operand in enumerate(inputs if len(inputs) == 2 else []):  # s * 2: the node is "× 2"
            if isinstance(operand, (int, float)) and not isinstance(operand, bool):
                text = str(int(operand)) if float(operand).is_integer() else show(operand, None, b.numbers)
                strings.append(Shown(text, ev.seq, f"inputs[{k}]", "operand_after" if k else "operand_before"))
    strings.append(b.value(ev, "value", "exact", "str", "value"))
    if ev.grad_fn:
        strings.append(Shown(ev.grad_fn, ev.seq, "grad_fn", "grad_fn"))
    # a pass recording a freed graph again takes its place: first the old one is seen freed
    freed = b.tm.graph_freed if records_again(b, ev) else 0.0
    b.add("node_appear", freed + b.tm.node_appear, (ev.id, ev.node), strings, [ev.seq])
    sources = [i for i in ev.inputs or [] if isinstance(i, str) and i in b.index.tensor_event and linked]
    t = b.now
    for src in dict.fromkeys(sources):
        b.add("edge_grow", b.tm.edge_grow, (src, ev.id), (), [ev.seq], at=t)


def records_again(b: Builder, ev: Event) -> bool:
    """Whether ``ev`` records again a graph a backward() freed: an earlier result of the same
    name, op and inputs, with a backward() (not ``retain_graph``) between them. Its card is drawn
    in the old one's place (scenes/layout/passes.py), and its ``node_appear`` is longer by the
    theme's ``graph_freed``: the old graph dims and loses its arrows, then goes, before the new
    card grows there (scenes/draw/freed.py). Why: done in the new card's 0.3 s the old card
    shrank and the new one regrew in place, a blink that did not say "freed, then recorded"."""
    if not isinstance(ev, Tensor) or not ev.name or not ev.op or ev.op == "tensor":
        return False
    last = max((t.seq for t in b.index.of_kind(Tensor) if t.seq < ev.seq and t.name == ev.name
                and t.op == ev.op and t.inputs == ev.inputs), default=None)
    return last is not None and any(last < bw.seq < ev.seq and not bw.retain_graph
                                    for bw in b.index.of_kind(Backward))


def expression(b: Builder, ev: Event) -> str | None:
    """The source text of an unnamed op's expression, when it is short enough for a card."""
    return expression_text(ev, b.index.lines, b.index.tensor_event)


def expression_text(ev: Event, lines: list[str], tensors: Mapping[str, Event] | None = None) -> str | None:
    """What an unnamed op's card is called: the source text of its expression (`yh - y`), when
    it is short enough for a card; else, for an op of one input, the op applied to what that
    input is called (`(1 - p).log()` is `log(1 - p)`: "log" alone beside `p.log()` read as the
    log of p), when that is. The layout sizes the card for the same text."""
    span, line = ev.span, ev.line
    if not span or ev.op in (None, "tensor", "grad") or not 0 < line <= len(lines):
        return None
    text = lines[line - 1].encode("utf-8")[span[0]:span[1]].decode("utf-8", "replace").strip()
    if 0 < len(text) <= MAX_EXPRESSION_CHARS:
        return text
    inputs = ev.inputs or []
    src = tensors.get(inputs[0]) if tensors and len(inputs) == 1 and isinstance(inputs[0], str) else None
    inner = src and (src.name or expression_text(src, lines, tensors))
    applied = f"{ev.op}({inner})" if inner else ""
    return applied if 0 < len(applied) <= MAX_EXPRESSION_CHARS else None


def _code_name(b: Builder, tensor: str | None) -> list[Shown]:
    """An unnamed result's card title, its code (`yh - y`), as `tensor` wrote it: the card keeps
    its name when it becomes its backward function (not renamed to its op, ``sub``)."""
    ev = b.index.tensor_event.get(tensor or "")
    expr = expression(b, ev) if ev is not None else None
    return [Shown(expr, ev.seq, "span", "name")] if ev is not None and expr is not None else []


def update(b: Builder, ev: Event) -> None:
    strings = [Shown(ev.name, ev.seq, "name", "name")] if ev.name else []
    strings.append(b.value(ev, "value", "exact", "str", "value"))
    b.add("value_update", b.tm.node_appear, (ev.tensor, ev.node), strings, [ev.seq])


def node(b: Builder, ev: Event) -> None:
    """A grad_fn node: a weight's AccumulateGrad is its bucket; an operation's node is its result's
    card turned into its backward function, which keeps the value its forward card showed (the
    article prints ``tensor(0.3333, grad_fn=<MulBackward0>)``: a result holds both; review 2's
    backward graph ended with no number on any card)."""
    names = b.name_of(ev.tensor) or _code_name(b, ev.tensor)
    grad_fn = Shown(ev.grad_fn, ev.seq, "grad_fn", "grad_fn")
    if ev.grad_fn == "AccumulateGrad":
        b.add("bucket_appear", b.tm.bucket_fill, (ev.id, ev.tensor), [grad_fn] + names, [ev.seq])
    else:
        made = b.index.tensor_event.get(ev.tensor or "")
        value = [b.value(made, "value", "exact", "str", "value")] if made is not None else []
        b.add("grad_fn_appear", b.tm.node_appear, (ev.id, ev.tensor), [grad_fn] + names + value, [ev.seq])
    t = b.now
    for target in dict.fromkeys(e for e in ev.edges or [] if e):
        b.add("edge_grow", b.tm.edge_grow, (ev.id, target), (), [ev.seq], at=t)


def backward(b: Builder, ev: Event) -> None:
    root = b.index.tensor_event.get(ev.root)
    b.add("backward_start", b.tm.wavefront_step, (ev.root, ev.node or (root.node if root else None)),
          b.name_of(ev.root), [ev.seq])


def visit(b: Builder, ev: Event) -> None:
    strings = [Shown(ev.grad_fn, ev.seq, "grad_fn", "grad_fn")]
    parts = arrivals(b, ev)
    if len(parts) > 1 and ev.grad_fn == "AccumulateGrad":
        pass  # gradients meet at a bucket: they wait beside it, and the fill writes their sum
    elif len(parts) > 1:  # gradients meet here: their sum is what arrived
        strings += [b.value(ev, "grad_in", "grad_in_exact", None, "grad")] + parts
    else:
        strings.append(b.value(ev, "grad_in", "grad_in_exact", None, "grad"))
    tensor = b.index.tensor_event.get(ev.tensor or "")
    rule = rule_of(ev.grad_fn, tensor.op if tensor else None)
    factors = local_factors(b, ev, rule)
    if factors and rule is not None and tensor is not None:
        named = rule.named is not None  # words that name an input read the log: its tensor's event
        strings.append(Shown(words_of(rule, tensor, b.index), tensor.seq if named else None, "rule", "rule"))
    b.add("visit", b.tm.wavefront_step, (ev.node, ev.tensor), strings, [ev.seq])
    t = b.now
    exacts = ev.grads_out_exact or [None] * len(ev.grads_out or [])
    sent: list[tuple[int, str, Shown]] = []
    for j, (target, grad) in enumerate(zip(ev.edges or [], ev.grads_out or [])):
        if target is None or grad is None:
            continue
        if b.numbers.style == "fraction" and exacts[j] is not None:
            sent.append((j, target, Shown(exacts[j], ev.seq, f"grads_out_exact[{j}]", "grad")))
        else:
            sent.append((j, target, Shown(show(grad, None, b.numbers), ev.seq, f"grads_out[{j}]", "grad")))
    for j, target, s in sent if factors else ():  # written with the visit: arrived x factors = product
        arrived = b.value(ev, "grad_in", "grad_in_exact", None, "in")
        target_node = b.index.node_event.get(target)
        target_tensor = target_node.tensor if target_node is not None else None
        b.add("local_rule", b.tm.wavefront_step, (ev.node, target),
              [arrived, *factors[j], Shown(s.text, s.seq, s.field, "out"), *b.name_of(target_tensor, "target")],
              [ev.seq], at=t - b.tm.wavefront_step, advance=False)
    for j, target, s in sent:  # then each product rides its edge
        b.add("grad_travel", b.tm.grad_travel, (ev.node, target), [s], [ev.seq], at=t)


def arrivals(b: Builder, ev: Event) -> list[Shown]:
    """What the earlier visits of the same backward call sent to this visit's node, one string
    each, in the order they were sent: where there are two or more, they meet and add up.
    Read from the index's record of what was sent where (no scan of the walk per visit)."""
    out: list[Shown] = []
    for e, j in b.index.sent_to(ev.call, ev.node):
        if e.seq >= ev.seq:
            break
        exacts = e.grads_out_exact or [None] * len(e.edges or [])
        if b.numbers.style == "fraction" and exacts[j] is not None:
            out.append(Shown(exacts[j], e.seq, f"grads_out_exact[{j}]", "part"))
        else:
            out.append(Shown(show(e.grads_out[j], None, b.numbers), e.seq, f"grads_out[{j}]", "part"))
    return out


def local_factors(b: Builder, ev: Event, rule: Rule | None) -> list[list[Shown]] | None:
    """Per edge of the visit, the strings of its local derivative's factors (see :mod:`..rules`),
    read from the tensor the node belongs to; None when the node has no rule that applies."""
    tensor = b.index.tensor_event.get(ev.tensor or "")
    if rule is None or tensor is None:
        return None
    inputs = tensor.inputs or []
    if len(inputs) != rule.arity or len(ev.edges or []) > len(rule.factors):
        return None
    if rule.exponent is not None and inputs[1] != rule.exponent:
        return None
    out: list[list[Shown]] = []
    for factors in rule.factors[:len(ev.edges or [])]:
        row: list[Shown] = []
        for f in factors:
            if isinstance(f, Const):
                row.append(Shown(f.text, None, "rule", "factor"))
            elif isinstance(f, Output):
                row.append(b.value(tensor, "value", "exact", None, "factor"))
            elif isinstance(f, Derived):
                row.append(_derived(b, tensor, f, inputs))
            elif isinstance(f, Gate):
                src = inputs[f.k]
                value = b.index.tensor_event[src].value if isinstance(src, str) else src
                row.append(Shown("1" if value > 0 else "0", None, "rule", "factor"))
            elif isinstance(f, Input) and isinstance(inputs[f.k], str):
                row.append(b.value(b.index.tensor_event[inputs[f.k]], "value", "exact", None, "factor"))
            elif isinstance(f, Input):
                src = inputs[f.k]
                text = str(int(src)) if float(src).is_integer() else show(src, None, b.numbers)
                row.append(Shown(text, tensor.seq, f"inputs[{f.k}]", "factor"))
        out.append(row)
    return out


def _derived(b: Builder, tensor: Event, f: Derived, inputs: list) -> Shown:
    """A :class:`Derived` factor: of the node's own output, or of its input ``f.of``, in float32
    as the log's numbers are, and exactly where the log has the exact value."""
    of = tensor if f.of is None else b.index.tensor_event[inputs[f.of]]
    value = float(f.value(np.float32(of.value)))
    q = of.exact
    exact = f.exact(Fraction(q)) if q is not None else None
    return Shown(show(value, str(exact) if exact is not None else None, b.numbers), of.seq, f.field,
                 "factor", value)


def accumulate(b: Builder, ev: Event) -> None:
    """A bucket fill. Where gradients met at the bucket (``w * w``), what each path sent
    (``part``) goes with the fill, so ``3 + 3 = 6`` is written as the caption says they add up,
    not while it still says each path sends 3. Into a bucket that held 6 too: the engine sums
    the paths before AccumulateGrad adds to ``.grad``, so the pass's ``3 + 3 = 6`` comes first,
    then the bucket's ``6 + 6 = 12``."""
    strings = b.name_of(ev.tensor)
    if ev.before is not None:
        strings.append(b.value(ev, "before", "before_exact", None, "before"))
    visit_ = b.index.visit_of(ev.call, ev.node, ev.seq)
    parts = arrivals(b, visit_) if visit_ is not None else []
    if len(parts) > 1:
        strings += parts
    strings.append(b.value(ev, "add", "add_exact", None, "add"))
    strings.append(b.value(ev, "after", "after_exact", "str", "after"))
    b.add("bucket_fill", b.tm.bucket_fill, (ev.node, ev.tensor), strings, [ev.seq])


def grad_reset(b: Builder, ev: Event) -> None:
    strings = b.name_of(ev.tensor)
    to = ev.to
    text = NONE_TEXT if to is None else show(to, "0", b.numbers, torch_str(to))
    strings.append(Shown(text, ev.seq, "to", "after"))
    leaf = b.index.tensor_event.get(ev.tensor)
    b.add("bucket_reset", b.tm.bucket_fill, (ev.tensor, leaf.node if leaf else None), strings, [ev.seq])


def branch(b: Builder, ev: Event) -> None:
    strings = [Shown(ev.test, ev.seq, "test", "code"), Shown(str(bool(ev.taken)), ev.seq, "taken", "taken")]
    b.add("branch_test", b.tm.wavefront_step, (), strings, [ev.seq])


def print_(b: Builder, ev: Event) -> None:
    """What the program printed, its control characters and direction overrides written as
    escapes (``\\x1b``, as ``render log --pretty`` writes them): drawn raw, an ESC or a BEL is a
    box on the console and a U+202E turns the rest of the line around."""
    b.add("output_line", b.tm.node_appear, (), [Shown(plain(ev.text), ev.seq, "text", "output")], [ev.seq])


def expr(b: Builder, ev: Event) -> None:
    b.add("output_line", b.tm.node_appear, (), [Shown(plain(ev.str), ev.seq, "str", "output")], [ev.seq])


def message(b: Builder, ev: Event) -> None:
    """An error or a warning: its type and message (escaped as printed text is), at the node it
    names if any."""
    strings = [Shown(ev.type or "", ev.seq, "type", "type"),
               Shown(plain(ev.message), ev.seq, "message", "message")]
    b.add("message", b.tm.node_appear * 2, (ev.node if isinstance(ev, Error) else None,), strings, [ev.seq])


PLANNERS = {
    Tensor: tensor, Update: update, Node: node, Backward: backward, Visit: visit,
    Accumulate: accumulate, GradReset: grad_reset, Branch: branch, Print: print_, Expr: expr,
    Error: message, Warn: message,
}
"""Event record -> the planner that turns one such event into cues."""
