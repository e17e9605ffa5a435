"""Turning a storyboard into a clip on disk: the pipeline (up to date? load, plan, join), the
per-beat cache (segments, stored beat states, their keys), the code digest every key holds, and
the processes that draw beats and clips. Manim is imported only when a beat must be drawn."""
