"""The import arrows of gradreel's code point one way, and no module imports itself round a circle.

Every import counts, a function's own and a type checker's included: an arrow that points up is
a dependency on code above, whatever dodges it at import time.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LAYERS: list[tuple[str, ...]] = [
    ("scenes.commands",),
    ("scenes.publish",),
    ("scenes.render",),
    ("scenes.oracle",),
    ("scenes.draw",),
    ("scenes.video", "scenes.layout"),
    ("scenes.storyboard",),
    ("scenes.voice",),
    ("scenes.theme", "scenes.atomic", "scenes.exit"),
    ("scenes.theme_model",),
    ("engine",),
]
"""Highest first. A module may import its own folder and the layers below its own; folders that
share a layer are independent of each other."""


def modules() -> dict[str, Path]:
    found = {}
    for top in ("engine", "scenes"):
        for path in (ROOT / top).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that ``name`` imports (``from P import m`` names module P.m when there is one)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            out |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    return {m for m in out if m in known and m != name}


def layer(name: str) -> tuple[int, str]:
    for rank, group in enumerate(LAYERS):
        for folder in group:
            if name == folder or name.startswith(folder + "."):
                return rank, folder
    raise AssertionError(f"{name} is in no layer: add its folder to LAYERS")


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items() if name != "scenes"}


def test_every_arrow_points_down() -> None:
    up = []
    for name, deps in graph().items():
        rank, folder = layer(name)
        for dep in deps:
            dep_rank, dep_folder = layer(dep)
            if dep_folder != folder and dep_rank <= rank:
                up.append(f"{name} imports {dep}")
    assert not up, "imports that point up or sideways:\n" + "\n".join(sorted(up))


def test_no_import_circles() -> None:
    g = graph()
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in sorted(g.get(node, ())):
            if dep.startswith(node + "."):  # a package importing its own modules is not a circle
                continue
            if state.get(dep) == 1:
                circles.append(path[path.index(dep):] + [dep])
            elif dep not in state:
                visit(dep, path + [dep])
        state[node] = 2

    for node in sorted(g):
        if node not in state:
            visit(node, [node])
    assert not circles, "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)


def test_the_checks_see_an_arrow_that_points_up(tmp_path: Path) -> None:
    """The walk itself: a function-local import from above is seen, and so is a circle."""
    low = tmp_path / "low.py"
    low.write_text("def f():\n    from scenes.commands.main import main\n")
    assert "scenes.commands.main" in imports("scenes.video.low", low, set(modules()) | {"scenes.video.low"})
    assert layer("scenes.commands.main")[0] < layer("scenes.video.player")[0]
