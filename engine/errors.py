"""The errors and warnings a program can meet, with PyTorch's exact texts.

Two families:

* :class:`TorchError`: what PyTorch (or Python) would raise while the program runs. The interpreter
  records it as an ``error`` event and goes on with the next statement, as a notebook would.
* :class:`ProgramError`: the program is outside the supported subset, or a ``--set`` override is
  wrong. Raised before any line runs; its ``str()`` is ``FILE:LINE:COL: message``.

The texts below were printed by real PyTorch 2.13; tests/engine/test_vs_torch.py compares them.
"""

from __future__ import annotations

import re


class TorchError(Exception):
    """A run-time error as Python would show it: ``RuntimeError: <message>``."""

    def __init__(self, type_name: str, message: str, node: str | None = None):
        super().__init__(message)
        self.type_name = type_name
        self.message = message
        self.node = node  # the autograd node that raised it, inside a backward walk

    def __str__(self) -> str:
        return f"{self.type_name}: {self.message}"


class ProgramError(Exception):
    """A located refusal: ``prog.py:3:5: while loops are not supported; supported: ...``."""

    def __init__(self, filename: str, line: int, col: int, message: str):
        super().__init__(message)
        self.filename = filename
        self.line = line
        self.col = col
        self.message = message

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.col}: {self.message}"


class ForwardModeError(ProgramError):
    """``--forward-mode NAME`` (a storyboard's ``forward_mode:``) names no tensor the program ends
    with; ``name`` and ``tensors`` (the names it does end with) let a storyboard say it at its key."""

    def __init__(self, filename: str, name: str, tensors: list[str]):
        ends = f" (it ends with {', '.join(tensors)})" if tensors else " (it ends with none)"
        super().__init__(filename, 1, 1, f"--forward-mode {name}: the program ends with no tensor named {name}{ends}")
        self.name = name
        self.tensors = tensors


BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)
NO_GRAD_FN = "element 0 of tensors does not require grad and does not have a grad_fn"
LEAF_IN_PLACE = "a leaf Variable that requires grad is being used in an in-place operation."
INT_REQUIRES_GRAD = "Only Tensors of floating point and complex dtype can require gradients"
MEAN_OF_INT = (
    "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
    "dtype. Got: Long"
)
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field to "
    "be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access "
    "the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information. (Triggered internally at "
    "/__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
)


def modified_in_place(dtype: str, found: int, expected: int, producer: str | None) -> str:
    """PyTorch's message when a tensor saved for backward was changed in place since.

    ``producer`` is the grad_fn class whose output the tensor is (``ReluBackward0``), or None for
    a leaf; PyTorch names it without ``Backward0`` (``Relu``; ``PowBackward1`` -> ``Pow1``).
    """
    kind = {"float32": "FloatTensor", "int64": "LongTensor", "bool": "BoolTensor"}[dtype]
    which = ""
    if producer is not None:
        short = re.sub(r"Backward(\d+)$", lambda m: "" if m.group(1) == "0" else m.group(1), producer)
        which = f", which is output 0 of {short},"
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.{kind} []]{which} is at version {found}; expected version {expected} "
        "instead. Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def no_attribute(type_name: str, attr: str) -> TorchError:
    """Python's AttributeError text, e.g. for ``w.grad.zero_()`` while ``w.grad`` is None."""
    return TorchError("AttributeError", f"'{type_name}' object has no attribute '{attr}'")
