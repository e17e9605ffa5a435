"""The Manim scene that replays a timed plan: ``scene.ClipScene`` with one mixin per part of the
picture (titles, backward walk, console, network), built from the shape families in ``visuals``.
It reads numbers from the plan and the log; it computes none."""
