"""``.detach()`` and tuple assignment in the log, without PyTorch (test_vs_torch compares both
with real PyTorch: tests/engine/programs/detach_and_tuples.py and the random programs)."""

from engine import run_program
from engine.records import Error, Print, Tensor, Update

SOURCE = """import torch
x = torch.tensor(3.0, requires_grad=True)
sq = x ** 2
d = sq.detach()
d.backward()
a, b = x * 2, x + 1
a, b = b, a
pair = (a, d)
p, q = pair
q += 1
print(sq, d, p)
"""


def test_a_detached_tensor_is_a_leaf_that_needs_no_grad_and_names_its_source() -> None:
    log = run_program(SOURCE, "p.py")
    sq, d = log.tensor("sq"), log.tensor("d")
    assert (d.op, d.inputs, d.grad_fn, d.node, d.edges) == ("detach", [sq.id], None, None, [])
    assert (d.is_leaf, d.requires_grad, d.str, d.value) == (True, False, "tensor(9.)", 9.0)
    error = log.of_kind(Error)[0]
    assert (error.line, error.message) == (5, "element 0 of tensors does not require grad and does not "
                                               "have a grad_fn")


def test_tuple_assignment_evaluates_the_right_side_first_and_shares_detached_values() -> None:
    log = run_program(SOURCE, "p.py")
    names = [(t.line, t.name, t.op) for t in log.of_kind(Tensor) if t.line in (6, 8)]
    assert names == [(6, "a", "mul"), (6, "b", "add")]  # (a, d) makes no tensor
    # the swap binds a to x + 1 (4) and b to x * 2 (6); q is d, and q += 1 changes d and sq too
    assert log.of_kind(Print)[0].text == ("tensor(10., grad_fn=<PowBackward0>) tensor(10.) "
                                          "tensor(4., grad_fn=<AddBackward0>)")


def test_an_in_place_change_updates_the_tensors_that_share_the_value() -> None:
    log = run_program(SOURCE, "p.py")
    sq, d = log.tensor("sq"), log.tensor("d")
    assert [(u.tensor, u.op, u.inputs, u.before, u.value, u.str) for u in log.of_kind(Update)] == [
        (d.id, "add", [d.id, 1], 9.0, 10.0, "tensor(10.)"),
        (sq.id, None, [d.id], 9.0, 10.0, "tensor(10., grad_fn=<PowBackward0>)")]


def test_a_tuple_names_its_tensors_by_their_place() -> None:
    log = run_program("import torch\nx = torch.tensor(1.)\npair = (x * 2, x + 1)\n", "p.py")
    assert [t.name for t in log.of_kind(Tensor)] == ["x", "pair[0]", "pair[1]"]


def test_unpacking_errors_are_pythons() -> None:
    log = run_program("import torch\nx = torch.tensor(1.)\na, b = 1, 2, 3\na, b = (x,)\na, b = x\n"
                      "a, b = 1\n", "p.py")
    assert [e.message for e in log.of_kind(Error)] == [
        "too many values to unpack (expected 2)", "not enough values to unpack (expected 2, got 1)",
        "iteration over a 0-d tensor", "cannot unpack non-iterable int object"]
