"""The suite's tests that share one expensive computation are kept on one pytest-xdist worker by
an ``xdist_group`` mark (``--dist loadgroup``, scripts/test): the frame checks of one clip share
one inspection of it. A pytest and pytest-xdist pair where the mark silently stops grouping
(pytest-xdist#1386) doubles those inspections and nearly the suite's time, with nothing failing:
this test runs a small suite of two groups on two workers and fails when a group is split."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SUITE = '''
import pytest

@pytest.mark.parametrize("i", [pytest.param(i, marks=pytest.mark.xdist_group(f"g{i % 2}")) for i in range(8)])
def test_x(i):
    pass
'''


def test_one_group_runs_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "test_groups.py").write_text(SUITE)
    r = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v", "-p", "no:cacheprovider",
                        "-o", "addopts=", "test_groups.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    workers: dict[str, set[str]] = {}
    for worker, i in re.findall(r"\[(gw\d)\].*PASSED test_groups\.py::test_x\[(\d)\]", r.stdout):
        workers.setdefault(f"g{int(i) % 2}", set()).add(worker)
    assert set(workers) == {"g0", "g1"}, r.stdout
    assert all(len(w) == 1 for w in workers.values()), f"a group ran on several workers: {workers}"
