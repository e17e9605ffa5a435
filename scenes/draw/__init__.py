"""The Manim scene that replays a timed plan: ``scene.ClipScene``, composed of one view per part
of the picture (``views``: titles, backward walk, console, network, ...), built from the shape
families in ``visuals``.
It reads numbers from the plan and the log; it computes none."""
