"""Programs outside the subset are refused before any line runs, with a located message."""

import pytest

from engine import ProgramError, run_program
from engine.records import Accumulate, Error, Print, Visit

CASES = [
    ("(a, b), c = (1, 2), 3", 1, 1, "unpacking into this target is not supported; supported: a, b = x * 2"),
    ("a, *b = [1, 2]", 1, 4, "unpacking into this target is not supported"),
    ("[a, b] = [1, 2]", 1, 1, "assigning to list is not supported"),
    ("a, torch = 1, 2", 1, 4, "binding the name torch"),
    ("x = (1).__class__", 1, 5, "the attribute .__class__ is not supported"),
    ("import torch\nw = torch.tensor(1.)\nw.__class__", 3, 1, "the attribute .__class__ is not supported"),
    ("import os", 1, 1, "import os is not supported; supported: import torch"),
    ("import torch as t", 1, 1, "import torch as t (another name for torch) is not supported"),
    ("from os import path", 1, 1, "from os import is not supported"),
    ("from torch import nn", 1, 1, "from torch import nn is not supported"),
    ("import torch\nx = open('f')", 2, 5, "calling open() is not supported"),
    ("eval('1')", 1, 1, "calling eval() is not supported"),
    ("exec('x = 1')", 1, 1, "calling exec() is not supported"),
    ("getattr(1, 'real')", 1, 1, "calling getattr() is not supported"),
    ("__import__('os')", 1, 1, "calling __import__() is not supported"),
    ("import torch\ntorch.load('m.pt')", 2, 1, "torch.load() is not supported"),
    ("while True:\n    pass", 1, 1, "a while loop is not supported"),
    ("f = lambda: 1", 1, 5, "a lambda expression is not supported"),
    ("x = [i for i in range(3)]", 1, 5, "a list comprehension is not supported"),
    ("x = (i for i in range(3))", 1, 5, "a generator expression is not supported"),
    ("def f():\n    pass", 1, 1, "a function definition is not supported"),
    ("class A:\n    pass", 1, 1, "a class definition is not supported"),
    ("x = 'import os'", 1, 5, "a string outside print(...) is not supported"),
    ("import torch\nw = torch.tensor(1.)\nw.add_(1)", 3, 1, "the method .add_() is not supported"),
    ("x = {1: 2}", 1, 5, "a dict is not supported"),
    ("xs = [1, 2]\ny = xs[0:1]", 2, 8, "a slice is not supported; supported: one index, xs[i]"),
    ("xs = [1, 2]\ny = zip(xs, xs)", 2, 5, "calling zip() is not supported"),
    ("y = range(3)", 1, 5, "calling range() is not supported"),
    ("xs = [1, 2]\nfor xs[0] in xs:\n    pass", 2, 5, "for with this target is not supported"),
    ("x = [[i] for i in range(3)]", 1, 5, "a list comprehension is not supported"),
    ("xs = [1]\nxs.pop()", 2, 1, "the method .pop() is not supported"),
    ("xs = [1]\nxs[0] = 2", 2, 1, "assigning to subscript is not supported"),
    ("for i in range(1, 2, 3, 4):\n    pass", 1, 10, "range() with these arguments is not supported"),
    ("with open('f') as f:\n    pass", 1, 1, "with anything but torch.no_grad() is not supported"),
    ("x = 7 // 2", 1, 5, "the operator // is not supported"),
    ("try:\n    pass\nexcept Exception:\n    pass", 1, 1, "try is not supported"),
    ("x = f'{1}'", 1, 5, "an f-string is not supported"),
    ("x = 1 if 2 else 3", 1, 5, "a conditional expression is not supported"),
    ("import torch\nw = torch.tensor(1.)\nw.zero_()", 3, 1, ".zero_() on anything but .grad is not supported"),
    ("x = (1", 1, 5, "syntax error"),
]


@pytest.mark.parametrize("source,line,col,words", CASES, ids=[c[3][:30] for c in CASES])
def test_refused_with_location(source: str, line: int, col: int, words: str) -> None:
    with pytest.raises(ProgramError) as info:
        run_program(source, "prog.py")
    err = info.value
    assert (err.filename, err.line, err.col) == ("prog.py", line, col), str(err)
    assert words in err.message
    assert str(err).startswith(f"prog.py:{line}:{col}: ")


def test_message_lists_what_is_supported() -> None:
    with pytest.raises(ProgramError) as info:
        run_program("while 1:\n    pass\n", "p.py")
    assert "supported: assignments" in str(info.value) and "with torch.no_grad()" in str(info.value)


def test_nothing_runs_before_a_refusal() -> None:
    # the refusal is on line 3; line 2 would have printed
    with pytest.raises(ProgramError):
        run_program("import torch\nprint(1)\nimport sys\n", "p.py")


def test_runaway_loop_stops_at_the_bound_with_a_location() -> None:
    src = "import torch\nw = torch.tensor(1.)\nfor _ in range(10**12):\n    w = w + 1\n"
    log = run_program(src, "p.py", max_ops=5000)
    assert log.limit is not None and log.limit.line in (3, 4)
    last = log.events[-1]
    assert isinstance(last, Error) and last.type == "OperationLimit"


def test_huge_numbers_are_refused_not_computed() -> None:
    log = run_program("x = 9 ** 9 ** 9\nprint(1)\n", "p.py")
    assert [e.type for e in log.of_kind(Error)] == ["OverflowError"]
    assert log.of_kind(Print)[0].text == "1"


def test_too_deep_expression_is_refused() -> None:
    src = "x = " + "(" * 150 + "-" * 250 + "1" + ")" * 150 + "\n"
    with pytest.raises(ProgramError) as info:
        run_program(src, "p.py")
    assert "nest" in str(info.value)


@pytest.mark.slow
def test_deep_chain_forward_and_backward_without_recursion() -> None:
    src = ("import torch\nw = torch.tensor(1.0001, requires_grad=True)\nh = w\n"
           "for _ in range(100000):\n    h = h * w\nh.backward()\n")
    log = run_program(src, "p.py", max_ops=1_000_000)  # the depth is the point, past the default bound
    assert log.of_kind(Error) == []
    assert len(log.of_kind(Visit)) == 100001
    assert log.of_kind(Accumulate)[-1].name == "w"


def _limit(source: str, max_ops: int = 1000) -> tuple[int, str]:
    """Where a run of ``source`` stopped at the operation bound, and the hint it gave."""
    log = run_program(source, "p.py", max_ops=max_ops)
    assert log.limit is not None, log.events[-3:]
    return log.limit.line, str(log.limit)


@pytest.mark.parametrize("statement", [
    "x = [" + ", ".join(["1"] * 3000) + "]",                       # list-literal elements
    "x = 1 and " + " and ".join(["1"] * 3000),                    # and/or operands
    "x = [" + ", ".join(["len(xs)"] * 600) + "]",                 # calls inside a literal
    "x = [" + ", ".join(["xs.append(1)"] * 600) + "]",
    "x = [" + ", ".join(["print(xs)"] * 200) + "]",               # and what each print writes
])
def test_work_inside_one_expression_counts_towards_the_bound(statement: str) -> None:
    """Once: only statements, loop passes and tensor operations were counted, so one statement
    could do unbounded work, and the bound was then blamed on the next line with a loop hint."""
    line, text = _limit("xs = [1, 2, 3, 4, 5, 6, 7, 8]\n" + statement + "\nprint(1)\n")
    assert line == 2
    assert "outside any loop" in text and "fewer loop passes" not in text


def test_the_bound_is_blamed_on_the_line_of_a_long_literal_that_spent_it() -> None:
    """A literal over many lines stops at the line of the item that passed the bound."""
    line, _ = _limit("x = [\n" + ",\n".join(["1"] * 3000) + "]\nprint(1)\n")
    assert line == 1 + 1000  # the statement was one operation, each item one more: item 1000 is past


def test_a_loop_that_spent_the_bound_is_told_to_run_fewer_passes() -> None:
    line, text = _limit("xs = []\nfor i in range(10**6):\n    xs.append(i)\n")
    assert line in (2, 3) and "run fewer loop passes" in text


@pytest.mark.parametrize("source,error", [
    ("a = []\na.append(a)\nb = []\nb.append(b)\nprint(a == b)\n", "in comparison"),
    ("a = []\nx = a\nfor _ in range(3000):\n    x.append([])\n    x = x[0]\nprint(a == a[0])\n", "in comparison"),
    ("a = []\nx = a\nfor _ in range(3000):\n    x.append([])\n    x = x[0]\nprint(a)\n", "repr of an object"),
])
def test_lists_nested_too_deeply_raise_pythons_recursion_error(source: str, error: str) -> None:
    """Python raises RecursionError comparing lists that hold themselves, or printing or comparing
    lists nested past its limit; the engine records the same error (once: a RecursionError of the
    engine itself, a traceback) and goes on with the next statement."""
    log = run_program(source + "print(1)\n", "p.py")
    errors = log.of_kind(Error)
    assert [e.type for e in errors] == ["RecursionError"] and error in errors[0].message
    assert log.of_kind(Print)[-1].text == "1"
