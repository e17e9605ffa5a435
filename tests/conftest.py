"""Shared test helpers. The PyTorch comparisons need torch==2.13.0 (the `oracle` extra, which
./scripts/test installs); without it they skip and say how to get it."""

import os

import pytest

from scenes.oracle.run import torch_available
from scenes.voice.registry import ENV_VOICE

TORCH_MISSING = ("real PyTorch is not installed; run ./scripts/test (it installs the oracle extra) "
                 "or: .venv/bin/pip install -e '.[oracle]'  (torch==2.13.0)")

needs_torch = pytest.mark.skipif(not torch_available(), reason=TORCH_MISSING)


def pytest_configure(config: pytest.Config) -> None:
    """Clips are drawn silent unless a test names a voice (tests/voice, tests/audio do): the
    suite checks the picture against the plan a test makes in-process, which is paced by
    reading time, and synthesising every clip's speech would cost minutes a run."""
    os.environ.setdefault(ENV_VOICE, "off")


# --doctest-modules (pyproject) imports every .py file it is given; the engine's test programs
# are inputs that run on import (some through real PyTorch), not modules with doctests
collect_ignore_glob = ["engine/programs/*.py", "hostile/*/*"]
