"""Lessons nobody here wrote: a program and a storyboard for it, from a seed.

Each seed gives one of three shapes, drawn with the engine's own op vocabulary (the lists of
tests/engine/test_vs_torch.py, read from the op table):

- ``graph``: a few leaves, a chain or a diamond of ops, one backward and a print; the storyboard
  builds the graph, walks it (``wavefront`` over ``visits``), fills the buckets (``accumulate``)
  and shows the printed line (``output``).
- ``loop``: weights in a list trained for 2 or 3 SGD steps (``p -= lr * p.grad``, ``p.grad =
  None``); the storyboard builds passes, walks, steps (``update``), resets (``reset``), fills
  afresh and plots the loss (``loss_curve``).
- ``mlp``: a two-unit network written with lists, as micrograd's ``nn.py`` does; the storyboard
  adds ``network`` and ``network_backward``.

:func:`lesson` returns the storyboard's YAML text; the test (tests/test_generated_lessons.py)
writes it to a file and loads it with the project's loader, so a storyboard the loader refuses is
a generator bug (or a project bug worth reporting). The text is what a failure prints, ready to
be saved under tests/storyboard/lessons/ as a regression case.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tests.engine.test_vs_torch import EXACT_UNARY, SMOOTH_UNARY

SAFE_UNARY = [u for u in EXACT_UNARY + SMOOTH_UNARY if u not in ("log", "sqrt", "reciprocal", "sum", "mean")]
"""The unary ops a lesson uses: those defined for every value a generated program can reach
(``log``, ``sqrt`` and ``reciprocal`` are not; ``sum`` and ``mean`` are identities on a scalar)."""
WEIGHTS = ["0.5", "-0.5", "1.5", "2.0", "-1.0", "0.25", "0.75", "-0.25", "3.0", "0.6", "-0.4"]
"""Leaf values: nonzero, short in every number style."""
SHAPES = ("graph", "loop", "mlp")


@dataclass(frozen=True)
class Lesson:
    """One generated lesson: its seed, shape and storyboard text (the program is inside it)."""

    seed: int
    shape: str
    text: str


def _block(lines: list[str]) -> str:
    return "\n".join("  " + line for line in lines)


def _beat(visual: str, narration: str, **span: object) -> str:
    keys = "".join(f"    {k}: {v}\n" for k, v in span.items())
    return f"  - visual: {visual}\n{keys}    narration: \"{narration}\"\n"


def _expression(rnd: random.Random, a: str, b: str) -> str:
    """One op on ``a`` (and ``b``): a binary op, a unary op or a square."""
    kind = rnd.randrange(4)
    if kind == 0:
        return f"{a} {rnd.choice(['+', '-', '*'])} {b}"
    if kind == 1:
        return f"{a}.{rnd.choice(SAFE_UNARY)}()"
    if kind == 2:
        return f"({a} - {b}) ** 2"
    return f"{a} * {rnd.choice(['2', '0.5', '3'])}"


def _graph(rnd: random.Random) -> tuple[list[str], list[str]]:
    """A chain or a diamond over 2-3 leaves, one backward, one print."""
    leaves = [f"w{i}" for i in range(rnd.randint(2, 3))]
    prog = ["import torch"] + [f"{w} = torch.tensor({rnd.choice(WEIGHTS)}, requires_grad=True)" for w in leaves]
    names = list(leaves)
    if rnd.random() < 0.5:  # a diamond: two uses of one value meeting again
        prog += [f"a = {_expression(rnd, leaves[0], leaves[1])}", f"b = a * {leaves[-1]}",
                 f"c = a.{rnd.choice(SAFE_UNARY)}()", "d = b + c"]
        names += ["a", "b", "c", "d"]
    else:
        for i in range(rnd.randint(2, 4)):
            v = f"v{i}"
            prog.append(f"{v} = {_expression(rnd, names[-1], rnd.choice(leaves))}")
            names.append(v)
    out = names[-1]
    built = len(prog)
    prog += [f"{out}.backward()", "print(" + ", ".join(f"{w}.grad" for w in leaves) + ")"]
    beats = [
        _beat("title_card", "A small graph of ops over a few leaves."),
        _beat("code_and_graph_build", f"The forward pass computes {{{out}}}.", lines=f"[2, {built}]"),
        _beat("wavefront", "backward() walks the graph from the output to the leaves.", visits=1),
        _beat("accumulate", "The buckets fill with the gradients.", accumulations=1),
        _beat("output", "The program prints every gradient.", lines=built + 2),
    ]
    return prog, beats


def _loop(rnd: random.Random) -> tuple[list[str], list[str]]:
    """Weights in a list trained for 2-3 SGD steps with a loss made in the loop."""
    n, steps = rnd.randint(1, 3), rnd.randint(2, 3)
    ws = ", ".join(f"torch.tensor({rnd.choice(WEIGHTS)}, requires_grad=True)" for _ in range(n))
    act = rnd.choice(["", ".tanh()", ".sigmoid()", ".relu()"])
    terms = " + ".join(f"W[{i}] * {rnd.choice(['2.0', '-1.0', '0.5'])}" for i in range(n))
    prog = ["import torch", f"W = [{ws}]", f"lr = {rnd.choice(['0.1', '0.05', '0.5'])}",
            f"for step in range({steps}):",
            f"    out = ({terms}){act}",                                    # line 5
            f"    loss = (out - {rnd.choice(['1.0', '-0.5', '0.25'])}) ** 2",  # line 6
            "    loss.backward()",                                          # line 7
            "    print(loss)",                                              # line 8
            "    with torch.no_grad():",
            "        for p in W:",
            "            p -= lr * p.grad",                                 # line 11
            "    for p in W:",
            "        p.grad = None"]                                        # line 13
    beats = [
        _beat("title_card", "A list of weights trained by gradient descent."),
        _beat("code_and_graph_build", "Pass one: the loss is {loss}.", lines="[5, 6]", **{"pass": 1}),
        _beat("wavefront", "backward() fills the buckets: `W[0].grad` is {W[0].grad}.", backward=1),
        _beat("output", "The loss is printed.", lines=8, **{"pass": 1}),
        _beat("update", "Each weight steps against its gradient: `W[0]` is now {W[0]}.", lines="[10, 11]",
              **{"pass": 1}),
        _beat("reset", "The gradients are cleared.", lines="[12, 13]", **{"pass": 1}),
        _beat("code_and_graph_build", "Pass two builds a new graph: the loss is {loss}.", lines="[5, 6]",
              pace="fast", **{"pass": 2}),
        _beat("accumulate", "The buckets fill afresh: `W[0].grad` is {W[0].grad}.", backward=2),
        _beat("update", "The second step moves `W[0]` to {W[0]}.", lines="[10, 11]", **{"pass": 2}),
        _beat("loss_curve", "Plotted per pass, the loss.", lines=6),
    ]
    return prog, beats


def _mlp(rnd: random.Random) -> tuple[list[str], list[str]]:
    """Two hidden units and one output, written with lists, one backward."""
    def w() -> str:
        return f"torch.tensor({rnd.choice(WEIGHTS)}, requires_grad=True)"
    act = rnd.choice(["tanh", "relu", "sigmoid"])
    prog = ["import torch", f"x = [{rnd.choice(WEIGHTS)}, {rnd.choice(WEIGHTS)}]",
            f"W = [[{w()}, {w()}],", f"     [{w()}, {w()}]]",
            f"v = [{w()}, {w()}]",
            "h = []",
            "for row in W:",
            "    act = torch.tensor(0.0)",
            "    for wi, xi in zip(row, x):",
            "        act = act + wi * xi",
            f"    h.append(act.{act}())",                    # line 11
            "out = v[0] * h[0] + v[1] * h[1]",              # line 12
            "out.backward()",                               # line 13
            "print(W[0][0].grad, v[1].grad)"]               # line 14
    beats = [
        _beat("title_card", f"Two {act} units and one output, written with lists."),
        _beat("network", "The network: two inputs, two hidden units, one output.", lines="[2, 12]"),
        _beat("code_and_graph_build", "The hidden units are {h[0]} and {h[1]}; the output is {out}.",
              lines="[2, 12]", pace="fast"),
        _beat("wavefront", "backward() walks every unit back to the weights.", visits=1, pace="fast"),
        _beat("network_backward", "On the network, the same walk fills every weight.", backward=1),
        _beat("output", "`W[0][0].grad` is {W[0][0].grad}.", lines=14),
    ]
    return prog, beats


def lesson(seed: int) -> Lesson:
    """The lesson of ``seed``: the same text for the same seed on every machine."""
    rnd = random.Random(seed)
    shape = SHAPES[seed % len(SHAPES)]
    prog, beats = {"graph": _graph, "loop": _loop, "mlp": _mlp}[shape](rnd)
    style = rnd.choice(["decimal", "fraction"]) if shape == "graph" else "decimal"
    text = (f"title: Generated lesson {seed} ({shape})\nnumbers: {style}\nprogram: |\n{_block(prog)}\n"
            f"beats:\n{''.join(beats)}")
    return Lesson(seed, shape, text)
