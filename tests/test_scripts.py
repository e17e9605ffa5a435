"""The developer scripts read the engine's log as the scenes do: a change of its records that
leaves a script behind fails here, not in the middle of a benchmark."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_program_runs_on_the_engine_and_gives_its_gradient() -> None:
    assert _script("bench").gradreel_run() == 4.0


def test_the_preview_script_reads_cards_from_the_log() -> None:
    from engine.records import Tensor
    from tests.visuals.graph_fixtures import seed_events

    preview = _script("dev_preview")
    assert [preview.value_text(e) for e in seed_events() if isinstance(e, Tensor)][:4] == ["1", "1/3", "2", "0"]
