"""scripts/_bootstrap.sh's ensure_axe: axe-core (pinned, 4.x) from the npm registry into a
gitignored folder, once; a file check when it is there; a skip, said, without npm. npm is
stubbed here: the stub records its arguments and writes the file an install writes."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASH = shutil.which("bash") or "/bin/bash"


def _ensure_axe(home: Path, path: str, times: int = 1) -> subprocess.CompletedProcess:
    (home / "scripts").mkdir(exist_ok=True)
    shutil.copy(ROOT / "scripts" / "_bootstrap.sh", home / "scripts" / "_bootstrap.sh")
    calls = "; ".join(["ensure_axe"] * times)
    return subprocess.run([BASH, "-c", f'source "{home}/scripts/_bootstrap.sh"; {calls}; echo "$AXE_DIR"'],
                          capture_output=True, text=True, env={"PATH": path}, timeout=60)


def test_ensure_axe_installs_the_pinned_version_once(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text('#!/bin/sh\necho "$@" >> "$(dirname "$0")/calls"\n'
                   'while [ "$1" != --prefix ]; do shift; done\n'
                   'mkdir -p "$2/node_modules/axe-core" && echo "/* axe */" > "$2/node_modules/axe-core/axe.min.js"\n')
    npm.chmod(0o755)
    r = _ensure_axe(tmp_path, f"{bin_dir}:/usr/bin:/bin", times=2)
    assert r.returncode == 0, r.stderr
    calls = (bin_dir / "calls").read_text().splitlines()
    assert len(calls) == 1 and re.search(r"^install --prefix \S+ .*axe-core@4\.\d+\.\d+$", calls[0]), calls
    folder = Path(r.stdout.strip())
    assert folder.parent == tmp_path / ".cache" and (folder / "node_modules/axe-core/axe.min.js").is_file()
    assert ".cache/" in (ROOT / ".gitignore").read_text().splitlines()


def test_ensure_axe_without_npm_says_the_test_will_skip(tmp_path: Path) -> None:
    r = _ensure_axe(tmp_path, str(tmp_path))  # a PATH with no npm on it
    assert r.returncode == 0 and "no npm: the accessibility test (axe-core) will be skipped" in r.stderr
