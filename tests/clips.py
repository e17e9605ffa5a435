"""The clips, aspects and lessons the tests sweep: one list, so a tenth clip is one line here.

``CLIPS`` are the nine storyboards of ``scenes/storyboards/``, in the order the two articles
introduce them; ``LESSONS`` the authors' lessons kept as regression cases in
``tests/storyboard/lessons/``.
"""

from __future__ import annotations

from pathlib import Path

CLIPS: tuple[str, ...] = ("graph_build", "backward_graph", "backward_walk", "grad_accumulation",
                          "leaf_nodes", "missing_gradient", "dynamic_graph", "mlp", "reverse_mode")
ASPECTS: tuple[str, ...] = ("16:9", "9:16", "1:1")
LESSONS: list[Path] = sorted((Path(__file__).parent / "storyboard" / "lessons").glob("*.yaml"))
