"""gradreel's clip maker: from a program's event log and a storyboard to a captioned clip.

The folders, each importing only those listed after it (``tests/test_layers.py`` checks):

- ``commands``: the ``render`` command line, one module per command;
- ``render``: the pipeline, the per-beat cache and its keys, the worker processes;
- ``oracle``: the same program run in real PyTorch, compared with the log;
- ``draw``: the Manim scene that replays a plan, and ``draw/visuals``, one family of shapes each;
- ``video``: frames out of the scene (player, camera, damaged rectangles, encoder, timeline);
- ``layout``: where nodes, labels and regions go (pure, no Manim);
- ``storyboard``: the storyboard file, its model, validation and the timed plan (no Manim);
- ``theme``, ``atomic``, ``exit``: the visual constants, atomic writes, ending a process.

``engine`` (beside this package) runs the program; nothing here does calculus.
"""
