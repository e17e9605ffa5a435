"""Shared test helpers. The PyTorch comparisons need torch==2.13.0 (the `oracle` extra, which
./scripts/test installs); without it they skip and say how to get it."""

import pytest

from scenes.oracle.run import torch_available

TORCH_MISSING = ("real PyTorch is not installed; run ./scripts/test (it installs the oracle extra) "
                 "or: .venv/bin/pip install -e '.[oracle]'  (torch==2.13.0)")

needs_torch = pytest.mark.skipif(not torch_available(), reason=TORCH_MISSING)


# --doctest-modules (pyproject) imports every .py file it is given; the engine's test programs
# are inputs that run on import (some through real PyTorch), not modules with doctests
collect_ignore_glob = ["engine/programs/*.py", "hostile/*/*"]
